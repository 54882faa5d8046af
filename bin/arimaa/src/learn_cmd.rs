//! `arimaa learn`: train the learned evaluation on teacher labels and
//! measure it against the hand-made one on held-out games.

use crate::error::CliError;
use arimaa_search::eval::evaluate;
use arimaa_search::nnue::{Base, Network, DENSE};
use arimaa_search::params::weights::Weight;
use arimaa_search::params::{Params, DEFAULT};
use arimaa_search::Weights;
use arimaa_tuning::fit::data::Sample as FitSample;
use arimaa_tuning::fit::texel::fit_scale;
use arimaa_tuning::fit::texel::{fit, Dataset, FitConfig};
use arimaa_tuning::nnue::data::{mirror_files, read, split, Sample, DECIDED};
use arimaa_tuning::nnue::measure::{best_k, prob_mse, spearman, within_roots, ROOT_MIN};
use arimaa_tuning::nnue::model::{Model, TrainConfig};
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::time::Instant;

#[derive(Args, Debug)]
#[command(after_help = "Examples:
  arimaa learn --labels labels.jsonl games.jsonl --on-hand --out net.bin
  arimaa learn --net net.bin --test ours.jsonl --scores scores.jsonl

Positions of every --holdout-th game (by a hash of its name) are held out;
the rest, and their mirror images (files a-h flipped), are trained on.")]
pub struct LearnArgs {
    /// Labelled positions: `arimaa label` outputs, or `arimaa positions`
    /// outputs of games that carry the player's own evaluation.
    #[arg(long, value_name = "FILE", num_args = 1.., required_unless_present = "net")]
    labels: Vec<PathBuf>,
    /// Labelled positions only measured, never trained on (e.g. positions of
    /// our own games, where the evaluation is judged).
    #[arg(long, value_name = "FILE", num_args = 1..)]
    test: Vec<PathBuf>,
    /// Hold out one game in this many.
    #[arg(long, default_value_t = 10, value_parser = clap::value_parser!(u64).range(2..))]
    holdout: u64,
    /// First-layer width per view.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=1024))]
    hidden: u64,
    /// Passes over the training positions.
    #[arg(long, default_value_t = 20, value_parser = clap::value_parser!(u64).range(1..=10_000))]
    epochs: u64,
    /// Positions per gradient step.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u64).range(1..))]
    batch: u64,
    /// Adam's first step size.
    #[arg(long, default_value_t = 0.002)]
    rate: f32,
    /// Shrinkage of the output weights per step.
    #[arg(long, default_value_t = 0.0)]
    decay: f32,
    /// Train a correction added to the hand evaluation instead of a whole one.
    #[arg(long)]
    on_hand: bool,
    /// Also feed the hand evaluation's features to the first layer (dense
    /// inputs, beside the pieces' squares).
    #[arg(long)]
    dense: bool,
    /// With --dense: how many of the first layer's units the dense inputs
    /// feed (the whole layer when absent). They are summed in floating
    /// point at every leaf, so a slice is faster in the search.
    #[arg(long, value_name = "UNITS", requires = "dense", value_parser = clap::value_parser!(u64).range(1..=1024))]
    dense_width: Option<u64>,
    /// With --dense: only these hand features (weight names, comma
    /// separated, as `arimaa params` prints them) as dense inputs; the
    /// others' rows are zero, and a network reading only the whole-turn
    /// capture (`capture_turn_16ths`) spares the search the others.
    #[arg(long, value_name = "NAMES", requires = "dense", value_delimiter = ',')]
    dense_inputs: Vec<String>,
    /// Teacher units per centi-rabbit (sharp's millirabbits: 10).
    #[arg(long, default_value_t = 10.0)]
    teacher_units: f64,
    /// Seed of the initial weights and the shuffles.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Also refit the hand evaluation's weights (all those whose feature
    /// occurs) to the labels alone, linearly (Texel's method with the
    /// teacher's score as the target), measure them the same way, and write
    /// them here as a `--params` file.
    #[arg(long, value_name = "FILE")]
    refit_hand: Option<PathBuf>,
    /// Write the quantised network here (the engine embeds
    /// crates/arimaa-search/src/nnue/net.bin).
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Write every --test position with its label, the hand evaluation's
    /// score and the network's (JSON lines; `test` is the file's index):
    /// for finding where the network errs.
    #[arg(long, value_name = "FILE", requires = "test")]
    scores: Option<PathBuf>,
    /// Train nothing: measure this network (a `--out` file) on the --test
    /// files, at the teacher scale K = 2000 (e.g. a network on the positions
    /// its own search picked, before training on them).
    #[arg(long, value_name = "FILE", requires = "test", conflicts_with_all = ["labels", "out"])]
    net: Option<PathBuf>,
}

pub fn run(args: &LearnArgs) -> ExitCode {
    crate::error::exit_code(learn(args))
}

