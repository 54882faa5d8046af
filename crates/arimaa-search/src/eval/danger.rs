//! Pieces in danger beyond one push: an estimate of the steps an attacker
//! needs to capture each piece near a trap, over a whole turn.
//!
//! The exact two-step patterns of `crate::threats` see a capture only when
//! the attacker already stands next to its victim. The game is lost earlier:
//! a piece next to an unguarded trap with a stronger enemy two squares away
//! falls to "approach, then push" (3-4 steps), and one two squares from the
//! trap to two pushes in a row. The estimate, for a victim `V` and a trap `T`
//! at most two steps from it:
//! - the attacker: the nearest unfrozen enemy piece stronger than `V`, and
//!   the steps it needs over empty squares to stand next to `V` (0 if it
//!   does already);
//! - then two steps per square `V` must be moved to reach `T` (a push or a
//!   pull each), which needs `T` empty (or an attacker on it, to pull);
//! - and two more steps per other own piece next to `T`, each of which must
//!   be pushed or pulled away first.
//!
//! A victim on the trap itself falls when its guards are drawn away: two
//! steps per guard plus the nearest approach to one of them. It is an
//! estimate: it ignores blockers that freeze the approaching piece, pieces
//! that can flee, and defenders arriving; the weights fitted to games price
//! that in.

use super::{Shared, Terms};
use crate::params::Weight;
use arimaa_core::{Bitboard, Color, Kind, Position, Square};

/// Captures estimated beyond this many steps are not reported.
pub const MAX_STEPS: u8 = 6;

/// `RING2[s]`: the squares exactly two steps from `s`.
const RING2: [Bitboard; 64] = {
    let mut out = [Bitboard::EMPTY; 64];
    let mut s = 0;
    while s < 64 {
        let one = Bitboard(1u64 << s).neighbors();
        let two = one.neighbors();
        out[s] = Bitboard(two.0 & !one.0 & !(1u64 << s));
        s += 1;
    }
    out
};

/// `TRAPS_NEAR[s]`: the traps within two steps of `s` (one for most squares).
pub(crate) const TRAPS_NEAR: [Bitboard; 64] = {
    let mut out = [Bitboard::EMPTY; 64];
    let mut s = 0;
    while s < 64 {
        let one = Bitboard(1u64 << s | Bitboard(1u64 << s).neighbors().0);
        let two = Bitboard(one.0 | one.neighbors().0);
        out[s] = Bitboard(two.0 & Bitboard::TRAPS.0);
        s += 1;
    }
    out
};

/// Squares within two steps of some trap.
pub(crate) const NEAR_TRAPS: Bitboard = {
    let t = Bitboard::TRAPS;
    let one = Bitboard(t.0 | t.neighbors().0);
    Bitboard(one.0 | one.neighbors().0)
};

/// Steps for a piece of `from` to stand on a square of `target`, moving over
/// empty squares; `None` beyond `limit`.
fn approach(from: Bitboard, target: Bitboard, empty: Bitboard, limit: u8) -> Option<u8> {
    let mut reach = from;
    for k in 0..=limit {
        if (reach & target).any() {
            return Some(k);
        }
        let next = reach | (reach.neighbors() & empty);
        if next == reach {
            return None;
        }
        reach = next;
    }
    None
}

