//! `arimaa fit` and `arimaa agree`: the evaluation fitted to games and
//! measured on held-out games without playing a match.

use crate::error::CliError;
use arimaa_search::params::{Params, Weight};
use arimaa_tuning::fit::ablate::{refits, zeroed};
use arimaa_tuning::fit::agree::{agreement, probes};
use arimaa_tuning::fit::data::{load_split, samples, Split};
use arimaa_tuning::fit::measure::{cross_validate, measure, player, Measure};
use arimaa_tuning::fit::texel::{fit, Dataset, FitConfig};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

/// Where the games are and how they are split.
#[derive(Args, Debug)]
pub struct DataArgs {
    /// Games: a strong-games `.jsonl` file, an `arimaa match --record`
    /// file, or a directory of them.
    #[arg(long, value_name = "PATH")]
    data: PathBuf,
    /// Hold out every N-th game for measuring (the rest are fitted).
    #[arg(long, default_value_t = 5, value_parser = clap::value_parser!(u64).range(2..=100))]
    holdout: u64,
    /// Which of the N games in turn is held out (0..N).
    #[arg(long, default_value_t = 0)]
    holdout_offset: u64,
}

#[derive(Args, Debug)]
pub struct FitArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Weights to fit, comma-separated; by default every weight whose
    /// feature occurs in the training positions.
    #[arg(long, value_delimiter = ',')]
    free: Vec<String>,
    /// Share of the game result in the target; the rest is the player's own
    /// evaluation where the games carry one (1 = results only).
    #[arg(long, default_value_t = 0.5)]
    result_share: f64,
    /// Ridge penalty per squared tuning step away from the starting values.
    #[arg(long, default_value_t = 1e-5)]
    ridge: f64,
    /// Write the fitted parameters here (the `--params` file form).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Also refit with each group of terms switched off, to show what each
    /// group is worth on the held-out games.
    #[arg(long)]
    ablate: bool,
    /// Also cross-validate: fit once per fold of the --holdout split (each
    /// fold held out in turn) and print the mean held-out losses, steadier
    /// than one split's.
    #[arg(long)]
    cross: bool,
}

#[derive(Args, Debug)]
pub struct AgreeArgs {
    #[command(flatten)]
    data: DataArgs,
    /// Search depth in steps (the root turn counts 4).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u32).range(4..=20))]
    depth: u32,
    /// Use every N-th held-out position.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..))]
    every: u64,
    /// Positions searched at once (one search thread each).
    #[arg(long, default_value_t = 2, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
    /// Table size per search, in MB.
    #[arg(long, default_value_t = 16, value_parser = clap::value_parser!(u64).range(1..=4096))]
    hash: u64,
    /// Also measure with each group of terms switched off (weights zeroed,
    /// the rest as given, no refit): what the search loses without that
    /// knowledge. Groups already at zero are skipped.
    #[arg(long)]
    ablate: bool,
}

/// The games and their split, or an error for the user.
fn games(args: &DataArgs) -> Result<Split, CliError> {
    if args.holdout_offset >= args.holdout {
        return Err(CliError::Usage(format!(
            "--holdout-offset must be below --holdout ({})",
            args.holdout
        )));
    }
    Ok(load_split(
        &args.data,
        args.holdout as usize,
        args.holdout_offset as usize,
    )?)
}

fn show(name: &str, m: &Measure) {
    let eval = m.held_eval.map_or("-".to_string(), |e| format!("{e:.4}"));
    say!("{name:<24} {:>8.1} {:>12.4} {:>14.4} {eval:>14}", m.k, m.train, m.held);
}

