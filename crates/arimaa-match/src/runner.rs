//! The match: an executor plays the schedule's game pairs (local threads by
//! default), the calling thread records and counts the games as they
//! arrive. A stop (Ctrl-C, or the SPRT reaching a bound) ends the games in
//! progress; they are not recorded, and the summary covers the finished
//! games.

use crate::config::MatchConfig;
use crate::error::MatchError;
use crate::executor::{side_label, Checked, Executor, FinishedGame, LocalExecutor};
use crate::pgn::{PgnTags, PgnWriter};
use crate::progress::{match_status, Progress};
use crate::record::{format_move_data, RecordWriter};
use crate::resume::recorded_games;
use crate::schedule::{pairs, schedule};
use crate::stats::{SprtDecision, Wdl};
use crate::summary::{report, Tally};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;
use std::sync::Arc;

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

/// Runs the match on local threads. `stop` is the caller's interrupt flag
/// (set it from a Ctrl-C handler); the runner also sets it itself when the
/// SPRT ends. Errors are setup problems found before the first game: bad
/// settings, a record or log file that cannot be opened, an engine that
/// cannot start.
pub fn run_match(config: &MatchConfig, stop: &Arc<AtomicBool>, quiet: bool) -> Result<MatchReport, MatchError> {
    run_match_on(&mut LocalExecutor::default(), config, stop, quiet)
}

/// [`run_match`] on the given executor. Besides setup problems, a pair the
/// executor could not play at all is an error.
pub fn run_match_on(
    executor: &mut dyn Executor,
    config: &MatchConfig,
    stop: &Arc<AtomicBool>,
    quiet: bool,
) -> Result<MatchReport, MatchError> {
    config.validate()?;
    let mut writer = config.record.as_deref().map(RecordWriter::open).transpose()?;
    let mut pgn = config.pgn.as_deref().map(PgnWriter::open).transpose()?;
    let names: Vec<String> = config.engines.iter().map(|e| e.name.clone()).collect();
    let mut tally = Tally::new(names);
    if executor.check(config, stop, quiet)? == Checked::Stopped {
        // Ctrl-C during the start-up check: nothing was played.
        let text = report(&tally, config.sprt.as_ref(), config.stats_model());
        return Ok(MatchReport {
            tally,
            scheduled: 0,
            interrupted: true,
            sprt: None,
            text,
            history: Vec::new(),
        });
    }
    let mut jobs = schedule(config.engines.len(), config.games);
    let scheduled = jobs.len() as u32;
    let progress = Progress::new(u64::from(scheduled), "games", quiet);
    let mut history = Vec::new();
    let mut decision = None;
    if config.resume {
        // The record's games count as played: the statistics start from
        // them and only the rest of the schedule is played.
        let done = recorded_games(config, &jobs)?;
        for (job, result) in &done {
            tally.add(job, result);
            history.push(tally.first_pair());
        }
        jobs.retain(|j| !done.iter().any(|(d, _)| d.number == j.number));
        if let Some(sprt) = &config.sprt {
            let d = tally.decide(sprt, config.stats_model());
            if d != SprtDecision::Continue {
                decision = Some(d);
                jobs.clear();
            }
        }
        progress.line(&format!(
            "Resumed {} recorded games; {} to play",
            done.len(),
            jobs.len()
        ));
        progress.resume_at(u64::from(tally.games()));
    }
    let mut write_error = None;
    let played = std::thread::scope(|scope| {
        let (tx, rx) = mpsc::channel::<FinishedGame>();
        let player = scope.spawn(move || {
            let played = executor.play(config, pairs(jobs), stop, &tx);
            if played.is_err() {
                // Whatever else is in flight is not waited for.
                stop.store(true, Ordering::Relaxed);
            }
            played
        });
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
            if let Some(w) = pgn.as_mut() {
                if let Err(e) = w.append(&pgn_tags(config, &f), &f.result) {
                    write_error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            if let Some(sprt) = &config.sprt {
                let d = tally.decide(sprt, config.stats_model());
                if d != SprtDecision::Continue && decision.is_none() {
                    decision = Some(d);
                    stop.store(true, Ordering::Relaxed);
                }
            }
            let status = match_status(&tally, config.sprt.as_ref(), config.stats_model());
            progress.update(u64::from(tally.games()), &status, config.sprt.is_some());
        }
        player.join().unwrap_or(Err(MatchError::ExecutorPanicked))
    });
    progress.finish();
    if let Some(e) = write_error {
        return Err(e);
    }
    played?;
    let interrupted = decision.is_none() && tally.games() < scheduled;
    let text = report(&tally, config.sprt.as_ref(), config.stats_model());
    Ok(MatchReport {
        tally,
        scheduled,
        interrupted,
        sprt: decision,
        text,
        history,
    })
}

fn game_line(config: &MatchConfig, f: &FinishedGame) -> String {
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

fn pgn_tags<'a>(config: &'a MatchConfig, f: &'a FinishedGame) -> PgnTags<'a> {
    let (g, s) = (&config.engines[f.job.gold], &config.engines[f.job.silver]);
    let same_clock = g.clock().is_some() && g.limit_text() == s.limit_text();
    PgnTags {
        event: &config.event,
        date: &f.date,
        round: f.job.number,
        white: &g.name,
        black: &s.name,
        time_control: same_clock.then(|| g.limit_text()),
    }
}

fn headers(config: &MatchConfig, f: &FinishedGame) -> Vec<(String, String)> {
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
    if !f.move_info.is_empty() {
        h.push(("MoveData".into(), format_move_data(&f.move_info)));
    }
    h
}
