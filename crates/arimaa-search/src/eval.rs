//! Static evaluation, in centi-rabbits from the side to move's point of view.
//!
//! Material (HarLog, see `material`), rabbit advancement, trap control,
//! pieces left on weakly held traps, a central elephant, rabbits with open
//! lanes, officer mobility, a blocked elephant, a penalty for frozen pieces,
//! frames and hostages (see `binds`), and two-step capture threats (see
//! `threats`) for the side to move and the waiting side. It is colour-symmetric
//! by construction: every term is computed per colour with the board seen from
//! that colour's side.

use crate::binds::bind_penalty;
use crate::material::Counts;
use crate::params::Params;
use crate::threats::best_capture;
use arimaa_core::{Bitboard, Color, Kind, Piece, Position};

/// Rough value of each kind, for the positional terms (material itself is
/// HarLog), indexed by `Kind::index()`.
const PIECE_VALUE: [i32; 6] = [100, 150, 200, 300, 500, 800];

/// `PIECE_VALUE` of `kind`: a rabbit counts as 100.
fn piece_value(kind: Kind) -> i32 {
    PIECE_VALUE[kind.index()]
}

/// Bonus for a rabbit on each rank counted from its own home rank (0..8),
/// scaled by the `advance_pct` parameter.
const ADVANCE: [i32; 8] = [0, 0, 4, 10, 20, 35, 60, 0];

/// Bonus for a rabbit with no enemy officer ahead of it on its own or the
/// neighbouring files, by rank counted from its home rank, scaled by the
/// `open_lane_pct` parameter.
const OPEN_LANE: [i32; 8] = [0, 0, 0, 8, 16, 30, 50, 0];
/// `FRONT[c][s]`: the squares ahead of `s` for colour `c` (0 gold, 1 silver)
/// on its file and the two next to it.
const FRONT: [[Bitboard; 64]; 2] = {
    let mut out = [[Bitboard::EMPTY; 64]; 2];
    let mut s = 0;
    while s < 64 {
        let (file, rank) = ((s % 8) as i32, (s / 8) as i32);
        let mut gold = 0u64;
        let mut silver = 0u64;
        let mut f = file - 1;
        while f <= file + 1 {
            if f >= 0 && f < 8 {
                let mut r = 0;
                while r < 8 {
                    let bit = 1u64 << (r * 8 + f);
                    if r > rank {
                        gold |= bit;
                    } else if r < rank {
                        silver |= bit;
                    }
                    r += 1;
                }
            }
            f += 1;
        }
        out[0][s] = Bitboard(gold);
        out[1][s] = Bitboard(silver);
        s += 1;
    }
    out
};

/// The strongest kind in `set`, as an index, or -1 for an empty set.
fn strongest(pos: &Position, set: Bitboard) -> i32 {
    Kind::ALL
        .iter()
        .rev()
        .find(|k| (pos.kind_bb(**k) & set).any())
        .map_or(-1, |k| k.index() as i32)
}

fn trap_score(pos: &Position, color: Color, p: &Params) -> i32 {
    let own = pos.color_bb(color);
    let enemy = pos.color_bb(color.opponent());
    let mut score = 0;
    // Control of the opponent's traps, scaled once at the end.
    let mut away = 0;
    for trap in Bitboard::TRAPS {
        let around = Bitboard::around(trap);
        let (mine, theirs) = (around & own, around & enemy);
        let mut t = [0, p.trap_1, p.trap_2, p.trap_3, p.trap_4][mine.count().min(4) as usize];
        if strongest(pos, mine) > strongest(pos, theirs) {
            t += p.trap_strongest;
        }
        let home = match color {
            Color::Gold => trap.rank() < 4,
            Color::Silver => trap.rank() >= 4,
        };
        if home {
            score += t;
        } else {
            away += t;
        }
        // A piece of ours on the trap with at most one guard is one push from capture.
        if own.has(trap) && mine.count() <= 1 && theirs.any() {
            score -= piece_value(pos.kind_at(trap).unwrap_or(Kind::Rabbit)) * p.weak_trap_pct / 100;
        }
    }
    score + away * p.trap_away_pct / 100
}

fn elephant_score(pos: &Position, color: Color, p: &Params) -> i32 {
    pos.bitboard(Piece::new(color, Kind::Elephant)).first().map_or(0, |e| {
        let df = if e.file() < 4 { 3 - e.file() } else { e.file() - 4 };
        let dr = if e.rank() < 4 { 3 - e.rank() } else { e.rank() - 4 };
        p.elephant_centre * (4 - i32::from(df + dr).min(4)) / 4
    })
}

