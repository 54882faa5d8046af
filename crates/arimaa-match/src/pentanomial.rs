//! Paired statistics. Games are played in pairs on one opening with colours
//! swapped, and the two games of a pair are correlated (a lopsided opening
//! tends to win both ways round). The pentanomial model counts pairs by
//! their score, 0, ½, 1, 1½ or 2, and takes the variance over pairs, as
//! fishtest, fastchess and OpenBench do; the trinomial W/D/L model of
//! [`crate::stats`], which treats games as independent, stays available.
//!
//! With `x` the pair score halved (0, ¼, ½, ¾, 1) and `n` pairs:
//!
//! * score `s` = mean of `x`; Elo `= -400 log10(1/s - 1)`, as in the trinomial model;
//! * `var` = the variance of `x` over pairs; the 95 % interval is the Elo of
//!   `s ± 1.96 sqrt(var/n)`; LOS `= Φ((s - 1/2) / sqrt(var/n))`;
//! * SPRT: `LLR = n (s1 - s0) (2s - s0 - s1) / (2 var)`, `s0, s1` the scores
//!   of logistic `elo0, elo1`: the normal approximation of the GSPRT in
//!   fishtest's `server/fishtest/stats/LLRcalc.py` (`LLR_alt2`, applied to
//!   the pentanomial pdf there; M. Van den Bergh, "GSPRT approximation").
//!
//! A pair whose second game is not played (an odd `--games`, or a match
//! stopped mid-pair) counts only in the trinomial figures.

use crate::error::MatchError;
use crate::stats::{elo_to_score, normal_cdf, score_to_elo, EloEstimate, Sprt, SprtDecision};
use std::fmt;
use std::str::FromStr;

/// 97.5 % quantile of the standard normal distribution (two-sided 95 %).
const Z95: f64 = 1.959_963_984_540_054;

/// Finished pairs by the score of one side: `counts[k]` pairs scored `k/2`
/// points (k = 0 for two losses, 2 for a win and a loss, 4 for two wins).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Penta {
    /// Pairs by half points, 0..=4.
    pub counts: [u32; 5],
}

impl Penta {
    /// Counts one pair that scored `half_points` (0..=4) half points.
    pub fn add(&mut self, half_points: u32) {
        self.counts[half_points.min(4) as usize] += 1;
    }

    /// Counts from the other side's point of view.
    #[must_use]
    pub fn flipped(self) -> Penta {
        let mut c = self.counts;
        c.reverse();
        Penta { counts: c }
    }

    /// Finished pairs.
    #[must_use]
    pub fn pairs(&self) -> u32 {
        self.counts.iter().sum()
    }

    /// Mean and variance of the halved pair score over `counts`.
    fn moments(counts: [f64; 5]) -> (f64, f64, f64) {
        let n: f64 = counts.iter().sum();
        let x = |k: usize| k as f64 / 4.0;
        let s = counts.iter().enumerate().map(|(k, c)| c * x(k)).sum::<f64>() / n;
        let var = counts
            .iter()
            .enumerate()
            .map(|(k, c)| c * (x(k) - s).powi(2))
            .sum::<f64>()
            / n;
        (n, s, var)
    }

    /// The score fraction, `None` before the first finished pair.
    #[must_use]
    pub fn score(&self) -> Option<f64> {
        (self.pairs() > 0).then(|| Penta::moments(self.counts.map(f64::from)).1)
    }

    /// Elo difference and its 95 % interval from the variance over pairs,
    /// `None` before the first finished pair.
    #[must_use]
    pub fn elo(&self) -> Option<EloEstimate> {
        if self.pairs() == 0 {
            return None;
        }
        let (n, s, var) = Penta::moments(self.counts.map(f64::from));
        let margin = Z95 * (var / n).sqrt();
        Some(EloEstimate {
            elo: score_to_elo(s),
            low: score_to_elo(s - margin),
            high: score_to_elo(s + margin),
        })
    }

    /// Likelihood of superiority from the pairs: `Φ((s - 1/2) / sqrt(var/n))`,
    /// 0.5 before a pair. While every pair has had the same score the
    /// variance is zero; the counts are then regularised as for the LLR
    /// (half a pair at each extreme), so that a sweep reads as likely
    /// better, not as even.
    #[must_use]
    pub fn los(&self) -> f64 {
        if self.pairs() == 0 {
            return 0.5;
        }
        let (n, s, var) = Penta::moments(self.regularised());
        if var == 0.0 {
            return 0.5;
        }
        normal_cdf((s - 0.5) / (var / n).sqrt())
    }

