//! Trap control as influence: how firmly each side holds each trap, from
//! every piece within four steps of it, and what that means for the pieces
//! standing near a trap the enemy holds.
//!
//! `traps` counts only the pieces next to a trap. The games against sharp
//! are lost a square or two further out: a piece walks alone into the
//! enemy's half, next to a trap the enemy's strong pieces surround, and is
//! pushed in a turn or two later — past our horizon and past the exact
//! capture estimates of `danger`. Influence sees that trap as the enemy's
//! before any capture is in reach.
//!
//! Each piece's share of a trap is a weight by its strength class (how many
//! enemy pieces outrank it: the elephant with none counts most, a dog
//! outranked by five pieces little, rabbits least) times a kernel of its
//! distance to the trap (on it, next to it, then two to four steps away),
//! halved when it is frozen and cut by a quarter when a stronger enemy is
//! next to it. A side's control of a trap is its shares less the other
//! side's, the attacker's counted 35/32 at the enemy's home traps, clamped to
//! ±100. The terms read it through a logistic centred at 25: a trap is held
//! only when one side clearly outweighs the other.

use super::{Shared, Terms};
use crate::params::Weight;
use arimaa_core::{Bitboard, Color, Kind, Piece, Position, Square};

/// Share of a piece by the number of enemy pieces stronger than it (capped
/// at 8), in percent of the elephant's.
const CLASS: [i32; 9] = [100, 80, 66, 56, 48, 42, 38, 35, 32];
/// A rabbit's share at most: it guards a trap but pushes nothing.
const RABBIT_CLASS: i32 = 25;
/// Share by distance to the trap (0 = on it), in percent.
const KERNEL: [i32; 5] = [61, 68, 36, 14, 4];

/// The traps in `Bitboard::TRAPS` order: c3, f3, c6, f6.
const TRAPS: [u8; 4] = [18, 21, 42, 45];

/// `1024 / (1 + exp(-(c - 25) / 20))` for control `c` = -100, -96, ..., 100.
const LOGISTIC: [i32; 51] = [
    2, 2, 3, 4, 4, 5, 7, 8, 10, 12, 14, 18, 21, 26, 32, 38, 46, 56, 68, 81, 98, 117, 139, 165, 195, 228, 265, 307, 351,
    399, 448, 499, 550, 601, 649, 695, 738, 778, 813, 845, 872, 896, 917, 935, 950, 962, 973, 982, 989, 995, 1000,
];

/// How much a piece's peril grows by its distance to the trap (0..=2), in
/// sixteenths.
const PERIL_DISTANCE: [i32; 3] = [16, 16, 8];

/// `logistic(control)` in 1024ths, interpolated between the table's points.
fn held(control: i32) -> i32 {
    let c = control.clamp(-100, 100) + 100;
    let (i, r) = ((c / 4) as usize, c % 4);
    if i + 1 < LOGISTIC.len() {
        (LOGISTIC[i] * (4 - r) + LOGISTIC[i + 1] * r) / 4
    } else {
        LOGISTIC[i]
    }
}

/// `RINGS[t][d]`: the squares exactly `d` steps from trap `t` (d = 0..=4).
const RINGS: [[Bitboard; 5]; 4] = {
    let mut out = [[Bitboard::EMPTY; 5]; 4];
    let mut t = 0;
    while t < 4 {
        let mut reach = 1u64 << TRAPS[t];
        out[t][0] = Bitboard(reach);
        let mut d = 1;
        while d < 5 {
            let next = reach | Bitboard(reach).neighbors().0;
            out[t][d] = Bitboard(next & !reach);
            reach = next;
            d += 1;
        }
        t += 1;
    }
    out
};

