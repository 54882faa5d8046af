//! Counting finished games and the tables printed at the end.

use crate::outcome::{GameResult, Termination};
use crate::pentanomial::{Penta, StatsModel};
use crate::schedule::GameJob;
use crate::stats::{EloEstimate, Sprt, SprtDecision, Wdl};
use arimaa_core::Color;
use std::collections::BTreeMap;
use std::fmt::Write;

/// One engine's results.
#[derive(Clone, Debug, Default)]
pub struct EngineTally {
    /// Results with gold.
    pub as_gold: Wdl,
    /// Results with silver.
    pub as_silver: Wdl,
    /// This engine's losses by reason.
    pub losses: BTreeMap<Termination, u32>,
}

impl EngineTally {
    /// All results.
    #[must_use]
    pub fn total(&self) -> Wdl {
        let mut t = self.as_gold;
        t += self.as_silver;
        t
    }
}

/// Everything counted so far.
#[derive(Clone, Debug)]
pub struct Tally {
    /// Engine names, in command-line order.
    pub names: Vec<String>,
    /// Per engine.
    pub engines: Vec<EngineTally>,
    /// Results of engine `a` against engine `b` (a < b), from `a`'s side.
    pub pairs: BTreeMap<(usize, usize), Wdl>,
    /// Finished game pairs of engine `a` against engine `b` (a < b) by
    /// `a`'s pair score.
    pub pentas: BTreeMap<(usize, usize), Penta>,
    /// Pairs with one game counted, by pair number: the pairing and the
    /// lower-numbered engine's half points in that game.
    open: BTreeMap<usize, ((usize, usize), u32)>,
    /// Gold's results over all games.
    pub gold: Wdl,
    /// Games by termination.
    pub reasons: BTreeMap<Termination, u32>,
}

impl Tally {
    /// Nothing counted yet.
    #[must_use]
    pub fn new(names: Vec<String>) -> Tally {
        Tally {
            engines: vec![EngineTally::default(); names.len()],
            names,
            pairs: BTreeMap::new(),
            pentas: BTreeMap::new(),
            open: BTreeMap::new(),
            gold: Wdl::default(),
            reasons: BTreeMap::new(),
        }
    }

    /// Counts one finished game.
    pub fn add(&mut self, job: &GameJob, result: &GameResult) {
        // From gold's side.
        let g = match result.winner {
            Some(Color::Gold) => Wdl {
                wins: 1,
                ..Wdl::default()
            },
            Some(Color::Silver) => Wdl {
                losses: 1,
                ..Wdl::default()
            },
            None => Wdl {
                draws: 1,
                ..Wdl::default()
            },
        };
        self.gold += g;
        self.engines[job.gold].as_gold += g;
        self.engines[job.silver].as_silver += g.flipped();
        let loser = match result.winner {
            Some(Color::Gold) => Some(job.silver),
            Some(Color::Silver) => Some(job.gold),
            None => None,
        };
        if let Some(l) = loser {
            *self.engines[l].losses.entry(result.termination).or_insert(0) += 1;
        }
        *self.reasons.entry(result.termination).or_insert(0) += 1;
        let (key, view) = if job.gold < job.silver {
            ((job.gold, job.silver), g)
        } else {
            ((job.silver, job.gold), g.flipped())
        };
        *self.pairs.entry(key).or_default() += view;
        let half = 2 * view.wins + view.draws;
        match self.open.remove(&job.pair) {
            Some((_, first)) => self.pentas.entry(key).or_default().add(first + half),
            None => {
                self.open.insert(job.pair, (key, half));
            }
        }
    }

    /// Games of engine `a` against `b` whose pair is not finished: they
    /// count in the trinomial figures only.
    #[must_use]
    pub fn unpaired(&self, key: (usize, usize)) -> u32 {
        self.open.values().filter(|(k, _)| *k == key).count() as u32
    }

    /// Engine 0's finished pairs against engine 1.
    #[must_use]
    pub fn first_pentas(&self) -> Penta {
        self.pentas.get(&(0, 1)).copied().unwrap_or_default()
    }

    /// Elo and its interval of `a` against `b` in `model`.
    #[must_use]
    pub fn elo(&self, key: (usize, usize), model: StatsModel) -> Option<EloEstimate> {
        match model {
            StatsModel::Trinomial => self.pairs.get(&key)?.elo(),
            StatsModel::Pentanomial => self.pentas.get(&key)?.elo(),
        }
    }

    /// The first pair's LLR in `model`.
    #[must_use]
    pub fn llr(&self, sprt: &Sprt, model: StatsModel) -> f64 {
        match model {
            StatsModel::Trinomial => sprt.llr(&self.first_pair()),
            StatsModel::Pentanomial => self.first_pentas().llr(sprt),
        }
    }