/// `ExitCode` of a command's result, its error on stderr.
fn exit(result: Result<(), CliError>) -> ExitCode {
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

pub fn run_fit(args: &FitArgs, start: &Params) -> ExitCode {
    exit(fit_inner(args, start))
}

fn fit_inner(args: &FitArgs, start: &Params) -> Result<(), CliError> {
    if !(0.0..=1.0).contains(&args.result_share) || !args.ridge.is_finite() || args.ridge < 0.0 {
        return Err(CliError::Usage(
            "--result-share must be in 0..1 and --ridge at least 0".into(),
        ));
    }
    let t0 = Instant::now();
    let split = games(&args.data)?;
    let train = Dataset::new(&samples(&split.games, &split.train)?);
    let held = Dataset::new(&samples(&split.games, &split.held)?);
    say!(
        "{} games: {} fitted ({} positions), {} held out ({} positions)",
        split.games.len(),
        split.train.len(),
        train.len(),
        split.held.len(),
        held.len()
    );
    let free: Vec<Weight> = if args.free.is_empty() {
        train.present()
    } else {
        args.free
            .iter()
            .map(|n| {
                Weight::from_name(n.trim())
                    .ok_or_else(|| CliError::Usage(format!("--free: no weight named '{}'", n.trim())))
            })
            .collect::<Result<_, _>>()?
    };
    let config = FitConfig {
        free: free.clone(),
        result_share: args.result_share,
        ridge: args.ridge,
    };
    let fitted = fit(&train, &start.weights, &config);
    say!(
        "{:<24} {:>8} {:>12} {:>14} {:>14}",
        "log-loss",
        "K",
        "train result",
        "held-out result",
        "held-out eval"
    );
    show("start", &measure(&train, &held, &start.weights));
    let fitted_measure = measure(&train, &held, &fitted.weights);
    show("fitted", &fitted_measure);
    if let Some(p) = player(&train, &held) {
        say!(
            "{:<24} {:>8.1} {:>12.4} {:>14.4}   (its own evaluation; {} held-out positions have one)",
            "player",
            p.k,
            p.train,
            p.held,
            p.held_positions
        );
    }
    say!("\nweights fitted ({} of them):", free.len());
    for &p in &free {
        let (old, new) = (start.weights[p], fitted.weights[p]);
        let mark = if old == new { "" } else { "  *" };
        say!("  {:<24} {old:>6} -> {new:>6}{mark}", p.spec().name);
    }
    if args.ablate {
        say!("\nheld-out log-loss with each group of terms off (the rest refitted): result, eval");
        for (group, m) in refits(&train, &held, &fitted.weights, &config) {
            let eval = match (m.held_eval, fitted_measure.held_eval) {
                (Some(e), Some(f)) => format!("{e:.4} ({:+.4})", e - f),
                _ => "-".to_string(),
            };
            say!(
                "  {:<20} {:.4} ({:+.4})  {eval}",
                group.name(),
                m.held,
                m.held - fitted_measure.held
            );
        }
    }
    if args.cross {
        let folds = args.data.holdout as usize;
        let cv = cross_validate(&split.games, folds, &start.weights, &config)?;
        say!("\ncross-validated over {folds} folds, mean held-out log-loss: result, eval");
        for (i, name) in ["start", "fitted"].into_iter().enumerate() {
            let eval = cv.eval.map_or("-".to_string(), |e| format!("{:.4}", e[i]));
            say!("  {name:<20} {:.4}  {eval}", cv.result[i]);
        }
    }
    if let Some(out) = &args.out {
        let params = Params {
            weights: fitted.weights,
            ..start.clone()
        };
        std::fs::write(out, params.to_text())
            .map_err(|e| CliError::File(format!("cannot write {}: {e}", out.display())))?;
        say!("\nwrote {}", out.display());
    }
    say!("{:.1} s", t0.elapsed().as_secs_f64());
    Ok(())
}

pub fn run_agree(args: &AgreeArgs, params: &Params) -> ExitCode {
    exit(games(&args.data).and_then(|split| {
        let probes = probes(&split.games, &split.held, args.every as usize)?;
        let t0 = Instant::now();
        let agree = |p: &Params| agreement(&probes, args.depth, p, args.threads as usize, args.hash as usize);
        let share = |n: usize| 100.0 * n as f64 / probes.len().max(1) as f64;
        let n = agree(params);
        say!(
            "agreement {n} / {} = {:.1} % at depth {} ({} held-out games, every {} position{}; {:.1} s)",
            probes.len(),
            share(n),
            args.depth,
            split.held.len(),
            args.every,
            if args.every == 1 { "" } else { "s" },
            t0.elapsed().as_secs_f64()
        );
        if args.ablate {
            say!("\nagreement with each group of terms off (weights zeroed, no refit):");
            for (group, off) in zeroed(params) {
                let m = agree(&off);
                say!(
                    "  {:<20} {m:>5} = {:>5.1} % ({:+.1})",
                    group.name(),
                    share(m),
                    share(m) - share(n)
                );
            }
        }
        Ok(())
    }))
}
