//! The horizon: the exact goal test (cached), the evaluation, and a
//! quiescence search of the captures the side to move can make with its
//! steps left.

use super::{Searcher, INF, LEAF_CACHE, MAX_PLY, WIN, WIN_BOUND};
use crate::goal::can_goal;
use crate::threats::{for_each_capture, setup_zone};
use arimaa_core::{Pending, Position, StepList};

impl Searcher<'_> {
    /// The score at the horizon: a win when the side to move can reach goal
    /// with its steps left, else the evaluation. Exact below `beta`; at or
    /// above it a lower bound, because an evaluation already at `beta` fails
    /// high whether or not a goal follows (the goal only scores higher), so
    /// the goal test is skipped there.
    pub(super) fn horizon(&mut self, pos: &Position, ply: usize, beta: i32) -> i32 {
        // The answer depends on the state alone (board, side, steps, open
        // push or pull) and the same leaves come back through the orders of
        // a turn's steps and in every iteration.
        let key = pos.state_key();
        let slot = (key >> 40) as usize & (LEAF_CACHE - 1);
        let mut leaf = self.leaf_cache[slot];
        if leaf.key != key {
            leaf = Leaf {
                key,
                eval: self.static_eval(pos),
                goal: Leaf::UNKNOWN,
            };
        }
        if leaf.eval < beta && leaf.goal == Leaf::UNKNOWN {
            leaf.goal = u8::from(can_goal(pos));
        }
        self.leaf_cache[slot] = leaf;
        if leaf.eval < beta && leaf.goal == 1 {
            return WIN - ply as i32 - pos.steps_left() as i32;
        }
        leaf.eval
    }

    /// Quiescence at the horizon: when the side to move can still capture
    /// this turn, it may play those captures (and further ones) instead of
    /// standing on the evaluation. A capture that ends the turn is answered
    /// by `turns` more turns of the other side's captures (the search asks
    /// for one), then scored by the horizon, its goal test included, so a
    /// capture that loses the capturer or opens the way to goal is seen as
    /// the loss it is. A side that stands on the evaluation meets no
    /// captures: its threats are the evaluation's to price.
    pub(super) fn quiesce(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize, turns: u8) -> i32 {
        let stand = self.horizon(pos, ply, beta);
        if !self.params.search.quiescence
            || stand >= WIN_BOUND
            || stand >= beta
            || pos.steps_left() < 2
            || ply >= MAX_PLY - 8
            || matches!(pos.pending(), Pending::Push { .. })
        {
            return stand;
        }
        self.captures(pos, stand, alpha.max(stand), beta, ply, turns)
    }

    /// The best of `best` and of every line from `pos` that captures with the
    /// steps left: a push or pull that captures at once, or, with three or
    /// four steps, the steps that set one up (an approach, an attacker
    /// unfrozen, a trap left empty, a guard pushed or pulled away) followed
    /// by it. Most Arimaa captures take a whole turn; seeing only the
    /// two-step ones at the horizon scored a piece one approach step from
    /// the trap as safe. Setting-up steps are tried only inside
    /// [`setup_zone`] and never stand on their own: a line scores only
    /// through the capture it reaches, so a quiet step is not a free move.
    fn captures(&mut self, pos: &Position, mut best: i32, mut alpha: i32, beta: i32, ply: usize, turns: u8) -> i32 {
        let mut units = Vec::new();
        for_each_capture(pos, pos.side(), |_, unit| units.push(unit));
        // Only the root side's captures: its own deferred captures are the
        // doubt; the opponent's threats keep their full weight (a discount
        // on both sides lost 0-4 at 100).
        let discount = if pos.side() == self.game.side_to_move() {
            self.params.search.quiesce_discount.map_or(0, |d| d.get() as i32)
        } else {
            0
        };
        // The units are played as found: every one is legal from here and
        // captures (two steps left, no push open; tests/threats.rs checks
        // them against full step generation), so no step list is generated.
        for [s1, s2] in units {
            let mut child = *pos;
            child.make_step(s1);
            child.make_step(s2);
            self.nodes += 1;
            let score = if child.steps_left() == 0 {
                if !child.can_end_turn() {
                    continue;
                }
                child.end_turn();
                if self.is_repetition(child.hash()) {
                    continue;
                }
                if turns > 0 {
                    -self.quiesce(&child, -beta - discount, -alpha - discount, ply + 1, turns - 1)
                } else {
                    -self.horizon(&child, ply + 1, -alpha - discount)
                }
            } else {
                self.quiesce(&child, alpha + discount, beta + discount, ply + 2, turns)
            };
            // A won score stays exact: the discount prices uncertainty about
            // material, not about a goal.
            let score = if score.abs() >= WIN_BOUND {
                score
            } else {
                score - discount
            };
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if best >= beta {
                    return best;
                }
            }
        }
        let zone = setup_zone(pos, pos.steps_left());
        if zone.is_empty() {
            return best;
        }
        let mut steps = StepList::new();
        pos.legal_steps(&mut steps);
        for &step in steps.as_slice() {
            if !zone.has(step.from()) && !zone.has(step.to()) {
                continue;
            }
            let mut child = *pos;
            child.make_step(step);
            // A push is completed at once: the setting-up unit is the push
            // (at most three squares next to the one it left hold a pusher).
            let mut units = [child; 3];
            let mut count = 1;
            if matches!(child.pending(), Pending::Push { .. }) {
                let mut completions = StepList::new();
                child.legal_steps(&mut completions);
                count = 0;
                for &c in completions.as_slice().iter().take(units.len()) {
                    units[count].make_step(c);
                    count += 1;
                }
            }
            for after in &units[..count] {
                if after.steps_left() < 2 {
                    continue;
                }
                self.nodes += 1;
                let score = self.captures(after, -INF, alpha, beta, ply + 1, turns);
                if score > best {
                    best = score;
                    alpha = alpha.max(score);
                    if best >= beta {
                        return best;
                    }
                }
            }
        }
        best
    }
}

