//! `arimaa judge`: each player's loss per move in labelled games, as the
//! teacher scores it (see `arimaa_tuning::judge`).

use crate::error::CliError;
use arimaa_tuning::judge::{judge, parse_labels, Phase, BLUNDER, CLIP};
use arimaa_tuning::nnue::data::read_text;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Example (a match against sharp, judged by sharp):
  arimaa match --engine name=ours cmd=target/release/arimaa tc=1s/10s/100/20s \\
               --engine name=sharp cmd=PATH/sharp.sh depth=4 --games 20 --record m.txt
  arimaa positions --games m.txt --out p.jsonl
  arimaa label --positions p.jsonl --out l.jsonl --engine name=sharp cmd=PATH/sharp.sh depth=4 --score log:Eval
  arimaa judge --labels l.jsonl

A move's loss is the teacher's score before it plus its score after it (the
opponent's view), in rabbits, clipped to 3. Positions need the `player` field
that `arimaa positions` writes from a match record's headers; without it the
side to move names the player.")]
pub struct JudgeArgs {
    /// Labelled game positions (`arimaa label` outputs; `.gz` read as is).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    labels: Vec<PathBuf>,
    /// Teacher units to a rabbit (sharp's millirabbits: 1000; ours: 100).
    #[arg(long, default_value_t = 1000.0)]
    unit: f64,
    /// Moves of each side, after the setups, that count as the opening.
    #[arg(long, default_value_t = 10)]
    opening: usize,
}

/// Runs `arimaa judge`.
pub fn run(args: &JudgeArgs) -> ExitCode {
    crate::error::exit_code(run_judge(args))
}

fn run_judge(args: &JudgeArgs) -> Result<(), CliError> {
    if !(args.unit.is_finite() && args.unit > 0.0) {
        return Err(CliError::Usage("--unit must be above 0".into()));
    }
    let mut labels = Vec::new();
    for path in &args.labels {
        let text = read_text(path).map_err(|e| CliError::File(format!("cannot read {}: {e}", path.display())))?;
        let (judged, skipped) = parse_labels(&text);
        say!(
            "{}: {} game positions ({skipped} other lines skipped)",
            path.display(),
            judged.len()
        );
        labels.extend(judged);
    }
    let rows = judge(&labels, args.unit, args.opening);
    if rows.is_empty() {
        return Err(CliError::Usage(
            "no move with its positions before and after labelled".into(),
        ));
    }
    say!(
        "{:<16} {:<8} {:>6}  {:>18}  {:>7}  {:>8}",
        "player",
        "phase",
        "moves",
        "loss/move (95 %)",
        "median",
        format!(">= {BLUNDER} R")
    );
    for r in &rows {
        if r.phase == Phase::All && rows.iter().filter(|o| o.player == r.player).count() == 2 {
            // Only one phase: the total repeats it.
            continue;
        }
        say!(
            "{:<16} {:<8} {:>6}  {:>8.3} R ± {:<6.3}  {:>7.3}  {:>7.1} %",
            r.player,
            r.phase.to_string(),
            r.moves,
            r.mean,
            r.half_width,
            r.median,
            100.0 * r.blunders
        );
    }
    say!(
        "(losses in rabbits, each clipped to {CLIP}; opening = the first {} moves of each side)",
        args.opening
    );
    Ok(())
}
