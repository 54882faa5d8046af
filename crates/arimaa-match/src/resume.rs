//! Resuming a match from its own record file (`--resume`): the games the
//! record already holds count as played, and only the rest of the schedule
//! is played. A long match on a shared machine can then be stopped (Ctrl-C,
//! a reboot, the end of a working session) and carried on later with the
//! same command line, as one match with one set of statistics.
//!
//! A recorded game is matched to the schedule by its `Game` number, and must
//! agree with it on the engines' names and limits and on the setup line (the
//! line number in the setup file; the file may be given by another path).
//! Anything else means the command line describes another match, and
//! resuming is refused rather than mixing two matches' games.

use crate::config::MatchConfig;
use crate::error::MatchError;
use crate::outcome::GameResult;
use crate::record::{read_records, RecordedGame};
use crate::schedule::GameJob;
use std::collections::HashSet;

/// The games of `jobs` that the record file of `config` already holds, with
/// their results, in the record's order. No record file yet: none.
pub fn recorded_games(config: &MatchConfig, jobs: &[GameJob]) -> Result<Vec<(GameJob, GameResult)>, MatchError> {
    let Some(path) = &config.record else {
        return Err(MatchError::Resume(
            "--resume needs --record FILE: the record is what a match resumes from".into(),
        ));
    };
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(MatchError::Resume(format!("record file '{}': {e}", path.display()))),
    };
    let games =
        read_records(&text).map_err(|e| MatchError::Resume(format!("cannot resume from '{}': {e}", path.display())))?;
    let mut seen = HashSet::new();
    let mut out = Vec::with_capacity(games.len());
    for (i, g) in games.iter().enumerate() {
        let (job, result) = matched(config, jobs, g).map_err(|e| {
            MatchError::Resume(format!(
                "cannot resume from '{}': game {} of the file: {e}",
                path.display(),
                i + 1
            ))
        })?;
        if !seen.insert(job.number) {
            return Err(MatchError::Resume(format!(
                "cannot resume from '{}': game number {} is recorded twice",
                path.display(),
                job.number
            )));
        }
        out.push((job, result));
    }
    Ok(out)
}

/// The scheduled game a recorded one is, and its result.
fn matched(config: &MatchConfig, jobs: &[GameJob], g: &RecordedGame) -> Result<(GameJob, GameResult), String> {
    let header = |key: &str| g.header(key).ok_or_else(|| format!("no {key} header"));
    let number: u32 = header("Game")?.parse().map_err(|_| {
        format!(
            "Game header '{}' is not a game number",
            header("Game").unwrap_or_default()
        )
    })?;
    let job = *jobs
        .iter()
        .find(|j| j.number == number)
        .ok_or_else(|| format!("game number {number} is beyond this match's {} games", jobs.len()))?;
    let (gold, silver) = (&config.engines[job.gold], &config.engines[job.silver]);
    let recorded = (header("Gold")?, header("Silver")?);
    if recorded != (gold.name.as_str(), silver.name.as_str()) {
        return Err(format!(
            "game {number} was {} (gold) vs {} (silver); this match plays {} vs {} there. \
             Resume with the same engines, in the same order",
            recorded.0, recorded.1, gold.name, silver.name
        ));
    }
    let limits = (header("GoldLimit")?, header("SilverLimit")?);
    if limits != (gold.limit_text().as_str(), silver.limit_text().as_str()) {
        return Err(format!(
            "game {number} was played at {} / {}; this match gives {} / {}",
            limits.0,
            limits.1,
            gold.limit_text(),
            silver.limit_text()
        ));
    }
    if let Some(book) = &config.setups {
        let line = |source: &str| source.rsplit(':').next().unwrap_or_default().to_string();
        let want = book.for_pair(job.pair).source.as_str();
        let got = g.header("Setup").unwrap_or("none");
        if line(got) != line(want) {
            return Err(format!("game {number} used setup {got}; this match uses {want} for it"));
        }
    }
    let winner = g.winner().ok_or("no readable Result header (g, s or d)")?;
    let termination = g.termination().ok_or("no readable Reason header")?;
    let turns = header("Turns")?
        .parse()
        .map_err(|_| "Turns header is not a number".to_string())?;
    let result = GameResult {
        winner,
        termination,
        detail: g.header("Termination").unwrap_or_default().to_string(),
        moves: g.moves.clone(),
        turns,
    };
    Ok((job, result))
}
