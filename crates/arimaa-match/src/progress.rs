//! Live progress on stderr: a line per finished game, and under it a bar
//! with the standings, redrawn in place on a terminal. When stderr is not a
//! terminal (CI logs, a file), the bar is printed as a plain line now and
//! then instead.

use crate::stats::Sprt;
use crate::summary::Tally;
use std::io::{IsTerminal, Write};

/// The progress display.
#[derive(Debug)]
pub struct Progress {
    total: u32,
    tty: bool,
    drawn: bool,
    quiet: bool,
}

const BAR: usize = 24;

impl Progress {
    /// A display for `total` scheduled games; `quiet` prints nothing.
    #[must_use]
    pub fn new(total: u32, quiet: bool) -> Progress {
        Progress {
            total,
            tty: std::io::stderr().is_terminal(),
            drawn: false,
            quiet,
        }
    }

    fn clear(&mut self, err: &mut impl Write) {
        if self.drawn {
            let _ = write!(err, "\r\x1b[2K");
            self.drawn = false;
        }
    }

    /// Prints a line above the bar.
    pub fn line(&mut self, text: &str) {
        if self.quiet {
            return;
        }
        let mut err = std::io::stderr().lock();
        self.clear(&mut err);
        let _ = writeln!(err, "{text}");
    }

    /// The status text: games done, the first pair's score, Elo, LLR.
    #[must_use]
    pub fn status(&self, tally: &Tally, sprt: Option<&Sprt>) -> String {
        let done = tally.games();
        let filled = if self.total == 0 {
            BAR
        } else {
            (done as usize * BAR / self.total as usize).min(BAR)
        };
        let mut s = format!(
            "[{}{}] {done}/{}",
            "#".repeat(filled),
            ".".repeat(BAR - filled),
            self.total
        );
        let w = tally.first_pair();
        if tally.names.len() >= 2 {
            s.push_str(&format!(
                "  {} vs {} {}-{}-{}",
                tally.names[0], tally.names[1], w.wins, w.losses, w.draws
            ));
        }
        if let Some(e) = w.elo().filter(|e| e.elo.is_finite() && e.margin().is_finite()) {
            s.push_str(&format!("  Elo {:+.0} +/- {:.0}", e.elo, e.margin()));
        }
        if let Some(sp) = sprt {
            let (low, high) = sp.bounds();
            s.push_str(&format!("  LLR {:.2} [{low:.2}, {high:.2}]", sp.llr(&w)));
        }
        s
    }

    /// Redraws the bar (on a terminal) or prints the status now and then.
    pub fn update(&mut self, tally: &Tally, sprt: Option<&Sprt>) {
        if self.quiet {
            return;
        }
        let status = self.status(tally, sprt);
        let mut err = std::io::stderr().lock();
        if self.tty {
            self.clear(&mut err);
            let _ = write!(err, "{status}");
            let _ = err.flush();
            self.drawn = true;
        } else {
            let every = (self.total / 10).max(1);
            let done = tally.games();
            if done.is_multiple_of(every) || done == self.total || sprt.is_some() {
                let _ = writeln!(err, "{status}");
            }
        }
    }

    /// Ends the bar's line.
    pub fn finish(&mut self) {
        if self.drawn {
            let _ = writeln!(std::io::stderr());
            self.drawn = false;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::{GameResult, Termination};
    use crate::schedule::GameJob;
    use arimaa_core::Color;

    #[test]
    fn status_shows_count_score_and_llr() {
        let mut t = Tally::new(vec!["new".into(), "old".into()]);
        let job = GameJob {
            number: 1,
            gold: 0,
            silver: 1,
            pair: 0,
        };
        let res = GameResult {
            winner: Some(Color::Gold),
            termination: Termination::Goal,
            detail: String::new(),
            moves: String::new(),
            turns: 3,
        };
        t.add(&job, &res);
        let p = Progress::new(4, true);
        let s = p.status(&t, Sprt::parse::<&str>(&[]).ok().as_ref());
        assert!(s.starts_with("[######..................] 1/4"), "{s}");
        assert!(
            s.contains("new vs old 1-0-0") && s.contains("LLR 0.02 [-2.94, 2.94]"),
            "{s}"
        );
    }
}
