//! Capture threats: which enemy pieces a side can capture with its next two
//! steps (one push or pull), found on bitboards without playing any step.
//!
//! Two-step captures are the ones a static evaluation gets most wrong: at the
//! horizon a piece standing next to an empty, unguarded trap with a stronger
//! enemy beside it is as good as gone if the enemy moves next, and the search
//! cannot see it when it ends there.
//!
//! The patterns, for a victim `V` of the defender and a trap `T`:
//! - push: `V` next to an empty `T`, no other defender next to `T`, an
//!   unfrozen stronger attacker next to `V`;
//! - pull: the attacker stands on `T` unfrozen with an empty square to step
//!   to, `V` next to `T` weaker than it and `T`'s only defender guard;
//! - guard removal: `V` on `T` with one guard `G`, and an unfrozen attacker
//!   stronger than `G` next to it that can push `G` to an empty square or
//!   pull it by stepping to one.
//!
//! Every pattern found is a real two-step capture for a side with two steps
//! to play and no push open (at its turn start, or part-way through a turn,
//! an open pull included): both steps are legal and the victim leaves the
//! board. tests/threats.rs checks that against full step generation over
//! game and random positions, and quiescence relies on it to play the
//! captures unchecked. Longer captures (an approach step, or a guard pushed
//! away, first) are found by quiescence playing the setting-up steps inside
//! [`setup_zone`] and then these patterns; the one-step pull of a victim
//! into a trap an own piece just left is left to the search.

use crate::eval::capture_steps;
use arimaa_core::{Bitboard, Color, Kind, Piece, Position, Square, Step};

/// The value (in the evaluation's units, via `value`) of the most valuable
/// piece of `attacker`'s opponent that `attacker` can capture with one push or
/// pull, or 0 when there is none.
#[must_use]
pub fn best_capture(pos: &Position, attacker: Color, value: impl Fn(Kind) -> i32) -> i32 {
    let mut best = 0;
    for_each_capture(pos, attacker, |victim, _| best = best.max(value(victim)));
    best
}

/// The two steps of one capture, in playing order.
pub type Unit = [Step; 2];

/// Calls `f` with the victim's kind and the two steps of every push or pull
/// by `attacker` that captures an enemy piece.
pub fn for_each_capture(pos: &Position, attacker: Color, mut f: impl FnMut(Kind, Unit)) {
    let defender = attacker.opponent();
    let own = pos.color_bb(defender);
    let empty = pos.empty_squares();
    let active = pos.color_bb(attacker) & !pos.frozen(attacker);
    let mut unit = |piece_a: Piece, a: (Square, Square), piece_b: Piece, b: (Square, Square), victim: Kind| {
        if let (Some(s1), Some(s2)) = (Step::between(piece_a, a.0, a.1), Step::between(piece_b, b.0, b.1)) {
            f(victim, [s1, s2]);
        }
    };
    for trap in Bitboard::TRAPS {
        let around = Bitboard::around(trap);
        let guards = around & own;
        if empty.has(trap) {
            // Push: the lone guard is the victim, pushed onto the trap.
            if let Some(v) = lone(guards) {
                let kind = kind_at(pos, v);
                let victim = Piece::new(defender, kind);
                for p in pos.stronger_than(attacker, kind) & active & Bitboard::around(v) {
                    let pusher = Piece::new(attacker, kind_at(pos, p));
                    unit(victim, (v, trap), pusher, (p, v), kind);
                }
            }
        } else if active.has(trap) {
            // Pull: the attacker on the trap steps off and the lone guard follows.
            if let Some(v) = lone(guards) {
                let puller = kind_at(pos, trap);
                let kind = kind_at(pos, v);
                if kind < puller {
                    for e in around & empty {
                        unit(
                            Piece::new(attacker, puller),
                            (trap, e),
                            Piece::new(defender, kind),
                            (v, trap),
                            kind,
                        );
                    }
                }
            }
        } else if own.has(trap) {
            // Guard removal: the victim sits on the trap held by one guard,
            // which is pushed to an empty square or pulled by a stepping attacker.
            if let Some(g) = lone(guards) {
                let victim = kind_at(pos, trap);
                let guard = Piece::new(defender, kind_at(pos, g));
                for p in pos.stronger_than(attacker, guard.kind) & active & Bitboard::around(g) {
                    let mover = Piece::new(attacker, kind_at(pos, p));
                    for e in Bitboard::around(g) & empty {
                        unit(guard, (g, e), mover, (p, g), victim);
                    }
                    for e in Bitboard::around(p) & empty {
                        unit(mover, (p, e), guard, (g, p), victim);
                    }
                }
            }
        }
    }
}

/// Where a step can begin a capture of three or more steps for the side to
/// move within its `steps` left: the squares within two steps of every enemy
/// piece that the danger estimate (`crate::eval::capture_steps`) says falls
/// in 3 to `steps` steps. An approach step ends next to the victim or next
/// to a piece next to it (a guard, a frozen attacker); a guard pushed or
/// pulled away stands next to the victim's trap; so the steps of such a
/// capture start or end here. Empty when no such victim exists, which is
/// most positions: quiescence then tries no setting-up step at all.
pub fn setup_zone(pos: &Position, steps: u8) -> Bitboard {
    let us = pos.side();
    let mut zone = Bitboard::EMPTY;
    if steps < 3 {
        return zone;
    }
    capture_steps(pos, us, pos.frozen(us), |_, victim, s| {
        if (3..=steps).contains(&s) {
            let near = Bitboard::around(victim) | Bitboard::from_square(victim);
            zone |= near | near.neighbors();
        }
    });
    zone
}

