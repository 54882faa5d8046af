//! `arimaa fit` and `arimaa agree`: the evaluation fitted to games and
//! measured on held-out games without playing a match.

use arimaa_search::params::{Group, Params, Weight, Weights};
use arimaa_tuning::fit::agree::{agreement, probes};
use arimaa_tuning::fit::data::{load, samples, split, GameRecord};
use arimaa_tuning::fit::texel::{fit, fit_scale, log_loss, sigmoid, Dataset, FitConfig};
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

/// Games with the indices of the fitted and the held-out ones.
type Split = (Vec<GameRecord>, Vec<usize>, Vec<usize>);

/// The games and their split, or an error for the user.
fn games(args: &DataArgs) -> Result<Split, String> {
    if args.holdout_offset >= args.holdout {
        return Err(format!("--holdout-offset must be below --holdout ({})", args.holdout));
    }
    let games = load(&args.data)?;
    let (train, held) = split(games.len(), args.holdout as usize, args.holdout_offset as usize);
    if train.is_empty() || held.is_empty() {
        return Err(format!("{} games are too few to split", games.len()));
    }
    Ok((games, train, held))
}

/// How well one parameter set predicts, fitted on the training set and
/// measured on the held-out one.
struct Measure {
    /// Scale of `σ(eval / K)` against the training results.
    k: f64,
    /// Log-loss of the results, training and held out.
    train: f64,
    held: f64,
    /// Log-loss against the player's own evaluation (`σ(eval / K_s)`) on
    /// the held-out positions that have one, `K` refitted to it; `None`
    /// without evaluations.
    held_eval: Option<f64>,
}

/// The player's evaluations as probabilities, by the scale fitted on `train`.
fn eval_targets(train: &Dataset, data: &Dataset) -> Option<Vec<(usize, f64)>> {
    let (evals, results) = train.known_evals();
    if evals.len() < 10 {
        return None;
    }
    let ks = fit_scale(&evals, &results);
    Some(
        data.eval
            .iter()
            .enumerate()
            .filter_map(|(i, e)| e.map(|e| (i, sigmoid(e / ks))))
            .collect(),
    )
}

fn measure(train: &Dataset, held: &Dataset, weights: &Weights) -> Measure {
    let train_scores = train.scores(weights);
    let held_scores = held.scores(weights);
    let k = fit_scale(&train_scores, &train.result);
    let held_eval = eval_targets(train, train)
        .zip(eval_targets(train, held))
        .map(|(tt, ht)| {
            let pick = |scores: &[f64], t: &[(usize, f64)]| -> (Vec<f64>, Vec<f64>) {
                t.iter().map(|&(i, q)| (scores[i], q)).unzip()
            };
            let (ts, tq) = pick(&train_scores, &tt);
            let ke = fit_scale(&ts, &tq);
            let (hs, hq) = pick(&held_scores, &ht);
            log_loss(&hs, &hq, ke)
        });
    Measure {
        k,
        train: log_loss(&train_scores, &train.result, k),
        held: log_loss(&held_scores, &held.result, k),
        held_eval,
    }
}

fn show(name: &str, m: &Measure) {
    let eval = m.held_eval.map_or("-".to_string(), |e| format!("{e:.4}"));
    say!("{name:<24} {:>8.1} {:>12.4} {:>14.4} {eval:>14}", m.k, m.train, m.held);
}

