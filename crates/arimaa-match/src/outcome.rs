//! How a game ended: the winner (or an adjudicated draw) and the reason, with
//! the one-letter codes of arimaa.com records plus the runner's own faults.

use arimaa_core::{Color, Reason};
use serde::{Deserialize, Serialize};
use std::fmt;

/// Why a game ended.
#[derive(Copy, Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Termination {
    /// A rabbit reached its goal rank (`g`).
    Goal,
    /// A side lost all its rabbits (`e`).
    Elimination,
    /// The side to move had no legal turn (`m`).
    Immobilization,
    /// Every legal turn of the side to move would be a third repetition (`p`).
    Repetition,
    /// The mover's bestmove broke a rule, third repetition included (`i`).
    Illegal,
    /// The bestmove came after the deadline (`t`).
    Time,
    /// The engine sent `bestmove resign` (`r`).
    Resign,
    /// The engine exited, closed its pipes or could not be (re)started (`c`).
    Crash,
    /// The engine did not answer at all, even after `stop`: it was killed (`h`).
    Hang,
    /// The game reached the turn limit (or the time control's total time or
    /// turn count) and is scored a draw (`s`, arimaa.com's "score" ending).
    Adjudicated,
}

impl Termination {
    /// Every termination, in table order.
    pub const ALL: [Termination; 10] = [
        Termination::Goal,
        Termination::Elimination,
        Termination::Immobilization,
        Termination::Repetition,
        Termination::Illegal,
        Termination::Time,
        Termination::Resign,
        Termination::Crash,
        Termination::Hang,
        Termination::Adjudicated,
    ];

    /// The one-letter code written in records.
    #[must_use]
    pub const fn code(self) -> char {
        match self {
            Termination::Goal => 'g',
            Termination::Elimination => 'e',
            Termination::Immobilization => 'm',
            Termination::Repetition => 'p',
            Termination::Illegal => 'i',
            Termination::Time => 't',
            Termination::Resign => 'r',
            Termination::Crash => 'c',
            Termination::Hang => 'h',
            Termination::Adjudicated => 's',
        }
    }

    /// The termination for a record code.
    #[must_use]
    pub fn from_code(c: char) -> Option<Termination> {
        Termination::ALL.into_iter().find(|t| t.code() == c)
    }

    /// A word for tables.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Termination::Goal => "goal",
            Termination::Elimination => "elimination",
            Termination::Immobilization => "immobilization",
            Termination::Repetition => "repetition",
            Termination::Illegal => "illegal move",
            Termination::Time => "time",
            Termination::Resign => "resign",
            Termination::Crash => "crash",
            Termination::Hang => "hang",
            Termination::Adjudicated => "adjudicated",
        }
    }

    /// True for the endings that are an engine's fault rather than play.
    #[must_use]
    pub const fn is_fault(self) -> bool {
        matches!(
            self,
            Termination::Illegal | Termination::Time | Termination::Crash | Termination::Hang
        )
    }
}

impl From<Reason> for Termination {
    fn from(r: Reason) -> Self {
        match r {
            Reason::Goal => Termination::Goal,
            Reason::Elimination => Termination::Elimination,
            Reason::Immobilization => Termination::Immobilization,
            Reason::Repetition => Termination::Repetition,
        }
    }
}

impl fmt::Display for Termination {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A finished game as the referee saw it.
#[derive(Clone, Debug, PartialEq)]
pub struct GameResult {
    /// The winner, `None` for an adjudicated draw.
    pub winner: Option<Color>,
    /// Why the game ended.
    pub termination: Termination,
    /// A sentence for the record: what exactly happened.
    pub detail: String,
    /// The legal moves played, as record lines (`1g Ra1 ...`).
    pub moves: String,
    /// Turns played after the setups, both sides counted.
    pub turns: u32,
}

impl GameResult {
    /// The record's result letter: `g`, `s`, or `d` for a draw.
    #[must_use]
    pub fn result_code(&self) -> char {
        match self.winner {
            Some(c) => c.letter(),
            None => 'd',
        }
    }
}

/// What the referee learnt about one move: the engine's last `info score`
/// and `info depth` before its bestmove, and the seconds the move took.
/// Each is `None` when unknown (an engine that prints no `info`, a setup
/// taken from the setup file).
#[derive(Clone, Copy, Debug, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MoveInfo {
    /// The score, as the engine printed it (ours: centi-rabbits, for the side to move).
    pub score: Option<i64>,
    /// The depth the search completed.
    pub depth: Option<u32>,
    /// Seconds from `go` to `bestmove`, as the referee timed them.
    pub seconds: Option<f64>,
}

impl MoveInfo {
    /// Takes what an engine line says: `info score N` or `info depth D`.
    /// Other lines, and values that are not numbers, are ignored.
    pub fn read_info(&mut self, line: &str) {
        let mut words = line.split_whitespace();
        if words.next() != Some("info") {
            return;
        }
        match (words.next(), words.next()) {
            (Some("score"), Some(v)) => {
                if let Ok(v) = v.parse() {
                    self.score = Some(v);
                }
            }
            (Some("depth"), Some(v)) => {
                if let Ok(v) = v.parse() {
                    self.depth = Some(v);
                }
            }
            _ => {}
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_distinct_and_round_trip() {
        let mut seen = std::collections::HashSet::new();
        for t in Termination::ALL {
            assert!(seen.insert(t.code()), "{t} repeats code {}", t.code());
            assert_eq!(Termination::from_code(t.code()), Some(t));
        }
        assert_eq!(Termination::from_code('z'), None);
        // The rules core's reasons keep their arimaa.com letters.
        for r in [
            Reason::Goal,
            Reason::Elimination,
            Reason::Immobilization,
            Reason::Repetition,
        ] {
            assert_eq!(Termination::from(r).code(), r.code());
        }
    }

    #[test]
    fn info_lines_fill_move_info() {
        let mut m = MoveInfo::default();
        for line in [
            "info depth 3",
            "info score -40",
            "log x",
            "info depth 4",
            "info score",
            "info depth 5+",
        ] {
            m.read_info(line);
        }
        assert_eq!((m.score, m.depth), (Some(-40), Some(4)));
    }
}
