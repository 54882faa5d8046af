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

mod leaf;
mod order;
mod prune;
mod pv;
mod quiesce;
mod root;
mod tree;

pub use leaf::static_score;

use crate::nnue::{Tracker, EMBEDDED};
use crate::params::{Params, DEFAULT};
use crate::time::TimeManager;
use crate::tt::TransTable;
use arimaa_core::rules::goal_or_elimination;
use arimaa_core::{Game, Move, Position, Step};
use pv::PvItem;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

/// Score of a won game, less the ply count so that faster wins score higher.
pub const WIN: i32 = 30_000;
/// Scores beyond this are wins or losses.
pub const WIN_BOUND: i32 = WIN - 1000;
const INF: i32 = WIN + 1;
const MAX_PLY: usize = 128;
/// Entries of the horizon cache (a power of two).
const LEAF_CACHE: usize = 1 << 16;

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
    /// Principal variation: whole turns from the root position, the root
    /// turn first; the last may stop short of its end at the horizon. The
    /// protocol edge writes them as text.
    pub pv: Vec<Move>,
}

/// How far a search has got while an iteration runs, for a controller that
/// wants to see it move between the iterations' reports: the depth under
/// way and the best root turn known so far.
#[derive(Clone, Debug)]
pub struct Progress {
    /// Depth in steps of the iteration under way, the root turn counted as 4.
    pub depth: u32,
    /// The best turn's score for the side to move: from this iteration if it
    /// has already scored one, else from the last completed iteration.
    pub score: i32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// The best turn so far and its line, as in [`Report::pv`].
    pub pv: Vec<Move>,
}

/// A progress report is due this long after the last one: a controller
/// sees the search alive at least once a second even when an iteration
/// takes minutes.
pub const PROGRESS_INTERVAL: Duration = Duration::from_secs(1);

/// The search's answer.
#[derive(Clone, Debug)]
pub struct SearchResult {
    /// The turn to play.
    pub best: Move,
    /// Score for the side to move.
    pub score: i32,
    /// Deepest completed depth.
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// Principal variation of the answer, the best turn first (as in
    /// [`Report::pv`]).
    pub pv: Vec<Move>,
    /// Cut-offs in the step tree of the deciding thread.
    pub cuts: Cuts,
}

/// How well the step tree's moves were ordered: of the nodes that cut off,
/// how many did so on the first unit searched (the end of turn included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Cuts {
    /// Nodes that cut off.
    pub total: u64,
    /// Of those, the ones whose first unit did.
    pub first: u64,
}

impl Cuts {
    /// The share of cut-offs on the first unit, in percent.
    #[must_use]
    pub fn first_percent(&self) -> f64 {
        100.0 * self.first as f64 / self.total.max(1) as f64
    }
}

/// A search over one game position.
pub struct Searcher<'a> {
    game: &'a Game,
    time: &'a TimeManager,
    /// Stop after this depth in steps (counting the root turn as 4).
    max_depth: Option<u32>,
    tt: &'a TransTable,
    params: &'a Params,
    /// 0 for the thread that decides; helpers (lazy SMP) vary their search.
    helper: usize,
    /// Nodes of all threads, added in batches; `flushed` of ours are in it.
    total: Option<&'a AtomicU64>,
    flushed: u64,
    history: Vec<i32>,
    /// Horizon evaluations and goal tests, direct-mapped by state key.
    leaf_cache: Vec<quiesce::Leaf>,
    nodes: u64,
    aborted: bool,
    pv: Vec<[PvItem; MAX_PLY]>,
    pv_len: [usize; MAX_PLY],
    killers: [[Option<Step>; 2]; MAX_PLY],
    /// The own single step that led to the node at each ply within its turn.
    prev: [Option<Step>; MAX_PLY],
    cuts: Cuts,
    /// Told how the search is getting on, every [`PROGRESS_INTERVAL`]; set
    /// on the deciding thread only, so helpers never pay for it.
    progress: Option<&'a dyn Fn(&Progress)>,
    /// When the next progress report is due, as time since the start.
    progress_due: Duration,
    /// The depth of the iteration under way.
    searching: u32,
    /// The best root turn known, its score and line: what a progress report
    /// names (kept only when there is someone to report to).
    leader: Option<(Move, i32, Vec<PvItem>)>,
    /// The learned network's accumulator, made on the first evaluation
    /// with `nnue` on.
    net: Option<Box<Tracker>>,
}