pub fn run_fit(args: &FitArgs, start: &Params) -> ExitCode {
    match fit_inner(args, start) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

fn fit_inner(args: &FitArgs, start: &Params) -> Result<(), String> {
    if !(0.0..=1.0).contains(&args.result_share) || !args.ridge.is_finite() || args.ridge < 0.0 {
        return Err("--result-share must be in 0..1 and --ridge at least 0".into());
    }
    let t0 = Instant::now();
    let (games, train_games, held_games) = games(&args.data)?;
    let train = Dataset::new(&samples(&games, &train_games)?);
    let held = Dataset::new(&samples(&games, &held_games)?);
    say!(
        "{} games: {} fitted ({} positions), {} held out ({} positions)",
        games.len(),
        train_games.len(),
        train.len(),
        held_games.len(),
        held.len()
    );
    let free: Vec<Weight> = if args.free.is_empty() {
        Weight::ALL
            .iter()
            .copied()
            .filter(|&p| train.features.iter().any(|f| f[p as usize] != 0.0))
            .collect()
    } else {
        args.free
            .iter()
            .map(|n| Weight::from_name(n.trim()).ok_or_else(|| format!("--free: no weight named '{}'", n.trim())))
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
    let (evals, results) = train.known_evals();
    if evals.len() >= 10 {
        let (he, hr) = held.known_evals();
        let ks = fit_scale(&evals, &results);
        say!(
            "{:<24} {ks:>8.1} {:>12.4} {:>14.4}   (its own evaluation; {} held-out positions have one)",
            "player",
            log_loss(&evals, &results, ks),
            log_loss(&he, &hr, ks),
            he.len()
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
        for &group in Group::ALL {
            let off: Vec<Weight> = group.weights().filter(|p| free.contains(p)).collect();
            if off.is_empty() {
                continue;
            }
            let base = off.iter().fold(fitted.weights.clone(), |w, &p| w.with(p, 0));
            let rest = FitConfig {
                free: free.iter().copied().filter(|p| !off.contains(p)).collect(),
                ..config.clone()
            };
            let again = fit(&train, &base, &rest);
            let m = measure(&train, &held, &again.weights);
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
        cross_validate(args, &games, start, &config)?;
    }
    if let Some(out) = &args.out {
        let params = Params {
            weights: fitted.weights,
            ..start.clone()
        };
        std::fs::write(out, params.to_text()).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
        say!("\nwrote {}", out.display());
    }
    say!("{:.1} s", t0.elapsed().as_secs_f64());
    Ok(())
}

/// Mean held-out losses over every fold of the split, start and fitted.
fn cross_validate(args: &FitArgs, games: &[GameRecord], start: &Params, config: &FitConfig) -> Result<(), String> {
    let folds = args.data.holdout as usize;
    let mut sums = [0.0; 4];
    let mut evals = 0;
    for offset in 0..folds {
        let (train_games, held_games) = split(games.len(), folds, offset);
        let train = Dataset::new(&samples(games, &train_games)?);
        let held = Dataset::new(&samples(games, &held_games)?);
        let fitted = fit(&train, &start.weights, config);
        let (a, b) = (
            measure(&train, &held, &start.weights),
            measure(&train, &held, &fitted.weights),
        );
        sums[0] += a.held;
        sums[1] += b.held;
        if let (Some(x), Some(y)) = (a.held_eval, b.held_eval) {
            sums[2] += x;
            sums[3] += y;
            evals += 1;
        }
    }
    let n = folds as f64;
    say!("\ncross-validated over {folds} folds, mean held-out log-loss: result, eval");
    for (name, r, e) in [("start", sums[0], sums[2]), ("fitted", sums[1], sums[3])] {
        let eval = if evals == folds {
            format!("{:.4}", e / n)
        } else {
            "-".to_string()
        };
        say!("  {name:<20} {:.4}  {eval}", r / n);
    }
    Ok(())
}

pub fn run_agree(args: &AgreeArgs, params: &Params) -> ExitCode {
    let result = games(&args.data).and_then(|(games, _, held)| {
        let probes = probes(&games, &held, args.every as usize)?;
        let t0 = Instant::now();
        let agree = |p: &Params| agreement(&probes, args.depth, p, args.threads as usize, args.hash as usize);
        let share = |n: usize| 100.0 * n as f64 / probes.len().max(1) as f64;
        let n = agree(params);
        say!(
            "agreement {n} / {} = {:.1} % at depth {} ({} held-out games, every {} position{}; {:.1} s)",
            probes.len(),
            share(n),
            args.depth,
            held.len(),
            args.every,
            if args.every == 1 { "" } else { "s" },
            t0.elapsed().as_secs_f64()
        );
        if args.ablate {
            say!("\nagreement with each group of terms off (weights zeroed, no refit):");
            for (name, off) in ablations(params) {
                let m = agree(&off);
                say!(
                    "  {name:<20} {m:>5} = {:>5.1} % ({:+.1})",
                    share(m),
                    share(m) - share(n)
                );
            }
        }
        Ok(())
    });
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// `params` with each group of terms zeroed in turn, by group name; groups
/// whose weights are all zero already are left out.
fn ablations(params: &Params) -> Vec<(&'static str, Params)> {
    Group::ALL
        .iter()
        .filter(|g| g.weights().any(|w| params.weights[w] != 0))
        .map(|&g| {
            let off = Params {
                weights: params.weights.without(g),
                ..params.clone()
            };
            (g.name(), off)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ablations_zero_one_group_each_and_skip_groups_already_off() {
        let start = Params::default();
        let all = ablations(&start);
        let live: Vec<Group> = Group::ALL
            .iter()
            .copied()
            .filter(|g| g.weights().any(|w| start.weights[w] != 0))
            .collect();
        assert!(!live.is_empty());
        assert_eq!(all.len(), live.len());
        for ((name, off), group) in all.iter().zip(&live) {
            assert_eq!(*name, group.name());
            assert_eq!(off.weights, start.weights.without(*group));
            assert_eq!(off.search, start.search, "{name}: the search is left alone");
        }
        // A set with one group wholly at zero has no ablation for it.
        let without = Params {
            weights: start.weights.without(live[0]),
            ..start.clone()
        };
        assert!(ablations(&without).iter().all(|(n, _)| *n != live[0].name()));
    }
}
