//! Simultaneous perturbation stochastic approximation (Spall), as chess
//! engines tune with it: every parameter is perturbed at once by a random
//! sign, the two perturbed versions play each other, and each parameter moves
//! along its sign in proportion to the result.
//!
//! Values are kept in units of each parameter's declared `step`, so one gain
//! suits parameters of any scale: at iteration k the perturbation is
//! `c_k = c / (k+1)^gamma` steps and the update `a_k = a / (k+1+big_a)^alpha`
//! times the estimated gradient.

use arimaa_core::rng::XorShift;

/// One parameter as the tuner sees it.
#[derive(Clone, Debug, PartialEq)]
pub struct Tunable {
    /// Its name.
    pub name: String,
    /// Smallest allowed value.
    pub min: f64,
    /// Largest allowed value.
    pub max: f64,
    /// Perturbation unit.
    pub step: f64,
}

/// SPSA gains (Spall's recommended exponents by default).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Gains {
    /// Update gain.
    pub a: f64,
    /// Perturbation size in steps at the first iteration.
    pub c: f64,
    /// Stability constant, about a tenth of the planned iterations.
    pub big_a: f64,
    /// Update decay exponent.
    pub alpha: f64,
    /// Perturbation decay exponent.
    pub gamma: f64,
}

impl Default for Gains {
    fn default() -> Self {
        Gains {
            a: 2.0,
            c: 1.0,
            big_a: 10.0,
            alpha: 0.602,
            gamma: 0.101,
        }
    }
}

impl Gains {
    /// Perturbation (in steps) at iteration `k` (from 0).
    #[must_use]
    pub fn c_k(&self, k: u64) -> f64 {
        self.c / ((k + 1) as f64).powf(self.gamma)
    }

    /// Update gain at iteration `k` (from 0).
    #[must_use]
    pub fn a_k(&self, k: u64) -> f64 {
        self.a / ((k + 1) as f64 + self.big_a).powf(self.alpha)
    }
}

/// The perturbation signs, drawn with the workspace's deterministic generator
/// (xorshift64*) whose state the run saves, so a resumed run draws the same
/// signs it would have drawn.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Signs(pub u64);

impl Signs {
    /// The next n signs, each -1.0 or +1.0 (the top bit of each draw).
    pub fn draw(&mut self, n: usize) -> Vec<f64> {
        let mut rng = XorShift(self.0);
        let signs = (0..n)
            .map(|_| if rng.next_u64() >> 63 == 0 { -1.0 } else { 1.0 })
            .collect();
        self.0 = rng.0;
        signs
    }
}

/// The two points one iteration compares: values for the "plus" and "minus"
/// engines, each clamped to its parameter's range.
#[derive(Clone, Debug, PartialEq)]
pub struct Trial {
    /// The random sign of each parameter.
    pub signs: Vec<f64>,
    /// Perturbation used, in steps.
    pub c_k: f64,
    /// Values for the engine nudged along the signs.
    pub plus: Vec<f64>,
    /// Values for the engine nudged against them.
    pub minus: Vec<f64>,
}

/// Draws iteration `k`'s trial around `values`.
pub fn trial(tunables: &[Tunable], values: &[f64], gains: &Gains, k: u64, signs: &mut Signs) -> Trial {
    let signs = signs.draw(tunables.len());
    let c_k = gains.c_k(k);
    let shifted = |dir: f64| -> Vec<f64> {
        tunables
            .iter()
            .zip(values)
            .zip(&signs)
            .map(|((t, v), s)| (v + dir * s * c_k * t.step).clamp(t.min, t.max))
            .collect()
    };
    Trial {
        plus: shifted(1.0),
        minus: shifted(-1.0),
        signs,
        c_k,
    }
}

/// Moves `values` after a trial whose result was `r`: the plus engine's
/// score minus the minus engine's, in [-1, 1] (e.g. (wins - losses) / games).
pub fn update(tunables: &[Tunable], values: &mut [f64], gains: &Gains, k: u64, trial: &Trial, r: f64) {
    let a_k = gains.a_k(k);
    for ((t, v), s) in tunables.iter().zip(values.iter_mut()).zip(&trial.signs) {
        // Gradient in step units: r / (2 c_k sign); back to the value's units.
        let g = r / (2.0 * trial.c_k * s);
        *v = (*v + a_k * g * t.step).clamp(t.min, t.max);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Uniform in [0, 1) from the generator's next state.
    fn uniform(rng: &mut Signs) -> f64 {
        rng.draw(1);
        (rng.0 >> 11) as f64 / (1u64 << 53) as f64
    }

    /// A noisy match between two parameter vectors whose strength peaks at
    /// `best`: each game is won by plus with a logistic chance of the
    /// strength difference. The tuner sees only game results.
    fn play(plus: &[f64], minus: &[f64], best: &[f64], games: u32, rng: &mut Signs) -> f64 {
        let strength = |v: &[f64]| -> f64 { -v.iter().zip(best).map(|(x, b)| (x - b) * (x - b)).sum::<f64>() / 50.0 };
        let p = 1.0 / (1.0 + (-(strength(plus) - strength(minus))).exp());
        let mut score = 0.0;
        for _ in 0..games {
            score += if uniform(rng) < p { 1.0 } else { -1.0 };
        }
        score / f64::from(games)
    }

    #[test]
    fn converges_to_the_optimum_of_a_noisy_objective() {
        let tunables: Vec<Tunable> = (0..3)
            .map(|i| Tunable {
                name: format!("p{i}"),
                min: 0.0,
                max: 100.0,
                step: 4.0,
            })
            .collect();
        let best = [30.0, 70.0, 50.0];
        let mut values = vec![10.0, 90.0, 20.0];
        let gains = Gains {
            a: 8.0,
            c: 2.0,
            big_a: 50.0,
            ..Gains::default()
        };
        let mut signs = Signs(12345);
        let mut noise = Signs(777);
        for k in 0..3000 {
            let t = trial(&tunables, &values, &gains, k, &mut signs);
            let r = play(&t.plus, &t.minus, &best, 16, &mut noise);
            update(&tunables, &mut values, &gains, k, &t, r);
        }
        for (v, b) in values.iter().zip(best) {
            assert!((v - b).abs() < 8.0, "{values:?} should be near {best:?}");
        }
    }

    #[test]
    fn trials_stay_in_range_and_are_symmetric() {
        let tunables = vec![Tunable {
            name: "x".into(),
            min: 0.0,
            max: 10.0,
            step: 2.0,
        }];
        let mut signs = Signs(1);
        let t = trial(&tunables, &[5.0], &Gains::default(), 0, &mut signs);
        assert_eq!(t.plus[0] + t.minus[0], 10.0);
        assert_eq!((t.plus[0] - t.minus[0]).abs(), 4.0, "two steps apart at c = 1");
        let edge = trial(&tunables, &[10.0], &Gains::default(), 0, &mut signs);
        assert!(edge.plus[0] <= 10.0 && edge.minus[0] <= 10.0);
    }
}
