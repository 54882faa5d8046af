//! Iterative-deepening alpha-beta over steps.
//!
//! The root works on whole turns: every distinct legal turn (third repetitions
//! left out) is a root move, so the move played is legal by construction and a
//! goal this turn is found before any search. Below the root the tree is made
//! of single steps; a side keeps moving until its fourth step or until it ends
//! its turn early (allowed once the board has changed), and the score changes
//! sign only where the turn passes. Depth counts steps after the root turn;
//! iteration 0 is the static evaluation plus the exact test of whether the
//! opponent can reach goal on its next turn, so after it no move that loses at
//! once is ever chosen while another exists.

use crate::eval::evaluate;
use crate::goal::can_goal;
use crate::params::{Params, DEFAULT};
use crate::threats::for_each_capture;
use crate::tt::{Bound, TransTable};
use arimaa_core::rules::goal_or_elimination;
use arimaa_core::{Color, Game, Move, Pending, Position, Step, StepList, TurnGen};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Score of a won game, less the ply count so that faster wins score higher.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const WIN_BOUND: i32 = WIN - 1000;
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 128;
/// Entries of the horizon goal-test cache (a power of two).
const GOAL_CACHE: usize = 1 << 16;

/// Search limits. Times are measured from `start`; they live in atomics so that
/// the protocol thread can move them (AEI `moveused`) while the search runs.
#[derive(Debug)]
pub struct Limits {
    /// When the search (the `go`) started.
    pub start: Instant,
    /// Do not start a new iteration after this many milliseconds (`u64::MAX`: none).
    pub soft_ms: AtomicU64,
    /// Stop at this many milliseconds (`u64::MAX`: none).
    pub hard_ms: AtomicU64,
    /// Stop after this depth in steps (counting the root turn as 4).
    pub depth: Option<u32>,
}

impl Limits {
    /// Limits starting now.
    #[must_use]
    pub fn new(soft: Option<Duration>, hard: Option<Duration>, depth: Option<u32>) -> Limits {
        let ms = |d: Option<Duration>| d.map_or(u64::MAX, |d| d.as_millis() as u64);
        Limits {
            start: Instant::now(),
            soft_ms: AtomicU64::new(ms(soft)),
            hard_ms: AtomicU64::new(ms(hard)),
            depth,
        }
    }

    fn elapsed_ms(&self) -> u64 {
        self.start.elapsed().as_millis() as u64
    }
}

/// One completed iteration, for `info` lines.
#[derive(Clone, Debug)]
pub struct Report {
    /// Depth in steps, the root turn counted as 4.
    pub depth: u32,
    /// Score in centi-rabbits for the side to move.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Principal variation: turns, each with the side that plays it.
    pub pv: Vec<(Color, String)>,
}

/// The search's answer.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The turn to play.
    pub best: Move,
    /// Its text, capture tokens included.
    pub text: String,
    /// Score for the side to move.
    pub score: i32,
    /// Deepest completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum PvItem {
    Step(Step),
    /// A push: the enemy piece's step and the pusher's, one unit in the tree.
    Push(Step, Step),
    Pass,
}

struct RootMove {
    steps: Move,
    score: i32,
    pv: Vec<PvItem>,
}

/// The position after the root turn `steps`, replayed: the root list keeps
/// only the steps, a few bytes per turn instead of a whole board.
#[inline]
fn after(root: &Position, steps: Move) -> Position {
    root.after_turn(&steps)
}

/// A search over one game position.
pub struct Searcher<'a> {
    game: &'a Game,
    limits: &'a Limits,
    stop: &'a AtomicBool,
    tt: &'a TransTable,
    params: &'a Params,
    /// 0 for the thread that decides; helpers (lazy SMP) vary their search.
    helper: usize,
    /// Nodes of all threads, added in batches; `flushed` of ours are in it.
    total: Option<&'a AtomicU64>,
    flushed: u64,
    history: Vec<i32>,
    /// Horizon goal tests, direct-mapped by state key (bit 0 holds the answer).
    goal_cache: Vec<u64>,
    nodes: u64,
    aborted: bool,
    pv: Vec<[PvItem; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    killers: [[Option<Step>; 2]; MAX_PLY],
}

