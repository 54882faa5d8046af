//! Placement: where the pieces stand. The elephant central and free to
//! move, the camel's advance, rabbits' advance weighed by the enemy officers
//! left (advancing against a full army loses rabbits, against a bare one it
//! wins), open rabbit lanes, officer mobility and frozen pieces.

use super::{piece_value, Shared, Terms};
use crate::params::Weight;
use arimaa_core::{Bitboard, Color, Kind, Piece, Position};

/// Bonus for a rabbit on each rank counted from its own home rank (0..8),
/// scaled by the advance parameters.
const ADVANCE: [i32; 8] = [0, 0, 4, 10, 20, 35, 60, 0];

/// Bonus for a rabbit with no enemy officer ahead of it on its own or the
/// neighbouring files, by rank counted from its home rank, scaled by the
/// `open_lane_pct` parameter.
const OPEN_LANE: [i32; 8] = [0, 0, 0, 8, 16, 30, 50, 0];

/// Officer weights for the phase: what the enemy's officers are worth to
/// hold rabbits back (cat, dog 1; horse 2; camel 3; elephant 4), by kind.
const PHASE_WEIGHT: [i32; 6] = [0, 1, 1, 2, 3, 4];
/// `PHASE_WEIGHT` summed over a full army.
const PHASE_FULL: i32 = 15;

/// Files c to f, ranks 3 to 6: the centre a rabbit is in the way in.
const RABBIT_CENTRE: Bitboard = Bitboard(0x0000_3C3C_3C3C_0000);

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

/// The rank of `sq` counted from `color`'s home rank (0..8).
fn rank_from_home(color: Color, sq: arimaa_core::Square) -> usize {
    match color {
        Color::Gold => sq.rank() as usize,
        Color::Silver => 7 - sq.rank() as usize,
    }
}

/// The placement terms of `color`, added with `sign`.
pub(super) fn side<T: Terms>(pos: &Position, color: Color, shared: &Shared, sign: i32, acc: &mut T) {
    let empty = pos.empty_squares();
    let enemy = pos.color_bb(color.opponent());
    if let Some(e) = pos.bitboard(Piece::new(color, Kind::Elephant)).first() {
        let df = if e.file() < 4 { 3 - e.file() } else { e.file() - 4 };
        let dr = if e.rank() < 4 { 3 - e.rank() } else { e.rank() - 4 };
        acc.add(Weight::elephant_centre, sign * (4 - i32::from(df + dr).min(4)), 4);
        let around = Bitboard::around(e);
        let pushable = (around & enemy).iter().any(|v| (Bitboard::around(v) & empty).any());
        if (around & empty).is_empty() && !pushable {
            acc.add(Weight::elephant_blocked, -sign, 1);
        }
        if acc.wants(Weight::elephant_reach) {
            let one = around & empty;
            let two = one | (one.neighbors() & empty & !Bitboard::from_square(e));
            acc.add(Weight::elephant_reach, sign * two.count() as i32, 1);
        }
    }
    for m in pos.bitboard(Piece::new(color, Kind::Camel)) {
        let beyond = rank_from_home(color, m).saturating_sub(3) as i32;
        if beyond > 0 {
            acc.add(Weight::camel_advance, sign * beyond, 1);
        }
    }
    rabbits(pos, color, sign, acc);
    let frozen = shared.frozen(color);
    if acc.wants(Weight::mobility) {
        let officers = pos.color_bb(color) & !pos.kind_bb(Kind::Rabbit) & !frozen;
        acc.add(
            Weight::mobility,
            sign * (officers.neighbors() & empty).count() as i32,
            1,
        );
    }
    let dominated = shared.threatened(color) & !frozen;
    if dominated.any() && acc.wants(Weight::dominated_16ths) {
        let value: i32 = Kind::ALL
            .iter()
            .map(|&k| (dominated & pos.kind_bb(k)).count() as i32 * piece_value(k))
            .sum();
        acc.add(Weight::dominated_16ths, -sign * value, 16);
    }
    if frozen.any() {
        let value: i32 = Kind::ALL
            .iter()
            .map(|&k| (frozen & pos.kind_bb(k)).count() as i32 * piece_value(k))
            .sum();
        acc.add(Weight::frozen_16ths, -sign * value, 16);
    }
}

