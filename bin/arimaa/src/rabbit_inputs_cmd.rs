//! `arimaa rabbit-inputs`: the goal-threat model's inputs of every scored
//! rabbit of labelled positions, for its trainer (`tuning/goal_threat`).
//! The inputs come from the engine's own `eval::goal_threat::rabbit_inputs`,
//! so the trainer and the evaluation cannot disagree on them.

use crate::error::CliError;
use arimaa_core::{parse_position, Kind, Piece};
use arimaa_search::eval::goal_threat::{rabbit_inputs, INPUTS};
use arimaa_tuning::nnue::data::read_text;
use clap::Args;
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Example:
  arimaa rabbit-inputs --positions goal_threat.jsonl.gz --out inputs.tsv

One line per scored rabbit (those five ranks or fewer from goal): the
position's line number (from 0), 0 for a rabbit of the side to move or 1
for the other side's, then the model's inputs, tab-separated. A line
whose position does not parse is an error: the trainer pairs these lines
with the labels by line number.")]
pub struct RabbitInputsArgs {
    /// Positions: JSON lines with a `pos` field (`.gz` read as is).
    #[arg(long, value_name = "FILE")]
    positions: PathBuf,
    /// Write here.
    #[arg(long, value_name = "FILE")]
    out: PathBuf,
}

/// Runs `arimaa rabbit-inputs`.
pub fn run(args: &RabbitInputsArgs) -> ExitCode {
    crate::error::exit_code(run_inputs(args))
}

fn run_inputs(args: &RabbitInputsArgs) -> Result<(), CliError> {
    let name = args.positions.display();
    let text = read_text(&args.positions).map_err(|e| CliError::File(format!("cannot read {name}: {e}")))?;
    let file = std::fs::File::create(&args.out)
        .map_err(|e| CliError::File(format!("cannot write {}: {e}", args.out.display())))?;
    let mut out = std::io::BufWriter::new(file);
    let mut rabbits = 0usize;
    let mut lines = 0usize;
    for (n, line) in text.lines().enumerate() {
        let pos = serde_json::from_str::<serde_json::Value>(line)
            .ok()
            .and_then(|v| parse_position(v.get("pos")?.as_str()?).ok())
            .ok_or_else(|| CliError::File(format!("{name}:{}: no position (a JSON line with \"pos\")", n + 1)))?;
        lines += 1;
        for (owner, color) in [(0, pos.side()), (1, pos.side().opponent())] {
            for sq in pos.bitboard(Piece::new(color, Kind::Rabbit)).iter() {
                let Some(inputs) = rabbit_inputs(&pos, color, sq) else {
                    continue;
                };
                let mut dense = [0f32; INPUTS];
                for &(i, x) in inputs.pairs() {
                    dense[usize::from(i)] = x;
                }
                let values: Vec<String> = dense.iter().map(f32::to_string).collect();
                writeln!(out, "{n}\t{owner}\t{}", values.join("\t"))
                    .map_err(|e| CliError::File(format!("cannot write {}: {e}", args.out.display())))?;
                rabbits += 1;
            }
        }
    }
    out.flush()
        .map_err(|e| CliError::File(format!("cannot write {}: {e}", args.out.display())))?;
    say!("{lines} positions, {rabbits} rabbits written to {}", args.out.display());
    Ok(())
}
