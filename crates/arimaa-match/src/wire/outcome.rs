//! The outcome a worker sends back: the pair's games as its referee saw
//! them, matched to the driver's jobs on arrival.

use crate::error::MatchError;
use crate::executor::FinishedGame;
use crate::outcome::{GameResult, MoveInfo, Termination};
use crate::schedule::PairJob;
use arimaa_core::Color;
use serde::{Deserialize, Serialize};

/// What a worker sends back: the pair's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairOutcome {
    /// The pair number of the spec.
    pub index: usize,
    /// The finished games.
    pub games: Vec<WireResult>,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireResult {
    /// The game's number in the driver's schedule.
    pub number: u32,
    /// Start time, UTC.
    pub date: String,
    /// `g`, `s`, or `d` for a draw.
    pub result: char,
    /// The termination's record code.
    pub reason: char,
    /// What happened, for the record.
    pub detail: String,
    /// The moves, as record lines.
    pub moves: String,
    /// Turns after the setups.
    pub turns: u32,
    /// What is known of each move (absent from older workers: none).
    #[serde(default)]
    pub move_info: Vec<MoveInfo>,
}

impl PairOutcome {
    /// The outcome of pair `index` from its finished games.
    #[must_use]
    pub fn new(index: usize, games: &[FinishedGame]) -> PairOutcome {
        let games = games
            .iter()
            .map(|f| WireResult {
                number: f.job.number,
                date: f.date.clone(),
                result: f.result.result_code(),
                reason: f.result.termination.code(),
                detail: f.result.detail.clone(),
                moves: f.result.moves.clone(),
                turns: f.result.turns,
                move_info: f.move_info.clone(),
            })
            .collect();
        PairOutcome { index, games }
    }

    /// The games of `pair`, each matched to its job by number: every game
    /// of the pair exactly once, or an error.
    pub fn into_games(self, pair: &PairJob) -> Result<Vec<FinishedGame>, MatchError> {
        let bad = |what: String| format!("pair {}: the worker's result {what}", pair.index);
        if self.index != pair.index {
            return Err(MatchError::Wire(bad(format!("is for pair {}", self.index))));
        }
        if self.games.len() != pair.games.len() {
            return Err(MatchError::Wire(bad(format!(
                "has {} games, not {}",
                self.games.len(),
                pair.games.len()
            ))));
        }
        let mut out = Vec::new();
        for job in &pair.games {
            let mut found = self.games.iter().filter(|g| g.number == job.number);
            let (Some(g), None) = (found.next(), found.next()) else {
                return Err(MatchError::Wire(bad(format!(
                    "does not have game {} exactly once",
                    job.number
                ))));
            };
            let winner = match g.result {
                'd' => None,
                c => Some(Color::from_letter(c).ok_or_else(|| MatchError::Wire(bad(format!("has result '{c}'"))))?),
            };
            let termination = Termination::from_code(g.reason)
                .ok_or_else(|| MatchError::Wire(bad(format!("has reason '{}'", g.reason))))?;
            out.push(FinishedGame {
                job: *job,
                date: g.date.clone(),
                result: GameResult {
                    winner,
                    termination,
                    detail: g.detail.clone(),
                    moves: g.moves.clone(),
                    turns: g.turns,
                },
                move_info: g.move_info.clone(),
            });
        }
        Ok(out)
    }
}
