//! The root: every distinct legal turn is a root move, checked for a win on
//! the spot, ordered by its static score and searched by iterative deepening
//! with an aspiration window on the first.

use super::prune::root_reduction;
use super::pv::{pv_turns, PvItem};
use super::{m_is_decided, terminal, Report, SearchResult, Searcher, INF, MAX_PLY, WIN, WIN_BOUND};
use arimaa_core::{Move, Position, TurnGen};

struct RootMove {
    steps: Move,
    score: i32,
    pv: Vec<PvItem>,
}

/// The position after the root turn `steps`, replayed: the root list keeps
/// only the steps, a few bytes per turn instead of a whole board.
#[inline]
pub(super) fn after(root: &Position, steps: Move) -> Position {
    root.after_turn(&steps)
}

/// A step through a list of `n` that visits every index once and lands far
/// apart from the start: the first coprime of `n` from about 0.618 `n` up.
fn spread_stride(n: usize) -> usize {
    fn gcd(a: usize, b: usize) -> usize {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }
    let mut stride = (n * 618 / 1000).max(1);
    while gcd(stride, n) != 1 {
        stride += 1;
    }
    stride
}

/// Whether the leaves of an iteration of `depth` steps stand inside the
/// opponent's turn, some of its steps played and some not (5–7, 13–15, ...):
/// the evaluation, fitted at turn starts, judged those worst (docs/results.md,
/// session 58).
fn inside_opponent_turn(depth: u32) -> bool {
    (5..=7).contains(&(depth % 8))
}

/// The `k`-th index of the walk with `stride` over a list of `n`.
#[inline]
fn spread_index(k: usize, stride: usize, n: usize) -> usize {
    ((k as u64 * stride as u64) % n as u64) as usize
}

