//! Match statistics: logistic Elo with a 95 % interval, likelihood of
//! superiority, and the sequential probability ratio test.
//!
//! Formulas (the ones cutechess-cli and fastchess print, so figures compare):
//!
//! * score `s = (W + D/2) / N`; Elo `= -400 log10(1/s - 1)`.
//! * per-game variance of the score from the trinomial W/D/L counts:
//!   `var = (W (1-s)^2 + D (1/2-s)^2 + L s^2) / N`; the 95 % interval is the
//!   Elo of `s ± 1.96 sqrt(var/N)`.
//! * LOS `= Φ((W - L) / sqrt(W + L))`, draws carrying no information.
//! * SPRT, in the generalised (GSPRT) normal approximation: with
//!   `s0, s1` the scores of the hypotheses' logistic Elo `elo0, elo1`,
//!   `LLR = N (s1 - s0) (2s - s0 - s1) / (2 var)`; the test accepts H1 at
//!   `ln((1-β)/α)` and H0 at `ln(β/(1-α))`. While all games have had the
//!   same result, see [`Sprt::llr`].

use crate::error::MatchError;
use std::fmt;

/// 97.5 % quantile of the standard normal distribution (two-sided 95 %).
const Z95: f64 = 1.959_963_984_540_054;

/// Wins, draws and losses from one side's point of view.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Wdl {
    /// Games won.
    pub wins: u32,
    /// Games drawn (only adjudicated games: Arimaa itself has no draws).
    pub draws: u32,
    /// Games lost.
    pub losses: u32,
}

/// An Elo difference with its 95 % interval. Infinite at 0 % or 100 %.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct EloEstimate {
    /// The point estimate.
    pub elo: f64,
    /// Lower end of the 95 % interval.
    pub low: f64,
    /// Upper end of the 95 % interval.
    pub high: f64,
}

/// Logistic Elo difference for an expected score in [0, 1].
#[must_use]
pub fn score_to_elo(score: f64) -> f64 {
    if score <= 0.0 {
        f64::NEG_INFINITY
    } else if score >= 1.0 {
        f64::INFINITY
    } else {
        // + 0.0 turns the -0.0 of an even score into 0.0 for printing.
        -400.0 * (1.0 / score - 1.0).log10() + 0.0
    }
}

/// The expected score for a logistic Elo difference.
#[must_use]
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

impl Wdl {
    /// Counts from the other side's point of view.
    #[must_use]
    pub fn flipped(self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Number of games.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// The score fraction, `None` before the first game.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        let n = self.games();
        (n > 0).then(|| (f64::from(self.wins) + f64::from(self.draws) / 2.0) / f64::from(n))
    }

    /// Per-game variance of the score (trinomial model).
    fn variance(&self) -> Option<f64> {
        let s = self.score()?;
        let n = f64::from(self.games());
        let (w, d, l) = (f64::from(self.wins), f64::from(self.draws), f64::from(self.losses));
        Some((w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n)
    }

    /// Elo difference and its 95 % interval, `None` before the first game.
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        let s = self.score()?;
        let margin = Z95 * (self.variance()? / f64::from(self.games())).sqrt();
        Some(EloEstimate {
            elo: score_to_elo(s),
            low: score_to_elo(s - margin),
            high: score_to_elo(s + margin),
        })
    }

    /// Likelihood of superiority: the probability that this side is the
    /// stronger, from wins and losses. 0.5 without decisive games.
    #[must_use]
    pub fn los(&self) -> f64 {
        let decisive = f64::from(self.wins + self.losses);
        if decisive == 0.0 {
            return 0.5;
        }
        normal_cdf((f64::from(self.wins) - f64::from(self.losses)) / decisive.sqrt())
    }
}

impl std::ops::AddAssign for Wdl {
    fn add_assign(&mut self, o: Wdl) {
        self.wins += o.wins;
        self.draws += o.draws;
        self.losses += o.losses;
    }
}

impl EloEstimate {
    /// Half the width of the interval: cutechess's "±" figure.
    #[must_use]
    pub fn margin(&self) -> f64 {
        (self.high - self.low) / 2.0
    }
}

