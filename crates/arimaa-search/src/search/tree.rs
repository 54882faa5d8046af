//! The step tree: negamax with principal-variation search over single steps
//! (a push as one two-step unit), the transposition table, and the turn
//! passing to the opponent after the fourth step or an early end of turn.

use super::order::history_index;
use super::prune::redundant;
use super::pv::PvItem;
use super::{score_from_tt, score_to_tt, terminal, tt_key, Searcher, INF, MAX_PLY, WIN};
use crate::tt::Bound;
use arimaa_core::{Pending, Position, Step, StepList};

impl Searcher<'_> {
    pub(super) fn negamax(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        self.nodes += 1;
        self.pv_len[ply] = ply;
        if self.check_abort() {
            return 0;
        }
        if pos.at_turn_start() {
            if let Some(score) = terminal(pos, ply) {
                return score;
            }
        }
        if depth <= 0 || ply >= MAX_PLY - 4 {
            return self.quiesce(pos, alpha, beta, ply, 1);
        }
        let key = tt_key(pos);
        let mut tt_step = None;
        if let Some(e) = self.tt.probe(key) {
            tt_step = e.step;
            let score = score_from_tt(e.score, ply);
            if e.depth >= depth {
                let cut = match e.bound {
                    Bound::Exact => true,
                    Bound::Lower => score >= beta,
                    Bound::Upper => score <= alpha,
                };
                if cut {
                    return score;
                }
            }
        }
        let alpha_in = alpha;
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let mut ordered = self.order(pos, list, ply, tt_step);
        let mut best = -INF;
        let mut best_step = None;
        let mut any = false;
        let mut searched = 0u32;
        // Ending the turn here is one more unit: after the table's step when
        // the table has one (a step was best here before), else first.
        let mut pass = pos.can_end_turn();
        let mut first = if tt_step.is_some() { ordered.next() } else { None };
        let prev = self.prev[ply];
        'units: loop {
            let mut units = [(*pos, PvItem::Pass); 3];
            let (count, cost, step) = if let Some(step) = first.take() {
                if redundant(&self.params.search, prev, pos.side(), step) {
                    continue;
                }
                let (count, cost) = self.expand(pos, step, depth, &mut units);
                (count, cost, Some(step))
            } else if std::mem::take(&mut pass) {
                units[0].0.end_turn();
                let cost = if self.params.search.pass_cost {
                    i32::from(pos.steps_left())
                } else {
                    0
                };
                (1, cost, None)
            } else if let Some(step) = ordered.next() {
                if redundant(&self.params.search, prev, pos.side(), step) {
                    continue;
                }
                let (count, cost) = self.expand(pos, step, depth, &mut units);
                (count, cost, Some(step))
            } else {
                break;
            };
            for (after, item) in &mut units[..count] {
                let turn_passes = step.is_none() || after.steps_left() == 0;
                if turn_passes {
                    if step.is_some() {
                        if !after.can_end_turn() {
                            continue;
                        }
                        after.end_turn();
                    }
                    if self.is_repetition(after.hash()) {
                        continue;
                    }
                }
                // The next node may skip steps that commute with this one
                // (see `prune::redundant`); only an own single step counts.
                self.prev[ply + 1] = match step {
                    Some(s) if !turn_passes && cost == 1 && s.piece().color == pos.side() => Some(s),
                    _ => None,
                };
                // Principal-variation search: after the first move, prove with a
                // null window that a move is no better, and search again only if not.
                let mut score = -INF;
                if any {
                    score = self.child(after, turn_passes, depth - cost, alpha, alpha + 1, ply);
                }
                if !any || (score > alpha && score < beta && !self.aborted) {
                    score = self.child(after, turn_passes, depth - cost, alpha, beta, ply);
                }
                if self.aborted {
                    return 0;
                }
                any = true;
                searched += 1;
                if score > best {
                    best = score;
                    best_step = step;
                    if score > alpha {
                        alpha = score;
                        self.set_pv(ply, *item);
                        if alpha >= beta {
                            self.cuts.total += 1;
                            self.cuts.first += u64::from(searched == 1);
                            if let Some(step) = step {
                                self.add_killer(ply, step);
                                self.history[history_index(step)] += depth * depth;
                            }
                            break 'units;
                        }
                    }
                }
            }
        }
        if !any {
            // No way to finish a legal turn from here: at a turn start that is
            // immobilization; mid-turn the path was a dead end.
            return -(WIN - ply as i32);
        }
        let bound = if best >= beta {
            Bound::Lower
        } else if best > alpha_in {
            Bound::Exact
        } else {
            Bound::Upper
        };
        self.tt.store(key, best_step, score_to_tt(best, ply), depth, bound);
        best
    }

    /// The units `step` starts, into `units`: the step itself, or with two
    /// steps of depth or more the completions of the push it begins (a push
    /// is one 2-step unit, so no node inside the tree stands half-way through
    /// one). With one step of depth left the half push goes to the horizon:
    /// completing it there too (a quiescence search behind every push) cost
    /// 39 % more instructions over `bench --depth 6`, and quiescence already
    /// plays capturing pushes and pulls as 2-step units. Returns the number
    /// of units and their cost in steps.
    fn expand(&self, pos: &Position, step: Step, depth: i32, units: &mut [(Position, PvItem); 3]) -> (usize, i32) {
        let mut child = *pos;
        child.make_step(step);
        if depth >= 2 && matches!(child.pending(), Pending::Push { .. }) {
            let mut count = 0;
            for c in child.push_completions().take(units.len()) {
                let mut after = child;
                after.make_step(c);
                units[count] = (after, PvItem::Push(step, c));
                count += 1;
            }
            (count, 2)
        } else {
            units[0] = (child, PvItem::Step(step));
            (1, 1)
        }
    }

    /// Searches `child` within the window (`alpha`, `beta`) of the node at
    /// `ply`, from that node's side: negated when the turn passed to the opponent.
    pub(super) fn child(
        &mut self,
        child: &Position,
        turn_passes: bool,
        depth: i32,
        alpha: i32,
        beta: i32,
        ply: usize,
    ) -> i32 {
        if turn_passes {
            -self.negamax(child, depth, -beta, -alpha, ply + 1)
        } else {
            self.negamax(child, depth, alpha, beta, ply + 1)
        }
    }
}
