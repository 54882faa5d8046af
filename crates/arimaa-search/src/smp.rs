//! Lazy SMP: helper threads on a rayon pool run the same iterative deepening
//! with small variations, sharing the transposition table; the calling thread
//! searches too, decides, and reports.

use crate::params::Params;
use crate::search::{Limits, Report, SearchResult, Searcher};
use crate::tt::TransTable;
use arimaa_core::Game;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};

/// Searches with `threads` threads in all (1 = no helpers). The result's node
/// count covers every thread.
pub fn search(
    game: &Game,
    limits: &Limits,
    stop: &AtomicBool,
    tt: &TransTable,
    threads: usize,
    params: &Params,
    report: &mut dyn FnMut(&Report),
) -> Option<SearchResult> {
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
        return Searcher::new(game, limits, stop, tt)
            .params(params)
            .counting(&total)
            .run(report);
    };
    // Helpers stop when the main search is done, whatever ended it.
    let done = AtomicBool::new(false);
    let mut result = pool.in_place_scope(|scope| {
        for id in 1..=helpers {
            let (done, total) = (&done, &total);
            scope.spawn(move |_| {
                let _ = Searcher::new(game, limits, done, tt)
                    .params(params)
                    .helper(id)
                    .counting(total)
                    .run(&mut |_| {});
            });
        }
        let r = Searcher::new(game, limits, stop, tt)
            .params(params)
            .counting(&total)
            .run(report);
        done.store(true, Ordering::Relaxed);
        r
    });
    if let Some(r) = &mut result {
        r.nodes = total.load(Ordering::Relaxed);
    }
    result
}
