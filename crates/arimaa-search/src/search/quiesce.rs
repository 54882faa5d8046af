//! The horizon: the exact goal test (cached), the evaluation, and a
//! quiescence search of push and pull captures.

use super::{Searcher, LEAF_CACHE, MAX_PLY, WIN, WIN_BOUND};
use crate::goal::can_goal;
use crate::threats::for_each_capture;
use arimaa_core::{Pending, Position};

impl Searcher<'_> {
    /// The score at the horizon: a win when the side to move can reach goal
    /// with its steps left, else the evaluation. Fail-soft: exact inside
    /// `alpha..beta`; at or above `beta` a lower bound, because an
    /// evaluation already at `beta` fails high whether or not a goal follows
    /// (the goal only scores higher), so the goal test is skipped there; at
    /// or below `alpha` an upper bound when the evaluation's own bounds
    /// settled it (see `static_bounds`).
    pub(super) fn horizon(&mut self, pos: &Position, ply: usize, alpha: i32, beta: i32) -> i32 {
        // The answer depends on the state alone (board, side, steps, open
        // push or pull) and the same leaves come back through the orders of
        // a turn's steps and in every iteration.
        let key = pos.state_key();
        let slot = (key >> 40) as usize & (LEAF_CACHE - 1);
        let mut leaf = self.leaf_cache[slot];
        if leaf.key != key {
            let (low, high) = self.static_eval_within(pos, alpha, beta);
            leaf = Leaf {
                key,
                low,
                high,
                goal: Leaf::UNKNOWN,
            };
        } else if leaf.low < beta && leaf.high > alpha && leaf.low != leaf.high {
            // Bounds kept for another window do not settle this one: they
            // are all the evaluation can give without its exact score.
            let exact = self.static_eval(pos);
            (leaf.low, leaf.high) = (exact, exact);
        }
        if leaf.low < beta && leaf.goal == Leaf::UNKNOWN {
            leaf.goal = u8::from(can_goal(pos));
        }
        self.leaf_cache[slot] = leaf;
        if leaf.low >= beta {
            return leaf.low;
        }
        if leaf.goal == 1 {
            return WIN - ply as i32 - pos.steps_left() as i32;
        }
        leaf.high
    }

    /// Quiescence at the horizon: when the side to move can still capture with
    /// a push or pull this turn, it may play those captures (and further ones)
    /// instead of standing on the evaluation. A capture that ends the turn is
    /// scored by the opponent's horizon, its goal test included, so a capture
    /// that opens the way to goal is seen as the loss it is.
    pub(super) fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let stand = self.horizon(pos, ply, alpha, beta);
        if !self.params.search.quiescence
            || stand >= WIN_BOUND
            || stand >= beta
            || pos.steps_left() < 2
            || ply >= MAX_PLY - 4
            || matches!(pos.pending(), Pending::Push { .. })
        {
            return stand;
        }
        let mut units = Vec::new();
        for_each_capture(pos, pos.side(), |_, unit| units.push(unit));
        if units.is_empty() {
            return stand;
        }
        let mut best = stand;
        alpha = alpha.max(stand);
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
                -self.horizon(&child, ply + 1, -beta - discount, -alpha - discount)
            } else {
                self.quiesce(&child, alpha + discount, beta + discount, ply + 2)
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
                    break;
                }
            }
        }
        best
    }
}

/// A horizon cache entry: the evaluation of the state with `key` (or bounds
/// on it, see `static_bounds`), and its goal test once made.
#[derive(Clone, Copy, Debug)]
pub(super) struct Leaf {
    key: u64,
    /// The evaluation lies in `low..=high`; equal when exact.
    low: i32,
    high: i32,
    /// 0 no goal, 1 a goal, [`Leaf::UNKNOWN`] not tested.
    goal: u8,
}

impl Leaf {
    const UNKNOWN: u8 = 2;
    /// No state has key 0 in practice; a stale match costs one wrong leaf score.
    pub(super) const EMPTY: Leaf = Leaf {
        key: 0,
        low: 0,
        high: 0,
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
        (stand, s.quiesce(pos, -INF, INF, 0))
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
}
