//! The horizon: the exact goal test (cached), the evaluation, and a
//! quiescence search of push and pull captures.

use super::{Searcher, LEAF_CACHE, MAX_PLY, WIN, WIN_BOUND};
use crate::goal::{can_goal, find_goal, goal_within};
use crate::threats::for_each_capture;
use arimaa_core::{Bitboard, Pending, Position};

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
        let slot = leaf_slot(key);
        let mut leaf = self.leaf_cache[slot];
        if leaf.key != key {
            leaf = Leaf {
                key,
                eval: self.static_eval(pos),
                goal: Leaf::UNKNOWN,
                threat: Leaf::UNKNOWN,
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

    /// Where the horizon at `pos` should wait for the end of the mover's
    /// turn, searching only steps that touch the returned squares: when the
    /// extension is on and unused on this line, no push is half done, the
    /// mover cannot reach goal itself and stands above `alpha` (a threat
    /// can only lower a score already failing low), and the side not to
    /// move could reach goal from this board in a turn of its own. The
    /// static score cannot see a goal threat that the mover must answer;
    /// the goal test at the next turn start does. The squares are those
    /// within two steps of the goal path: a defence blocks, freezes,
    /// moves or captures the rabbit on its way.
    pub(super) fn goal_threat(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize) -> Option<Bitboard> {
        if !self.params.search.goal_extension || self.extension.is_some() || pos.pending() != Pending::None {
            return None;
        }
        let stand = self.horizon(pos, ply, beta);
        if stand >= WIN_BOUND || stand <= alpha {
            return None;
        }
        let mut other = *pos;
        other.end_turn();
        // `horizon` has just filled the entry of `pos` (the same key).
        let slot = leaf_slot(pos.state_key());
        if self.leaf_cache[slot].threat == Leaf::UNKNOWN {
            self.leaf_cache[slot].threat = u8::from(goal_within(&other, THREAT_TEST_STEPS));
        }
        // In a race nearly every leaf holds a threat: the extensions may
        // take a fifth of the nodes, no more (unbounded, one move at depth 8
        // took 200 times the nodes).
        if self.leaf_cache[slot].threat == 0 || self.extension_nodes * 4 > self.nodes {
            return None;
        }
        // The mover's own goal, which `horizon` skips above `beta`: the
        // extension's steps near the other side's path might not reach it.
        if self.horizon(pos, ply, WIN_BOUND) >= WIN_BOUND {
            return None;
        }
        let path = find_goal(&other)?;
        let squares = path.iter().fold(Bitboard::EMPTY, |b, s| {
            b | Bitboard::from_square(s.from()) | Bitboard::from_square(s.to())
        });
        let near = squares | squares.neighbors();
        Some(near | near.neighbors())
    }

    /// Quiescence at the horizon: when the side to move can still capture with
    /// a push or pull this turn, it may play those captures (and further ones)
    /// instead of standing on the evaluation. A capture that ends the turn is
    /// scored by the opponent's horizon, its goal test included, so a capture
    /// that opens the way to goal is seen as the loss it is.
    pub(super) fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let stand = self.horizon(pos, ply, beta);
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
                -self.horizon(&child, ply + 1, -alpha - discount)
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

/// A horizon cache entry: the evaluation of the state with `key`, and its goal
/// test once made.
#[derive(Clone, Copy, Debug)]
pub(super) struct Leaf {
    key: u64,
    eval: i32,
    /// 0 no goal, 1 a goal, [`Leaf::UNKNOWN`] not tested.
    goal: u8,
    /// The same for the side not to move, in a turn of its own.
    threat: u8,
}

/// Steps the threat test may try: an exhaustive goal test that finds
/// nothing, for a side with rabbits near goal, cost a search 20 times its
/// time at depth 8; a threat the test cannot find within these steps is
/// left to the static score.
const THREAT_TEST_STEPS: u32 = 64;

/// The horizon cache's slot for a state key.
fn leaf_slot(key: u64) -> usize {
    (key >> 40) as usize & (LEAF_CACHE - 1)
}

impl Leaf {
    const UNKNOWN: u8 = 2;
    /// No state has key 0 in practice; a stale match costs one wrong leaf score.
    pub(super) const EMPTY: Leaf = Leaf {
        key: 0,
        eval: 0,
        goal: Leaf::UNKNOWN,
        threat: Leaf::UNKNOWN,
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
        let stand = s.horizon(pos, 0, INF);
        (stand, s.quiesce(pos, -INF, INF, 0))
    }

    /// The score of `pos` searched to depth 0 (the horizon), with the
    /// goal-threat extension on or off.
    fn at_horizon(pos: &Position, extension: bool) -> i32 {
        let game = Game::from_position(*pos);
        let (time, tt) = (TimeManager::unlimited(), TransTable::new(1));
        let params = Params {
            search: SearchConfig {
                goal_extension: extension,
                ..DEFAULT.search
            },
            ..DEFAULT
        };
        let mut s = Searcher::new(&game, &time, &tt).params(&params);
        s.negamax(pos, 0, -INF, INF, 0)
    }

    #[test]
    fn a_goal_threat_at_the_horizon_is_searched_to_the_end_of_the_turn() {
        // Silver's rabbits on a2 and h2 each step to goal next turn; gold's
        // elephant on d4 can stop one of them, not both.
        let lost = board(
            [
                "........", "........", "........", "........", "...E....", "........", "r..RR..r", "........",
            ],
            'g',
        );
        let plain = at_horizon(&lost, false);
        assert!(plain > -WIN_BOUND, "the static score alone: {plain}");
        let extended = at_horizon(&lost, true);
        assert!(extended <= -WIN_BOUND, "the goal that follows: {extended}");

        // One rabbit on a2, and gold's dog on b1 closes a1 (and freezes it).
        let held = board(
            [
                "........", "........", "........", "........", "...E....", "........", "r..RR...", ".D......",
            ],
            'g',
        );
        let extended = at_horizon(&held, true);
        assert!(extended > -WIN_BOUND, "the defence is found: {extended}");
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