impl Searcher<'_> {
    /// Runs iterative deepening until a limit or `stop`; `report` gets every
    /// completed iteration. `None` only when the side to move has no legal turn.
    pub fn run(&mut self, report: &mut dyn FnMut(&Report)) -> Option<SearchResult> {
        self.tt.new_search();
        let root = *self.game.position();
        // The generator's tables (megabytes in a wide position) go before the search.
        let mut moves: Vec<RootMove> = self
            .game
            .legal_turns(&mut TurnGen::new())
            .into_iter()
            .map(|t| RootMove {
                steps: t.steps,
                score: -INF,
                pv: Vec::new(),
            })
            .collect();
        if moves.is_empty() {
            return None;
        }
        // Every root move is checked for a win on the spot (that needs no search)
        // and scored for ordering. In a wide position that is 40,000 turns and
        // tens of milliseconds, more than a 0.1 s move can spare on a busy machine:
        // the clock is read every 256 turns, and past the hard limit (or on
        // `stop`) the rest keep -INF, behind the scored ones. The generator lists
        // turns grouped by their first steps, so the scoring walks the list in a
        // spread order: a list cut short in generator order once held nothing but
        // turns starting with a cat walking into a trap, and the engine played one.
        let (count, stride) = (moves.len(), spread_stride(moves.len()));
        for k in 0..count {
            if k % 256 == 255 && self.past_hard_limit() {
                break;
            }
            let m = &mut moves[spread_index(k, stride, count)];
            let after = after(&root, m.steps);
            if self.wins_now(&after) {
                let r = self.result(m.steps, WIN - 1, 4, vec![m.steps]);
                report(&Report {
                    depth: 4,
                    score: r.score,
                    nodes: 0,
                    elapsed: self.time.elapsed(),
                    pv: r.pv.clone(),
                });
                return Some(r);
            }
            m.score = -self.static_estimate(&after);
        }
        moves.sort_by_key(|m| -m.score);
        if self.helper > 0 && self.helper.is_multiple_of(2) && moves.len() > 1 {
            moves.swap(0, 1);
        }
        let mut best = 0;
        let mut completed = 0;
        let first = i32::from(self.helper % 2 == 1);
        for extra in first..(MAX_PLY as i32 - 8) {
            let depth = 4 + extra as u32;
            let previous = (completed > 0).then_some(moves[0].score);
            self.searching = depth;
            let Some(best_now) = self.iterate(&mut moves, extra) else {
                break;
            };
            if let Some(previous) = previous {
                self.stretch(best_now != 0, previous - moves[best_now].score);
            }
            best = best_now;
            completed = depth;
            let m = &moves[best];
            report(&Report {
                depth,
                score: m.score,
                nodes: self.nodes_so_far(),
                elapsed: self.time.elapsed(),
                pv: pv_turns(&root, m.steps, &m.pv),
            });
            // Bring the best move to the front for the next iteration; with
            // root reductions the rest are ranked by this iteration's scores
            // (upper bounds from the null windows: the tighter, the likelier).
            let chosen = moves.remove(best);
            moves.insert(0, chosen);
            self.lead(&moves[0]);
            if self.params.search.root_reduce {
                moves[1..].sort_by_key(|m| -m.score);
            }
            best = 0;
            if m_is_decided(moves[0].score) || self.max_depth.is_some_and(|d| depth >= d) || self.time.stopped() {
                break;
            }
            if self.time.past_soft() && !self.finishes_turn(depth) {
                break;
            }
        }
        self.flush_nodes();
        let m = &moves[best];
        let pv = pv_turns(&root, m.steps, &m.pv);
        Some(self.result(m.steps, m.score, completed.max(4), pv))
    }

    /// Past the soft limit after an iteration of `depth`: whether to go on
    /// to the end of the opponent's turn, letting the next iteration run to
    /// the most the budget may stretch to. The deciding thread only, with
    /// `turn_end` on, while that most is not reached.
    fn finishes_turn(&self, depth: u32) -> bool {
        self.helper == 0 && self.params.search.turn_end && inside_opponent_turn(depth) && self.time.allow_max()
    }

    /// Notes `m` as the best root turn known, for progress reports (only
    /// when someone listens: the copy of its line is not free).
    fn lead(&mut self, m: &RootMove) {
        if self.progress.is_some() {
            self.leader = Some((m.steps, m.score, m.pv.clone()));
        }
    }

    /// Lets the clock stretch after an iteration (see
    /// [`TimeManager::after_iteration`]): the deciding thread only, with
    /// `time_stretch` on.
    ///
    /// [`TimeManager::after_iteration`]: crate::time::TimeManager::after_iteration
    fn stretch(&self, changed: bool, fall: i32) {
        if self.helper == 0 && self.params.search.time_stretch {
            self.time.after_iteration(changed, fall);
        }
    }

    fn result(&self, steps: Move, score: i32, depth: u32, pv: Vec<Move>) -> SearchResult {
        SearchResult {
            best: steps,
            score,
            depth,
            nodes: self.nodes_so_far(),
            pv,
            cuts: self.cuts,
        }
    }

    /// True when the turn that produced `after` ends the game in the mover's favour.
    fn wins_now(&self, after: &Position) -> bool {
        terminal(after, 0).is_some_and(|s| s < 0) || after.legal_step_list().is_empty()
    }

    /// One iteration over all root moves with `extra` steps after each. Returns
    /// the index of the best, or `None` when aborted before anything useful.
    ///
    /// When iteration 0 (the safety check) is cut short, the best of the moves
    /// it has checked is used: each of those is known to lose at once or not.
    fn iterate(&mut self, moves: &mut [RootMove], extra: i32) -> Option<usize> {
        let mut alpha = -INF;
        let mut best = None;
        let root = *self.game.position();
        let count = moves.len();
        for (i, m) in moves.iter_mut().enumerate() {
            let after = after(&root, m.steps);
            let score = if i == 0 {
                self.aspiration(&after, extra, m.score)
            } else {
                // Late turns first shallower (see `prune`), then at full
                // depth if they beat the best so far.
                let r = root_reduction(&self.params.search, i, count, extra);
                let mut s = -self.negamax(&after, extra - r, -alpha - 1, -alpha, 1);
                if r > 0 && s > alpha && !self.aborted {
                    s = -self.negamax(&after, extra, -alpha - 1, -alpha, 1);
                }
                if s > alpha && !self.aborted {
                    -self.negamax(&after, extra, -INF, -alpha, 1)
                } else {
                    s
                }
            };
            if self.aborted {
                // Keep a move that beat the previous best in this iteration; in
                // iteration 0 every checked move is known safe or not.
                return best.filter(|&b| b != 0 || extra == 0);
            }
            m.score = score;
            if score > alpha || i == 0 {
                alpha = score;
                best = Some(i);
                m.pv = self.pv[1][1..self.pv_len[1]].to_vec();
                self.lead(m);
            }
        }
        best
    }

    /// The first root move, searched in a window around its previous score and
    /// again in a full window if the score falls outside: most iterations
    /// confirm the last one's score, and a narrow window proves it faster.
    fn aspiration(&mut self, after: &Position, extra: i32, previous: i32) -> i32 {
        if extra > 0 && previous.abs() < WIN_BOUND {
            let width = self.params.search.aspiration;
            let (lo, hi) = (previous - width, previous + width);
            let score = -self.negamax(after, extra, -hi, -lo, 1);
            if self.aborted || (score > lo && score < hi) {
                return score;
            }
        }
        -self.negamax(after, extra, -INF, INF, 1)
    }
}