impl fmt::Display for EloEstimate {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.elo.is_finite() && self.margin().is_finite() {
            write!(
                f,
                "{:+.1} +/- {:.1} (95 %: {:+.1} .. {:+.1})",
                self.elo,
                self.margin(),
                self.low,
                self.high
            )
        } else {
            write!(
                f,
                "{} (95 %: {} .. {})",
                signed(self.elo),
                signed(self.low),
                signed(self.high)
            )
        }
    }
}

fn signed(x: f64) -> String {
    if x.is_infinite() {
        if x > 0.0 { "+inf" } else { "-inf" }.into()
    } else {
        format!("{x:+.1}")
    }
}

/// Standard normal CDF through the complementary error function.
#[must_use]
pub fn normal_cdf(x: f64) -> f64 {
    0.5 * erfc(-x / std::f64::consts::SQRT_2)
}

/// erfc with fractional error below 1.2e-7 everywhere (the Chebyshev fit in
/// Numerical Recipes, 2nd ed., §6.2): ample for percentages.
fn erfc(x: f64) -> f64 {
    let z = x.abs();
    let t = 1.0 / (1.0 + 0.5 * z);
    let poly = -z * z - 1.265_512_23
        + t * (1.000_023_68
            + t * (0.374_091_96
                + t * (0.096_784_18
                    + t * (-0.186_288_06
                        + t * (0.278_868_07
                            + t * (-1.135_203_98 + t * (1.488_515_87 + t * (-0.822_152_23 + t * 0.170_872_77))))))));
    let r = t * poly.exp();
    if x >= 0.0 {
        r
    } else {
        2.0 - r
    }
}

/// The SPRT's parameters: H0 says the Elo difference is `elo0`, H1 `elo1`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sprt {
    /// Elo under H0.
    pub elo0: f64,
    /// Elo under H1.
    pub elo1: f64,
    /// False-positive rate.
    pub alpha: f64,
    /// False-negative rate.
    pub beta: f64,
}

/// Where the SPRT stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SprtDecision {
    /// Neither bound crossed.
    Continue,
    /// The LLR fell to the lower bound: no gain of `elo1`.
    AcceptH0,
    /// The LLR reached the upper bound: a gain.
    AcceptH1,
}

impl Sprt {
    /// Parses `elo0=0 elo1=5 alpha=0.05 beta=0.05` (any order, each optional:
    /// those are the defaults) from words.
    pub fn parse<S: AsRef<str>>(words: &[S]) -> Result<Sprt, MatchError> {
        let mut sprt = Sprt {
            elo0: 0.0,
            elo1: 5.0,
            alpha: 0.05,
            beta: 0.05,
        };
        for w in words {
            let w = w.as_ref();
            let (key, value) = w
                .split_once('=')
                .ok_or_else(|| MatchError::Config(format!("SPRT parameter '{w}': expected key=value, like elo1=5")))?;
            let v: f64 = value
                .parse()
                .ok()
                .filter(|v: &f64| v.is_finite())
                .ok_or_else(|| MatchError::Config(format!("SPRT parameter '{w}': '{value}' is not a number")))?;
            match key {
                "elo0" => sprt.elo0 = v,
                "elo1" => sprt.elo1 = v,
                "alpha" => sprt.alpha = v,
                "beta" => sprt.beta = v,
                _ => {
                    return Err(MatchError::Config(format!(
                        "SPRT parameter '{key}': known are elo0, elo1, alpha, beta"
                    )))
                }
            }
        }
        if sprt.elo0 >= sprt.elo1 {
            return Err(MatchError::Config(format!(
                "SPRT: elo0 ({}) must be below elo1 ({})",
                sprt.elo0, sprt.elo1
            )));
        }
        if !(sprt.alpha > 0.0 && sprt.alpha < 0.5 && sprt.beta > 0.0 && sprt.beta < 0.5) {
            return Err(MatchError::Config(
                "SPRT: alpha and beta must lie strictly between 0 and 0.5".into(),
            ));
        }
        Ok(sprt)
    }

    /// The lower (accept H0) and upper (accept H1) LLR bounds.
    #[must_use]
    pub fn bounds(&self) -> (f64, f64) {
        (
            (self.beta / (1.0 - self.alpha)).ln(),
            ((1.0 - self.beta) / self.alpha).ln(),
        )
    }