    /// The counts, with half a pair lost twice and half a pair won twice
    /// added while every pair has had the same score.
    fn regularised(&self) -> [f64; 5] {
        let mut counts = self.counts.map(f64::from);
        if self.counts.iter().filter(|&&c| c > 0).count() == 1 {
            counts[0] += 0.5;
            counts[4] += 0.5;
        }
        counts
    }

    /// The SPRT's log-likelihood ratio for these pairs. While every pair has
    /// had the same score the variance is zero; then half a pair lost twice
    /// and half a pair won twice are added, as [`Sprt::llr`] adds half a
    /// win and half a loss, so that a sweep still moves the LLR.
    #[must_use]
    pub fn llr(&self, sprt: &Sprt) -> f64 {
        if self.pairs() == 0 {
            return 0.0;
        }
        let (n, s, var) = Penta::moments(self.regularised());
        let (s0, s1) = (elo_to_score(sprt.elo0), elo_to_score(sprt.elo1));
        n * (s1 - s0) * (2.0 * s - s0 - s1) / (2.0 * var)
    }

    /// The SPRT's decision for these pairs.
    #[must_use]
    pub fn decide(&self, sprt: &Sprt) -> SprtDecision {
        sprt.decision(self.llr(sprt))
    }
}

impl std::ops::AddAssign for Penta {
    fn add_assign(&mut self, o: Penta) {
        for (a, b) in self.counts.iter_mut().zip(o.counts) {
            *a += b;
        }
    }
}

/// `pairs: 0:a 0.5:b 1:c 1.5:d 2:e`, the pair scores and their counts.
impl fmt::Display for Penta {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let [a, b, c, d, e] = self.counts;
        write!(f, "pairs: 0:{a} 0.5:{b} 1:{c} 1.5:{d} 2:{e}")
    }
}

/// Which model the Elo interval, LOS and SPRT use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum StatsModel {
    /// Games as independent W/D/L results ([`crate::stats`]).
    Trinomial,
    /// Colour-swapped pairs, by pair score (this module).
    Pentanomial,
}

impl StatsModel {
    /// The model for a match of `games` games per pairing when none is
    /// chosen: pentanomial when the schedule is all complete pairs.
    #[must_use]
    pub fn default_for(games: u32) -> StatsModel {
        if games.is_multiple_of(2) {
            StatsModel::Pentanomial
        } else {
            StatsModel::Trinomial
        }
    }

    /// The name `--stats` takes.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            StatsModel::Trinomial => "trinomial",
            StatsModel::Pentanomial => "pentanomial",
        }
    }
}

impl FromStr for StatsModel {
    type Err = MatchError;

