//! `arimaa material`: each player's material over the games of match
//! records (see `arimaa_tuning::material`).

use crate::error::CliError;
use arimaa_match::record::read_records;
use arimaa_tuning::material::{kinds_text, mean_interval, median_turn, tally};
use arimaa_tuning::nnue::data::read_text;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;

#[derive(Args, Debug)]
#[command(after_help = "Example (two builds' matches against sharp, both lost 0-40):
  arimaa material --games old.txt new.txt

The balance is pieces taken less pieces lost by the end of each asked turn
(a game over sooner counts with its final balance), as a mean with its
95 % interval over the player's games; then the share of games behind at
the first asked turn, the median turn of the first own piece lost, and the
pieces lost and taken by kind. Players are named by the records' Gold and
Silver headers, so one build's games in several files count together.")]
pub struct MaterialArgs {
    /// Match records (`arimaa match --record`; `.gz` read as is).
    #[arg(long, value_name = "FILE", num_args = 1.., required = true)]
    games: Vec<PathBuf>,
    /// The turns to report the balance at.
    #[arg(long, value_delimiter = ',', default_values_t = [10, 20, 30])]
    at: Vec<u32>,
}

/// Runs `arimaa material`.
pub fn run(args: &MaterialArgs) -> ExitCode {
    crate::error::exit_code(run_material(args))
}

fn run_material(args: &MaterialArgs) -> Result<(), CliError> {
    if args.at.is_empty() || args.at.contains(&0) {
        return Err(CliError::Usage("--at takes turn numbers from 1 on".into()));
    }
    let mut games = Vec::new();
    for path in &args.games {
        let text = read_text(path).map_err(|e| CliError::File(format!("cannot read {}: {e}", path.display())))?;
        let read =
            read_records(&text).map_err(|e| CliError::File(format!("{}: not a match record: {e}", path.display())))?;
        say!("{}: {} games", path.display(), read.len());
        games.extend(read);
    }
    if games.is_empty() {
        return Err(CliError::Usage("no game in the records".into()));
    }
    let players = tally(&games, &args.at);
    let mut head = format!("{:<16} {:>5}", "player", "games");
    for t in &args.at {
        head.push_str(&format!("  {:>17}", format!("balance turn {t}")));
    }
    head.push_str(&format!(
        "  {:>8}  {:>10}",
        format!("behind {}", args.at[0]),
        "first loss"
    ));
    say!("{head}");
    for (name, p) in &players {
        let mut line = format!("{name:<16} {:>5}", p.games);
        for b in &p.balance {
            let (mean, half) = mean_interval(b);
            line.push_str(&format!("  {:>17}", format!("{mean:+.2} ± {half:.2}")));
        }
        let behind = p.balance[0].iter().filter(|&&b| b < 0).count() as f64 / f64::from(p.games.max(1));
        let first = median_turn(&p.first_loss).map_or("-".to_string(), |m| format!("{m:.1}"));
        line.push_str(&format!("  {:>7.0} %  {first:>10}", behind * 100.0));
        say!("{line}");
    }
    say!("");
    for (name, p) in &players {
        say!(
            "{name:<16} lost {}   took {}",
            kinds_text(&p.lost),
            kinds_text(&p.taken)
        );
    }
    Ok(())
}