impl std::fmt::Debug for Searcher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl<'a> Searcher<'a> {
    /// A searcher for the game's current position.
    #[must_use]
    pub fn new(game: &'a Game, limits: &'a Limits, stop: &'a AtomicBool, tt: &'a TransTable) -> Searcher<'a> {
        Searcher {
            game,
            limits,
            stop,
            tt,
            params: &DEFAULT,
            helper: 0,
            total: None,
            flushed: 0,
            history: vec![0; 12 * 64],
            goal_cache: vec![0; GOAL_CACHE],
            nodes: 0,
            aborted: false,
            pv: vec![[PvItem::Pass; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            killers: [[None; 2]; MAX_PLY],
        }
    }

    /// Makes this a helper thread number `id` (lazy SMP): odd helpers start one
    /// step deeper, even ones try the second root move first, so that the
    /// threads fill the shared table with different parts of the tree.
    #[must_use]
    pub fn helper(mut self, id: usize) -> Self {
        self.helper = id;
        self
    }

    /// Uses the weights and constants `params` instead of the defaults.
    #[must_use]
    pub fn params(mut self, params: &'a Params) -> Self {
        self.params = params;
        self
    }

    /// Adds this thread's nodes to `total` as it goes (for node counts over all threads).
    #[must_use]
    pub fn counting(mut self, total: &'a AtomicU64) -> Self {
        self.total = Some(total);
        self
    }

    /// Nodes of all threads counted so far (this thread's alone without `counting`).
    fn nodes_so_far(&self) -> u64 {
        self.total
            .map_or(self.nodes, |t| t.load(Ordering::Relaxed) + self.nodes - self.flushed)
    }

    fn flush_nodes(&mut self) {
        if let Some(t) = self.total {
            t.fetch_add(self.nodes - self.flushed, Ordering::Relaxed);
            self.flushed = self.nodes;
        }
    }

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
        // the clock is read every 256 turns, and past the hard limit the rest keep
        // -INF, behind the scored ones.
        for (i, m) in moves.iter_mut().enumerate() {
            if i % 256 == 255 && self.past_hard_limit() {
                break;
            }
            let after = after(&root, m.steps);
            if self.wins_now(&after) {
                let r = self.result(&root, m.steps, WIN - 1, 4);
                report(&Report {
                    depth: 4,
                    score: r.score,
                    nodes: 0,
                    elapsed: self.limits.start.elapsed(),
                    pv: vec![(root.side(), r.text.clone())],
                });
                return Some(r);
            }
            m.score = -evaluate(&after, self.params);
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
            let Some(best_now) = self.iterate(&mut moves, extra) else {
                break;
            };
            best = best_now;
            completed = depth;
            let m = &moves[best];
            report(&Report {
                depth,
                score: m.score,
                nodes: self.nodes_so_far(),
                elapsed: self.limits.start.elapsed(),
                pv: format_pv(&root, m.steps, &m.pv),
            });
            // Bring the best move to the front for the next iteration.
            let chosen = moves.remove(best);
            moves.insert(0, chosen);
            best = 0;
            if m_is_decided(moves[0].score)
                || self.limits.depth.is_some_and(|d| depth >= d)
                || self.limits.elapsed_ms() >= self.limits.soft_ms.load(Ordering::Relaxed)
                || self.stop.load(Ordering::Relaxed)
            {
                break;
            }
        }
        self.flush_nodes();
        let m = &moves[best];
        Some(self.result(&root, m.steps, m.score, completed.max(4)))
    }