    fn from_str(s: &str) -> Result<Self, MatchError> {
        match s {
            "trinomial" => Ok(StatsModel::Trinomial),
            "pentanomial" => Ok(StatsModel::Pentanomial),
            _ => Err(MatchError::Config(format!(
                "--stats '{s}': known are trinomial and pentanomial"
            ))),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    /// One pair lost twice, two split, three won twice: six pairs.
    fn six_pairs() -> Penta {
        Penta {
            counts: [1, 0, 2, 0, 3],
        }
    }

    #[test]
    fn elo_interval_by_hand() {
        // x = 0, ½, ½, 1, 1, 1: s = 4/6 = 2/3.
        // var = (4/9 + 2·1/36 + 3·1/9) / 6 = (15/18) / 6 = 5/36 = 0.138 89.
        // sqrt(var/6) = sqrt(5/216) = 0.152 145; ×1.96 = 0.298 199.
        // Elo(2/3) = -400 log10(1/2) = 120.41; interval Elo(0.368 47) = -93.60
        // .. Elo(0.964 87) = +575.49.
        let p = six_pairs();
        assert_eq!(p.pairs(), 6);
        assert!(close(p.score().unwrap(), 2.0 / 3.0, 1e-12));
        let e = p.elo().unwrap();
        assert!(close(e.elo, 120.412, 0.001), "{e:?}");
        assert!(close(e.low, -93.599, 0.001), "{e:?}");
        assert!(close(e.high, 575.494, 0.001), "{e:?}");
        // The same twelve games as independent results (8 wins, 4 losses):
        // var = 2/9 a game, sqrt(2/9/12) = 0.136 08, a narrower interval
        // than the pairs give, since the split pairs and sweeps correlate.
        let tri = crate::stats::Wdl {
            wins: 8,
            draws: 0,
            losses: 4,
        }
        .elo()
        .unwrap();
        assert!(close(tri.elo, e.elo, 1e-9) && tri.margin() < e.margin());
        // LOS = Φ((2/3 - 1/2) / 0.152 145) = Φ(1.0954) = 0.863 34.
        assert!(close(p.los(), 0.863_34, 1e-5), "{}", p.los());
        assert_eq!(Penta::default().elo(), None);
        let even = Penta {
            counts: [0, 0, 4, 0, 0],
        };
        assert!(close(even.los(), 0.5, 1e-6), "{}", even.los());
        // One pair won twice, regularised to [0.5, 0, 0, 0, 1.5]: n = 2,
        // s = 0.75, var = (0.5 · 0.75² + 1.5 · 0.25²) / 2 = 0.1875,
        // LOS = Φ(0.25 / √(0.1875 / 2)) = Φ(0.816 50) = 0.792 89.
        let sweep = Penta {
            counts: [0, 0, 0, 0, 1],
        };
        assert!(close(sweep.los(), 0.792_89, 1e-5), "{}", sweep.los());
    }

    #[test]
    fn llr_by_hand() {
        // elo0 = 0, elo1 = 10: s0 = 0.5, s1 = 0.514 387.
        // LLR = 6 · 0.014 387 · (4/3 - 1.014 387) / (2 · 5/36) = 0.099 117.
        let sprt = Sprt::parse(&["elo1=10"]).unwrap();
        let llr = six_pairs().llr(&sprt);
        assert!(close(llr, 0.099_117, 1e-6), "{llr}");
        // The other side: s = 1/3, the same var; 6 · 0.014 387 · (2/3 - 1.014 387) / (10/36) = -0.108 06.
        let other = six_pairs().flipped().llr(&sprt);
        assert!(close(other, -0.108_059, 1e-6), "{other}");
        assert_eq!(Penta::default().llr(&sprt), 0.0);
        assert_eq!(six_pairs().decide(&sprt), SprtDecision::Continue);
    }

    #[test]
    fn a_sweep_of_pairs_moves_the_llr() {
        // Five pairs won twice, plus half a 0 pair and half a 2 pair: n = 6,
        // s = 5.5/6 = 0.916 67, var = s (1 - s) = 0.076 389;
        // LLR (elo1 = 10) = 6 · 0.014 387 · (1.833 33 - 1.014 387) / 0.152 78 = 0.462 72.
        let sprt = Sprt::parse(&["elo1=10"]).unwrap();
        let llr = Penta {
            counts: [0, 0, 0, 0, 5],
        }
        .llr(&sprt);
        assert!(close(llr, 0.462_72, 1e-5), "{llr}");
        assert_eq!(
            Penta {
                counts: [0, 0, 0, 0, 40]
            }
            .decide(&sprt),
            SprtDecision::AcceptH1
        );
        assert_eq!(
            Penta {
                counts: [40, 0, 0, 0, 0]
            }
            .decide(&sprt),
            SprtDecision::AcceptH0
        );
        // All pairs split: the score sits at elo0, so the LLR leans to H0.
        assert!(
            Penta {
                counts: [0, 0, 20, 0, 0]
            }
            .llr(&sprt)
                < 0.0
        );
    }

    #[test]
    fn counts_print_and_models_parse() {
        let mut p = Penta::default();
        for k in [0, 2, 2, 4, 4, 4, 3] {
            p.add(k);
        }
        assert_eq!(p.to_string(), "pairs: 0:1 0.5:0 1:2 1.5:1 2:3");
        assert_eq!(p.flipped().to_string(), "pairs: 0:3 0.5:1 1:2 1.5:0 2:1");
        assert_eq!("trinomial".parse::<StatsModel>().unwrap(), StatsModel::Trinomial);
        assert_eq!("pentanomial".parse::<StatsModel>().unwrap(), StatsModel::Pentanomial);
        assert!("binomial".parse::<StatsModel>().is_err());
        assert_eq!(StatsModel::default_for(4), StatsModel::Pentanomial);
        assert_eq!(StatsModel::default_for(3), StatsModel::Trinomial);
    }
}