    /// The log-likelihood ratio of H1 against H0 for these counts.
    ///
    /// While every game has had the same result the variance is zero and
    /// the approximation undefined; then half a win and half a loss are
    /// added (a Jeffreys-style correction), so that a clean sweep — common
    /// in Arimaa, which has no draws — still moves the LLR instead of
    /// leaving it at 0 until the first different result.
    #[must_use]
    pub fn llr(&self, wdl: &Wdl) -> f64 {
        let n = f64::from(wdl.games());
        let (w, d, l) = (f64::from(wdl.wins), f64::from(wdl.draws), f64::from(wdl.losses));
        if n == 0.0 {
            return 0.0;
        }
        let spread = [wdl.wins, wdl.draws, wdl.losses].iter().filter(|&&c| c > 0).count() > 1;
        let (w, d, l, n) = if spread {
            (w, d, l, n)
        } else {
            (w + 0.5, d, l + 0.5, n + 1.0)
        };
        let s = (w + d / 2.0) / n;
        let var = (w * (1.0 - s).powi(2) + d * (0.5 - s).powi(2) + l * s.powi(2)) / n;
        let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The decision for these counts.
    #[must_use]
    pub fn decide(&self, wdl: &Wdl) -> SprtDecision {
        self.decision(self.llr(wdl))
    }

    /// The decision an LLR gives against this test's bounds, whatever model
    /// computed it (trinomial here, pentanomial in `crate::pentanomial`).
    #[must_use]
    pub fn decision(&self, llr: f64) -> SprtDecision {
        let (low, high) = self.bounds();
        if llr >= high {
            SprtDecision::AcceptH1
        } else if llr <= low {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn wdl(wins: u32, draws: u32, losses: u32) -> Wdl {
        Wdl { wins, draws, losses }
    }

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// Published cutechess-cli output lines ("Score of X vs Y: W - L - D",
    /// "Elo difference: E +/- M, LOS: P %"), from engines' changelogs.
    #[test]
    fn elo_interval_and_los_match_cutechess_output() {
        // (wins, losses, draws, elo, margin, los %)
        let published = [
            (869, 646, 357, 41.6, 14.2, 100.0),
            (449, 276, 275, 60.7, 18.5, 100.0),
            (382, 320, 298, 21.6, 18.1, 99.0),
            (372, 322, 306, 17.4, 17.9, 97.1),
            (409, 197, 133, 102.5, 23.5, 100.0),
        ];
        for (w, l, d, elo, margin, los) in published {
            let r = wdl(w, d, l);
            let e = r.elo().unwrap();
            assert!(close(e.elo, elo, 0.05), "{w}-{l}-{d}: elo {}", e.elo);
            // cutechess's normal quantile differs from 1.96 in the third digit.
            assert!(close(e.margin(), margin, 0.1), "{w}-{l}-{d}: margin {}", e.margin());
            assert!(close(100.0 * r.los(), los, 0.05), "{w}-{l}-{d}: los {}", r.los());
        }
    }

    #[test]
    fn elo_by_hand() {
        // 60 wins, 40 losses: s = 0.6, var = 0.24, s ± 1.96·0.04899.
        let e = wdl(60, 0, 40).elo().unwrap();
        assert!(close(e.elo, 70.437, 0.001), "{}", e.elo);
        assert!(close(e.low, score_to_elo(0.6 - Z95 * 0.0024f64.sqrt()), 1e-9));
        assert!(close(e.low, 2.767, 0.01) && close(e.high, 143.91, 0.01), "{e:?}");
        // LOS for 60-40 is Φ(2).
        assert!(close(wdl(60, 0, 40).los(), 0.977_25, 1e-5));
        // Even results are 0 Elo, symmetric interval.
        let e = wdl(30, 40, 30).elo().unwrap();
        assert!(close(e.elo, 0.0, 1e-9) && close(e.low, -e.high, 1e-9));
        assert!(e.to_string().starts_with("+0.0 +/- "), "{e}");
        assert_eq!(wdl(0, 5, 0).los(), 0.5);
        assert_eq!(Wdl::default().elo(), None);
        let sweep = wdl(10, 0, 0).elo().unwrap();
        assert!(sweep.elo.is_infinite() && sweep.to_string().contains("+inf"));
    }

    #[test]
    fn normal_cdf_known_points() {
        assert!(close(normal_cdf(0.0), 0.5, 1e-7));
        assert!(close(normal_cdf(1.959_964), 0.975, 1e-6));
        assert!(close(normal_cdf(-1.0), 0.158_655_25, 1e-6));
        assert!(close(normal_cdf(3.0), 0.998_650_1, 1e-6));
    }

    /// jw1912/SPRT's README: W 4307, L 4063, D 8620 with elo0 0, elo1 3 gives
    /// "LLR: 2.99 (-2.94, 2.94)", H1 accepted, in the GSPRT mode.
    #[test]
    fn llr_matches_the_published_gsprt_example() {
        let sprt = Sprt::parse(&["elo0=0", "elo1=3", "alpha=0.05", "beta=0.05"]).unwrap();
        let r = wdl(4307, 8620, 4063);
        let llr = sprt.llr(&r);
        assert!(close(llr, 2.992, 0.001), "{llr}");
        let (low, high) = sprt.bounds();
        assert!(close(low, -2.944, 0.001) && close(high, 2.944, 0.001));
        assert_eq!(sprt.decide(&r), SprtDecision::AcceptH1);
        // The mirror result supports H0 strongly.
        assert_eq!(sprt.decide(&r.flipped()), SprtDecision::AcceptH0);
        assert_eq!(sprt.decide(&wdl(5, 0, 5)), SprtDecision::Continue);
    }

    #[test]
    fn llr_by_hand_without_draws() {
        // 60-40 against elo0 = 0, elo1 = 20: s0 = 0.5, s1 = 0.528 75, var = 0.24.
        let sprt = Sprt::parse(&["elo1=20"]).unwrap();
        let s1 = elo_to_score(20.0);
        let expected = 100.0 * (s1 - 0.5) * (1.2 - 0.5 - s1) / (2.0 * 0.24);
        assert!(close(sprt.llr(&wdl(60, 0, 40)), expected, 1e-12));
        assert!(close(expected, 1.0257, 0.0001), "{expected}");
        assert_eq!(sprt.llr(&Wdl::default()), 0.0);
    }

    #[test]
    fn a_clean_sweep_moves_the_llr() {
        // 10-0 is scored as 10.5-0.5 over 11 games: s = 21/22, var = s(1-s).
        let sprt = Sprt::parse(&["elo0=0", "elo1=5"]).unwrap();
        let (s, s1) = (21.0 / 22.0, elo_to_score(5.0));
        let expected = 11.0 * (s1 - 0.5) * (2.0 * s - 0.5 - s1) / (2.0 * s * (1.0 - s));
        assert!(close(sprt.llr(&wdl(10, 0, 0)), expected, 1e-12));
        let lost = 11.0 * (s1 - 0.5) * (2.0 * (1.0 - s) - 0.5 - s1) / (2.0 * s * (1.0 - s));
        assert!(close(sprt.llr(&wdl(0, 0, 10)), lost, 1e-12));
        assert!(sprt.llr(&wdl(30, 0, 0)) > sprt.llr(&wdl(10, 0, 0)));
        assert_eq!(sprt.decide(&wdl(40, 0, 0)), SprtDecision::AcceptH1);
        assert_eq!(sprt.decide(&wdl(0, 0, 40)), SprtDecision::AcceptH0);
        // An all-draw result has no spread either: it leans to H0 (score 0.5 = elo0).
        assert!(sprt.llr(&wdl(0, 20, 0)) < 0.0);
    }

    #[test]
    fn sprt_parameters_are_checked() {
        assert_eq!(Sprt::parse::<&str>(&[]).unwrap().elo1, 5.0);
        for bad in [
            &["elo0=5", "elo1=0"][..],
            &["alpha=0"],
            &["elo1"],
            &["gamma=1"],
            &["elo1=x"],
            &["beta=nan"],
        ] {
            assert!(Sprt::parse(bad).is_err(), "{bad:?}");
        }
    }
}
