//! The horizon: the exact goal test (cached), the evaluation, and a
//! quiescence search of the captures the side to move can make with its
//! steps left.

use super::{Searcher, INF, LEAF_CACHE, MAX_PLY, WIN, WIN_BOUND};
use crate::goal::can_goal;
use crate::threats::{for_each_capture, setup_zone};
use arimaa_core::{Pending, Position, StepList};

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

    /// Quiescence at the horizon: when the side to move can still capture
    /// this turn, it may play those captures (and further ones) instead of
    /// standing on the evaluation. A capture that ends the turn is answered
    /// by `turns` more turns of the other side's captures (the search asks
    /// for one), then scored by the horizon, its goal test included, so a
    /// capture that loses the capturer or opens the way to goal is seen as
    /// the loss it is. A side that stands on the evaluation meets no
    /// captures: its threats are the evaluation's to price.
    pub(super) fn quiesce(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize, turns: u8) -> i32 {
        let on = self.params.search.quiescence && ply < MAX_PLY - 8;
        // Half a push is no board to score: the pushed piece has moved and
        // the pusher not. The push is finished first, whichever pusher fills
        // the square best.
        if on && matches!(pos.pending(), Pending::Push { .. }) {
            if let Some(score) = self.finish(pos, alpha, beta, ply, turns, -INF) {
                return score;
            }
        }
        let stand = self.horizon(pos, ply, alpha, beta);
        if !on || stand >= WIN_BOUND || stand >= beta || matches!(pos.pending(), Pending::Push { .. }) {
            return stand;
        }
        // An open pull may be finished (into the trap the puller left, or
        // onto a square from which a second push or pull follows) or left.
        let mut best = stand;
        if matches!(pos.pending(), Pending::Pull { .. }) {
            best = self
                .finish(pos, alpha.max(stand), beta, ply, turns, stand)
                .unwrap_or(stand);
            if best >= beta {
                return best;
            }
        }
        if pos.steps_left() < 2 {
            return best;
        }
        self.captures(pos, best, alpha.max(best), beta, ply, turns)
    }

    /// The best of `best` and of the steps that close the open push or pull
    /// of `pos`, each followed by the rest of quiescence (the other side's
    /// horizon when it ends the turn); `None` when no such step can be
    /// played (a repetition, or a pull with no victim left to follow).
    fn finish(
        &mut self,
        pos: &Position,
        mut alpha: i32,
        beta: i32,
        ply: usize,
        turns: u8,
        mut best: i32,
    ) -> Option<i32> {
        let mut steps = StepList::new();
        pos.legal_steps(&mut steps);
        let them = pos.side().opponent();
        let discount = self.root_discount(pos);
        let mut found = false;
        for &step in steps.as_slice() {
            // Closing a pull moves the enemy victim; every step closes a push.
            let closes = match pos.pending() {
                Pending::Push { .. } => true,
                Pending::Pull { from, .. } => step.piece().color == them && step.to() == from,
                Pending::None => false,
            };
            if !closes {
                continue;
            }
            let mut child = *pos;
            child.make_step(step);
            self.nodes += 1;
            let captured = child.color_bb(them).count() < pos.color_bb(them).count();
            let discount = if captured { discount } else { 0 };
            let Some(score) = self.unit_score(child, (alpha, beta), ply, 1, turns, discount) else {
                continue;
            };
            found = true;
            if score > best {
                best = score;
                alpha = alpha.max(score);
                if best >= beta {
                    break;
                }
            }
        }
        found.then_some(best)
    }

    /// The score of `child`, reached from the node at `ply` (window
    /// `alpha..beta`) by a unit of `steps` steps, for the side that played
    /// it, less `discount`: the rest of quiescence, or where the unit ends
    /// the turn the other side's (`turns` more turns of its captures, else
    /// its horizon). `None` when that turn cannot end or repeats a position.
    fn unit_score(
        &mut self,
        mut child: Position,
        (alpha, beta): (i32, i32),
        ply: usize,
        steps: usize,
        turns: u8,
        discount: i32,
    ) -> Option<i32> {
        let score = if child.steps_left() == 0 {
            if !child.can_end_turn() {
                return None;
            }
            child.end_turn();
            if self.is_repetition(child.hash()) {
                return None;
            }
            if turns > 0 {
                -self.quiesce(&child, -beta - discount, -alpha - discount, ply + 1, turns - 1)
            } else {
                -self.horizon(&child, ply + 1, -beta - discount, -alpha - discount)
            }
        } else {
            self.quiesce(&child, alpha + discount, beta + discount, ply + steps, turns)
        };
        // A won score stays exact: the discount prices uncertainty about
        // material, not about a goal.
        Some(if score.abs() >= WIN_BOUND {
            score
        } else {
            score - discount
        })
    }

    /// What quiescence takes off each capture the side to move plays: the
    /// root side's only (see `quiesce_discount`).
    fn root_discount(&self, pos: &Position) -> i32 {
        if pos.side() == self.game.side_to_move() {
            self.params.search.quiesce_discount.map_or(0, |d| d.get() as i32)
        } else {
            0
        }
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
        let discount = self.root_discount(pos);
        // The units are played as found: every one is legal from here and
        // captures (two steps left, no push open; tests/threats.rs checks
        // them against full step generation), so no step list is generated.
        for [s1, s2] in units {
            let mut child = *pos;
            child.make_step(s1);
            child.make_step(s2);
            self.nodes += 1;
            let Some(score) = self.unit_score(child, (alpha, beta), ply, 2, turns, discount) else {
                continue;
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
                count = 0;
                for c in child.push_completions().take(units.len()) {
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
mod tests;