/// A horizon cache entry: the evaluation of the state with `key`, and its goal
/// test once made.
#[derive(Clone, Copy, Debug)]
pub(super) struct Leaf {
    key: u64,
    eval: i32,
    /// 0 no goal, 1 a goal, [`Leaf::UNKNOWN`] not tested.
    goal: u8,
}

impl Leaf {
    const UNKNOWN: u8 = 2;
    /// No state has key 0 in practice; a stale match costs one wrong leaf score.
    pub(super) const EMPTY: Leaf = Leaf {
        key: 0,
        eval: 0,
        goal: Leaf::UNKNOWN,
    };
}

#[cfg(test)]
mod tests {
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
        let stand = s.horizon(pos, 0, INF);
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
        let (stand, score, pos) = whole_turn(APPROACH_1, "");
        assert!(score >= after_line(&pos, "De4w cc4s cc3x Dd4w"), "{score}");
        assert!(score > stand + 100, "a cat's worth: {score} against {stand}");
        // With three steps left it still fits; with two it does not.
        let (stand, score, _) = whole_turn(APPROACH_1, "Ra1n");
        assert!(score > stand + 100, "three steps: {score} against {stand}");
        let (stand, score, _) = whole_turn(APPROACH_1, "Ra1n Rb1n");
        assert_eq!(score, stand, "two steps: no capture");
    }

    #[test]
    fn two_approach_steps_then_a_push_take_the_whole_turn() {
        let (stand, score, pos) = whole_turn(APPROACH_2, "");
        assert_eq!(score, after_line(&pos, "Df4w De4w cc4s cc3x Dd4w").max(stand));
        assert!(score > stand + 100, "{score} against {stand}");
        let (stand, score, _) = whole_turn(APPROACH_2, "Ra1n");
        assert_eq!(score, stand, "three steps are one short");
    }

    #[test]
    fn a_guard_pushed_away_then_the_victim_pushed_in() {
        let (stand, score, pos) = whole_turn(GUARD_AWAY, "");
        assert!(score >= after_line(&pos, "hd3s Ee3w cc4s cc3x Dc5s"), "{score}");
        assert!(score > stand + 100, "{score} against {stand}");
        let (stand, score, _) = whole_turn(GUARD_AWAY, "Ra1n");
        assert_eq!(score, stand, "the guard's push and the capture need four steps");
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
}