impl std::fmt::Debug for Searcher<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Searcher")
            .field("nodes", &self.nodes)
            .finish_non_exhaustive()
    }
}

impl<'a> Searcher<'a> {
    /// The static evaluation of `pos`, side to move's view: the hand-made
    /// terms, with the learned network when `nnue` is on.
    fn static_eval(&mut self, pos: &Position) -> i32 {
        leaf::static_score(pos, self.params, &mut self.net)
    }

    /// [`leaf::static_estimate`] with this search's parameters and network.
    fn static_estimate(&mut self, pos: &Position) -> i32 {
        leaf::static_estimate(&EMBEDDED, pos, self.params, &mut self.net)
    }

    /// [`leaf::static_bounds`] with this search's parameters and network.
    fn static_eval_within(&mut self, pos: &Position, alpha: i32, beta: i32) -> (i32, i32) {
        leaf::static_bounds(&EMBEDDED, pos, self.params, &mut self.net, alpha, beta)
    }

    /// A searcher for the game's current position, on the clock `time`
    /// (which also carries its `stop`).
    #[must_use]
    pub fn new(game: &'a Game, time: &'a TimeManager, tt: &'a TransTable) -> Searcher<'a> {
        Searcher {
            game,
            time,
            max_depth: None,
            tt,
            params: &DEFAULT,
            helper: 0,
            total: None,
            flushed: 0,
            history: vec![0; 12 * 64],
            leaf_cache: vec![quiesce::Leaf::EMPTY; LEAF_CACHE],
            nodes: 0,
            aborted: false,
            pv: vec![[PvItem::Pass; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
            killers: [[None; 2]; MAX_PLY],
            prev: [None; MAX_PLY],
            cuts: Cuts::default(),
            progress: None,
            progress_due: PROGRESS_INTERVAL,
            searching: 0,
            leader: None,
            net: None,
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

    /// Stops after `steps` of depth (the root turn counts 4).
    #[must_use]
    pub fn depth(mut self, steps: u32) -> Self {
        self.max_depth = Some(steps);
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

    /// Reports the search's progress to `progress` every
    /// [`PROGRESS_INTERVAL`] while it runs, once an iteration has named a
    /// best turn. For the deciding thread: a helper's view is partial.
    #[must_use]
    pub fn progress(mut self, progress: &'a dyn Fn(&Progress)) -> Self {
        self.progress = Some(progress);
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

    /// True when told to stop or past the hard time limit.
    fn past_hard_limit(&self) -> bool {
        self.time.stopped() || self.time.past_hard()
    }

    /// The stop flag is read at every node (one relaxed load), the clock every
    /// 16 nodes: a node with a goal test in a race can take a millisecond, and
    /// 256 such nodes between two looks at the clock once made the engine
    /// answer a quarter of a second late.
    fn check_abort(&mut self) -> bool {
        if self.time.stopped() {
            self.aborted = true;
        } else if self.nodes & 15 == 0 {
            if self.nodes - self.flushed >= 4096 {
                self.flush_nodes();
            }
            if self.time.past_hard() {
                self.aborted = true;
            } else if self.progress.is_some() {
                self.report_progress();
            }
        }
        self.aborted
    }

    /// Hands a [`Progress`] to the listener if one is due. Runs with the
    /// clock check, so a report costs one more look at the clock there and
    /// nothing on a thread without a listener; it reads no search state
    /// that steers the search, so node counts stay the same with or without.
    fn report_progress(&mut self) {
        let (Some(listener), Some((turn, score, line))) = (self.progress, &self.leader) else {
            return;
        };
        let elapsed = self.time.elapsed();
        if elapsed < self.progress_due {
            return;
        }
        // On a fixed beat from the start, not from the last iteration's
        // report: a slow machine still sees a line every second.
        while self.progress_due <= elapsed {
            self.progress_due += PROGRESS_INTERVAL;
        }
        listener(&Progress {
            depth: self.searching,
            score: *score,
            nodes: self.nodes_so_far(),
            elapsed,
            pv: pv::pv_turns(self.game.position(), *turn, line),
        });
    }

    fn is_repetition(&self, hash: u64) -> bool {
        self.game.is_third_repetition(hash)
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