    /// The SPRT's decision on the first pair in `model`.
    #[must_use]
    pub fn decide(&self, sprt: &Sprt, model: StatsModel) -> SprtDecision {
        match model {
            StatsModel::Trinomial => sprt.decide(&self.first_pair()),
            StatsModel::Pentanomial => self.first_pentas().decide(sprt),
        }
    }

    /// Games counted.
    #[must_use]
    pub fn games(&self) -> u32 {
        self.gold.games()
    }

    /// Engine 0's results against engine 1: what Elo and SPRT are about.
    #[must_use]
    pub fn first_pair(&self) -> Wdl {
        self.pairs.get(&(0, 1)).copied().unwrap_or_default()
    }
}

fn wdl_line(w: &Wdl) -> String {
    let score = w.score().map_or("-".to_string(), |s| format!("{s:.3}"));
    format!("{} - {} - {}  [{score}] {}", w.wins, w.losses, w.draws, w.games())
}

fn counts(map: &BTreeMap<Termination, u32>) -> String {
    if map.is_empty() {
        return "none".into();
    }
    map.iter()
        .map(|(t, n)| format!("{t} {n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The SPRT status line.
#[must_use]
pub fn sprt_line(sprt: &Sprt, t: &Tally, model: StatsModel) -> String {
    let (low, high) = sprt.bounds();
    let verdict = match t.decide(sprt, model) {
        SprtDecision::Continue => "continue",
        SprtDecision::AcceptH0 => "H0 accepted",
        SprtDecision::AcceptH1 => "H1 accepted",
    };
    format!(
        "SPRT (elo0 {}, elo1 {}, alpha {}, beta {}, {}): LLR {:.2} [{low:.2}, {high:.2}] {verdict}",
        sprt.elo0,
        sprt.elo1,
        sprt.alpha,
        sprt.beta,
        model.name(),
        t.llr(sprt, model)
    )
}

/// The end-of-match report: scores by engine and colour, the pair scores,
/// Elo with its interval and LOS in `model`, the SPRT, and the terminations.
#[must_use]
pub fn report(t: &Tally, sprt: Option<&Sprt>, model: StatsModel) -> String {
    let mut out = String::new();
    for (&(a, b), w) in &t.pairs {
        let (na, nb) = (&t.names[a], &t.names[b]);
        let _ = writeln!(out, "Score of {na} vs {nb}: {}", wdl_line(w));
        if t.names.len() == 2 {
            let e = &t.engines[a];
            let _ = writeln!(out, "...      {na} playing gold: {}", wdl_line(&e.as_gold));
            let _ = writeln!(out, "...      {na} playing silver: {}", wdl_line(&e.as_silver));
            let _ = writeln!(out, "...      gold vs silver: {}", wdl_line(&t.gold));
        }
        let penta = t.pentas.get(&(a, b)).copied().unwrap_or_default();
        let _ = write!(out, "...      {na} {penta}");
        match t.unpaired((a, b)) {
            0 => out.push('\n'),
            n => {
                let _ = writeln!(
                    out,
                    " ({n} game of an unfinished pair counts in the trinomial figures only)"
                );
            }
        }
        let los = match model {
            StatsModel::Trinomial => w.los(),
            StatsModel::Pentanomial => penta.los(),
        };
        match t.elo((a, b), model) {
            Some(e) => {
                let _ = writeln!(out, "Elo difference: {e}, LOS: {:.1} % ({})", 100.0 * los, model.name());
            }
            None => {
                let _ = writeln!(
                    out,
                    "Elo difference: no {}",
                    match model {
                        StatsModel::Trinomial => "games",
                        StatsModel::Pentanomial => "finished pairs",
                    }
                );
            }
        }
    }
    if t.names.len() > 2 {
        let _ = writeln!(out, "gold vs silver: {}", wdl_line(&t.gold));
        let mut order: Vec<usize> = (0..t.names.len()).collect();
        let points = |i: usize| t.engines[i].total().score().unwrap_or(0.0);
        order.sort_by(|&a, &b| points(b).total_cmp(&points(a)));
        out.push_str("Standings (W - L - D  [score] games):\n");
        for (rank, i) in order.into_iter().enumerate() {
            let _ = writeln!(
                out,
                "{:>3}. {:<16} {}",
                rank + 1,
                t.names[i],
                wdl_line(&t.engines[i].total())
            );
        }
    }
    if let Some(s) = sprt {
        let _ = writeln!(out, "{}", sprt_line(s, t, model));
    }
    let _ = writeln!(out, "Terminations: {}", counts(&t.reasons));
    for (name, e) in t.names.iter().zip(&t.engines) {
        let _ = writeln!(out, "...      {name} lost by: {}", counts(&e.losses));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn result(winner: Option<Color>, termination: Termination) -> GameResult {
        GameResult {
            winner,
            termination,
            detail: String::new(),
            moves: String::new(),
            turns: 0,
        }
    }

    fn job(gold: usize, silver: usize) -> GameJob {
        GameJob {
            number: 1,
            gold,
            silver,
            pair: 0,
        }
    }

    #[test]
    fn counts_by_engine_colour_and_reason() {
        let mut t = Tally::new(vec!["A".into(), "B".into()]);
        t.add(&job(0, 1), &result(Some(Color::Gold), Termination::Goal));
        t.add(&job(1, 0), &result(Some(Color::Gold), Termination::Time));
        t.add(&job(1, 0), &result(Some(Color::Silver), Termination::Goal));
        t.add(&job(0, 1), &result(None, Termination::Adjudicated));
        assert_eq!(
            t.first_pair(),
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(
            t.gold,
            Wdl {
                wins: 2,
                draws: 1,
                losses: 1
            }
        );
        assert_eq!(
            t.engines[0].as_gold,
            Wdl {
                wins: 1,
                draws: 1,
                losses: 0
            }
        );
        assert_eq!(
            t.engines[0].as_silver,
            Wdl {
                wins: 1,
                draws: 0,
                losses: 1
            }
        );
        assert_eq!(t.engines[0].losses.get(&Termination::Time), Some(&1));
        assert_eq!(t.engines[1].losses.get(&Termination::Goal), Some(&2));
        // Both pairs are pair 0 here: the games pair up two by two.
        assert_eq!(t.first_pentas().counts, [0, 0, 1, 1, 0]);
        let text = report(&t, Sprt::parse(&["elo1=10"]).ok().as_ref(), StatsModel::Pentanomial);
        assert!(text.contains("A pairs: 0:0 0.5:0 1:1 1.5:1 2:0\n"), "{text}");
        assert!(text.contains("(pentanomial)"), "{text}");
        assert!(text.contains("beta 0.05, pentanomial): LLR"), "{text}");
        assert!(text.contains("Score of A vs B: 2 - 1 - 1  [0.625] 4"), "{text}");
        assert!(text.contains("A playing gold: 1 - 0 - 1"), "{text}");
        assert!(text.contains("gold vs silver: 2 - 1 - 1"), "{text}");
        assert!(text.contains("Terminations: goal 2, time 1, adjudicated 1"), "{text}");
        assert!(text.contains("A lost by: time 1"), "{text}");
        assert!(text.contains("SPRT (elo0 0, elo1 10"), "{text}");
        assert!(text.contains("LOS: "), "{text}");
    }

    #[test]
    fn three_engines_get_standings() {
        let mut t = Tally::new(vec!["A".into(), "B".into(), "C".into()]);
        t.add(&job(2, 0), &result(Some(Color::Gold), Termination::Goal));
        t.add(&job(1, 2), &result(Some(Color::Silver), Termination::Goal));
        let text = report(&t, None, StatsModel::Trinomial);
        assert!(text.contains("Score of A vs C: 0 - 1 - 0"), "{text}");
        assert!(text.contains("  1. C "), "{text}");
    }

    #[test]
    fn an_unfinished_pair_counts_in_the_trinomial_figures_only() {
        let mut t = Tally::new(vec!["A".into(), "B".into()]);
        let game = |number, gold, silver, pair| GameJob {
            number,
            gold,
            silver,
            pair,
        };
        // Pair 0: A wins both; pair 1: A wins its first game, the second is unplayed.
        t.add(&game(1, 0, 1, 0), &result(Some(Color::Gold), Termination::Goal));
        t.add(&game(2, 1, 0, 0), &result(Some(Color::Silver), Termination::Goal));
        t.add(&game(3, 0, 1, 1), &result(Some(Color::Gold), Termination::Goal));
        assert_eq!(t.first_pair().wins, 3);
        assert_eq!(t.first_pentas().counts, [0, 0, 0, 0, 1]);
        assert_eq!(t.unpaired((0, 1)), 1);
        let text = report(&t, None, StatsModel::Pentanomial);
        assert!(
            text.contains(
                "A pairs: 0:0 0.5:0 1:0 1.5:0 2:1 (1 game of an unfinished pair counts in the trinomial figures only)"
            ),
            "{text}"
        );
        assert!(t.elo((0, 1), StatsModel::Pentanomial).is_some());
        assert_eq!(
            Tally::new(vec!["A".into(), "B".into()]).elo((0, 1), StatsModel::Pentanomial),
            None
        );
    }
}
