//! `arimaa positions` and `arimaa label`: positions from games, and an AEI
//! engine's searched score of each (teacher labels for fitting).

use crate::error::CliError;
use crate::interrupt::{stop_on_ctrl_c, EXIT_INTERRUPTED};
use arimaa_match::label::store::{read_positions, Labels, PositionLine};
use arimaa_match::label::{self, Ask, Event, LabelConfig, ScoreSource, Task};
use arimaa_match::progress::Progress;
use arimaa_match::EngineSpec;
use arimaa_search::Params;
use arimaa_tuning::fit::data::load;
use arimaa_tuning::fit::positions::{positions, Origin};
use arimaa_tuning::fit::pv_positions::{pv_positions, top_positions};
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::Ordering;
use std::time::Duration;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  arimaa positions --games games.jsonl --random 1 --out positions.jsonl
  arimaa positions --games match.txt --pv 8 --threads 2 --out pv.jsonl
  arimaa positions --games match.txt --top 8 --every 4 --threads 2 --out top.jsonl")]
#[command(group(clap::ArgGroup::new("own").args(["pv", "top"])))]
pub struct PositionsArgs {
    /// Games: a strong-games `.jsonl` file, an `arimaa match --record` file,
    /// or a directory of them.
    #[arg(long, value_name = "PATH")]
    games: PathBuf,
    /// Positions one random legal turn away to add after each game position.
    #[arg(long, default_value_t = 0, value_parser = clap::value_parser!(u64).range(0..=100))]
    random: u64,
    /// Random turns in a row to each random position: 2 adds the
    /// opponent's random reply (both sides' blunders, as a two-turn search
    /// meets them at its leaves).
    #[arg(long, default_value_t = 1, requires = "random", value_parser = clap::value_parser!(u64).range(1..=4))]
    turns: u64,
    /// Write only the random positions (the game positions of games that
    /// carry the player's evaluation are labelled already).
    #[arg(long, requires = "random")]
    random_only: bool,
    /// Seed of the random turns.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Instead: the turn starts along this engine's own PV (with
    /// `--params`, if given), searching each game position this many steps
    /// (the positions its search walks into).
    #[arg(long, value_name = "STEPS", conflicts_with = "random", value_parser = clap::value_parser!(u32).range(4..=16))]
    pv: Option<u32>,
    /// Instead: the positions after the K turns this engine's static score
    /// (with `--params`, if given) likes best from each game position, the
    /// opponent to move (what a one-turn search without quiescence walks
    /// into: where the evaluation is too kind, it goes).
    #[arg(long, value_name = "K", conflicts_with_all = ["random", "pv"], value_parser = clap::value_parser!(u64).range(1..=1000))]
    top: Option<u64>,
    /// With --pv or --top: only every N-th game position.
    #[arg(long, default_value_t = 1, requires = "own", value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// With --pv or --top: game positions at once (one thread each).
    #[arg(long, default_value_t = 1, requires = "own", value_parser = clap::value_parser!(u64).range(1..=256))]
    threads: u64,
    /// With --pv: each search's hash table, in MB.
    #[arg(long, default_value_t = 16, requires = "pv", value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Write here (JSON lines, as `arimaa label --positions` reads them);
    /// standard output without it.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
}

