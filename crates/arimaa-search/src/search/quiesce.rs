//! The horizon: the exact goal test (cached), the evaluation, and a
//! quiescence search of push and pull captures.

use super::{Searcher, LEAF_CACHE, MAX_PLY, WIN, WIN_BOUND};
use crate::eval::evaluate;
use crate::goal::can_goal;
use crate::params::Param;
use crate::threats::for_each_capture;
use arimaa_core::{Pending, Position};

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
                eval: evaluate(pos, self.params),
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

    /// Quiescence at the horizon: when the side to move can still capture with
    /// a push or pull this turn, it may play those captures (and further ones)
    /// instead of standing on the evaluation. A capture that ends the turn is
    /// scored by the opponent's horizon, its goal test included, so a capture
    /// that opens the way to goal is seen as the loss it is.
    pub(super) fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let stand = self.horizon(pos, ply, beta);
        if self.params[Param::quiescence] == 0
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
        let legal = pos.legal_step_list();
        for [s1, s2] in units {
            if !legal.as_slice().contains(&s1) {
                continue;
            }
            let mut child = *pos;
            child.make_step(s1);
            if !child.legal_step_list().as_slice().contains(&s2) {
                continue;
            }
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
                -self.horizon(&child, ply + 1, -alpha)
            } else {
                self.quiesce(&child, alpha, beta, ply + 2)
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