    fn result(&self, root: &Position, steps: Move, score: i32, depth: u32) -> SearchResult {
        SearchResult {
            best: steps,
            text: arimaa_core::format_move(root, &steps),
            score,
            depth,
            nodes: self.nodes_so_far(),
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
        for (i, m) in moves.iter_mut().enumerate() {
            let after = after(&root, m.steps);
            let score = if i == 0 {
                self.aspiration(&after, extra, m.score)
            } else {
                let s = -self.negamax(&after, extra, -alpha - 1, -alpha, 1);
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
            }
        }
        best
    }

    /// The first root move, searched in a window around its previous score and
    /// again in a full window if the score falls outside: most iterations
    /// confirm the last one's score, and a narrow window proves it faster.
    fn aspiration(&mut self, after: &Position, extra: i32, previous: i32) -> i32 {
        if extra > 0 && previous.abs() < WIN_BOUND {
            let width = self.params.aspiration;
            let (lo, hi) = (previous - width, previous + width);
            let score = -self.negamax(after, extra, -hi, -lo, 1);
            if self.aborted || (score > lo && score < hi) {
                return score;
            }
        }
        -self.negamax(after, extra, -INF, INF, 1)
    }

    /// True when told to stop or past the hard time limit.
    fn past_hard_limit(&self) -> bool {
        self.stop.load(Ordering::Relaxed) || self.limits.elapsed_ms() >= self.limits.hard_ms.load(Ordering::Relaxed)
    }

    /// The stop flag is read at every node (one relaxed load), the clock every
    /// 16 nodes: a node with a goal test in a race can take a millisecond, and
    /// 256 such nodes between two looks at the clock once made the engine
    /// answer a quarter of a second late.
    fn check_abort(&mut self) -> bool {
        if self.stop.load(Ordering::Relaxed) {
            self.aborted = true;
        } else if self.nodes & 15 == 0 {
            if self.nodes - self.flushed >= 4096 {
                self.flush_nodes();
            }
            if self.limits.elapsed_ms() >= self.limits.hard_ms.load(Ordering::Relaxed) {
                self.aborted = true;
            }
        }
        self.aborted
    }

    fn is_repetition(&self, hash: u64) -> bool {
        self.game.is_third_repetition(hash)
    }

    fn negamax(&mut self, pos: &Position, depth: i32, mut alpha: i32, beta: i32, ply: usize) -> i32 {
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
            return self.quiesce(pos, alpha, beta, ply);
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
        let ordered = self.order(pos, list, ply, tt_step);
        let mut best = -INF;
        let mut best_step = None;
        let mut any = false;
        if pos.can_end_turn() {
            let mut child = *pos;
            child.end_turn();
            if !self.is_repetition(child.hash()) {
                any = true;
                let score = self.child(&child, true, depth, alpha, beta, ply);
                if self.aborted {
                    return 0;
                }
                if score > best {
                    best = score;
                    if score > alpha {
                        alpha = score;
                        self.set_pv(ply, PvItem::Pass);
                    }
                }
                if alpha >= beta {
                    self.tt.store(key, None, score_to_tt(best, ply), depth, Bound::Lower);
                    return best;
                }
            }
        }
        'steps: for step in ordered {
            let mut child = *pos;
            child.make_step(step);
            // A push is one 2-step unit: its completions are searched from
            // here, two steps deeper, so no node inside the tree stands
            // half-way through a push. With one step of depth left the half
            // push goes to the horizon as before: completing it there too
            // (a quiescence search behind every push) cost 39 % more
            // instructions over `bench --depth 6`, and quiescence already
            // plays capturing pushes and pulls as 2-step units.
            let mut units = [(child, PvItem::Step(step)); 3];
            let (mut count, mut cost) = (1, 1);
            if depth >= 2 && matches!(child.pending(), Pending::Push { .. }) {
                let mut completions = StepList::new();
                child.legal_steps(&mut completions);
                (count, cost) = (0, 2);
                for &c in completions.as_slice().iter().take(units.len()) {
                    let mut after = child;
                    after.make_step(c);
                    units[count] = (after, PvItem::Push(step, c));
                    count += 1;
                }
            }
            for (after, item) in &mut units[..count] {
                let turn_passes = after.steps_left() == 0;
                if turn_passes {
                    if !after.can_end_turn() {
                        continue;
                    }
                    after.end_turn();
                    if self.is_repetition(after.hash()) {
                        continue;
                    }
                }
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
                if score > best {
                    best = score;
                    best_step = Some(step);
                    if score > alpha {
                        alpha = score;
                        self.set_pv(ply, *item);
                        if alpha >= beta {
                            self.add_killer(ply, step);
                            self.history[history_index(step)] += depth * depth;
                            break 'steps;
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

    /// Searches `child` within the window (`alpha`, `beta`) of the node at
    /// `ply`, from that node's side: negated when the turn passed to the opponent.
    fn child(&mut self, child: &Position, turn_passes: bool, depth: i32, alpha: i32, beta: i32, ply: usize) -> i32 {
        if turn_passes {
            -self.negamax(child, depth, -beta, -alpha, ply + 1)
        } else {
            self.negamax(child, depth, alpha, beta, ply + 1)
        }
    }

    /// Steps in search order: the table's step, captures of enemy pieces,
    /// killers, then by history; own losses last.
    fn order(&self, pos: &Position, list: StepList, ply: usize, tt_step: Option<Step>) -> Ordered {
        let us = pos.side();
        let mut out = Ordered {
            items: [0; StepList::CAPACITY],
            len: list.len(),
            steps: list,
            next: 0,
        };
        for (i, (slot, &s)) in out.items.iter_mut().zip(out.steps.as_slice()).enumerate() {
            let mut key = self.history[history_index(s)].min(1 << 20);
            if Some(s) == tt_step {
                key += 1 << 30;
            } else if let Some((victim, _)) = pos.capture_of(s) {
                key += if victim.color == us { -(1 << 24) } else { 1 << 28 };
            } else if self.killers[ply].contains(&Some(s)) {
                key += 1 << 26;
            }
            // Equal keys keep generation order: the lower index packs larger.
            *slot = (i64::from(key) << 16) | (0xFFFF - i as i64);
        }
        out
    }

    /// The score at the horizon: a win when the side to move can reach goal
    /// with its steps left, else the evaluation.
    fn horizon(&mut self, pos: &Position, ply: usize) -> i32 {
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
    fn quiesce(&mut self, pos: &Position, mut alpha: i32, beta: i32, ply: usize) -> i32 {
        let stand = self.horizon(pos, ply);
        if self.params.quiescence == 0
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
    fn cached_goal(&mut self, pos: &Position) -> bool {
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

    fn add_killer(&mut self, ply: usize, step: Step) {
        let k = &mut self.killers[ply];
        if k[0] != Some(step) {
            k[1] = k[0];
            k[0] = Some(step);
        }
    }

    fn set_pv(&mut self, ply: usize, item: PvItem) {
        self.pv[ply][ply] = item;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let next_len = self.pv_len[ply + 1].max(ply + 1);
        head[ply][ply + 1..next_len].copy_from_slice(&tail[0][ply + 1..next_len]);
        self.pv_len[ply] = next_len;
    }
}

/// Steps with their order keys packed above their indices, handed out best first
/// by selection: most nodes cut off after a step or two, so sorting the whole
/// list would be wasted.
struct Ordered {
    items: [i64; StepList::CAPACITY],
    steps: StepList,
    len: usize,
    next: usize,
}

impl Iterator for Ordered {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        let rest = &mut self.items[self.next..self.len];
        let (best, _) = rest.iter().enumerate().max_by_key(|&(_, v)| *v)?;
        rest.swap(0, best);
        let item = rest[0];
        self.next += 1;
        Some(self.steps.as_slice()[0xFFFF - (item & 0xFFFF) as usize])
    }
}

/// The table key of a search state: the state key, plus the turn's start
/// board mid-turn, since whether the turn may end there depends on it.
fn tt_key(pos: &Position) -> u64 {
    if pos.at_turn_start() {
        pos.state_key()
    } else {
        pos.state_key() ^ pos.turn_start_hash().rotate_left(29)
    }
}

/// History slot of a step: the piece and the arrival square.
fn history_index(step: Step) -> usize {
    step.piece().index() * 64 + step.to().index()
}

/// Win scores are stored relative to the node, not the root.
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score + ply as i32
    } else if score <= -WIN_BOUND {
        score - ply as i32
    } else {
        score
    }
}

fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score >= WIN_BOUND {
        score - ply as i32
    } else if score <= -WIN_BOUND {
        score + ply as i32
    } else {
        score
    }
}

fn m_is_decided(score: i32) -> bool {
    score.abs() >= WIN_BOUND
}

/// Game-end score at a turn start (the previous side just moved), from the
/// side to move's point of view, in the official order; `None` if the game goes on.
fn terminal(pos: &Position, ply: usize) -> Option<i32> {
    let win = WIN - ply as i32;
    goal_or_elimination(pos).map(|o| if o.winner == pos.side() { win } else { -win })
}

/// The PV as turns: the root turn, then the steps below it grouped by turn.
fn format_pv(root: &Position, first: Move, rest: &[PvItem]) -> Vec<(Color, String)> {
    let mut out = vec![(root.side(), arimaa_core::format_move(root, &first))];
    let mut pos = *root;
    for s in first.iter() {
        pos.make_step(s);
    }
    pos.end_turn();
    let mut turn_start = pos;
    let mut current = Move::new();
    for item in rest {
        let steps = match *item {
            PvItem::Step(s) => [Some(s), None],
            PvItem::Push(a, b) => [Some(a), Some(b)],
            PvItem::Pass => [None, None],
        };
        for s in steps.into_iter().flatten() {
            pos.make_step(s);
            current.push(s);
            if pos.steps_left() == 0 {
                out.push((turn_start.side(), arimaa_core::format_move(&turn_start, &current)));
                pos.end_turn();
                turn_start = pos;
                current = Move::new();
            }
        }
        match item {
            PvItem::Step(_) | PvItem::Push(..) => {}
            PvItem::Pass => {
                if !current.is_empty() {
                    out.push((turn_start.side(), arimaa_core::format_move(&turn_start, &current)));
                }
                pos.end_turn();
                turn_start = pos;
                current = Move::new();
            }
        }
    }
    if !current.is_empty() {
        out.push((turn_start.side(), arimaa_core::format_move(&turn_start, &current)));
    }
    out
}
