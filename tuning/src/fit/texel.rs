//! Fitting the evaluation's weights to games (the Texel method): the
//! probability that the side to move wins is modelled as `σ(eval / K)`, and
//! the weights are chosen to minimise the cross-entropy against the game
//! results, optionally blended with a stronger player's own evaluation of the
//! position (a soft target: `σ(its eval / K_s)`, with `K_s` fitted the same way).
//!
//! The evaluation is linear in its weights (see `arimaa_search::eval::Trace`),
//! so with `K` fixed the loss is convex and Newton's method converges in a few
//! steps; `K` and the weights are fitted in turn. Weights are pulled gently
//! towards their starting values (a ridge penalty in units of each weight's
//! tuning step), which keeps weights the data hardly sees where they were.

use super::data::Sample;
use arimaa_search::eval::trace;
use arimaa_search::params::weights::{Weight, Weights, COUNT};

/// The features of a set of positions, ready for fitting.
#[derive(Clone, Debug, Default)]
pub struct Dataset {
    /// Each position's features, `COUNT` per position.
    pub features: Vec<[f64; COUNT]>,
    /// The part of each evaluation no weight scales.
    pub fixed: Vec<f64>,
    /// 1 when the side to move won, 0 when it lost, 0.5 a draw.
    pub result: Vec<f64>,
    /// The player's evaluation, where known and not a seen win or loss.
    pub eval: Vec<Option<f64>>,
}

impl Dataset {
    /// Traces every sample.
    #[must_use]
    pub fn new(samples: &[Sample]) -> Dataset {
        let mut d = Dataset::default();
        for s in samples {
            let t = trace(&s.pos);
            d.features.push(t.features);
            d.fixed.push(t.fixed);
            d.result.push(s.result);
            d.eval.push(s.eval);
        }
        d
    }

    /// Number of positions.
    #[must_use]
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// True when there is no position.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Each position's evaluation with `weights` (floating point).
    #[must_use]
    pub fn scores(&self, weights: &Weights) -> Vec<f64> {
        let w: Vec<f64> = weights.values().iter().map(|&v| f64::from(v)).collect();
        self.features
            .iter()
            .zip(&self.fixed)
            .map(|(f, fixed)| fixed + f.iter().zip(&w).map(|(a, b)| a * b).sum::<f64>())
            .collect()
    }

    /// The weights whose feature occurs in some position: the others
    /// cannot be fitted here.
    #[must_use]
    pub fn present(&self) -> Vec<Weight> {
        Weight::ALL
            .iter()
            .copied()
            .filter(|&w| self.features.iter().any(|f| f[w as usize] != 0.0))
            .collect()
    }

    /// The player's evaluations and the results of the positions that have one.
    #[must_use]
    pub fn known_evals(&self) -> (Vec<f64>, Vec<f64>) {
        self.eval
            .iter()
            .zip(&self.result)
            .filter_map(|(e, r)| e.map(|e| (e, *r)))
            .unzip()
    }
}

