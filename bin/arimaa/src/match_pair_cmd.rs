//! `arimaa match-pair` (hidden): what a cluster worker runs. Reads one game
//! pair's spec (JSON) on stdin, plays it with the local executor as `arimaa
//! match` would, and prints the pair's outcome (JSON) on stdout. An engine
//! that cannot start is an error (exit 1) with the reason on stderr.

use crate::error::CliError;
use arimaa_match::executor::{Checked, Executor, LocalExecutor};
use arimaa_match::wire::{PairOutcome, PairSpec};
use arimaa_match::MatchError;
use std::io::Read;
use std::process::ExitCode;
use std::sync::atomic::AtomicBool;
use std::sync::mpsc;

/// A spec is a few kilobytes; anything far larger is not one.
const MAX_SPEC: u64 = 1 << 20;

fn run_pair() -> Result<String, CliError> {
    let mut text = String::new();
    std::io::stdin()
        .take(MAX_SPEC)
        .read_to_string(&mut text)
        .map_err(|e| CliError::Json(format!("cannot read the pair spec on stdin: {e}")))?;
    let spec: PairSpec = serde_json::from_str(&text).map_err(|e| CliError::Json(format!("bad pair spec: {e}")))?;
    let own = std::env::current_exe().map_err(|e| CliError::File(format!("cannot find this binary: {e}")))?;
    let (config, pair) = spec.to_match(&own)?;
    let stop = AtomicBool::new(false);
    let mut local = LocalExecutor::default();
    if local.check(&config, &stop, true)? == Checked::Stopped {
        return Err(CliError::Usage("stopped".into()));
    }
    let (tx, rx) = mpsc::channel();
    let expected = pair.games.len();
    local.play(&config, vec![pair], &stop, &tx)?;
    drop(tx);
    let games: Vec<_> = rx.into_iter().collect();
    if games.len() != expected {
        return Err(CliError::Match(MatchError::Wire(format!(
            "{} of {expected} games finished",
            games.len()
        ))));
    }
    serde_json::to_string(&PairOutcome::new(spec.index, &games))
        .map_err(|e| CliError::Json(format!("cannot encode the outcome: {e}")))
}

pub fn run() -> ExitCode {
    match run_pair() {
        Ok(json) => {
            say!("{json}");
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
