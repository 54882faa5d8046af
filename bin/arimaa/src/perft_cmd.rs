//! `arimaa perft`: distinct turns and first steps per position, or a step-path count.

use arimaa_core::perft::{step_perft, turn_counts};
use arimaa_core::{parse_position, Position, PositionError, TurnGen};
use clap::Args;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug, Default)]
pub struct PerftArgs {
    /// A position in AEI form, e.g. "g [rrrrrrrrhdcmecdh   ...   HDCMECDHRRRRRRRR]".
    /// Without it (and without --file) the standard opening is used.
    position: Option<String>,
    /// Read one position per line (AEI form, optionally prefixed by `setposition`)
    /// and print `<distinct legal turns> <legal first steps>` per line. Blank
    /// lines and lines starting with `#` are skipped.
    #[arg(long, conflicts_with = "position")]
    file: Option<std::path::PathBuf>,
    /// Count step paths of this many actions (a step or an end of turn) instead.
    #[arg(long)]
    depth: Option<u32>,
    /// With --file: add a third column, the best of 5 timings in microseconds.
    #[arg(long, requires = "file")]
    times: bool,
}

pub fn run(args: &PerftArgs) -> ExitCode {
    match &args.file {
        Some(path) => run_file(path, args.depth, args.times),
        None => run_one(args.position.as_deref(), args.depth),
    }
}

fn parse_line(line: &str) -> Result<Position, PositionError> {
    let text = line.trim().strip_prefix("setposition").unwrap_or(line.trim());
    parse_position(text)
}

fn run_one(position: Option<&str>, depth: Option<u32>) -> ExitCode {
    let pos = match position {
        Some(text) => match parse_line(text) {
            Ok(p) => p,
            Err(e) => {
                eprintln!("error: bad position: {e}");
                return ExitCode::FAILURE;
            }
        },
        None => Position::standard(),
    };
    let start = Instant::now();
    match depth {
        Some(d) => {
            let n = step_perft(&pos, d);
            say!(
                "{n} step paths at depth {d} in {:.3} ms",
                start.elapsed().as_secs_f64() * 1e3
            );
        }
        None => {
            let c = turn_counts(&pos, &mut TurnGen::new());
            say!("{} {}", c.turns, c.first_steps);
            eprintln!("time {:.3} ms", start.elapsed().as_secs_f64() * 1e3);
        }
    }
    ExitCode::SUCCESS
}

fn run_file(path: &std::path::Path, depth: Option<u32>, times: bool) -> ExitCode {
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) => {
            eprintln!("error: cannot read {}: {e}", path.display());
            return ExitCode::FAILURE;
        }
    };
    let mut gen = TurnGen::new();
    let mut failed = 0;
    let start = Instant::now();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() || line.trim_start().starts_with('#') {
            continue;
        }
        match parse_line(line) {
            Ok(pos) => match depth {
                Some(d) => say!("{}", step_perft(&pos, d)),
                None if times => {
                    let mut best = f64::MAX;
                    let mut c = turn_counts(&pos, &mut gen);
                    for _ in 0..5 {
                        let t = Instant::now();
                        c = turn_counts(&pos, &mut gen);
                        best = best.min(t.elapsed().as_secs_f64() * 1e6);
                    }
                    say!("{} {} {best:.1}", c.turns, c.first_steps);
                }
                None => {
                    let c = turn_counts(&pos, &mut gen);
                    say!("{} {}", c.turns, c.first_steps);
                }
            },
            Err(e) => {
                eprintln!("error: {}:{}: {e}", path.display(), i + 1);
                failed += 1;
            }
        }
    }
    eprintln!("time {:.3} ms", start.elapsed().as_secs_f64() * 1e3);
    if failed > 0 {
        eprintln!("error: {failed} bad line(s)");
        ExitCode::FAILURE
    } else {
        ExitCode::SUCCESS
    }
}
