//! The horizon: the exact goal test (cached), the evaluation, and a
//! quiescence search of push and pull captures.

use super::{Searcher, GOAL_CACHE, MAX_PLY, WIN, WIN_BOUND};
use crate::eval::evaluate;
use crate::goal::can_goal;
use crate::params::Param;
use crate::threats::for_each_capture;
use arimaa_core::{Pending, Position};

impl Searcher<'_> {
    /// The score at the horizon: a win when the side to move can reach goal
    /// with its steps left, else the evaluation.
    pub(super) fn horizon(&mut self, pos: &Position, ply: usize) -> i32 {
        if self.cached_goal(pos) {
            return WIN - ply as i32 - pos.steps_left() as i32;
        }
        evaluate(pos, self.params)
    }

    /// Quiescence at the horizon: when the side to move can still capture with
    /// a push or pull this turn, it may play those captures (and further ones)
    /// instead of standing on the evaluation. A capture that ends the turn is
    /// scored by the opponent's horizon, its goal test included, so a capture
    /// that opens the way to goal is seen as the loss it is.
    pub(super) fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let stand = self.horizon(pos, ply);
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
                -self.horizon(&child, ply + 1)
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

    /// The goal test at the horizon, remembered: the same leaves come back
    /// through transpositions and in every iteration.
    pub(super) fn cached_goal(&mut self, pos: &Position) -> bool {
        // The answer depends on the state alone (board, side, steps, open push or pull).
        let key = pos.state_key();
        let slot = (key >> 40) as usize & (GOAL_CACHE - 1);
        let entry = self.goal_cache[slot];
        if entry != 0 && entry | 1 == key | 1 {
            return entry & 1 == 1;
        }
        let goal = can_goal(pos);
        self.goal_cache[slot] = (key & !1) | u64::from(goal);
        goal
    }
}
