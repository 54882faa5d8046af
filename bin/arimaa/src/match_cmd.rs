//! `arimaa match`: AEI engines play each other; the runner referees, keeps
//! the clocks, records the games and prints Elo, LOS and the SPRT.

use crate::engine_groups::EngineGroups;
use crate::error::CliError;
use crate::interrupt::{stop_on_ctrl_c, EXIT_INTERRUPTED};
use arimaa_match::cluster::Cluster;
use arimaa_match::runner::run_match_on;
use arimaa_match::setups::SetupBook;
use arimaa_match::stats::{SprtDecision, Wdl};
use arimaa_match::{EngineSpec, MatchConfig, Sprt, TimeControl};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Duration;

/// Exit status after Ctrl-C (128 + SIGINT, as shells report it).
/// Exit status of `--fail-on-fault` when a game ended by an engine fault.
const EXIT_FAULT: u8 = 3;

#[derive(Args, Debug)]
#[command(after_help = "\
Examples:
  arimaa match --engine name=arimaa cmd=target/release/arimaa \\
               --engine name=simple cmd='python3 -m pyrimaa.simple_engine' \\
               --tc 1s/10s --games 10 --record games.txt
  arimaa match --engine name=new cmd=./arimaa-new --engine name=old cmd=./arimaa-old \\
               --each option.hash=64 --tc 0.5s/5s/100 --concurrency 2 --games 2000 \\
               --sprt elo0=0 elo1=5 alpha=0.05 beta=0.05