fn side_score(pos: &Position, color: Color, p: &Params) -> i32 {
    let mut score = trap_score(pos, color, p) + elephant_score(pos, color, p);
    let enemy_officers = pos.color_bb(color.opponent()) & !pos.kind_bb(Kind::Rabbit);
    // Table sums, scaled by their parameters once (not once per rabbit).
    let (mut advance, mut lanes) = (0, 0);
    for sq in pos.bitboard(Piece::new(color, Kind::Rabbit)) {
        let rank = match color {
            Color::Gold => sq.rank(),
            Color::Silver => 7 - sq.rank(),
        } as usize;
        advance += ADVANCE[rank];
        if (FRONT[color.index()][sq.index()] & enemy_officers).is_empty() {
            lanes += OPEN_LANE[rank];
        }
    }
    score += (advance * p.advance_pct + lanes * p.open_lane_pct) / 100;
    let frozen = pos.frozen(color);
    let empty = pos.empty_squares();
    if p.mobility != 0 {
        let officers = pos.color_bb(color) & !pos.kind_bb(Kind::Rabbit) & !frozen;
        score += p.mobility * (officers.neighbors() & empty).count() as i32;
    }
    if let Some(e) = pos.bitboard(Piece::new(color, Kind::Elephant)).first() {
        let around = Bitboard::around(e);
        let pushable = (around & pos.color_bb(color.opponent()))
            .iter()
            .any(|v| (Bitboard::around(v) & empty).any());
        if (around & empty).is_empty() && !pushable {
            score -= p.elephant_blocked;
        }
    }
    if frozen.any() {
        let mut value = 0;
        for kind in Kind::ALL {
            let n = (frozen & pos.kind_bb(kind)).count() as i32;
            value += n * piece_value(kind);
        }
        score -= value * p.frozen_16ths / 16;
    }
    // Frames need no frozen piece, hostages do; both weights 0 costs nothing.
    let binds = p.frame_pct != 0 || p.hostage_pct != 0;
    if binds && (frozen.any() || (pos.color_bb(color) & Bitboard::TRAPS).any()) {
        score -= bind_penalty(pos, color, frozen, p, piece_value);
    }
    score
}

/// The evaluation from the side to move's point of view, with the weights `p`.
#[must_use]
pub fn evaluate(pos: &Position, p: &Params) -> i32 {
    let us = pos.side();
    let them = us.opponent();
    let steps = pos.steps_left();
    let counts = Counts::of(pos);
    let mut score = counts.balance(us) + side_score(pos, us, p) - side_score(pos, them, p);
    // The mover needs two steps for a push or pull, and none may be half done.
    if steps >= 2 && !matches!(pos.pending(), arimaa_core::Pending::Push { .. }) {
        score += best_capture(pos, us, |k| counts.loss(them, k)) * p.threat_mover_16ths / 16;
    }
    // The fewer steps the mover has left to defend, the more a threat weighs.
    let waiting = p.threat_waiting_16ths + [5, 3, 1, 0, 0][usize::from(steps).min(4)];
    score - best_capture(pos, them, |k| counts.loss(us, k)) * waiting / 16
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
    use crate::params::DEFAULT;

    #[test]
    fn standard_position_is_even_and_the_mirror_scores_the_same_for_its_mover() {
        let p = Position::standard();
        assert_eq!(evaluate(&p, &DEFAULT), 0);
        let mut q = p;
        q.clear_square(arimaa_core::Square::parse("d7").unwrap());
        assert!(evaluate(&q, &DEFAULT) > 0, "gold is a camel up");
        // Colours swapped and board flipped: the same score for the (swapped) side
        // to move, so the negation from gold's fixed point of view.
        let m = q.mirror();
        assert_eq!(m.side(), Color::Silver);
        assert_eq!(evaluate(&m, &DEFAULT), evaluate(&q, &DEFAULT));
    }

    #[test]
    fn goal_reach_covers_the_right_ranks() {
        assert_eq!(goal_reach(Color::Gold, 0), Bitboard::RANK_8);
        assert_eq!(goal_reach(Color::Silver, 0), Bitboard::RANK_1);
        assert_eq!(goal_reach(Color::Gold, 1).count(), 16);
        assert_eq!(goal_reach(Color::Silver, 4).count(), 40);
    }
}
