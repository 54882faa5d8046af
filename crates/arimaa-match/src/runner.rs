//! The match: worker threads play the schedule, the calling thread records
//! and counts the results.
//!
//! Each worker keeps one process per engine and reuses it from game to game
//! (`newgame` between games); an engine that crashed or hung is dropped
//! (killed) and started afresh for the worker's next game. A stop (Ctrl-C,
//! or the SPRT reaching a bound) ends every game in progress at once: such
//! games are not recorded, the engines are sent `quit`, and the summary
//! covers the finished games.

use crate::config::MatchConfig;
use crate::engine::{Engine, TrafficLog};
use crate::outcome::GameResult;
use crate::progress::{match_status, Progress};
use crate::record::RecordWriter;
use crate::referee::{play_game, Limits, Played};
use crate::schedule::{schedule, GameJob};
use crate::stats::{SprtDecision, Wdl};
use crate::summary::{report, Tally};
use crate::timestamp::utc_now;
use arimaa_core::Color;
use std::collections::VecDeque;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::{Arc, Mutex};

/// What the match produced.
#[derive(Debug)]
pub struct MatchReport {
    /// The counts.
    pub tally: Tally,
    /// Games scheduled.
    pub scheduled: u32,
    /// True when a stop request (Ctrl-C) ended the match early.
    pub interrupted: bool,
    /// The SPRT's verdict, when it ended the match.
    pub sprt: Option<SprtDecision>,
    /// The summary tables.
    pub text: String,
    /// The first pair's counts after each finished game, in the order they
    /// finished (for `--plot`).
    pub history: Vec<Wdl>,
}

struct Finished {
    job: GameJob,
    date: String,
    result: GameResult,
}

/// Runs the match. `stop` is the caller's interrupt flag (set it from a
/// Ctrl-C handler); the runner also sets it itself when the SPRT ends.
/// Errors are setup problems found before the first game: bad settings, a
/// record or log file that cannot be opened, an engine that cannot start.
pub fn run_match(config: &MatchConfig, stop: &Arc<AtomicBool>, quiet: bool) -> Result<MatchReport, String> {
    config.validate()?;
    let mut writer = config.record.as_deref().map(RecordWriter::open).transpose()?;
    let log = config.log.as_deref().map(TrafficLog::open).transpose()?.map(Arc::new);
    for spec in &config.engines {
        match Engine::start(spec, log.clone(), stop) {
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
            Err(_) if stop.load(Ordering::Relaxed) => {
                // Ctrl-C during the start-up check: nothing was played.
                let tally = Tally::new(config.engines.iter().map(|e| e.name.clone()).collect());
                let text = report(&tally, config.sprt.as_ref());
                return Ok(MatchReport {
                    tally,
                    scheduled: 0,
                    interrupted: true,
                    sprt: None,
                    text,
                    history: Vec::new(),
                });
            }
            Err(e) => return Err(format!("cannot start: {e}")),
        }
    }
    let jobs = schedule(config.engines.len(), config.games);
    let scheduled = jobs.len() as u32;
    let progress = Progress::new(u64::from(scheduled), "games", quiet);
    let mut history = Vec::new();
    let queue = Mutex::new(VecDeque::from(jobs));
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(names);
    let limits = Limits {
        grace: config.grace,
        hang_timeout: config.hang_timeout,
        move_timeout: config.move_timeout,
        max_turns: config.max_turns,
    };
    let mut decision = None;
    let mut write_error = None;
    let workers = config.concurrency.min(scheduled as usize).max(1);
    std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<Finished>();
        for _ in 0..workers {
            let tx = tx.clone();
            let (queue, limits, log) = (&queue, &limits, log.clone());
            scope.spawn(move || worker(config, queue, limits, log, stop, &tx));
        }
        drop(tx);
        for f in rx {
            tally.add(&f.job, &f.result);
            history.push(tally.first_pair());
            progress.line(&game_line(config, &f));
            if let Some(w) = writer.as_mut() {
                if let Err(e) = w.append(&headers(config, &f), &f.result.moves) {
                    // The record is part of the output: stop rather than run unrecorded.
                    write_error = Some(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(sprt) = &config.sprt {
                let d = sprt.decide(&tally.first_pair());
                if d != SprtDecision::Continue && decision.is_none() {
                    decision = Some(d);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            let status = match_status(&tally, config.sprt.as_ref());
            progress.update(u64::from(tally.games()), &status, config.sprt.is_some());
        }
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    let interrupted = decision.is_none() && tally.games() < scheduled;
    let text = report(&tally, config.sprt.as_ref());
    Ok(MatchReport {
        tally,
        scheduled,
        interrupted,
        sprt: decision,
        text,
        history,
    })
}

fn side_label(c: Color) -> &'static str {
    match c {
        Color::Gold => "gold",
        Color::Silver => "silver",
    }
}

fn game_line(config: &MatchConfig, f: &Finished) -> String {
    let (g, s) = (&config.engines[f.job.gold].name, &config.engines[f.job.silver].name);
    let result = match f.result.winner {
        Some(c) => format!("{} wins by {}", side_label(c), f.result.termination),
        None => format!("draw ({})", f.result.termination),
    };
    format!(
        "Finished game {} ({g} vs {s}): {result} after {} turns  {{{}}}",
        f.job.number, f.result.turns, f.result.detail
    )
}

fn headers(config: &MatchConfig, f: &Finished) -> Vec<(String, String)> {
    let (g, s) = (&config.engines[f.job.gold], &config.engines[f.job.silver]);
    let mut h = vec![
        ("Event".to_string(), config.event.clone()),
        ("Date".into(), format!("{} UTC", f.date)),
        ("Game".into(), f.job.number.to_string()),
        ("Gold".into(), g.name.clone()),
        ("Silver".into(), s.name.clone()),
        ("GoldLimit".into(), g.limit_text()),
        ("SilverLimit".into(), s.limit_text()),
    ];
    if let Some(book) = &config.setups {
        h.push(("Setup".into(), book.for_pair(f.job.pair).source.clone()));
    }
    h.extend([
        ("Result".into(), f.result.result_code().to_string()),
        ("Reason".into(), f.result.termination.code().to_string()),
        ("Termination".into(), f.result.detail.clone()),
        ("Turns".into(), f.result.turns.to_string()),
    ]);
    h
}

fn worker(
    config: &MatchConfig,
    queue: &Mutex<VecDeque<GameJob>>,
    limits: &Limits,
    log: Option<Arc<TrafficLog>>,
    stop: &AtomicBool,
    tx: &mpsc::Sender<Finished>,
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
            Played::Finished(result) => {
                if tx.send(Finished { job, date, result }).is_err() {
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
                return Played::Finished(GameResult {
                    winner: Some(side.opponent()),
                    termination: e.termination(),
                    detail: format!("{} ({}) could not be restarted: {e}", spec.name, side_label(side)),
                    moves: String::new(),
                    turns: 0,
                });
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
