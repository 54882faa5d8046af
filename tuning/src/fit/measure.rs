//! How well a set of weights predicts held-out games: log-loss of the
//! results and of a stronger player's evaluations, on one split or
//! cross-validated over every fold.

use super::data::{samples, split, GameRecord};
use super::texel::{fit, fit_scale, log_loss, sigmoid, Dataset, FitConfig};
use crate::error::TuningError;
use arimaa_search::params::weights::Weights;

/// How well one set of weights predicts, its scale fitted on the training
/// set and measured on the held-out one.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Measure {
    /// Scale of `σ(eval / K)` against the training results.
    pub k: f64,
    /// Log-loss of the results on the training set.
    pub train: f64,
    /// Log-loss of the results on the held-out set.
    pub held: f64,
    /// Log-loss against the player's own evaluation (`σ(eval / K_s)`) on
    /// the held-out positions that have one, `K` refitted to it; `None`
    /// without evaluations.
    pub held_eval: Option<f64>,
}

/// Fewer positions with the player's evaluation than this and its scale
/// is not fitted: a scale from a handful of points says nothing.
const MIN_EVALS: usize = 10;

/// The player's evaluations as probabilities, by the scale fitted on `train`.
fn eval_targets(train: &Dataset, data: &Dataset) -> Option<Vec<(usize, f64)>> {
    let (evals, results) = train.known_evals();
    if evals.len() < MIN_EVALS {
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

/// The measure of `weights` on `held`, scales fitted on `train`.
#[must_use]
pub fn measure(train: &Dataset, held: &Dataset, weights: &Weights) -> Measure {
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

/// How well the player's own evaluations predict the results.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerMeasure {
    /// Its scale `K_s`, fitted on the training set.
    pub k: f64,
    /// Log-loss of the results on the training and the held-out set.
    pub train: f64,
    /// See `train`.
    pub held: f64,
    /// Held-out positions with an evaluation.
    pub held_positions: usize,
}

/// The player's own measure, when the training set has enough evaluations.
#[must_use]
pub fn player(train: &Dataset, held: &Dataset) -> Option<PlayerMeasure> {
    let (evals, results) = train.known_evals();
    if evals.len() < MIN_EVALS {
        return None;
    }
    let (he, hr) = held.known_evals();
    let k = fit_scale(&evals, &results);
    Some(PlayerMeasure {
        k,
        train: log_loss(&evals, &results, k),
        held: log_loss(&he, &hr, k),
        held_positions: he.len(),
    })
}

/// Mean held-out losses over every fold, of the start and of the fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CrossValidation {
    /// Number of folds.
    pub folds: usize,
    /// Mean held-out log-loss of the results: start, fitted.
    pub result: [f64; 2],
    /// Mean held-out log-loss against the player's evaluation, when every
    /// fold had them: start, fitted.
    pub eval: Option<[f64; 2]>,
}

/// Fits once per fold of a `folds`-way split of `games` (each fold held out
/// in turn) from `start` with `config`, and averages the held-out measures.
pub fn cross_validate(
    games: &[GameRecord],
    folds: usize,
    start: &Weights,
    config: &FitConfig,
) -> Result<CrossValidation, TuningError> {
    let mut sums = [0.0; 4];
    let mut evals = 0;
    for offset in 0..folds {
        let (train_games, held_games) = split(games.len(), folds, offset);
        let train = Dataset::new(&samples(games, &train_games)?);
        let held = Dataset::new(&samples(games, &held_games)?);
        let fitted = fit(&train, start, config);
        let (a, b) = (measure(&train, &held, start), measure(&train, &held, &fitted.weights));
        sums[0] += a.held;
        sums[1] += b.held;
        if let (Some(x), Some(y)) = (a.held_eval, b.held_eval) {
            sums[2] += x;
            sums[3] += y;
            evals += 1;
        }
    }
    let n = folds as f64;
    Ok(CrossValidation {
        folds,
        result: [sums[0] / n, sums[1] / n],
        eval: (evals == folds).then_some([sums[2] / n, sums[3] / n]),
    })
}
