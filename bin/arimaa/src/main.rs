//! `arimaa`: the engine binary and its tools, one clap subcommand each.
//! Without a subcommand it is an AEI engine on stdin/stdout.

#[macro_use]
mod stdout;
mod analyze_cmd;
mod bench_cmd;
mod engine_groups;
mod error;
mod fit_cmd;
mod interrupt;
mod judge_cmd;
mod label_cmd;
mod learn_cmd;
mod malloc;
mod match_cmd;
mod match_pair_cmd;
mod material_cmd;
mod movetest_cmd;
mod perft_cmd;
mod selfplay_cmd;
mod tune_cmd;

use arimaa_search::Params;
use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(
    name = "arimaa",
    version = env!("ARIMAA_VERSION"),
    about = "Arimaa engine (AEI on stdin/stdout by default) and tools"
)]
struct Cli {
    /// Evaluation weights and search constants from FILE (`name = value`
    /// lines, as `arimaa params` prints them); the rest keep their defaults.
    #[arg(long, value_name = "FILE", global = true)]
    params: Option<std::path::PathBuf>,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run as an AEI engine on stdin/stdout (the default).
    Aei,
    /// Play a game against itself, printing each move and the board.
    Selfplay(selfplay_cmd::SelfplayArgs),
    /// Search one position (a board diagram file, an AEI position, or a game
    /// record at a move) and print every finished iteration.
    Analyze(analyze_cmd::AnalyzeArgs),
    /// Count legal turns and first steps (the oracle fixtures' counts).
    Perft(perft_cmd::PerftArgs),
    /// Search fixed positions to a fixed depth: node-count signature and nodes/s.
    Bench(bench_cmd::BenchArgs),
    /// Play AEI engines against each other: referee, clocks, records, Elo, SPRT.
    Match(match_cmd::MatchArgs),
    /// Play one game pair from a JSON spec on stdin, print its outcome as
    /// JSON (what a cluster worker runs for `--cluster ray`).
    #[command(hide = true)]
    MatchPair,
    /// Tune parameters by SPSA: self-play matches with the values nudged up and down.
    Tune(tune_cmd::TuneArgs),
    /// Fit the evaluation's weights to games (results and the players' own
    /// evaluations), measured on held-out games.
    Fit(fit_cmd::FitArgs),
    /// Share of held-out game positions where a fixed-depth search plays the
    /// game's move.
    Agree(fit_cmd::AgreeArgs),
    /// Positions of games (and one random turn away) to label, as JSON lines.
    Positions(label_cmd::PositionsArgs),
    /// Label positions with an AEI engine's searched score and move at a
    /// fixed depth (teacher data), concurrent and resumable.
    Label(label_cmd::LabelArgs),
    /// Train the learned evaluation on teacher labels; held-out measures
    /// against the hand-made evaluation.
    Learn(learn_cmd::LearnArgs),
    /// Each player's loss per move in labelled games, as the teacher scores
    /// it: a finer yardstick than a match lost game after game.
    Judge(judge_cmd::JudgeArgs),
    /// Each player's material over the games of match records: the balance
    /// at fixed turns and the first piece lost, a yardstick for matches
    /// lost game after game.
    Material(material_cmd::MaterialArgs),
    /// Each engine's move in fixed teacher-scored positions, judged by the
    /// teacher: two builds compared position by position.
    Movetest(movetest_cmd::MovetestArgs),
    /// Print every tunable parameter with its value, range and meaning, in the
    /// file form `--params` reads.
    Params,
}

/// The parameter set of `--params FILE`, or the defaults.
fn load_params(path: Option<&std::path::Path>) -> Result<Params, error::CliError> {
    let Some(path) = path else {
        return Ok(Params::default());
    };
    let text = std::fs::read_to_string(path)
        .map_err(|e| error::CliError::File(format!("cannot read {}: {e}", path.display())))?;
    Params::from_text(&text).map_err(|error| error::CliError::Params {
        path: path.display().to_string(),
        error,
    })
}

fn main() -> ExitCode {
    // Logs go to stderr only: stdout belongs to the AEI controller.
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    malloc::keep_large_blocks_mapped();
    let cli = Cli::parse();
    let params = match load_params(cli.params.as_deref()) {
        Ok(p) => p,
        Err(e) => {
            eprintln!("error: --params {e}");
            return ExitCode::from(2);
        }
    };
    match cli.command {
        None | Some(Command::Aei) => {
            let id = arimaa_aei::Identity {
                name: "arimaa-rs".into(),
                author: "the arimaa-rs developers".into(),
                // The package version and the commit (see build.rs).
                version: env!("ARIMAA_VERSION").into(),
            };
            let seed = std::time::SystemTime::now()
                .duration_since(std::time::UNIX_EPOCH)
                .map_or(0, |d| d.as_nanos() as u64);
            arimaa_aei::run_stdio(id, seed, params);
            ExitCode::SUCCESS
        }
        Some(Command::Selfplay(args)) => selfplay_cmd::run(&args, &params),
        Some(Command::Analyze(args)) => analyze_cmd::run(&args, &params),
        Some(Command::Perft(args)) => perft_cmd::run(&args),
        Some(Command::Bench(args)) => bench_cmd::run(&args, &params),
        Some(Command::Match(args)) => match_cmd::run(&args),
        Some(Command::MatchPair) => match_pair_cmd::run(),
        Some(Command::Tune(args)) => tune_cmd::run_cmd(&args),
        Some(Command::Fit(args)) => fit_cmd::run_fit(&args, &params),
        Some(Command::Agree(args)) => fit_cmd::run_agree(&args, &params),
        Some(Command::Positions(args)) => label_cmd::run_positions(&args, &params),
        Some(Command::Label(args)) => label_cmd::run_label(&args),
        Some(Command::Learn(args)) => learn_cmd::run(&args),
        Some(Command::Judge(args)) => judge_cmd::run(&args),
        Some(Command::Material(args)) => material_cmd::run(&args),
        Some(Command::Movetest(args)) => movetest_cmd::run(&args),
        Some(Command::Params) => {
            say_raw!("{}", params.to_text());
            ExitCode::SUCCESS
        }
    }
}