#[cfg(test)]
mod tests {
    use crate::params::{Params, SearchConfig, DEFAULT};
    use crate::search::Searcher;
    use crate::time::{Budget, TimeManager};
    use crate::tt::TransTable;
    use arimaa_core::Game;
    use std::time::Duration;

    #[test]
    fn the_spread_walk_visits_every_root_move_once() {
        for n in [1, 2, 3, 10, 64, 255, 256, 1000, 4096, 40_321] {
            let stride = super::spread_stride(n);
            let mut seen = vec![false; n];
            for k in 0..n {
                let i = super::spread_index(k, stride, n);
                assert!(!seen[i], "n {n}: index {i} twice");
                seen[i] = true;
            }
        }
    }

    /// A `stop` before the search starts leaves only the static scores of the
    /// first 256 turns scored; they must come from across the list, not all
    /// from the generator's first group (which here walks a cat into c3).
    #[test]
    fn a_search_stopped_at_once_does_not_throw_a_piece_away() {
        let root = arimaa_core::Position::standard();
        let game = Game::from_position(root);
        let (time, tt) = (TimeManager::unlimited(), TransTable::new(1));
        time.stop();
        let r = Searcher::new(&game, &time, &tt).run(&mut |_| {}).expect("a legal turn");
        let after = root.after_turn(&r.best);
        assert_eq!(
            after.occupied().count(),
            root.occupied().count(),
            "stopped at once, it played {}",
            arimaa_core::format_move(&root, &r.best)
        );
    }

    /// Past the soft limit, `turn_end` goes on from depths 5–7 (and 13–15)
    /// with the hard limit raised to the budget's most, and not from a turn
    /// end, nor for a helper, nor once the most is reached.
    #[test]
    fn turn_end_goes_on_only_inside_the_opponents_turn() {
        let game = Game::new();
        let tt = TransTable::new(1);
        let budget = |max| {
            TimeManager::budgeted(Budget {
                soft: Duration::from_millis(0),
                hard: Duration::from_millis(1_000),
                max: Duration::from_millis(max),
            })
        };
        let on = Params {
            search: SearchConfig {
                turn_end: true,
                ..DEFAULT.search
            },
            ..DEFAULT
        };
        let time = budget(60_000);
        let searcher = Searcher::new(&game, &time, &tt).params(&on);
        for depth in [4, 8, 9, 10, 11, 12, 16] {
            assert!(!searcher.finishes_turn(depth), "depth {depth} ends a turn or is ours");
        }
        assert_eq!(time.limits_ms(), (0, 1_000), "unchanged");
        for depth in [5, 6, 7, 13, 14, 15] {
            assert!(searcher.finishes_turn(depth), "depth {depth}");
        }
        assert_eq!(time.limits_ms(), (0, 60_000), "the hard limit raised to the most");

        let time = budget(60_000);
        assert!(!Searcher::new(&game, &time, &tt).params(&on).helper(1).finishes_turn(7));
        assert!(!Searcher::new(&game, &time, &tt).finishes_turn(7), "off by default");
        let spent = budget(0);
        assert!(
            !Searcher::new(&game, &spent, &tt).params(&on).finishes_turn(7),
            "the most is reached"
        );
        assert_eq!(time.limits_ms(), (0, 1_000));
    }

    #[test]
    fn only_the_deciding_thread_stretches_and_only_with_time_stretch() {
        let game = Game::new();
        let tt = TransTable::new(1);
        let budget = || {
            TimeManager::budgeted(Budget {
                soft: Duration::from_millis(100),
                hard: Duration::from_millis(200),
                max: Duration::from_millis(450),
            })
        };
        let with = |time_stretch| Params {
            search: SearchConfig {
                time_stretch,
                ..DEFAULT.search
            },
            ..DEFAULT
        };
        let on = with(true);
        let time = budget();
        Searcher::new(&game, &time, &tt).params(&on).stretch(true, 0);
        assert_eq!(time.limits_ms(), (150, 300), "a new best move: half as long again");

        let off = with(false);
        let time = budget();
        Searcher::new(&game, &time, &tt).params(&off).stretch(true, 500);
        assert_eq!(time.limits_ms(), (100, 200), "time_stretch off");
        let time = budget();
        Searcher::new(&game, &time, &tt)
            .params(&on)
            .helper(1)
            .stretch(true, 500);
        assert_eq!(time.limits_ms(), (100, 200), "a helper");
    }
}