/// Rabbit advance (by the enemy officers left), open lanes and central rabbits.
fn rabbits<T: Terms>(pos: &Position, color: Color, sign: i32, acc: &mut T) {
    let enemy = color.opponent();
    let enemy_officers = pos.color_bb(enemy) & !pos.kind_bb(Kind::Rabbit);
    // Table sums, scaled by their parameters once (not once per rabbit).
    let (mut advance, mut lanes) = (0, 0);
    let own_rabbits = pos.bitboard(Piece::new(color, Kind::Rabbit));
    for sq in own_rabbits {
        let rank = rank_from_home(color, sq);
        advance += ADVANCE[rank];
        if (FRONT[color.index()][sq.index()] & enemy_officers).is_empty() {
            lanes += OPEN_LANE[rank];
        }
    }
    let phase: i32 = Kind::ALL
        .iter()
        .map(|&k| pos.count(Piece::new(enemy, k)) as i32 * PHASE_WEIGHT[k.index()])
        .sum::<i32>()
        .min(PHASE_FULL);
    acc.add(Weight::advance_pct, sign * advance * phase, 100 * PHASE_FULL);
    acc.add(
        Weight::advance_bare_pct,
        sign * advance * (PHASE_FULL - phase),
        100 * PHASE_FULL,
    );
    acc.add(Weight::open_lane_pct, sign * lanes, 100);
    let central = own_rabbits & RABBIT_CENTRE;
    if central.any() {
        acc.add(Weight::rabbit_centre, sign * central.count() as i32, 1);
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
    fn rabbit_advance_moves_from_full_to_bare_as_enemy_officers_go() {
        // A gold rabbit on rank 5 (table 20) against a full silver army.
        let full = board(
            [
                "rrrrrrrr", "hdcemcdh", "........", "....R...", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(feature(&full, Weight::advance_pct), 0.2);
        assert_eq!(feature(&full, Weight::advance_bare_pct), 0.0);
        // Against rabbits alone all of it counts as bare.
        let bare = board(
            [
                "rrrrrrrr", "........", "........", "....R...", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(feature(&bare, Weight::advance_pct), 0.0);
        assert_eq!(feature(&bare, Weight::advance_bare_pct), 0.2);
        // The rabbit is on e5: a central rabbit.
        assert_eq!(feature(&bare, Weight::rabbit_centre), 1.0);
    }

    #[test]
    fn camel_advance_and_elephant_reach() {
        // Gold camel on d7; gold elephant in the a1 corner boxed by a rabbit
        // on b1: it reaches a2, a3, b2. Silver's camel on h5 is on its rank 4,
        // not past the middle.
        let pos = board(
            [
                "........", "...M....", "........", ".......m", "........", "........", "........", "ER......",
            ],
            'g',
        );
        assert_eq!(
            feature(&pos, Weight::camel_advance),
            3.0,
            "d7 is three ranks past the middle"
        );
        assert_eq!(feature(&pos, Weight::elephant_reach), 3.0);
    }

    #[test]
    fn a_piece_beside_a_stronger_enemy_and_a_friend_is_dominated_not_frozen() {
        // Gold dog d4 with a silver camel on e4: frozen alone, dominated with
        // a friend on c4.
        let alone = board(
            [
                "........", "........", "........", "........", "...Dm...", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(feature(&alone, Weight::dominated_16ths), 0.0);
        assert!(feature(&alone, Weight::frozen_16ths) < 0.0);
        let helped = board(
            [
                "........", "........", "........", "........", "..RDm...", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(feature(&helped, Weight::dominated_16ths), -200.0 / 16.0);
        assert_eq!(feature(&helped, Weight::frozen_16ths), 0.0);
    }
}