Reasons in records and tables: goal, elimination, immobilization, repetition,
illegal move (third repetition included), time, resign, crash, hang, adjudicated
(a draw at --max-turns or the time control's turn/total limit).")]
pub struct MatchArgs {
    #[command(flatten)]
    engines: EngineGroups,
    /// Settings for every engine, in the --engine form; an engine's own settings win.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// Time control, arimaa.com form move/reserve[/percent[/max[/total[/turntime]]]],
    /// e.g. 3s/30s/100/60s or 15s/1m; every non-zero time needs a unit (s, m, h or m:ss); total may be Nt (turns).
    #[arg(long)]
    tc: Option<String>,
    /// Games for each pair of engines, played two by two with colours swapped.
    #[arg(long, default_value_t = 2)]
    games: u32,
    /// Games played at the same time (with --cluster ray: game pairs in
    /// flight across the cluster).
    #[arg(long, default_value_t = 1)]
    concurrency: usize,
    /// Where the games are played: local (threads here), ray (the Ray
    /// cluster this machine belongs to), ray:HOST:PORT (a head's address),
    /// ray://HOST:PORT (Ray Client) or ray:local (a private Ray started for
    /// the match). Each pair is a Ray task running this binary on a node.
    #[arg(long, default_value = "local", value_name = "WHERE")]
    cluster: String,
    /// Setup file: one line per opening with both setups (16 gold + 16 silver
    /// tokens); each pair of games uses the next line. Without it the engines choose.
    #[arg(long, value_name = "FILE")]
    setups: Option<PathBuf>,
    /// Append every finished game to FILE (headers plus the arimaa.com move list).
    #[arg(long, value_name = "FILE")]
    record: Option<PathBuf>,
    /// Also append every finished game to FILE as PGN, as pyrimaa's
    /// roundrobin writes it (White = gold, Black = silver, Result, ResultCode,
    /// PlyCount), for bayeselo and ordo.
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Carry on a stopped match: the games already in the --record file count
    /// as played (each must match this command line's engines, limits and
    /// setups) and only the rest of the --games are played.
    #[arg(long, requires = "record")]
    resume: bool,
    /// Sequential probability ratio test of the first engine against the second:
    /// stop when the LLR crosses a bound. Defaults elo0=0 elo1=5 alpha=0.05 beta=0.05.
    #[arg(long, value_name = "KEY=VALUE", num_args = 0..)]
    sprt: Option<Vec<String>>,
    /// Model of the Elo interval, LOS and SPRT: pentanomial (game pairs by
    /// pair score; the default for an even --games) or trinomial (games as
    /// independent wins, draws and losses; the default for an odd --games).
    /// An unfinished pair counts in the trinomial figures only.
    #[arg(long, value_name = "MODEL", value_parser = ["trinomial", "pentanomial"])]
    stats: Option<String>,
    /// Adjudicate a draw when move N is over (move 1 is the setups).
    #[arg(long, value_name = "N")]
    max_turns: Option<u32>,
    /// Seconds a bestmove may arrive after the deadline and still count, for
    /// pipe and scheduling latency.
    #[arg(long, default_value_t = 0.1, value_name = "SECS")]
    grace: f64,
    /// Seconds a late engine gets to answer `stop`; silent after that, it is hung and killed.
    #[arg(long, default_value_t = 2.0, value_name = "SECS")]
    hang_timeout: f64,
    /// Seconds to wait for a move from an engine without a clock (depth=N).
    #[arg(long, default_value_t = 120.0, value_name = "SECS")]
    move_timeout: f64,
    /// Draw the match as an SVG in FILE: the first engine's Elo against the
    /// second after each game with its 95 % interval, and the LLR with --sprt.
    #[arg(long, value_name = "FILE")]
    plot: Option<PathBuf>,
    /// Write every line exchanged with the engines, and their stderr, to FILE.
    #[arg(long, value_name = "FILE")]
    log: Option<PathBuf>,
    /// The records' Event header.
    #[arg(long, default_value = "arimaa match")]
    event: String,
    /// No progress on stderr; only the summary.
    #[arg(long)]
    quiet: bool,
    /// Exit with status 3 if any game ended by an illegal move, a time loss,
    /// a crash or a hang (soak tests and CI).
    #[arg(long)]
    fail_on_fault: bool,
}

fn seconds(name: &str, v: f64) -> Result<Duration, CliError> {
    if v.is_finite() && (0.0..=86_400.0).contains(&v) {
        Ok(Duration::from_secs_f64(v))
    } else {
        Err(CliError::Usage(format!(
            "--{name} must be a number of seconds from 0 to 86400"
        )))
    }
}

fn config(args: &MatchArgs) -> Result<MatchConfig, CliError> {
    let tc: Option<TimeControl> = args
        .tc
        .as_deref()
        .map(str::parse)
        .transpose()
        .map_err(CliError::Usage)?;
    let engines = args
        .engines
        .0
        .iter()
        .map(|words| EngineSpec::parse(words, &args.each, tc.as_ref()))
        .collect::<Result<Vec<_>, _>>()?;
    let config = MatchConfig {
        engines,
        games: args.games,
        concurrency: args.concurrency,
        grace: seconds("grace", args.grace)?,
        hang_timeout: seconds("hang-timeout", args.hang_timeout)?,
        move_timeout: seconds("move-timeout", args.move_timeout)?,
        max_turns: args.max_turns,
        setups: args.setups.as_deref().map(SetupBook::load).transpose()?,
        record: args.record.clone(),
        pgn: args.pgn.clone(),
        sprt: args.sprt.as_deref().map(Sprt::parse).transpose()?,
        stats: args.stats.as_deref().map(str::parse).transpose()?,
        log: args.log.clone(),
        event: args.event.clone(),
        resume: args.resume,
    };
    config.validate()?;
    Ok(config)
}

/// Writes `--plot` for the first pair's `history`, if asked for.
fn write_plot(args: &MatchArgs, config: &MatchConfig, history: &[Wdl]) -> Result<(), CliError> {
    let Some(path) = &args.plot else { return Ok(()) };
    let names = [config.engines[0].name.as_str(), config.engines[1].name.as_str()];
    let svg = arimaa_match::plot::svg(names, history, config.sprt.as_ref())?;
    std::fs::write(path, svg).map_err(|e| CliError::File(format!("--plot {}: {e}", path.display())))
}

pub fn run(args: &MatchArgs) -> ExitCode {
    let config = match config(args) {
        Ok(c) => c,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let stop = stop_on_ctrl_c("the match");
    // An empty plot now: a path that cannot be written fails before the match.
    if let Err(e) = write_plot(args, &config, &[]) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let mut executor = match args.cluster.parse::<Cluster>().and_then(|c| c.executor()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    let report = match run_match_on(executor.as_mut(), &config, &stop, args.quiet) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    say_raw!("{}", report.text);
    if let Err(e) = write_plot(args, &config, &report.history) {
        eprintln!("error: {e}");
        return ExitCode::FAILURE;
    }
    let played = report.tally.games();
    match report.sprt {
        Some(SprtDecision::AcceptH1) => say!("SPRT: H1 accepted after {played} games"),
        Some(SprtDecision::AcceptH0) => say!("SPRT: H0 accepted after {played} games"),
        _ => {}
    }
    if report.interrupted {
        say!("Interrupted: {played} of {} games finished", report.scheduled);
        return ExitCode::from(EXIT_INTERRUPTED);
    }
    say!("{played} of {} games finished", report.scheduled);
    let faults: Vec<String> = report
        .tally
        .reasons
        .iter()
        .filter(|(t, n)| t.is_fault() && **n > 0)
        .map(|(t, n)| format!("{n} {}", t.name()))
        .collect();
    if faults.is_empty() {
        say!("Faults: none (no illegal move, time loss, crash or hang)");
    } else {
        say!("Faults: {}", faults.join(", "));
        if args.fail_on_fault {
            return ExitCode::from(EXIT_FAULT);
        }
    }
    ExitCode::SUCCESS
}
