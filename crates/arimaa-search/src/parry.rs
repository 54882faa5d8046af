//! Threats the mover cannot parry: at a turn start, what the waiting side
//! still captures with one push or pull after the mover's best defence of
//! at most two steps.
//!
//! A static charge for the waiting side's captures ("it threatens my horse")
//! is wrong both ways: most threats cost one step to parry, and a double
//! threat or a piece with nowhere to go costs the piece. The evaluation
//! fits an average over both; the search, ending at the mover's turn start,
//! never plays the parry to tell them apart. So the mover's defences are
//! tried here: every sequence of up to two steps (a push or pull counting
//! two) by the pieces near a threatened capture, which covers moving the
//! victim away, guarding or filling the trap, and freezing or pushing the
//! attacker; after each, the waiting side's best push or pull capture
//! (`crate::threats`) plus whatever the mover's own steps lost to a trap.
//! The least of those is what the threat costs. Counter-captures are left
//! to quiescence, and a parry needing three or four steps is not found, so
//! the figure errs towards the threat; the search scales it.

use crate::eval::material::Counts;
use crate::threats::{best_capture, for_each_capture};
use arimaa_core::{Bitboard, Color, Kind, Pending, Position, StepList};

/// Steps the mover may spend on a parry.
const PARRY_STEPS: u8 = 2;

/// The material (centi-rabbits, HarLog losses) the mover at `pos`, a turn
/// start, still loses to the waiting side's next push or pull capture after
/// its best defence of at most two steps; 0 when there is no threat or a
/// defence removes every one.
#[must_use]
pub fn unparried(pos: &Position) -> i32 {
    let mover = pos.side();
    let waiting = mover.opponent();
    let material = Counts::of(pos).material();
    let value = |k: Kind| material.loss(mover, k);
    let threat = best_capture(pos, waiting, value);
    if threat == 0 {
        return 0;
    }
    // The squares the captures use (victims, traps, attackers, guards) and
    // two steps around them: a piece elsewhere cannot reach a capture's
    // squares or their neighbours within the two steps.
    let mut near = Bitboard::EMPTY;
    for_each_capture(pos, waiting, |_, unit| {
        for s in unit {
            near |= Bitboard::from_square(s.from()) | Bitboard::from_square(s.to());
        }
    });
    let area = near | near.neighbors();
    let area = area | area.neighbors();
    let mut best = threat;
    defend(pos, PARRY_STEPS, area, waiting, &value, 0, &mut best);
    best
}

/// Tries every step from `area` of the mover at `pos` (and a push's
/// completion), lowering `best` to the least loss seen; `budget` steps left.
fn defend(
    pos: &Position,
    budget: u8,
    area: Bitboard,
    waiting: Color,
    value: &impl Fn(Kind) -> i32,
    lost: i32,
    best: &mut i32,
) {
    let mut steps = StepList::new();
    pos.legal_steps(&mut steps);
    for &step in steps.as_slice() {
        if *best == 0 {
            return;
        }
        if !area.has(step.from()) {
            continue;
        }
        let mut child = *pos;
        let lost = lost + own_loss(&mut child, step, waiting, value);
        if matches!(child.pending(), Pending::Push { .. }) {
            if budget < 2 {
                continue;
            }
            let mut completions = StepList::new();
            child.legal_steps(&mut completions);
            for &c in completions.as_slice() {
                let mut after = child;
                let lost = lost + own_loss(&mut after, c, waiting, value);
                settle(&after, budget - 2, area, waiting, value, lost, best);
            }
        } else {
            settle(&child, budget - 1, area, waiting, value, lost, best);
        }
    }
}

/// Scores the board after a defence, then tries longer ones from it.
fn settle(
    pos: &Position,
    budget: u8,
    area: Bitboard,
    waiting: Color,
    value: &impl Fn(Kind) -> i32,
    lost: i32,
    best: &mut i32,
) {
    let loss = lost + best_capture(pos, waiting, value);
    *best = (*best).min(loss);
    if budget > 0 && *best > 0 && lost < *best {
        defend(pos, budget, area, waiting, value, lost, best);
    }
}

/// Plays `step` on `pos`; the value of the mover's piece it sends into a
/// trap, if any (an enemy piece captured earns nothing here).
fn own_loss(pos: &mut Position, step: arimaa_core::Step, waiting: Color, value: &impl Fn(Kind) -> i32) -> i32 {
    match pos.make_step(step).captured() {
        Some((piece, _)) if piece.color != waiting => value(piece.kind),
        _ => 0,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::board;

    #[test]
    fn a_threat_one_step_parries_costs_nothing() {
        // Silver's elephant on d4 can push gold's lone horse on c4 into trap
        // c3; gold to move steps the horse (unfrozen by the rabbit on c5)
        // away, or guards the trap.
        let pos = board(
            [
                "r.......", "........", "........", "..R.....", "..He....", "........", "........", "R.......",
            ],
            'g',
        );
        assert!(best_capture(&pos, Color::Silver, |_| 1) > 0, "the threat is real");
        assert_eq!(unparried(&pos), 0);
    }

    #[test]
    fn a_piece_with_nowhere_to_go_is_lost() {
        // Gold's horse on c4 is hemmed in: silver's elephant on d4, silver
        // dogs on b4 and c5, and trap c3 below it empty. The horse is frozen
        // and cannot step; no gold piece is near enough to guard c3.
        let pos = board(
            [
                "r.......", "........", "........", "..d.....", ".dHe....", "........", "........", "R......R",
            ],
            'g',
        );
        let lost = unparried(&pos);
        assert!(lost > 0, "the horse falls: {lost}");
        let material = Counts::of(&pos).material();
        assert_eq!(lost, material.loss(Color::Gold, Kind::Horse));
    }

    #[test]
    fn a_double_threat_two_steps_parry_costs_nothing_and_frozen_victims_cost_a_piece() {
        // Two gold cats threatened at c3 and f3 by silver's elephant and
        // camel; each cat (unfrozen by a rabbit behind it) steps away with
        // one step: two steps parry both.
        let two = board(
            [
                "r.......", "........", "........", "..R..R..", "..Ce.Cm.", "........", "........", "R.......",
            ],
            'g',
        );
        assert_eq!(unparried(&two), 0);
        // Both cats frozen, with no gold piece near: silver captures one
        // with a push (the figure counts one capture, the dearest).
        let boxed = board(
            [
                "r.......", "........", "........", "..d..d..", ".cCe.Cmc", "........", "........", "R......R",
            ],
            'g',
        );
        let lost = unparried(&boxed);
        let material = Counts::of(&boxed).material();
        assert_eq!(lost, material.loss(Color::Gold, Kind::Cat));
    }

    #[test]
    fn no_threat_is_free_and_the_answer_is_colour_symmetric() {
        let quiet = Position::standard();
        assert_eq!(unparried(&quiet), 0);
        let pos = board(
            [
                "r.......", "........", "........", "..d.....", ".dHe....", "........", "........", "R......R",
            ],
            'g',
        );
        assert_eq!(unparried(&pos), unparried(&pos.mirror()));
    }
}
