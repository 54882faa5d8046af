//! Where game pairs are played. The runner hands an [`Executor`] the pairs
//! of the schedule and counts, records and tests the games it sends back;
//! it does not care whether they were played on local threads
//! ([`LocalExecutor`], the default) or on a cluster (`crate::ray`).
//!
//! Locally, worker threads each keep one process per engine and reuse it
//! from game to game (`newgame` between games); an engine that crashed or
//! hung is dropped (killed) and started afresh for the worker's next game.
//! A stop (Ctrl-C, or the SPRT reaching a bound) ends every game in
//! progress at once: such games are not recorded and the engines are sent
//! `quit`.

use crate::config::MatchConfig;
use crate::engine::{Engine, TrafficLog};
use crate::error::MatchError;
use crate::outcome::{GameResult, MoveInfo};
use crate::referee::{play_game, Limits, Played};
use crate::schedule::{GameJob, PairJob};
use crate::timestamp::utc_now;
use arimaa_core::Color;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// One finished game, as an executor reports it.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    /// The game of the schedule it was.
    pub job: GameJob,
    /// When it started, UTC (`YYYY-MM-DD HH:MM:SS`).
    pub date: String,
    /// How it ended.
    pub result: GameResult,
    /// What is known of each move of `result.moves`, one entry a move.
    pub move_info: Vec<MoveInfo>,
}

/// What the start-up check found.
#[derive(Debug, PartialEq, Eq)]
pub enum Checked {
    /// Ready to play.
    Ready,
    /// A stop request came during the check: nothing is played.
    Stopped,
}

/// Plays game pairs somewhere.
pub trait Executor: Send {
    /// Checks, before the first pair, that the match can be played here
    /// (locally: every engine starts). Errors are setup problems.
    fn check(&mut self, config: &MatchConfig, stop: &AtomicBool, quiet: bool) -> Result<Checked, MatchError>;

    /// Plays `pairs`, at most `config.concurrency` at a time, and sends each
    /// game on `done` once it is finished; returns when all are played or
    /// when `stop` is set (games cut short are not sent). A pair that
    /// cannot be played at all is an error.
    fn play(
        &mut self,
        config: &MatchConfig,
        pairs: Vec<PairJob>,
        stop: &AtomicBool,
        done: &mpsc::Sender<FinishedGame>,
    ) -> Result<(), MatchError>;
}

/// Local threads, `config.concurrency` games at once.
#[derive(Debug, Default)]
pub struct LocalExecutor {
    log: Option<Arc<TrafficLog>>,
}

impl Executor for LocalExecutor {
    fn check(&mut self, config: &MatchConfig, stop: &AtomicBool, quiet: bool) -> Result<Checked, MatchError> {
        self.log = config.log.as_deref().map(TrafficLog::open).transpose()?.map(Arc::new);
        for spec in &config.engines {
            match Engine::start(spec, self.log.clone(), stop) {
                Ok(e) => {
                    if !quiet {
                        eprintln!(
                            "Engine {}: '{}' ({})",
                            spec.name,
                            e.id_name.as_deref().unwrap_or("no id name"),
                            spec.limit_text()
                        );
                    }
                    e.quit();
                }
                Err(_) if stop.load(Ordering::Relaxed) => return Ok(Checked::Stopped),
                Err(failure) => {
                    return Err(MatchError::EngineStart {
                        name: spec.name.clone(),
                        failure,
                    })
                }
            }
        }
        Ok(Checked::Ready)
    }

    fn play(
        &mut self,
        config: &MatchConfig,
        pairs: Vec<PairJob>,
        stop: &AtomicBool,
        done: &mpsc::Sender<FinishedGame>,
    ) -> Result<(), MatchError> {
        // Locally the games of a pair need not wait for each other: the
        // threads take games, so two games of one pair can run at once.
        let games: VecDeque<GameJob> = pairs.into_iter().flat_map(|p| p.games).collect();
        let workers = config.concurrency.min(games.len()).max(1);
        let queue = Mutex::new(games);
        let limits = Limits {
            grace: config.grace,
            hang_timeout: config.hang_timeout,
            move_timeout: config.move_timeout,
            max_turns: config.max_turns,
        };
        std::thread::scope(|scope| {
            for _ in 0..workers {
                let tx = done.clone();
                let (queue, limits, log) = (&queue, &limits, self.log.clone());
                scope.spawn(move || worker(config, queue, limits, log, stop, &tx));
            }
        });
        Ok(())
    }
}

pub(crate) fn side_label(c: Color) -> &'static str {
    match c {
        Color::Gold => "gold",
        Color::Silver => "silver",
    }
}

fn worker(
    config: &MatchConfig,
    queue: &Mutex<VecDeque<GameJob>>,
    limits: &Limits,
    log: Option<Arc<TrafficLog>>,
    stop: &AtomicBool,
    tx: &mpsc::Sender<FinishedGame>,
) {
    let mut slots: Vec<Option<Engine>> = config.engines.iter().map(|_| None).collect();
    loop {
        if stop.load(Ordering::Relaxed) {
            break;
        }
        let Some(job) = queue.lock().ok().and_then(|mut q| q.pop_front()) else {
            break;
        };
        let date = utc_now();
        let played = play_job(config, &mut slots, job, limits, log.as_ref(), stop);
        // Engines that crashed or hung are dropped (and so killed) now, and
        // started again for the next game.
        for slot in slots.iter_mut() {
            if slot.as_ref().is_some_and(Engine::is_closed) {
                *slot = None;
            }
        }
        match played {
            Played::Finished(result, move_info) => {
                let game = FinishedGame {
                    job,
                    date,
                    result,
                    move_info,
                };
                if tx.send(game).is_err() {
                    break;
                }
            }
            Played::Aborted => break,
        }
    }
    for engine in slots.into_iter().flatten() {
        engine.quit();
    }
}

fn play_job(
    config: &MatchConfig,
    slots: &mut [Option<Engine>],
    job: GameJob,
    limits: &Limits,
    log: Option<&Arc<TrafficLog>>,
    stop: &AtomicBool,
) -> Played {
    for (side, index) in [(Color::Gold, job.gold), (Color::Silver, job.silver)] {
        if slots[index].is_some() {
            continue;
        }
        let spec = &config.engines[index];
        match Engine::start(spec, log.cloned(), stop) {
            Ok(e) => slots[index] = Some(e),
            Err(_) if stop.load(Ordering::Relaxed) => return Played::Aborted,
            Err(e) => {
                // A restart that fails forfeits this game; the match goes on.
                return Played::Finished(
                    GameResult {
                        winner: Some(side.opponent()),
                        termination: e.termination(),
                        detail: format!("{} ({}) could not be restarted: {e}", spec.name, side_label(side)),
                        moves: String::new(),
                        turns: 0,
                    },
                    Vec::new(),
                );
            }
        }
    }
    let (Some(mut gold), Some(mut silver)) = (slots[job.gold].take(), slots[job.silver].take()) else {
        return Played::Aborted;
    };
    let specs = [&config.engines[job.gold], &config.engines[job.silver]];
    let opening = config.setups.as_ref().map(|b| b.for_pair(job.pair));
    let played = play_game(&mut gold, &mut silver, specs, opening, limits, stop);
    slots[job.gold] = Some(gold);
    slots[job.silver] = Some(silver);
    played
}
