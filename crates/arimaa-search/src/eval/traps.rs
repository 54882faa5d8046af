//! Trap control: who holds each trap, by the pieces next to it, the
//! strongest of them, and the elephant nearby; and the own piece left on a
//! weakly held trap.
//!
//! A side's home traps (its half of the board) and the opponent's are
//! weighed apart: guarding the own traps keeps pieces alive, pieces at the
//! opponent's traps attack.

use super::{piece_value, Terms};
use crate::params::Weight;
use arimaa_core::{Bitboard, Color, Kind, Piece, Position};

const HOME: [Weight; 4] = [Weight::trap_1, Weight::trap_2, Weight::trap_3, Weight::trap_4];
const AWAY: [Weight; 4] = [
    Weight::trap_away_1,
    Weight::trap_away_2,
    Weight::trap_away_3,
    Weight::trap_away_4,
];

/// `NEAR[t]`: the squares within two steps of trap `t` (0..4 in
/// `Bitboard::TRAPS` order), the trap included.
const NEAR: [Bitboard; 4] = {
    let traps = [18, 21, 42, 45];
    let mut out = [Bitboard::EMPTY; 4];
    let mut i = 0;
    while i < 4 {
        let t = Bitboard(1u64 << traps[i]);
        let one = Bitboard(t.0 | t.neighbors().0);
        out[i] = Bitboard(one.0 | one.neighbors().0);
        i += 1;
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

/// True when `trap` is in `color`'s half of the board.
fn is_home(color: Color, trap: arimaa_core::Square) -> bool {
    match color {
        Color::Gold => trap.rank() < 4,
        Color::Silver => trap.rank() >= 4,
    }
}

/// The trap terms of `color`, added with `sign`.
pub(super) fn side<T: Terms>(pos: &Position, color: Color, sign: i32, acc: &mut T) {
    let own = pos.color_bb(color);
    let enemy = pos.color_bb(color.opponent());
    let elephant = pos.bitboard(Piece::new(color, Kind::Elephant));
    for (i, trap) in Bitboard::TRAPS.iter().enumerate() {
        let around = Bitboard::around(trap);
        let (mine, theirs) = (around & own, around & enemy);
        let home = is_home(color, trap);
        let n = mine.count().min(4) as usize;
        if n > 0 {
            acc.add(if home { HOME[n - 1] } else { AWAY[n - 1] }, sign, 1);
        }
        if strongest(pos, mine) > strongest(pos, theirs) {
            let p = if home {
                Weight::trap_strongest
            } else {
                Weight::trap_away_strongest
            };
            acc.add(p, sign, 1);
        }
        if (NEAR[i] & elephant).any() {
            let p = if home {
                Weight::trap_elephant_home
            } else {
                Weight::trap_elephant_away
            };
            acc.add(p, sign, 1);
        }
        // A piece of ours on the trap with at most one guard is one push from capture.
        if own.has(trap) && mine.count() <= 1 && theirs.any() {
            let value = piece_value(pos.kind_at(trap).unwrap_or(Kind::Rabbit));
            acc.add(Weight::weak_trap_pct, -sign * value, 100);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::board;
    use super::super::trace;
    use crate::params::Weight;

    fn feature(pos: &arimaa_core::Position, w: Weight) -> f64 {
        trace(pos).features[w as usize]
    }

    #[test]
    fn an_elephant_near_a_trap_counts_for_its_side_home_or_away() {
        // Gold elephant on b2 (two steps from c3, gold's home trap); silver's
        // on b8, three steps from c6: not near it.
        let pos = board(
            [
                ".e......", "........", "........", "........", "........", "........", ".E......", "........",
            ],
            'g',
        );
        assert_eq!(feature(&pos, Weight::trap_elephant_home), 1.0);
        assert_eq!(feature(&pos, Weight::trap_elephant_away), 0.0);
        // The gold elephant on e5 is within two steps of f6 (away) and of no home trap.
        let away = board(
            [
                ".e......", "........", "........", "....E...", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(feature(&away, Weight::trap_elephant_home), 0.0);
        assert_eq!(feature(&away, Weight::trap_elephant_away), 1.0);
        // Silver's elephant on c7 is next to its home trap c6: from gold's view -1.
        let silver = board(
            [
                "........", "..e.....", "........", "........", "........", "........", "........", "E.......",
            ],
            'g',
        );
        assert_eq!(feature(&silver, Weight::trap_elephant_home), -1.0);
    }

    #[test]
    fn guards_count_by_number_and_strongest() {
        // c3 held by gold's dog (d3) and cat (c2), silver's rabbit on b3: two
        // guards, the strongest gold's.
        let pos = board(
            [
                "........", "........", "........", "........", "........", ".r.D....", "..C.....", "........",
            ],
            'g',
        );
        assert_eq!(feature(&pos, Weight::trap_2), 1.0);
        assert_eq!(feature(&pos, Weight::trap_1), 0.0);
        assert_eq!(feature(&pos, Weight::trap_strongest), 1.0);
        // Silver's rabbit is one piece next to gold's trap: an away guard of silver's.
        assert_eq!(feature(&pos, Weight::trap_away_1), -1.0);
    }
}