/// Calls `f` with the kind and the estimated capture steps (at most
/// [`MAX_STEPS`]) of every piece of `attacker`'s opponent near a trap that
/// `attacker` could capture. `frozen` is `pos.frozen(attacker)`.
pub fn capture_steps(pos: &Position, attacker: Color, frozen: Bitboard, mut f: impl FnMut(Kind, Square, u8)) {
    let defender = attacker.opponent();
    let own = pos.color_bb(defender);
    let enemy = pos.color_bb(attacker);
    let empty = pos.empty_squares();
    let active = enemy & !frozen;
    // Unfrozen attackers stronger than each kind.
    let mut stronger = [Bitboard::EMPTY; 6];
    let mut acc = Bitboard::EMPTY;
    for k in (0..5).rev() {
        acc |= pos.kind_bb(Kind::from_index(k + 1)) & active;
        stronger[k] = acc;
    }
    let kind_at = |sq: Square| pos.kind_at(sq).unwrap_or(Kind::Rabbit);
    for v in own & NEAR_TRAPS & !pos.kind_bb(Kind::Elephant) {
        let kind = kind_at(v);
        let attackers = stronger[kind.index()];
        if attackers.is_empty() {
            continue;
        }
        let mut best: Option<u8> = None;
        let mut keep = |s: u8| best = Some(best.map_or(s, |b| b.min(s)));
        for trap in TRAPS_NEAR[v.index()] {
            let around_trap = Bitboard::around(trap);
            if v == trap {
                // Its guards must all be drawn away; the first by an
                // attacker next to it (or arriving there).
                let guards = around_trap & own;
                let n = guards.count() as u8;
                let near = guards
                    .iter()
                    .filter_map(|g| approach(stronger[kind_at(g).index()], Bitboard::around(g), empty, MAX_STEPS))
                    .min();
                if let Some(a) = near {
                    keep(a + 2 * n);
                }
                continue;
            }
            let moves = if around_trap.has(v) {
                1
            } else if RING2[trap.index()].has(v) {
                // Through a square next to both, which must be free.
                if (Bitboard::around(v) & around_trap & empty).is_empty() {
                    continue;
                }
                2
            } else {
                continue;
            };
            let guards = (around_trap & own & !Bitboard::from_square(v)).count() as u8;
            let base = 2 * moves + 2 * guards;
            if base > MAX_STEPS {
                continue;
            }
            if empty.has(trap) {
                if let Some(a) = approach(attackers, Bitboard::around(v), empty, MAX_STEPS - base) {
                    keep(a + base);
                }
            } else if moves == 1 && attackers.has(trap) {
                // An attacker on the trap pulls the victim in as it steps off.
                keep(base);
            }
        }
        if let Some(s) = best.filter(|&s| s <= MAX_STEPS) {
            f(kind, v, s);
        }
    }
}

