//! Quiescence's tests: hand-made captures at the horizon, the discount,
//! the recapture turn, and the open push or pull finished.

use super::*;
use crate::eval::tests::board;
use crate::params::{Params, SearchConfig, DEFAULT};
use crate::search::INF;
use crate::time::TimeManager;
use crate::tt::TransTable;
use arimaa_core::Game;
use std::num::NonZeroU32;

/// Quiescence of `pos` with `discount` taken off each of the root
/// side's captures, the root being `pos` itself.
fn quiesce(pos: &Position, discount: i32) -> (i32, i32) {
    quiesce_from(pos, pos, discount)
}

/// As [`quiesce`], for a search whose root is `root`.
fn quiesce_from(root: &Position, pos: &Position, discount: i32) -> (i32, i32) {
    quiesce_turns(root, pos, discount, 0)
}

/// As [`quiesce_from`], with `turns` more turns of captures after the first.
fn quiesce_turns(root: &Position, pos: &Position, discount: i32, turns: u8) -> (i32, i32) {
    let game = Game::from_position(*root);
    let (time, tt) = (TimeManager::unlimited(), TransTable::new(1));
    let params = Params {
        search: SearchConfig {
            quiesce_discount: NonZeroU32::new(discount as u32),
            ..DEFAULT.search
        },
        ..DEFAULT
    };
    let mut s = Searcher::new(&game, &time, &tt).params(&params);
    let stand = s.horizon(pos, 0, -INF, INF);
    (stand, s.quiesce(pos, -INF, INF, 0, turns))
}

#[test]
fn a_capture_at_the_horizon_is_discounted_and_a_quiet_board_is_not() {
    // Gold's elephant on e3 pushes the lone silver cat on d3 into trap c3.
    let capture = board(
        [
            "rr......", "........", "........", "........", "........", "...cE...", "........", "RR......",
        ],
        'g',
    );
    let (stand, plain) = quiesce(&capture, 0);
    assert!(plain > stand, "the capture is taken: {plain} against {stand}");
    let (_, discounted) = quiesce(&capture, 40);
    assert_eq!(discounted, plain - 40, "one capture, one discount");
    // The same capture by the side that is not the root's: the
    // opponent's threats keep their full weight.
    let theirs = capture.mirror();
    assert_eq!(quiesce_from(&capture, &theirs, 40).1, plain);
    assert_eq!(quiesce(&theirs, 40).1, plain - 40);

    // Nothing to capture: quiescence stands on the evaluation either way.
    let quiet = board(
        [
            "rr......", "........", "........", "...c....", "........", "........", "....E...", "RR......",
        ],
        'g',
    );
    let (stand, plain) = quiesce(&quiet, 0);
    assert_eq!(plain, stand);
    assert_eq!(quiesce(&quiet, 40).1, stand);
}

/// Quiescence without the discount, and the stand-pat score, of `ranks`
/// with gold to move after `first` (steps spent before the horizon).
fn whole_turn(ranks: [&str; 8], first: &str) -> (i32, i32, Position) {
    let mut pos = board(ranks, 'g');
    for token in first.split_whitespace() {
        let legal = pos.legal_step_list();
        let step = legal.as_slice().iter().find(|s| s.to_string() == token);
        pos.make_step(*step.expect("a legal test step"));
    }
    let (stand, score) = quiesce(&pos, 0);
    (stand, score, pos)
}

/// The score after playing `line` (whole, ending the turn) from `pos`,
/// for the side that played it: what quiescence must reach at least.
fn after_line(pos: &Position, line: &str) -> i32 {
    let (steps, _) = arimaa_core::parse_move(pos, line).expect("a legal line");
    -quiesce(&pos.after_turn(&steps), 0).0
}

/// The stand-pat score after playing `line` from `pos` without ending
/// the turn, for the side that played it.
fn within_turn(pos: &Position, line: &str) -> i32 {
    let (steps, _) = arimaa_core::parse_move(pos, line).expect("a legal line");
    let mut after = *pos;
    for step in steps.iter() {
        after.make_step(step);
    }
    quiesce(&after, 0).0
}

// Silver's cat on c4 next to the empty trap c3, nothing else of silver's
// next to the trap; the rabbits keep both sides in the game.
const APPROACH_1: [&str; 8] = [
    "rr......", "........", "........", "........", "..c.D...", "........", "........", "RR......",
];
const APPROACH_2: [&str; 8] = [
    "rr......", "........", "........", "........", "..c..D..", "........", "........", "RR......",
];
// The cat on c4 has a second guard, the horse on d3: gold's elephant
// pushes the horse away, then the dog on c5 pushes the cat in.
const GUARD_AWAY: [&str; 8] = [
    "rr......", "........", "........", "..D.....", "..c.....", "...hE...", "........", "RR......",
];