/// The logistic function.
#[must_use]
pub fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean cross-entropy of the predictions `σ(score / k)` against `targets` (in
/// nats; 0.693 is a coin toss).
#[must_use]
pub fn log_loss(scores: &[f64], targets: &[f64], k: f64) -> f64 {
    if scores.is_empty() {
        return f64::NAN;
    }
    let eps = 1e-12;
    scores
        .iter()
        .zip(targets)
        .map(|(s, t)| {
            let p = sigmoid(s / k).clamp(eps, 1.0 - eps);
            -(t * p.ln() + (1.0 - t) * (1.0 - p).ln())
        })
        .sum::<f64>()
        / scores.len() as f64
}

/// The scale `K` that makes `σ(score / K)` predict `targets` best, by a
/// golden-section search over `ln K` (the loss is unimodal in it).
#[must_use]
pub fn fit_scale(scores: &[f64], targets: &[f64]) -> f64 {
    let f = |lnk: f64| log_loss(scores, targets, lnk.exp());
    let (mut a, mut b) = (1.0f64.ln(), 1e6f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    let (mut c, mut d) = (b - g * (b - a), a + g * (b - a));
    let (mut fc, mut fd) = (f(c), f(d));
    for _ in 0..80 {
        if fc < fd {
            b = d;
            d = c;
            fd = fc;
            c = b - g * (b - a);
            fc = f(c);
        } else {
            a = c;
            c = d;
            fc = fd;
            d = a + g * (b - a);
            fd = f(d);
        }
    }
    ((a + b) / 2.0).exp()
}

/// What to fit and how.
#[derive(Clone, Debug)]
pub struct FitConfig {
    /// The weights to fit; the others keep their values.
    pub free: Vec<Weight>,
    /// Share of the game result in the target (the rest is the player's
    /// evaluation where known): 1 fits results only.
    pub result_share: f64,
    /// Ridge penalty per squared tuning step of distance from the start.
    pub ridge: f64,
}

impl Default for FitConfig {
    fn default() -> Self {
        FitConfig {
            free: Vec::new(),
            result_share: 0.5,
            ridge: 1e-5,
        }
    }
}

/// A fit's outcome.
#[derive(Clone, Debug)]
pub struct Fitted {
    /// The fitted weights, rounded and inside their declared ranges.
    pub weights: Weights,
    /// The scale `K` of `σ(eval / K)` for these weights, on the training set.
    pub k: f64,
    /// The scale of the player's evaluations (`K_s`), when they were used.
    pub k_player: Option<f64>,
}

/// The training targets: results blended with the player's evaluations.
fn targets(data: &Dataset, share: f64, k_player: Option<f64>) -> Vec<f64> {
    data.result
        .iter()
        .zip(&data.eval)
        .map(|(&r, e)| match (e, k_player) {
            (Some(e), Some(k)) => share * r + (1.0 - share) * sigmoid(e / k),
            _ => r,
        })
        .collect()
}

/// Fits `config.free` on `data`, starting from `start`.
///
/// `K` and the weights are fitted together: with `c = 1/K` and `u = w/K`
/// the model `σ(c · (fixed part) + Σ u·x)` is a plain logistic regression,
/// convex in `(c, u)`, so Newton's method finds the joint optimum where
/// fitting `K` and the weights in turn crawls along their shared scale.
#[must_use]
pub fn fit(data: &Dataset, start: &Weights, config: &FitConfig) -> Fitted {
    let (evals, results) = data.known_evals();
    let k_player = (config.result_share < 1.0 && evals.len() >= 10).then(|| fit_scale(&evals, &results));
    let targets = targets(data, config.result_share, k_player);
    let free = &config.free;
    let m = free.len();
    let w0: Vec<f64> = free.iter().map(|&p| f64::from(start[p])).collect();
    let step: Vec<f64> = free.iter().map(|p| f64::from(p.spec().step.max(1))).collect();
    // The part of each score no free weight touches: scaled by c alone.
    let base = data.scores(&weights_with(start, free, &vec![0.0; m]));
    let k0 = fit_scale(&data.scores(start), &targets);
    // z = [c, u_1 .. u_m].
    let mut z: Vec<f64> = std::iter::once(1.0 / k0).chain(w0.iter().map(|w| w / k0)).collect();
    let n = data.len() as f64;
    let dim = m + 1;
    for _ in 0..60 {
        let mut grad = vec![0.0; dim];
        let mut hess = vec![0.0; dim * dim];
        let mut x = vec![0.0; dim];
        for (i, f) in data.features.iter().enumerate() {
            x[0] = base[i];
            for (j, &p) in free.iter().enumerate() {
                x[j + 1] = f[p as usize];
            }
            let s: f64 = x.iter().zip(&z).map(|(a, b)| a * b).sum();
            let p = sigmoid(s);
            let r = (p - targets[i]) / n;
            let h = p * (1.0 - p) / n;
            for a in 0..dim {
                if x[a] == 0.0 {
                    continue;
                }
                grad[a] += r * x[a];
                for b in 0..dim {
                    hess[a * dim + b] += h * x[a] * x[b];
                }
            }
        }
        // The ridge pulls w = u / c towards the start, in tuning steps.
        let c = z[0];
        for j in 0..m {
            let scale = 1.0 / (c * step[j]).powi(2);
            grad[j + 1] += 2.0 * config.ridge * (z[j + 1] - c * w0[j]) * scale;
            hess[(j + 1) * dim + j + 1] += 2.0 * config.ridge * scale;
        }
        for a in 0..dim {
            hess[a * dim + a] += 1e-12;
        }
        let Some(delta) = solve(&mut hess, &mut grad, dim) else {
            break;
        };
        let c_next = (z[0] - delta[0]).max(1e-6);
        let mut moved = (c_next - z[0]).abs() / z[0];
        for (j, &p) in free.iter().enumerate() {
            let spec = p.spec();
            let w = ((z[j + 1] - delta[j + 1]) / c_next).clamp(f64::from(spec.min), f64::from(spec.max));
            moved = moved.max((w - z[j + 1] / z[0]).abs() / step[j]);
            z[j + 1] = w * c_next;
        }
        z[0] = c_next;
        if moved < 1e-6 {
            break;
        }
    }
    let w: Vec<f64> = z[1..].iter().map(|u| u / z[0]).collect();
    let weights = weights_with(start, free, &w);
    let k = fit_scale(&data.scores(&weights), &targets);
    Fitted { weights, k, k_player }
}

/// `base` with each of `free` set to the matching value, rounded.
#[must_use]
pub fn weights_with(base: &Weights, free: &[Weight], values: &[f64]) -> Weights {
    free.iter()
        .zip(values)
        .fold(base.clone(), |p, (&weight, &v)| p.with(weight, v.round() as i32))
}

/// Solves `a x = b` (`a` is `m`×`m`, row-major) by Gaussian elimination with
/// partial pivoting; `None` when singular.
fn solve(a: &mut [f64], b: &mut [f64], m: usize) -> Option<Vec<f64>> {
    for col in 0..m {
        let pivot = (col..m).max_by(|&i, &j| a[i * m + col].abs().total_cmp(&a[j * m + col].abs()))?;
        if a[pivot * m + col].abs() < 1e-300 {
            return None;
        }
        if pivot != col {
            for j in 0..m {
                a.swap(col * m + j, pivot * m + j);
            }
            b.swap(col, pivot);
        }
        for row in col + 1..m {
            let factor = a[row * m + col] / a[col * m + col];
            if factor != 0.0 {
                for j in col..m {
                    a[row * m + j] -= factor * a[col * m + j];
                }
                b[row] -= factor * b[col];
            }
        }
    }
    let mut x = vec![0.0; m];
    for row in (0..m).rev() {
        let s: f64 = (row + 1..m).map(|j| a[row * m + j] * x[j]).sum();
        x[row] = (b[row] - s) / a[row * m + row];
    }
    Some(x)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_is_recovered_from_predictions_that_follow_it() {
        // Scores whose outcomes follow σ(s / 300) exactly in expectation.
        let scores: Vec<f64> = (-50..=50).map(|i| f64::from(i) * 20.0).collect();
        let targets: Vec<f64> = scores.iter().map(|s| sigmoid(s / 300.0)).collect();
        let k = fit_scale(&scores, &targets);
        assert!((k - 300.0).abs() < 1.0, "{k}");
        assert!(log_loss(&scores, &targets, 300.0) < log_loss(&scores, &targets, 150.0));
    }

    #[test]
    fn newton_recovers_a_weight_the_data_follows() {
        // One feature (tempo's: the constant 1) plus a fixed part: targets
        // made with a tempo weight of 40 must fit back to about 40.
        let mut data = Dataset::default();
        for i in -30..=30 {
            let mut f = [0.0; COUNT];
            f[Weight::tempo as usize] = 1.0;
            f[Weight::elephant_reach as usize] = f64::from(i % 7);
            let fixed = f64::from(i) * 10.0;
            let s = fixed + 40.0 + 12.0 * f64::from(i % 7);
            data.features.push(f);
            data.fixed.push(fixed);
            data.result.push(sigmoid(s / 200.0));
            data.eval.push(None);
        }
        let start = Weights::default()
            .with(Weight::tempo, 0)
            .with(Weight::elephant_reach, 0);
        let config = FitConfig {
            free: vec![Weight::tempo, Weight::elephant_reach],
            result_share: 1.0,
            ridge: 0.0,
        };
        let fitted = fit(&data, &start, &config);
        // K and the weights share a scale; with the fixed part at weight 1 the
        // fit pins it: K near 200, tempo 40, reach 12.
        assert!((fitted.k - 200.0).abs() < 10.0, "{}", fitted.k);
        assert!(
            (fitted.weights[Weight::tempo] - 40).abs() <= 2,
            "{:?}",
            fitted.weights[Weight::tempo]
        );
        assert!(
            (fitted.weights[Weight::elephant_reach] - 12).abs() <= 1,
            "{:?} k {}",
            fitted.weights[Weight::elephant_reach],
            fitted.k
        );
    }

    #[test]
    fn solve_handles_pivoting_and_singular_systems() {
        let mut a = vec![0.0, 2.0, 1.0, 1.0];
        let mut b = vec![4.0, 3.0];
        let x = solve(&mut a, &mut b, 2).unwrap();
        assert!((x[0] - 1.0).abs() < 1e-12 && (x[1] - 2.0).abs() < 1e-12, "{x:?}");
        let mut s = vec![1.0, 2.0, 2.0, 4.0];
        assert!(solve(&mut s, &mut [1.0, 2.0], 2).is_none());
    }
}