/// The danger terms: the mover's best capture in 3 or 4 estimated steps, the
/// waiting side's pieces it could set up (5-6 steps), and each of the mover's
/// own pieces the opponent could capture on its next turn.
pub(super) fn terms<T: Terms>(pos: &Position, shared: &Shared, acc: &mut T) {
    let us = pos.side();
    let them = us.opponent();
    let steps = pos.steps_left();
    let mover = [Weight::danger_mover_3, Weight::danger_mover_4, Weight::danger_foe_6];
    if mover.iter().any(|&p| acc.wants(p)) {
        let (mut best3, mut best4, mut far) = (0, 0, 0);
        capture_steps(pos, us, shared.frozen(us), |kind, _, s| {
            let value = shared.loss(them, kind);
            match s {
                3 if s <= steps => best3 = best3.max(value),
                4 if s <= steps => best4 = best4.max(value),
                5 | 6 => far += value,
                _ => {}
            }
        });
        acc.add(Weight::danger_mover_3, best3, 16);
        acc.add(Weight::danger_mover_4, best4, 16);
        acc.add(Weight::danger_foe_6, far, 16);
    }
    let own = [
        Weight::danger_own_2,
        Weight::danger_own_3,
        Weight::danger_own_4,
        Weight::danger_own_6,
    ];
    if own.iter().any(|&p| acc.wants(p)) {
        let mut sums = [0; 4];
        capture_steps(pos, them, shared.frozen(them), |kind, _, s| {
            let value = shared.loss(us, kind);
            sums[usize::from(s.clamp(2, 5) - 2)] += value;
        });
        for (p, v) in own.into_iter().zip(sums) {
            acc.add(p, -v, 16);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::board;
    use super::*;

    /// (square, steps) of every victim `attacker` could capture.
    fn found(pos: &Position, attacker: Color) -> Vec<(String, u8)> {
        let mut out = Vec::new();
        capture_steps(pos, attacker, pos.frozen(attacker), |_, sq, s| {
            out.push((sq.to_string(), s))
        });
        out
    }

    #[test]
    fn approach_then_push_is_three_or_four_steps() {
        // Silver cat on c5 next to the empty c6 trap; gold dog on e5 two
        // squares away: one step to d5, then the push. Nothing else near.
        let pos = board(
            [
                "........", "........", "........", "..c.D...", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(found(&pos, Color::Gold), vec![("c5".to_string(), 3)]);
        // The dog already next to it: the two-step push.
        let next = board(
            [
                "........", "........", "........", "..cD....", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(found(&next, Color::Gold), vec![("c5".to_string(), 2)]);
        // A second silver piece next to c6 must be drawn away first: 2 more.
        let guarded = board(
            [
                "........", "........", "...r....", "..c.D...", "........", "........", "........", "........",
            ],
            'g',
        );
        assert!(found(&guarded, Color::Gold).contains(&("c5".to_string(), 5)));
        // A weaker attacker threatens nothing; silver threatens no gold piece here.
        let weaker = board(
            [
                "........", "........", "........", "..d.C...", "........", "........", "........", "........",
            ],
            'g',
        );
        assert!(found(&weaker, Color::Gold).is_empty());
        assert!(found(&pos, Color::Silver).is_empty());
    }

    #[test]
    fn two_squares_from_the_trap_takes_two_pushes() {
        // Silver rabbit on c4, two squares below c6 through the empty c5;
        // gold cat next to it on d4.
        let pos = board(
            [
                "........", "........", "........", "........", "..rC....", "........", "........", "........",
            ],
            'g',
        );
        // c4 is also next to gold's c3 trap: one push there.
        assert_eq!(found(&pos, Color::Gold), vec![("c4".to_string(), 2)]);
        let far = board(
            [
                "........", "........", "........", "........", "...rC...", "........", "........", "........",
            ],
            'g',
        );
        // d4: two from c3 (via c4 or d3), two from... f3 is three away. Push to
        // c4 or d3, then onto c3.
        assert_eq!(found(&far, Color::Gold), vec![("d4".to_string(), 4)]);
    }

    #[test]
    fn a_piece_on_a_trap_falls_when_its_guard_is_drawn_away() {
        // Silver horse on f6 held by one rabbit on f7; gold elephant on g7
        // next to the rabbit: push it off (2), and the horse falls.
        let pos = board(
            [
                "........", ".....rE.", ".....h..", "........", "........", "........", "........", "........",
            ],
            'g',
        );
        let got = found(&pos, Color::Gold);
        assert!(got.contains(&("f6".to_string(), 2)), "{got:?}");
    }

    #[test]
    fn the_terms_charge_the_mover_for_its_pieces_in_danger() {
        // Gold to move with its cat on c3's neighbour c4... silver's dog on e4
        // approaches in one step: gold's cat is in 3-step danger.
        let pos = board(
            [
                "........", "........", "........", "........", "..C.d...", "........", "........", "........",
            ],
            'g',
        );
        let t = super::super::trace(&pos);
        assert!(t.features[Weight::danger_own_3 as usize] < 0.0);
        assert_eq!(t.features[Weight::danger_mover_3 as usize], 0.0);
        // The same board with silver to move: now silver captures within its turn.
        let s = board(
            [
                "........", "........", "........", "........", "..C.d...", "........", "........", "........",
            ],
            's',
        );
        let t = super::super::trace(&s);
        assert!(t.features[Weight::danger_mover_3 as usize] > 0.0);
        assert_eq!(t.features[Weight::danger_own_3 as usize], 0.0);
    }
}
