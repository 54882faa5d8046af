//! `arimaa`: the engine binary and its tools, one clap subcommand each.

mod perft_cmd;

use clap::{Parser, Subcommand};
use std::process::ExitCode;

#[derive(Parser, Debug)]
#[command(name = "arimaa", version, about = "Arimaa engine and tools")]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Count legal turns and first steps (the oracle fixtures' counts).
    Perft(perft_cmd::PerftArgs),
}

fn main() -> ExitCode {
    env_logger::Builder::from_env(env_logger::Env::default().default_filter_or("warn"))
        .target(env_logger::Target::Stderr)
        .init();
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft(args)) => perft_cmd::run(&args),
        None => perft_cmd::run(&perft_cmd::PerftArgs::default()),
    }
}