/// `DIST[sq][t]`: the steps from `sq` to trap `t`.
const DIST: [[u8; 4]; 64] = {
    let mut out = [[0; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut t = 0;
        while t < 4 {
            let (f, r) = ((sq % 8) as i32, (sq / 8) as i32);
            let (tf, tr) = ((TRAPS[t] % 8) as i32, (TRAPS[t] / 8) as i32);
            out[sq][t] = ((f - tf).abs() + (r - tr).abs()) as u8;
            t += 1;
        }
        sq += 1;
    }
    out
};

/// `KERNEL_AT[sq][t]`: `KERNEL` of the distance from `sq` to trap `t` (0
/// beyond four steps).
const KERNEL_AT: [[i32; 4]; 64] = {
    let mut out = [[0; 4]; 64];
    let mut sq = 0;
    while sq < 64 {
        let mut t = 0;
        while t < 4 {
            let d = DIST[sq][t] as usize;
            if d < 5 {
                out[sq][t] = KERNEL[d];
            }
            t += 1;
        }
        sq += 1;
    }
    out
};

/// True when trap `t` (an index into `TRAPS`) is in `color`'s half.
fn is_home(color: Color, t: usize) -> bool {
    (color == Color::Gold) == (t < 2)
}

/// Each side's shares of each trap, and what a piece's share is.
struct Influence {
    /// `class[color][kind]`: the share, before the distance kernel, of a
    /// free piece of that colour and kind.
    class: [[i32; 6]; 2],
    /// `sum[color][t]`: the shares of `color`'s pieces in trap `t`.
    sum: [[i32; 4]; 2],
}

impl Influence {
    fn of(pos: &Position, shared: &Shared) -> Influence {
        let mut class = [[0; 6]; 2];
        let mut sum = [[0; 4]; 2];
        for color in [Color::Gold, Color::Silver] {
            let enemy = color.opponent();
            // Enemy pieces stronger than each kind.
            let mut outranking = 0;
            for k in (0..6).rev() {
                let mut c = CLASS[(outranking as usize).min(8)];
                if k == Kind::Rabbit.index() {
                    c = c.min(RABBIT_CLASS);
                }
                class[color.index()][k] = c;
                outranking += pos.bitboard(Piece::new(enemy, Kind::from_index(k))).count();
            }
            let frozen = shared.frozen(color);
            let dominated = shared.threatened(color) & !frozen;
            let own = pos.color_bb(color);
            let mut total = [0; 4];
            for (k, &c) in class[color.index()].iter().enumerate() {
                // Frozen pieces count half, dominated ones three quarters.
                let quarters = [4 * c, 2 * c, 3 * c];
                let pieces = own & pos.kind_bb(Kind::from_index(k));
                for (set, q) in [pieces & !frozen & !dominated, pieces & frozen, pieces & dominated]
                    .into_iter()
                    .zip(quarters)
                {
                    for sq in set {
                        let kernel = &KERNEL_AT[sq.index()];
                        for (sum, k) in total.iter_mut().zip(kernel) {
                            *sum += q * k;
                        }
                    }
                }
            }
            sum[color.index()] = total.map(|x| x / 400);
        }
        Influence { class, sum }
    }

    /// The share of trap `t` of `color`'s piece of `kind` on `sq`, `d` steps
    /// from it.
    fn share(&self, shared: &Shared, color: Color, kind: Kind, sq: Square, d: usize) -> i32 {
        let c = self.class[color.index()][kind.index()];
        let c = if shared.frozen(color).has(sq) {
            c / 2
        } else if shared.threatened(color).has(sq) {
            c * 3 / 4
        } else {
            c
        };
        c * KERNEL[d] / 100
    }

    /// `color`'s control of trap `t`, leaving out `without` from the
    /// opponent's shares (the share of a piece whose peril is asked).
    fn control(&self, color: Color, t: usize, without: i32) -> i32 {
        let mine = self.sum[color.index()][t];
        let mine = if is_home(color, t) { mine } else { mine * 35 / 32 };
        (mine - (self.sum[color.opponent().index()][t] - without)).clamp(-100, 100)
    }
}

/// Squares within two steps of a trap.
const NEAR_TRAPS: Bitboard = {
    let mut b = 0;
    let mut t = 0;
    while t < 4 {
        b |= RINGS[t][0].0 | RINGS[t][1].0 | RINGS[t][2].0;
        t += 1;
    }
    Bitboard(b)
};

/// The control terms: each side's hold on the enemy's home traps, and the
/// pieces of each side standing within two steps of a trap the other side
/// holds (the mover's and the waiting side's apart: the mover may still
/// step away).
pub(super) fn terms<T: Terms>(pos: &Position, shared: &Shared, acc: &mut T) {
    let wanted = [
        Weight::control_away,
        Weight::peril_mover_16ths,
        Weight::peril_waiting_16ths,
    ];
    if !wanted.iter().any(|&w| acc.wants(w)) {
        return;
    }
    let inf = Influence::of(pos, shared);
    let us = pos.side();
    for (color, sign) in [(us, 1), (us.opponent(), -1)] {
        let enemy = color.opponent();
        let away: i32 = (0..4)
            .filter(|&t| !is_home(color, t))
            .map(|t| held(inf.control(color, t, 0)))
            .sum();
        acc.add(Weight::control_away, sign * away, 1024);
        let mut peril = 0;
        for k in 0..5 {
            let kind = Kind::from_index(k);
            for sq in pos.bitboard(Piece::new(color, kind)) & NEAR_TRAPS {
                let mut worst = 0;
                for (t, &d) in DIST[sq.index()].iter().enumerate() {
                    let d = usize::from(d);
                    if d > 2 {
                        continue;
                    }
                    let own = inf.share(shared, color, kind, sq, d);
                    let theirs = inf.control(enemy, t, own);
                    // A trap the enemy does not outweigh us at is no peril.
                    if theirs > 0 {
                        worst = worst.max(held(theirs) * PERIL_DISTANCE[d]);
                    }
                }
                if worst > 0 {
                    let state = if shared.frozen(color).has(sq) {
                        4
                    } else if shared.threatened(color).has(sq) {
                        3
                    } else {
                        2
                    };
                    // In 1024ths × 16ths × quarters of the loss: scaled down to
                    // the loss once here, so the weight stays in sixteenths.
                    peril += shared.loss(color, kind) * (worst / 16) / 1024 * state / 4;
                }
            }
        }
        let weight = if color == us {
            Weight::peril_mover_16ths
        } else {
            Weight::peril_waiting_16ths
        };
        acc.add(weight, -sign * peril, 16);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::board;
    use super::super::{trace, Shared};
    use super::*;

    fn control(pos: &Position, color: Color, trap: &str) -> i32 {
        let shared = Shared::new(pos);
        let inf = Influence::of(pos, &shared);
        let t = TRAPS
            .iter()
            .position(|&s| Square::from_index_unchecked(s) == Square::parse(trap).unwrap())
            .unwrap();
        inf.control(color, t, 0)
    }

    #[test]
    fn the_logistic_is_centred_at_25_and_rises() {
        assert_eq!(held(-100), 2);
        assert_eq!(held(100), 1000);
        assert!((held(25) - 512).abs() < 30, "{}", held(25));
        assert!((-100..100).all(|c| held(c) <= held(c + 1)));
    }

    #[test]
    fn an_elephant_next_to_a_trap_holds_it_against_a_lone_cat() {
        // Silver elephant next to f6, a gold cat two steps from it.
        let pos = board(
            [
                "........", ".....e..", "........", "........", ".....C..", "........", "........", "........",
            ],
            'g',
        );
        let silver = control(&pos, Color::Silver, "f6");
        assert!(silver > 25, "{silver}");
        assert!(control(&pos, Color::Gold, "f6") < -25, "gold does not hold it either");
        // Only the cat reaches c3, four steps away: a little.
        let c3 = control(&pos, Color::Gold, "c3");
        assert!((1..10).contains(&c3), "{c3}");
    }

    #[test]
    fn a_lone_piece_near_an_enemy_held_trap_is_in_peril_and_a_guarded_one_less() {
        // Gold dog on f5 under silver's elephant (f7) and camel (g6) at f6.
        let lone = board(
            [
                "........", ".....e..", "......m.", ".....D..", "........", "........", "........", "........",
            ],
            's',
        );
        // Silver moves: gold's peril is silver's gain.
        let t = trace(&lone);
        assert!(t.features[Weight::peril_waiting_16ths as usize] > 0.0);
        assert_eq!(t.features[Weight::peril_mover_16ths as usize], 0.0);
        // The same dog with gold's elephant beside it: the trap is contested.
        let guarded = board(
            [
                "........", ".....e..", "......m.", "....ED..", "........", "........", "........", "........",
            ],
            's',
        );
        let g = trace(&guarded);
        assert!(
            g.features[Weight::peril_waiting_16ths as usize] < t.features[Weight::peril_waiting_16ths as usize],
            "{} vs {}",
            g.features[Weight::peril_waiting_16ths as usize],
            t.features[Weight::peril_waiting_16ths as usize]
        );
        // The mirror, gold to move: the same peril, now the mover's own.
        let m = trace(&lone.mirror());
        assert_eq!(m.features[Weight::peril_mover_16ths as usize], 0.0);
        assert_eq!(
            m.features[Weight::peril_waiting_16ths as usize],
            t.features[Weight::peril_waiting_16ths as usize]
        );
        // Gold to move on the same board: the dog is the mover's, a loss.
        let own = trace(&board(
            [
                "........", ".....e..", "......m.", ".....D..", "........", "........", "........", "........",
            ],
            'g',
        ));
        assert!(own.features[Weight::peril_mover_16ths as usize] < 0.0);
        // Silver's pieces stand next to gold's... no: silver holds f6, gold
        // none of silver's traps, so silver's hold on its away traps and
        // gold's on its own are what differ; the hold feature favours silver.
        assert!(t.features[Weight::control_away as usize] > own.features[Weight::control_away as usize] - 1e-9);
    }
}