pub fn run_positions(args: &PositionsArgs, params: &Params) -> ExitCode {
    let lines = load(&args.games).and_then(|games| match (args.pv, args.top) {
        (Some(depth), _) => pv_positions(
            &games,
            args.every as usize,
            depth,
            params,
            args.threads as usize,
            args.hash as usize,
        ),
        (None, Some(best)) => top_positions(
            &games,
            args.every as usize,
            best as usize,
            params,
            args.threads as usize,
        ),
        (None, None) => positions(&games, args.random as usize, args.turns as usize, args.seed),
    });
    let lines = match lines {
        Ok(l) => l,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let text: String = lines
        .iter()
        .filter(|l| !args.random_only || l.origin == Origin::Random)
        .map(|l| format!("{}\n", l.to_json()))
        .collect();
    match &args.out {
        None => say_raw!("{text}"),
        Some(path) => {
            if let Err(e) = std::fs::File::create(path).and_then(|mut f| f.write_all(text.as_bytes())) {
                eprintln!("error: {}: {e}", path.display());
                return ExitCode::FAILURE;
            }
            eprintln!("{} positions written to {}", text.lines().count(), path.display());
        }
    }
    ExitCode::SUCCESS
}

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  arimaa label --positions positions.jsonl --out labels.jsonl --concurrency 2 \\
               --engine name=sharp cmd=/path/to/sharp.sh option.hash=64 option.threads=1 depth=4 \\
               --score log:Eval
  arimaa label --positions positions.jsonl --out ours.jsonl \\
               --engine name=arimaa cmd=target/release/arimaa depth=6
  arimaa label --positions positions.jsonl --out static.jsonl --concurrency 2 \\
               --engine name=sharp-static cmd=/path/to/sharp-dev/sharp aei \\
               --ask eval --score 'log:Final Score:' --minus log:NumStepsScore:

Each output line is the position's line with n (its line index), score
(from the side to move's view, in the engine's units), best (its move),
teacher and depth added. A stopped run keeps what it wrote; --resume
carries on.")]
pub struct LabelArgs {
    /// Positions: JSON lines with a `pos` field ("g [board]", as `arimaa
    /// positions` writes them) or plain "g [board]" lines.
    #[arg(long, value_name = "FILE")]
    positions: PathBuf,
    /// The teacher: name=NAME cmd=COMMAND [dir=DIR] depth=N [option.NAME=VALUE ...].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., required = true)]
    engine: Vec<String>,
    /// Append labels here (JSON lines).
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
    /// Carry on into an existing --out: the positions it holds are skipped.
    #[arg(long)]
    resume: bool,
    /// Engines searching at once, one position each.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: u64,
    /// Where the score is: `info` (AEI's `info score N`) or `log:KEY` (the
    /// number after KEY in `log` lines, e.g. `log:Eval` for sharp).
    #[arg(long, default_value = "info")]
    score: ScoreSource,
    /// Ask for a static evaluation with this command instead of a search
    /// (`go`): the answer ends at the first --score line, and the engine
    /// needs no depth (sharp's developer build answers `eval`).
    #[arg(long, value_name = "COMMAND")]
    ask: Option<String>,
    /// With --ask: a part of the score to subtract, read from the lines
    /// before it (`log:NumStepsScore:` for sharp's bonus for steps left).
    #[arg(long, value_name = "SOURCE", requires = "ask")]
    minus: Option<ScoreSource>,
    /// Seconds one position may take before it is skipped.
    #[arg(long, default_value_t = 60.0)]
    move_timeout: f64,
    /// No progress on stderr; only the summary.
    #[arg(long)]
    quiet: bool,
}

pub fn run_label(args: &LabelArgs) -> ExitCode {
    match label_positions(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn label_positions(args: &LabelArgs) -> Result<ExitCode, CliError> {
    if !(args.move_timeout > 0.0 && args.move_timeout <= 86_400.0) {
        return Err(CliError::Usage(format!(
            "--move-timeout {}: seconds, more than 0 and at most a day",
            args.move_timeout
        )));
    }
    let ask = match &args.ask {
        None => Ask::Search,
        Some(command) if command.trim().is_empty() || command.contains(['\n', '\r']) => {
            return Err(CliError::Usage(format!("--ask '{command}': one command line")));
        }
        Some(command) => Ask::Static {
            command: command.trim().to_string(),
            minus: args.minus.clone(),
        },
    };
    // A static evaluation needs no limit: a depth stands in unless one is given.
    let stand_in: Vec<String> = match ask {
        Ask::Search | Ask::Play => Vec::new(),
        Ask::Static { .. } => vec!["depth=1".into()],
    };
    let engine =
        EngineSpec::parse(&args.engine, &stand_in, None).map_err(|e| CliError::Usage(format!("--engine: {e}")))?;
    let config = LabelConfig {
        engine,
        ask,
        concurrency: args.concurrency as usize,
        score: args.score.clone(),
        move_timeout: Duration::from_secs_f64(args.move_timeout),
    };
    let depth = config.validate()?;
    let positions = read_positions(&args.positions)?;
    for (line, why) in &positions.refused {
        eprintln!("{}:{line}: skipped: {why}", args.positions.display());
    }
    let (mut labels, done) = Labels::open(&args.out, &positions, &config.engine.name, depth, args.resume)?;
    let todo: Vec<&PositionLine> = positions
        .lines
        .iter()
        .filter(|l| !done.contains(&l.task.index))
        .collect();
    let tasks: Vec<Task> = todo.iter().map(|l| l.task).collect();
    let by_index: std::collections::HashMap<usize, &PositionLine> = todo.iter().map(|l| (l.task.index, *l)).collect();
    eprintln!(
        "{} positions: {} labelled before, {} to label with {} {}",
        positions.lines.len(),
        done.len(),
        tasks.len(),
        config.engine.name,
        match &config.ask {
            Ask::Search | Ask::Play => format!("at depth {depth}"),
            Ask::Static { command, .. } => format!("by its static evaluation ('{command}')"),
        }
    );
    let stop = stop_on_ctrl_c("the labelling");
    let progress = Progress::new(tasks.len() as u64, "positions", args.quiet);
    let (mut labelled, mut skipped, mut write_error) = (0u64, 0u64, None);
    let result = label::run(&config, &tasks, &stop, |event| {
        match event {
            Event::Labelled(l) => {
                if let Some(line) = by_index.get(&l.index) {
                    match labels.write(line, &l) {
                        Ok(()) => labelled += 1,
                        Err(e) => {
                            // Nothing more can be kept: stop the engines.
                            write_error.get_or_insert(e);
                            stop.store(true, Ordering::Relaxed);
                        }
                    }
                }
            }
            Event::Skipped { index, why } => {
                skipped += 1;
                // Said even with --quiet: a skipped position is a warning.
                let line = format!("{}:{}: skipped: {why}", args.positions.display(), index + 1);
                if args.quiet {
                    eprintln!("{line}");
                } else {
                    progress.line(&line);
                }
            }
        }
        progress.update(
            labelled + skipped,
            &format!("{labelled} labelled, {skipped} skipped"),
            false,
        );
    });
    progress.finish();
    say!(
        "{labelled} labelled, {skipped} skipped, {} left; {} labels in {}",
        tasks.len() as u64 - labelled - skipped,
        done.len() as u64 + labelled,
        args.out.display()
    );
    if let Some(e) = write_error {
        return Err(e.into());
    }
    result?;
    Ok(if stop.load(Ordering::Relaxed) {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}
