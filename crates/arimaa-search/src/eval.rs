//! Static evaluation, in centi-rabbits from the side to move's point of view.
//!
//! Material (HarLog, see `material`), rabbit advancement, trap control, pieces left on weakly held traps,
//! a central elephant, a penalty for frozen pieces, and two-step capture
//! threats (see `threats`) for the side to move and the waiting side. It is colour-symmetric
//! by construction: every term is computed per colour with the board seen from
//! that colour's side.

use crate::material::Counts;
use crate::threats::best_capture;
use arimaa_core::{Bitboard, Color, Kind, Piece, Position};

/// Rough value of each kind but rabbits, for the positional terms (material
/// itself is HarLog), indexed by `Kind::index()`.
const PIECE_VALUE: [i32; 6] = [0, 150, 200, 300, 500, 800];

/// Bonus for a rabbit on each rank counted from its own home rank (0..8).
const ADVANCE: [i32; 8] = [0, 0, 4, 10, 20, 35, 60, 0];

/// Fraction (in 1/16) of a frozen piece's value lost.
const FROZEN_SIXTEENTHS: i32 = 1;

/// Trap control by number of own pieces next to the trap (0..=4).
const TRAP_PIECES: [i32; 5] = [0, 12, 28, 36, 40];
/// Extra control when the strongest piece next to a trap is ours.
const TRAP_STRONGEST: i32 = 20;
/// Home traps (own half) count in full, the opponent's in this many quarters.
const TRAP_AWAY_QUARTERS: i32 = 3;
/// Elephant bonus by distance from the four centre squares (0..).
const ELEPHANT_CENTRE: [i32; 7] = [20, 15, 10, 5, 0, 0, 0];

/// Share (in 1/16) of the best piece the side to move can capture with one
/// push or pull, by steps left (only 2 or more leave room for one).
const THREAT_MOVER: [i32; 5] = [0, 0, 10, 10, 10];
/// Share (in 1/16) of the best piece the waiting side threatens to capture on
/// its next turn, by the mover's steps left to defend it.
const THREAT_WAITING: [i32; 5] = [8, 6, 4, 3, 3];

/// The strongest kind in `set`, as an index, or -1 for an empty set.
fn strongest(pos: &Position, set: Bitboard) -> i32 {
    Kind::ALL
        .iter()
        .rev()
        .find(|k| (pos.kind_bb(**k) & set).any())
        .map_or(-1, |k| k.index() as i32)
}

fn trap_score(pos: &Position, color: Color) -> i32 {
    let own = pos.color_bb(color);
    let enemy = pos.color_bb(color.opponent());
    let mut score = 0;
    for trap in Bitboard::TRAPS {
        let around = Bitboard::around(trap);
        let (mine, theirs) = (around & own, around & enemy);
        let mut t = TRAP_PIECES[mine.count().min(4) as usize];
        if strongest(pos, mine) > strongest(pos, theirs) {
            t += TRAP_STRONGEST;
        }
        let home = match color {
            Color::Gold => trap.rank() < 4,
            Color::Silver => trap.rank() >= 4,
        };
        score += if home { t } else { t * TRAP_AWAY_QUARTERS / 4 };
        // A piece of ours on the trap with at most one guard is one push from capture.
        if own.has(trap) && mine.count() <= 1 && theirs.any() {
            let kind = pos.kind_at(trap).unwrap_or(Kind::Rabbit);
            let value = if kind == Kind::Rabbit {
                100
            } else {
                PIECE_VALUE[kind.index()]
            };
            score -= value / 4;
        }
    }
    score
}

fn elephant_score(pos: &Position, color: Color) -> i32 {
    pos.bitboard(Piece::new(color, Kind::Elephant)).first().map_or(0, |e| {
        let df = if e.file() < 4 { 3 - e.file() } else { e.file() - 4 };
        let dr = if e.rank() < 4 { 3 - e.rank() } else { e.rank() - 4 };
        ELEPHANT_CENTRE[(df + dr).min(6) as usize]
    })
}

fn side_score(pos: &Position, color: Color) -> i32 {
    let mut score = trap_score(pos, color) + elephant_score(pos, color);
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
    let them = us.opponent();
    let steps = usize::from(pos.steps_left()).min(4);
    let counts = Counts::of(pos);
    let mut score = counts.balance(us) + side_score(pos, us) - side_score(pos, them);
    if THREAT_MOVER[steps] > 0 && !matches!(pos.pending(), arimaa_core::Pending::Push { .. }) {
        score += best_capture(pos, us, |k| counts.loss(them, k)) * THREAT_MOVER[steps] / 16;
    }
    score - best_capture(pos, them, |k| counts.loss(us, k)) * THREAT_WAITING[steps] / 16
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
