//! Lazy SMP: helper threads on a rayon pool run the same iterative deepening
//! with small variations, sharing the transposition table; the calling thread
//! searches too and reports. When it stops, it stops the clock they share,
//! which ends the helpers too, and the answer is the deepest
//! iteration any thread finished: helpers start a depth ahead, so at the end
//! of a move one of them often holds a deeper result than the main thread.

use crate::params::Params;
use crate::search::{Progress, Report, SearchResult, Searcher, WIN_BOUND};
use crate::time::TimeManager;
use crate::tt::TransTable;
use arimaa_core::Game;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::Mutex;

/// Who hears from a search: every completed iteration, and if wanted its
/// progress in between (see [`Searcher::progress`]). Only the main thread
/// reports; the helpers' iterations are theirs alone.
pub struct Watch<'w> {
    report: &'w mut dyn FnMut(&Report),
    progress: Option<&'w dyn Fn(&Progress)>,
}

impl std::fmt::Debug for Watch<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Watch")
            .field("progress", &self.progress.is_some())
            .finish_non_exhaustive()
    }
}

impl<'w> Watch<'w> {
    /// Completed iterations go to `report`.
    pub fn iterations(report: &'w mut dyn FnMut(&Report)) -> Watch<'w> {
        Watch { report, progress: None }
    }

    /// Progress reports too, to `progress`.
    #[must_use]
    pub fn with_progress(mut self, progress: &'w dyn Fn(&Progress)) -> Watch<'w> {
        self.progress = Some(progress);
        self
    }
}

/// Searches with `threads` threads in all (1 = no helpers) on the clock
/// `time`, to `depth` steps if given, telling `watch` how it goes. The
/// result's node count covers every thread.
pub fn search(
    game: &Game,
    time: &TimeManager,
    tt: &TransTable,
    threads: usize,
    depth: Option<u32>,
    params: &Params,
    watch: Watch<'_>,
) -> Option<SearchResult> {
    let Watch { report, progress } = watch;
    // The main thread's searcher: the one that reports.
    let main_searcher = || {
        let s = searcher_for(game, time, tt, depth, params);
        match progress {
            Some(p) => s.progress(p),
            None => s,
        }
    };
    let searcher = || searcher_for(game, time, tt, depth, params);
    let total = AtomicU64::new(0);
    let helpers = threads.saturating_sub(1);
    let pool = if helpers == 0 {
        None
    } else {
        match rayon::ThreadPoolBuilder::new()
            .num_threads(helpers)
            .thread_name(|i| format!("helper-{i}"))
            .build()
        {
            Ok(pool) => Some(pool),
            Err(e) => {
                log::warn!("no helper threads ({e}); searching with one thread");
                None
            }
        }
    };
    let Some(pool) = pool else {
        return main_searcher().counting(&total).run(report);
    };
    let answers = Mutex::new(Vec::with_capacity(helpers));
    let main = pool.in_place_scope(|scope| {
        for id in 1..=helpers {
            let (searcher, total, answers) = (&searcher, &total, &answers);
            scope.spawn(move |_| {
                let r = searcher().helper(id).counting(total).run(&mut |_| {});
                if let (Some(r), Ok(mut all)) = (r, answers.lock()) {
                    all.push(r);
                }
            });
        }
        let r = main_searcher().counting(&total).run(report);
        // Helpers stop when the main search is done, whatever ended it.
        time.stop();
        r
    });
    // The scope has waited for every helper.
    let helpers_found = answers.into_inner().unwrap_or_default();
    let mut result = main.map(|m| deepest(m, helpers_found));
    if let Some(r) = &mut result {
        r.nodes = total.load(Ordering::Relaxed);
    }
    result
}

/// A searcher with the settings every thread shares.
fn searcher_for<'a>(
    game: &'a Game,
    time: &'a TimeManager,
    tt: &'a TransTable,
    depth: Option<u32>,
    params: &'a Params,
) -> Searcher<'a> {
    let s = Searcher::new(game, time, tt).params(params);
    match depth {
        Some(d) => s.depth(d),
        None => s,
    }
}

/// The answer among the main thread's and the helpers': a won score first
/// (the highest, the quickest win), else the deepest finished iteration; the
/// main thread's on a tie, and its cut statistics stay with the answer.
fn deepest(main: SearchResult, helpers: Vec<SearchResult>) -> SearchResult {
    // `Some(win)` ranks above every `None`, the higher win above the lower.
    let rank = |r: &SearchResult| ((r.score >= WIN_BOUND).then_some(r.score), r.depth);
    let mut best = main;
    for h in helpers {
        if rank(&h) > rank(&best) {
            best = SearchResult { cuts: best.cuts, ..h };
        }
    }
    best
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_core::notation::parse_step_token;
    use arimaa_core::Move;

    /// A one-step turn, told apart from the others by its step.
    fn turn(step: &str) -> Move {
        let mut m = Move::new();
        m.push(parse_step_token(step).expect("a step"));
        m
    }

    fn answer(step: &str, score: i32, depth: u32) -> SearchResult {
        SearchResult {
            best: turn(step),
            score,
            depth,
            nodes: 0,
            pv: vec![turn(step)],
            cuts: Default::default(),
        }
    }

    #[test]
    fn the_deepest_thread_answers_unless_another_has_a_win() {
        let (main, h, a, b) = ("Ee2n", "Md2n", "Hb2n", "Hg2n");
        let pick = |main, helpers| deepest(main, helpers).best;
        assert_eq!(
            pick(answer(main, 10, 9), vec![answer(h, 50, 10)]),
            turn(h),
            "deeper helper"
        );
        assert_eq!(
            pick(answer(main, 10, 9), vec![answer(h, 50, 9)]),
            turn(main),
            "tie: main"
        );
        assert_eq!(
            pick(answer(main, 10, 10), vec![answer(h, 50, 9)]),
            turn(main),
            "shallower helper"
        );
        assert_eq!(
            pick(answer(main, WIN_BOUND + 5, 8), vec![answer(h, 0, 12)]),
            turn(main),
            "a found win stands"
        );
        assert_eq!(
            pick(
                answer(main, 0, 12),
                vec![answer(a, WIN_BOUND + 5, 8), answer(b, WIN_BOUND + 9, 9)]
            ),
            turn(b),
            "the quickest win"
        );
        assert_eq!(
            pick(answer(main, -WIN_BOUND - 5, 8), vec![answer(h, 0, 9)]),
            turn(h),
            "a deeper helper that escapes a loss"
        );
        assert_eq!(pick(answer(main, 1, 8), Vec::new()), turn(main));
    }
}