/// The only square of `set`, if it has exactly one.
fn lone(set: Bitboard) -> Option<Square> {
    if set.count() == 1 {
        set.first()
    } else {
        None
    }
}

fn kind_at(pos: &Position, sq: Square) -> Kind {
    pos.kind_at(sq).unwrap_or(Kind::Rabbit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::board;
    use arimaa_core::{Game, Pending};

    /// The best capture `attacker` can make in exactly two steps, by playing
    /// every two-step sequence: the oracle the bitboard patterns are checked against.
    fn brute_force(pos: &Position, value: &impl Fn(Kind) -> i32) -> i32 {
        let defender = pos.side().opponent();
        let mut best = 0;
        for a in pos.legal_step_list().as_slice() {
            let mut p1 = *pos;
            p1.make_step(*a);
            if p1.steps_left() == 0 {
                continue;
            }
            for b in p1.legal_step_list().as_slice() {
                let mut p2 = p1;
                p2.make_step(*b);
                if matches!(p2.pending(), Pending::Push { .. }) {
                    continue;
                }
                for kind in Kind::ALL {
                    let piece = Piece::new(defender, kind);
                    if p2.count(piece) < pos.count(piece) {
                        best = best.max(value(kind));
                    }
                }
            }
        }
        best
    }

    /// Plays `s1` then `s2`, each checked against the legal steps.
    fn play_unit(pos: &Position, s1: Step, s2: Step) -> Option<Position> {
        let mut p = *pos;
        for s in [s1, s2] {
            if !p.legal_step_list().as_slice().contains(&s) {
                return None;
            }
            p.make_step(s);
        }
        Some(p)
    }

    fn value(kind: Kind) -> i32 {
        kind.index() as i32 * 100 + 50
    }

    #[test]
    fn push_pull_and_guard_removal_are_found() {
        // Ranks 8 to 1, files a to h; the traps are c3, f3, c6 and f6.
        let push = board(
            [
                "........", "........", "........", "..cD....", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(
            best_capture(&push, Color::Gold, value),
            value(Kind::Cat),
            "cat c5 pushed onto c6"
        );
        let pull = board(
            [
                "........", "........", "........", "........", "........", ".RE.....", "..d.....", "........",
            ],
            'g',
        );
        assert_eq!(
            best_capture(&pull, Color::Gold, value),
            value(Kind::Dog),
            "dog c2 pulled onto c3"
        );
        let guard = board(
            [
                "........", "........", ".....h..", ".....rH.", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(
            best_capture(&guard, Color::Gold, value),
            value(Kind::Horse),
            "rabbit f5 guards the horse on f6"
        );
        // A second guard makes each of them safe; a frozen attacker threatens nothing.
        let guarded = board(
            [
                "........", "........", "...c....", "..cD....", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(best_capture(&guarded, Color::Gold, value), 0);
        let frozen = board(
            [
                "........", "........", "........", "..cD....", "...m....", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(best_capture(&frozen, Color::Gold, value), 0);
        for pos in [push, pull, guard, guarded, frozen] {
            assert_eq!(best_capture(&pos, Color::Gold, value), brute_force(&pos, &value));
        }
    }

    #[test]
    fn patterns_agree_with_playing_every_two_step_sequence_along_random_games() {
        let mut rng = arimaa_core::rng::XorShift(0x2545_F491_4F6C_DD1D);
        let mut checked = 0;
        let mut with_capture = 0;
        for _ in 0..25 {
            let mut game = Game::from_position(Position::standard());
            let mut gen = arimaa_core::TurnGen::new();
            for _ in 0..60 {
                if game.outcome().is_some() {
                    break;
                }
                let turns = game.legal_turns(&mut gen);
                if turns.is_empty() {
                    break;
                }
                let pos = *game.position();
                if !game.in_setup() {
                    let found = best_capture(&pos, pos.side(), value);
                    let truth = brute_force(&pos, &value);
                    assert_eq!(found, truth, "{}", arimaa_core::position_to_aei(&pos));
                    for_each_capture(&pos, pos.side(), |victim, [s1, s2]| {
                        let after = play_unit(&pos, s1, s2).expect("a legal unit");
                        let piece = Piece::new(pos.side().opponent(), victim);
                        assert_eq!(after.count(piece) + 1, pos.count(piece), "{s1} {s2} captures");
                    });
                    checked += 1;
                    with_capture += usize::from(truth > 0);
                }
                let pick = rng.below(turns.len());
                let steps = turns[pick].steps;
                game.play(&steps).expect("generated turn is legal");
            }
        }
        eprintln!("{checked} positions, {with_capture} with a two-step capture");
        assert!(checked > 1000, "{checked} positions");
        assert!(with_capture > 50, "{with_capture} positions with a capture");
    }
}