#[test]
fn an_approach_step_then_a_push_is_a_capture_at_the_horizon() {
    // The dog on e4 steps to d4 and pushes the cat onto c3: three steps.
    let (_, score, pos) = whole_turn(APPROACH_1, "");
    // Three steps: the fourth is the mover's to keep (the line is not ended).
    assert!(score >= within_turn(&pos, "De4w cc4s cc3x Dd4w"), "{score}");
    // With three steps left it still fits; with two it does not.
    captured_only_after(APPROACH_1, &["", "Ra1n"], "Ra1n Rb1n");
}

/// Quiescence of `ranks` finds a capture (a cat's worth above its stand-pat
/// score) after each of `fits` (steps spent first), and nothing after
/// `short`, which leaves too few steps.
fn captured_only_after(ranks: [&str; 8], fits: &[&str], short: &str) {
    for first in fits {
        let (stand, score, _) = whole_turn(ranks, first);
        assert!(score > stand + 100, "after '{first}': {score} against {stand}");
    }
    let (stand, score, _) = whole_turn(ranks, short);
    assert_eq!(score, stand, "after '{short}': too few steps for the capture");
}

#[test]
fn two_approach_steps_then_a_push_take_the_whole_turn() {
    let (stand, score, pos) = whole_turn(APPROACH_2, "");
    assert_eq!(score, after_line(&pos, "Df4w De4w cc4s cc3x Dd4w").max(stand));
    // Three steps are one short.
    captured_only_after(APPROACH_2, &[""], "Ra1n");
}

#[test]
fn a_guard_pushed_away_then_the_victim_pushed_in() {
    let (_, score, pos) = whole_turn(GUARD_AWAY, "");
    assert!(score >= after_line(&pos, "hd3s Ee3w cc4s cc3x Dc5s"), "{score}");
    // The guard's push and the capture need four steps.
    captured_only_after(GUARD_AWAY, &[""], "Ra1n");
}

#[test]
fn a_capture_that_ends_the_turn_meets_the_recapture() {
    // APPROACH_2's whole-turn capture leaves the dog on c4, next to the
    // empty trap c3 with no gold piece beside it; silver's elephant on b4
    // pushes it in on silver's turn.
    let answered: [&str; 8] = [
        "rr......", "........", "........", "........", ".ec..D..", "........", "........", "RR......",
    ];
    let pos = board(answered, 'g');
    let (stand, blind) = quiesce_turns(&pos, &pos, 0, 0);
    let (_, seen) = quiesce_turns(&pos, &pos, 0, 1);
    assert!(blind > stand + 100, "the cat looks won: {blind} against {stand}");
    assert!(seen < blind - 100, "the dog goes back: {seen} against {blind}");
    // Without the elephant nothing answers: one more turn changes nothing.
    let pos = board(APPROACH_2, 'g');
    assert_eq!(quiesce_turns(&pos, &pos, 0, 1).1, quiesce_turns(&pos, &pos, 0, 0).1);
}

// Gold's elephant on the trap c3, held by the dog on b3, beside silver's
// cat on d3: the elephant stepping off opens a pull of the cat onto the
// trap, where nothing of silver's holds it.
const OPEN_PULL: [&str; 8] = [
    "rr......", "........", "........", "........", "........", ".DEc....", "........", "RR......",
];

#[test]
fn an_open_pull_into_the_trap_is_finished_at_the_horizon() {
    // Two rabbit steps, then the elephant's: one step left, too few for
    // any capture of two steps, and the cat one step from the trap.
    let (stand, score, pos) = whole_turn(OPEN_PULL, "Ra1n Rb1n Ec3n");
    assert!(matches!(pos.pending(), Pending::Pull { .. }));
    assert_eq!(score, after_line(&pos, "cd3w cc3x").max(stand));
    assert!(score > stand + 100, "a cat's worth: {score} against {stand}");
    // Stepping off elsewhere leaves no pull open: nothing to finish.
    let (stand, score, _) = whole_turn(OPEN_PULL, "Ra1n Rb1n Ra2n");
    assert_eq!(score, stand);
}

#[test]
fn half_a_push_is_finished_before_the_horizon_scores() {
    // The elephant on c4 pushes the cat on d4 east with the last two
    // steps; the horizon after the first sees the cat moved, the
    // elephant not: quiescence scores the board with the push done.
    let ranks: [&str; 8] = [
        "rr......", "........", "........", "........", "..Ec....", "........", "........", "RR......",
    ];
    let (_, score, pos) = whole_turn(ranks, "Ra1n Rb1n cd4e");
    assert!(matches!(pos.pending(), Pending::Push { .. }));
    assert_eq!(score, after_line(&pos, "Ec4e"));
}
