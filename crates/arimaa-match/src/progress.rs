//! Live progress on stderr, drawn by `indicatif`: a bar with the count, the
//! rate, the time left and a status (the match's standings, the tuner's
//! values), and a line per finished game or iteration above it. When stderr
//! is not a terminal (CI logs, a file) indicatif draws nothing, so the lines
//! are printed plainly and the status now and then as a line of its own.

use crate::pentanomial::StatsModel;
use crate::stats::Sprt;
use crate::summary::Tally;
use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};
use std::io::IsTerminal;

/// The progress display.
#[derive(Debug)]
pub struct Progress {
    /// The bar, on a terminal; `None` prints plain lines.
    bar: Option<ProgressBar>,
    total: u64,
    /// What is counted: "games", "iterations".
    unit: &'static str,
    quiet: bool,
}

/// Bar, count, rate, elapsed and left, then the status; the bar is 24 wide so
/// that a two-engine status still fits on an 80-column line below it.
const TEMPLATE: &str = "[{bar:24}] {pos}/{len} {unit} {rate} {elapsed} (left {eta})\n{msg}";

impl Progress {
    /// A display for `total` things counted in `unit`; `quiet` prints nothing.
    #[must_use]
    pub fn new(total: u64, unit: &'static str, quiet: bool) -> Progress {
        let tty = std::io::stderr().is_terminal();
        let target = if tty && !quiet {
            Some(ProgressDrawTarget::stderr())
        } else {
            None
        };
        Progress::with_target(total, unit, quiet, target)
    }

    /// The display drawn into `target` (a terminal), or plain lines on
    /// stderr without one.
    fn with_target(total: u64, unit: &'static str, quiet: bool, target: Option<ProgressDrawTarget>) -> Progress {
        let bar = target.map(|t| {
            let bar = ProgressBar::with_draw_target(Some(total), t);
            bar.set_style(style(unit));
            bar
        });
        Progress {
            bar,
            total,
            unit,
            quiet,
        }
    }

    /// Prints a line above the bar.
    pub fn line(&self, text: &str) {
        match &self.bar {
            Some(bar) => bar.println(text),
            None if self.quiet => {}
            None => eprintln!("{text}"),
        }
    }

    /// Starts the bar at `done` (a resumed run), so that the rate and the
    /// time left count only what this session does.
    pub fn resume_at(&self, done: u64) {
        if let Some(bar) = &self.bar {
            bar.set_position(done);
            bar.reset_eta();
        }
    }

    /// Moves the bar to `done` with `status` below it. Without a terminal,
    /// the status is printed as a plain line after every tenth of the total,
    /// at the end, and each time when `every_time` (an SPRT, whose every
    /// game can end the match).
    pub fn update(&self, done: u64, status: &str, every_time: bool) {
        match &self.bar {
            Some(bar) => {
                bar.set_position(done);
                bar.set_message(status.to_string());
            }
            None if self.quiet => {}
            None => {
                let every = (self.total / 10).max(1);
                if done.is_multiple_of(every) || done == self.total || every_time {
                    eprintln!("{done}/{} {}  {status}", self.total, self.unit);
                }
            }
        }
    }

    /// Leaves the bar as it stands, on its own lines.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.abandon();
        }
    }
}

fn style(unit: &'static str) -> ProgressStyle {
    // The template is a constant: a broken one is a bug that the tests catch.
    let style = ProgressStyle::with_template(TEMPLATE).unwrap_or_else(|_| ProgressStyle::default_bar());
    style
        .progress_chars("#>.")
        .with_key("unit", move |_: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = w.write_str(unit);
        })
        .with_key("rate", |s: &ProgressState, w: &mut dyn std::fmt::Write| {
            // Games take seconds to minutes: per minute reads better than per second.
            let _ = write!(w, "{:.1}/min", s.per_sec() * 60.0);
        })
}

/// A match's status: the first pair's score, Elo and the LLR in `model`.
#[must_use]
pub fn match_status(tally: &Tally, sprt: Option<&Sprt>, model: StatsModel) -> String {
    let w = tally.first_pair();
    let mut s = String::new();
    if tally.names.len() >= 2 {
        s.push_str(&format!(
            "{} vs {} {}-{}-{}",
            tally.names[0], tally.names[1], w.wins, w.losses, w.draws
        ));
    }
    if let Some(e) = tally
        .elo((0, 1), model)
        .filter(|e| e.elo.is_finite() && e.margin().is_finite())
    {
        s.push_str(&format!("  Elo {:+.0} +/- {:.0}", e.elo, e.margin()));
    }
    if let Some(sp) = sprt {
        let (low, high) = sp.bounds();
        s.push_str(&format!("  LLR {:.2} [{low:.2}, {high:.2}]", tally.llr(sp, model)));
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{GameResult, Termination};
    use crate::schedule::GameJob;
    use arimaa_core::Color;
    use indicatif::InMemoryTerm;

    fn tally(games: u32) -> Tally {
        let mut t = Tally::new(vec!["new".into(), "old".into()]);
        for number in 1..=games {
            let job = GameJob {
                number,
                gold: (number as usize + 1) % 2,
                silver: number as usize % 2,
                pair: 0,
            };
            let res = GameResult {
                // Gold wins each game and the colours alternate: 2-1 after 3.
                winner: Some(Color::Gold),
                termination: Termination::Goal,
                detail: String::new(),
                moves: String::new(),
                turns: 3,
            };
            t.add(&job, &res);
        }
        t
    }

    #[test]
    fn status_shows_score_elo_and_llr() {
        let sprt = Sprt::parse::<&str>(&[]).ok();
        let s = match_status(&tally(1), sprt.as_ref(), StatsModel::Trinomial);
        assert!(
            s.starts_with("new vs old 1-0-0") && s.contains("LLR 0.02 [-2.94, 2.94]"),
            "{s}"
        );
        // No Elo while its interval is unbounded; then the estimate and margin.
        assert_eq!(match_status(&tally(3), None, StatsModel::Trinomial), "new vs old 2-1-0");
        let s = match_status(&tally(40), None, StatsModel::Trinomial);
        assert!(s.starts_with("new vs old 20-20-0  Elo +0 +/- "), "{s}");
    }

    #[test]
    fn a_terminal_gets_the_lines_above_a_bar() {
        let term = InMemoryTerm::new(8, 100);
        let target = ProgressDrawTarget::term_like(Box::new(term.clone()));
        let p = Progress::with_target(8, "games", false, Some(target));
        let t = tally(3);
        for n in 1..=3 {
            p.line(&format!(
                "Finished game {n} (new vs old): gold wins by goal after 40 turns"
            ));
        }
        p.update(3, &match_status(&t, None, StatsModel::Trinomial), false);
        p.finish();
        let screen = term.contents();
        let lines: Vec<&str> = screen.lines().collect();
        assert!(lines[0].starts_with("Finished game 1 "), "{screen}");
        assert!(lines[2].starts_with("Finished game 3 "), "{screen}");
        assert!(lines[3].starts_with("[#########>"), "{screen}");
        assert!(lines[3].contains("3/8 games") && lines[3].contains("/min"), "{screen}");
        assert_eq!(lines[4], "new vs old 2-1-0", "{screen}");
    }
}