fn learn(args: &LearnArgs) -> Result<(), CliError> {
    let sane = args.rate > 0.0 && args.rate < 1.0 && (0.0..0.1).contains(&args.decay) && args.teacher_units > 0.0;
    if !sane {
        return Err(CliError::Usage(
            "--rate must be in (0, 1), --decay in [0, 0.1), --teacher-units above 0".into(),
        ));
    }
    if let Some(width) = args.dense_width.filter(|&w| w > args.hidden) {
        return Err(CliError::Usage(format!(
            "--dense-width {width} is wider than the layer (--hidden {})",
            args.hidden
        )));
    }
    let mut keep = [true; DENSE];
    if !args.dense_inputs.is_empty() {
        keep = [false; DENSE];
        for name in &args.dense_inputs {
            let weight = Weight::from_name(name.trim())
                .ok_or_else(|| CliError::Usage(format!("--dense-inputs: no hand feature named {name:?}")))?;
            keep[weight as usize] = true;
        }
    }
    if let Some(path) = &args.net {
        let bytes = std::fs::read(path).map_err(|e| CliError::File(format!("{}: {e}", path.display())))?;
        let net = Network::from_bytes(&bytes).map_err(|e| CliError::File(format!("{}: {e}", path.display())))?;
        let k_teacher = 2000.0;
        return measure(args, &net, None, None, k_teacher / args.teacher_units, k_teacher);
    }
    let mut all = Vec::new();
    for path in &args.labels {
        let (samples, skipped) = read(path)?;
        say!(
            "{}: {} positions ({skipped} lines without a label skipped)",
            path.display(),
            samples.len()
        );
        all.extend(samples);
    }
    let (train, held) = split(all, args.holdout);
    if train.is_empty() || held.is_empty() {
        return Err(CliError::Usage(format!(
            "{} training and {} held-out positions: need some of each",
            train.len(),
            held.len()
        )));
    }
    // The teacher's scale: how its scores predict the games' results.
    let (scored, results): (Vec<f64>, Vec<f64>) = train
        .iter()
        .filter_map(|s| Some((f64::from(s.label), f64::from(s.result?))))
        .unzip();
    let k_teacher = if scored.len() >= 100 {
        fit_scale(&scored, &results)
    } else {
        2000.0
    };
    let k = k_teacher / args.teacher_units;
    say!(
        "{} training positions (+ mirrors), {} held out; teacher scale K = {k_teacher:.0} ({k:.1} centi-rabbits)",
        train.len(),
        held.len()
    );
    let refitted = match &args.refit_hand {
        Some(out) => Some(refit_hand(&train, out)?),
        None => None,
    };
    let mut train_set: Vec<Sample> = train.iter().map(mirror_files).collect();
    train_set.extend(train);
    // Inputs left out are zero in every training position (the mirrors'
    // recomputed ones too): their rows start at zero and stay there (see
    // `Model::with_dense`), so no measure or engine reads them.
    for sample in &mut train_set {
        for (x, &k) in sample.dense.iter_mut().zip(&keep) {
            if !k {
                *x = 0.0;
            }
        }
    }
    let config = TrainConfig {
        hidden: args.hidden as usize,
        base: if args.on_hand { Base::OnHand } else { Base::Alone },
        epochs: args.epochs as usize,
        batch: args.batch as usize,
        rate: args.rate,
        decay: args.decay,
        k: k as f32,
        k_teacher: k_teacher as f32,
        seed: args.seed,
    };
    let mut model = Model::new(config.hidden, config.base, args.seed);
    if args.dense {
        let width = args.dense_width.map_or(config.hidden, |w| w as usize);
        model = model.with_dense(&train_set, width, args.seed);
    }
    let start = Instant::now();
    say!("epoch  train-mse  held-out-mse  seconds");
    model.train(&train_set, &config, |epoch, m| {
        say!(
            "{epoch:5}  {:9.5}  {:12.5}  {:7.0}",
            m.loss(&train_set[..train_set.len().min(50_000)], &config),
            m.loss(&held, &config),
            start.elapsed().as_secs_f64()
        );
    });
    let net = model.quantise();
    report("held out", &held, &net, Some(&model), refitted.as_ref(), k, k_teacher);
    measure(args, &net, Some(&model), refitted.as_ref(), k, k_teacher)?;
    if let Some(out) = &args.out {
        std::fs::write(out, net.to_bytes()).map_err(|e| CliError::File(format!("{}: {e}", out.display())))?;
        say!("network written to {}", out.display());
    }
    Ok(())
}

/// The --test files' measures, and their scores to --scores.
fn measure(
    args: &LearnArgs,
    net: &Network,
    model: Option<&Model>,
    refitted: Option<&Weights>,
    k: f64,
    k_teacher: f64,
) -> Result<(), CliError> {
    let mut lines = String::new();
    for (index, path) in args.test.iter().enumerate() {
        let (samples, _) = read(path)?;
        let scores = report(
            &path.display().to_string(),
            &samples,
            net,
            model,
            refitted,
            k,
            k_teacher,
        );
        if args.scores.is_some() {
            for (s, (hand, ours, float)) in samples.iter().zip(scores) {
                let line = serde_json::json!({
                    "test": index,
                    "pos": arimaa_core::position_to_aei(&s.pos),
                    "label": s.label,
                    "hand": hand,
                    "network": ours,
                    "float": float,
                });
                lines.push_str(&format!("{line}\n"));
            }
        }
    }
    if let Some(path) = &args.scores {
        std::fs::write(path, lines).map_err(|e| CliError::File(format!("{}: {e}", path.display())))?;
        say!("test positions' scores written to {}", path.display());
    }
    Ok(())
}

