//! Static evaluation, in centi-rabbits from the side to move's point of view.
//!
//! Material (with rabbits worth more as they run out: the last one is the
//! game), rabbit advancement, and a penalty for frozen pieces. It is
//! colour-symmetric by construction: every term is computed per colour with the
//! board seen from that colour's side.

use arimaa_core::{Bitboard, Color, Kind, Piece, Position};

/// Value of each kind but rabbits (cat .. elephant), index by `Kind::index()`.
const PIECE_VALUE: [i32; 6] = [0, 150, 200, 300, 500, 800];

/// Value of the n-th rabbit counted from the last one: the last is worth most.
const RABBIT_VALUE: [i32; 8] = [500, 300, 200, 150, 120, 100, 100, 100];

/// Bonus for a rabbit on each rank counted from its own home rank (0..8).
const ADVANCE: [i32; 8] = [0, 0, 4, 10, 20, 35, 60, 0];

/// Fraction (in 1/16) of a frozen piece's value lost.
const FROZEN_SIXTEENTHS: i32 = 1;

/// Material of one side.
#[must_use]
pub fn material(pos: &Position, color: Color) -> i32 {
    let mut total = 0;
    for kind in &Kind::ALL[1..] {
        total += PIECE_VALUE[kind.index()] * pos.count(Piece::new(color, *kind)) as i32;
    }
    let rabbits = pos.count(Piece::new(color, Kind::Rabbit)) as usize;
    total + RABBIT_VALUE[..rabbits.min(8)].iter().sum::<i32>()
}

fn side_score(pos: &Position, color: Color) -> i32 {
    let mut score = material(pos, color);
    for sq in pos.bitboard(Piece::new(color, Kind::Rabbit)) {
        let rank = match color {
            Color::Gold => sq.rank(),
            Color::Silver => 7 - sq.rank(),
        };
        score += ADVANCE[rank as usize];
    }
    let frozen = pos.frozen(color);
    for kind in Kind::ALL {
        let n = (frozen & pos.kind_bb(kind)).count() as i32;
        let value = if kind == Kind::Rabbit {
            100
        } else {
            PIECE_VALUE[kind.index()]
        };
        score -= n * value * FROZEN_SIXTEENTHS / 16;
    }
    score
}

/// The evaluation from the side to move's point of view.
#[must_use]
pub fn evaluate(pos: &Position) -> i32 {
    let us = pos.side();
    side_score(pos, us) - side_score(pos, us.opponent())
}

/// Squares from which a rabbit of `color` can reach its goal in at most `steps` steps.
pub fn goal_reach(color: Color, steps: u8) -> Bitboard {
    let rows = (steps.min(7) as u32 + 1) * 8;
    let mask = if rows >= 64 { !0u64 } else { (1u64 << rows) - 1 };
    match color {
        Color::Silver => Bitboard(mask),
        Color::Gold => Bitboard(mask.reverse_bits()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_position_is_even_and_the_mirror_scores_the_same_for_its_mover() {
        let p = Position::standard();
        assert_eq!(evaluate(&p), 0);
        let mut q = p;
        q.clear_square(arimaa_core::Square::parse("d7").unwrap());
        assert!(evaluate(&q) > 0, "gold is a camel up");
        // Colours swapped and board flipped: the same score for the (swapped) side
        // to move, so the negation from gold's fixed point of view.
        let m = q.mirror();
        assert_eq!(m.side(), Color::Silver);
        assert_eq!(evaluate(&m), evaluate(&q));
    }

    #[test]
    fn goal_reach_covers_the_right_ranks() {
        assert_eq!(goal_reach(Color::Gold, 0), Bitboard::RANK_8);
        assert_eq!(goal_reach(Color::Silver, 0), Bitboard::RANK_1);
        assert_eq!(goal_reach(Color::Gold, 1).count(), 16);
        assert_eq!(goal_reach(Color::Silver, 4).count(), 40);
    }
}
