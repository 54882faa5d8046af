//! The PGN file (`--pgn`): finished games in the form pyrimaa's roundrobin
//! writes for bayeselo, so that bayeselo and ordo can rate matches of more
//! than two engines.
//!
//! Each game is a block of PGN tag pairs, a blank line, the move list as
//! record lines (`1g Ra1 ...`, as roundrobin writes them), the result token
//! and a blank line. Gold is `White` and silver `Black`; `Result` is
//! `1-0`, `0-1`, or `1/2-1/2` for an adjudicated draw (roundrobin has
//! none); `ResultCode` is the termination's record letter; `PlyCount`
//! counts the moves listed, the setups included, as roundrobin does.
//! Besides roundrobin's tags (`White`, `Black`, `TimeControl` when both
//! sides play the same one, `PlyCount`, `ResultCode`, `Result`), `Event`,
//! `Date` and `Round` (the game's number) come first, as PGN orders them.

use crate::error::MatchError;
use crate::outcome::GameResult;
use arimaa_core::Color;
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

/// A game's tags besides the result, which comes from the game itself.
#[derive(Clone, Debug)]
pub struct PgnTags<'a> {
    /// The match's event name.
    pub event: &'a str,
    /// Start date and time, UTC (`YYYY-MM-DD HH:MM:SS`).
    pub date: &'a str,
    /// The game's number in the schedule.
    pub round: u32,
    /// Gold's engine.
    pub white: &'a str,
    /// Silver's engine.
    pub black: &'a str,
    /// The time control both sides play, if they play the same one.
    pub time_control: Option<String>,
}

/// The PGN result token of a game.
#[must_use]
pub fn result_token(winner: Option<Color>) -> &'static str {
    match winner {
        Some(Color::Gold) => "1-0",
        Some(Color::Silver) => "0-1",
        None => "1/2-1/2",
    }
}

fn tag(out: &mut String, name: &str, value: &str) {
    let value: String = value
        .chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"");
    out.push_str(&format!("[{name} \"{value}\"]\n"));
}

/// Formats one game.
#[must_use]
pub fn format_pgn_game(tags: &PgnTags<'_>, result: &GameResult) -> String {
    let token = result_token(result.winner);
    let plies = result.moves.lines().filter(|l| !l.trim().is_empty()).count();
    let mut out = String::new();
    tag(&mut out, "Event", tags.event);
    // PGN dates are YYYY.MM.DD.
    let date = tags.date.get(..10).unwrap_or(tags.date).replace('-', ".");
    tag(&mut out, "Date", &date);
    tag(&mut out, "Round", &tags.round.to_string());
    tag(&mut out, "White", tags.white);
    tag(&mut out, "Black", tags.black);
    if let Some(tc) = &tags.time_control {
        tag(&mut out, "TimeControl", tc);
    }
    tag(&mut out, "PlyCount", &plies.to_string());
    tag(&mut out, "ResultCode", &result.termination.code().to_string());
    tag(&mut out, "Result", token);
    out.push('\n');
    for line in result.moves.lines().map(str::trim).filter(|l| !l.is_empty()) {
        out.push_str(line);
        out.push('\n');
    }
    out.push_str(token);
    out.push_str("\n\n");
    out
}

/// Appends games to a PGN file.
#[derive(Debug)]
pub struct PgnWriter {
    file: File,
}

impl PgnWriter {
    /// Opens the file for appending (creating it).
    pub fn open(path: &Path) -> Result<PgnWriter, MatchError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| MatchError::Record(format!("PGN file '{}': {e}", path.display())))?;
        Ok(PgnWriter { file })
    }

    /// Appends one game in a single write.
    pub fn append(&mut self, tags: &PgnTags<'_>, result: &GameResult) -> Result<(), MatchError> {
        let text = format_pgn_game(tags, result);
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| MatchError::Record(format!("writing the PGN file: {e}")))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::outcome::Termination;

    #[test]
    fn games_are_written_as_roundrobin_writes_them() {
        let result = GameResult {
            winner: Some(Color::Silver),
            termination: Termination::Time,
            detail: "late".into(),
            moves: "1g Ra1 Rb1\n1s ra8 rb8\n2g Ee2n\n".into(),
            turns: 1,
        };
        let tags = PgnTags {
            event: "m \"x\"",
            date: "2026-01-02 03:04:05",
            round: 7,
            white: "a",
            black: "b",
            time_control: Some("1s/10s".into()),
        };
        let text = format_pgn_game(&tags, &result);
        assert_eq!(
            text,
            "[Event \"m \\\"x\\\"\"]\n[Date \"2026.01.02\"]\n[Round \"7\"]\n[White \"a\"]\n[Black \"b\"]\n\
             [TimeControl \"1s/10s\"]\n[PlyCount \"3\"]\n[ResultCode \"t\"]\n[Result \"0-1\"]\n\n\
             1g Ra1 Rb1\n1s ra8 rb8\n2g Ee2n\n0-1\n\n"
        );
        let draw = GameResult {
            winner: None,
            moves: String::new(),
            ..result
        };
        let text = format_pgn_game(&tags, &draw);
        assert!(
            text.contains("[PlyCount \"0\"]") && text.ends_with("\n\n1/2-1/2\n\n"),
            "{text}"
        );
    }
}