/// Spearman and win-probability error of the hand evaluation and of the
/// engine's integer network (what the search would get), and of the float
/// network when there is one, and each one's agreement within roots where
/// positions share them ([`within_roots`]); returns each sample's hand, integer and float
/// scores, in centi-rabbits.
fn report(
    name: &str,
    samples: &[Sample],
    net: &Network,
    model: Option<&Model>,
    refitted: Option<&Weights>,
    k: f64,
    k_teacher: f64,
) -> Vec<(f64, f64, Option<f64>)> {
    let labels: Vec<f64> = samples.iter().map(|s| f64::from(s.label)).collect();
    let hand: Vec<f64> = samples.iter().map(|s| f64::from(s.hand)).collect();
    let ours: Vec<f64> = samples
        .iter()
        .map(|s| {
            let base = if net.base() == Base::OnHand { s.hand } else { 0.0 };
            let mut dense = [0.0; DENSE];
            dense.iter_mut().zip(&s.dense).for_each(|(d, &x)| *d = f64::from(x));
            f64::from(base) + f64::from(net.output_of_features(&s.views[0], &s.views[1], &dense))
        })
        .collect();
    let float: Option<Vec<f64>> = model.map(|m| samples.iter().map(|s| f64::from(m.score(s))).collect());
    let refit: Option<Vec<f64>> = refitted.map(|w| samples.iter().map(|s| f64::from(evaluate(&s.pos, w))).collect());
    say!("{name}: {} positions", samples.len());
    say!("evaluation  spearman  mse(best K)  mse(K={k:.0})  mean error");
    let mut rows = vec![("hand", &hand), ("network", &ours)];
    if let Some(f) = &float {
        rows.push(("float", f));
    }
    if let Some(r) = &refit {
        rows.push(("refitted", r));
    }
    for (what, scores) in &rows {
        say!(
            "{what:10}  {:8.4}  {:11.5}  {:10.5}  {:+10.1}",
            spearman(scores, &labels),
            prob_mse(scores, &labels, best_k(scores, &labels, k_teacher), k_teacher),
            prob_mse(scores, &labels, k, k_teacher),
            mean_error(scores, &labels, k_teacher / k)
        );
    }
    // Where positions share a root (the leaves of one search, a game
    // position and its random turns): agreement among siblings.
    let roots: Vec<u64> = samples.iter().map(|s| s.root).collect();
    for (what, scores) in &rows {
        if let Some(w) = within_roots(scores, &labels, &roots, k_teacher / k) {
            say!(
                "{what:10}  within {} roots of {ROOT_MIN}+ ({} positions): spearman {:.4}, spread {:.1} cp",
                w.roots,
                w.positions,
                w.spearman,
                w.spread
            );
        }
    }
    let float = float.map_or_else(|| vec![None; hand.len()], |f| f.into_iter().map(Some).collect());
    hand.into_iter()
        .zip(ours)
        .zip(float)
        .map(|((h, o), f)| (h, o, f))
        .collect()
}

/// How much kinder than the teacher a score is on average, in
/// centi-rabbits, over the positions the teacher does not call decided
/// (`units`: teacher units per centi-rabbit). Where a search picks the
/// positions, a positive error is what it was fooled by.
fn mean_error(scores: &[f64], labels: &[f64], units: f64) -> f64 {
    let open: Vec<f64> = scores
        .iter()
        .zip(labels)
        .filter(|(_, l)| l.abs() < f64::from(DECIDED))
        .map(|(s, l)| s - l / units)
        .collect();
    open.iter().sum::<f64>() / open.len().max(1) as f64
}

/// The hand evaluation's weights refitted to the teacher's scores of the
/// training positions (no game results: `result_share` 0), written to `out`.
fn refit_hand(train: &[Sample], out: &std::path::Path) -> Result<Weights, CliError> {
    let samples: Vec<FitSample> = train
        .iter()
        .map(|s| FitSample {
            pos: s.pos,
            result: f64::from(s.result.unwrap_or(0.5)),
            eval: (s.label.abs() < DECIDED).then_some(f64::from(s.label)),
            game: 0,
            index: 0,
        })
        .collect();
    let data = Dataset::new(&samples);
    let config = FitConfig {
        free: data.present(),
        result_share: 0.0,
        ..FitConfig::default()
    };
    let fitted = fit(&data, &DEFAULT.weights, &config);
    let params = Params {
        weights: fitted.weights.clone(),
        ..DEFAULT
    };
    std::fs::write(out, params.to_text()).map_err(|e| CliError::File(format!("{}: {e}", out.display())))?;
    say!("hand weights refitted to the labels written to {}", out.display());
    Ok(fitted.weights)
}
