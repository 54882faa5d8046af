//! The record file: finished games, appended one by one.
//!
//! Each game is a block of `[Key "Value"]` headers, a blank line, the move
//! list in the arimaa.com form (`1g Ra1 ...`, `1s ...`, `2g ...`), and a
//! blank line. The move list alone is what
//! [`arimaa_core::record::parse_record`] reads; [`read_records`] splits a
//! whole file into games and replays each one. A game is written with one
//! `write` and flushed, so a match stopped at any point leaves only whole
//! games behind.
//!
//! Headers: `Event`, `Date` (UTC), `Game` (its number in the schedule),
//! `Gold`, `Silver`, `GoldLimit`, `SilverLimit` (time control or depth),
//! `Setup` (the setup file line, when one is used), `Result` (`g`, `s`, or
//! `d` for an adjudicated draw), `Reason` (the termination's letter: g, e, m,
//! p as on arimaa.com, i illegal move, t time, r resign, c crash, h hang,
//! s adjudicated), `Termination` (what happened, in words), `Turns`, and
//! `MoveData` when the game has moves.
//!
//! `MoveData` holds one entry per move of the list, in order:
//! `2g:35/6/0.412` is move 2g, the engine's last `info score` (35) and
//! `info depth` (6) before its bestmove, and the seconds it took; `-` marks
//! what is unknown (`1g:-/-/-` for a setup from the setup file). Readers of
//! plain move lists, pyrimaa's included, never see it: it is a header, and
//! the move list stays an arimaa.com record.

use crate::error::MatchError;
use crate::outcome::{MoveInfo, Termination};
use arimaa_core::record::parse_record;
use arimaa_core::{Color, Game};
use std::fs::{File, OpenOptions};
use std::io::Write;
use std::path::Path;

/// Formats one game: headers, a blank line, the moves, a blank line.
#[must_use]
pub fn format_game(headers: &[(String, String)], moves: &str) -> String {
    let mut out = String::new();
    for (k, v) in headers {
        out.push_str(&format!("[{k} \"{}\"]\n", escape(v)));
    }
    out.push('\n');
    out.push_str(moves);
    if !moves.is_empty() && !moves.ends_with('\n') {
        out.push('\n');
    }
    out.push('\n');
    out
}

fn escape(v: &str) -> String {
    v.chars()
        .map(|c| if c.is_control() { ' ' } else { c })
        .collect::<String>()
        .replace('\\', "\\\\")
        .replace('"', "\\\"")
}

/// The label of the move at `index` in a record: `1g`, `1s`, `2g`, ...
fn move_label(index: usize) -> String {
    format!("{}{}", index / 2 + 1, if index.is_multiple_of(2) { 'g' } else { 's' })
}

/// The `MoveData` header's value for a game's moves.
#[must_use]
pub fn format_move_data(info: &[MoveInfo]) -> String {
    fn or_dash<T: std::fmt::Display>(v: Option<T>) -> String {
        v.map_or_else(|| "-".to_string(), |v| v.to_string())
    }
    info.iter()
        .enumerate()
        .map(|(i, m)| {
            let seconds = m.seconds.map(|s| format!("{s:.3}"));
            format!(
                "{}:{}/{}/{}",
                move_label(i),
                or_dash(m.score),
                or_dash(m.depth),
                or_dash(seconds)
            )
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// Reads a `MoveData` value: every entry labelled in order from `1g`.
pub fn parse_move_data(text: &str) -> Result<Vec<MoveInfo>, String> {
    fn field<T: std::str::FromStr>(v: &str) -> Result<Option<T>, ()> {
        if v == "-" {
            Ok(None)
        } else {
            v.parse().map(Some).map_err(|_| ())
        }
    }
    text.split_whitespace()
        .enumerate()
        .map(|(i, entry)| {
            let bad = || format!("MoveData entry {} '{entry}'", i + 1);
            let (label, data) = entry.split_once(':').ok_or_else(bad)?;
            if label != move_label(i) {
                return Err(format!("{}: expected move {}", bad(), move_label(i)));
            }
            let mut parts = data.split('/');
            let (Some(score), Some(depth), Some(seconds), None) =
                (parts.next(), parts.next(), parts.next(), parts.next())
            else {
                return Err(bad());
            };
            Ok(MoveInfo {
                score: field(score).map_err(|()| bad())?,
                depth: field(depth).map_err(|()| bad())?,
                seconds: field::<f64>(seconds)
                    .ok()
                    .filter(|s| s.is_none_or(|s| s.is_finite() && s >= 0.0))
                    .ok_or_else(bad)?,
            })
        })
        .collect()
}

/// Appends games to a record file.
#[derive(Debug)]
pub struct RecordWriter {
    file: File,
}

impl RecordWriter {
    /// Opens the file for appending (creating it).
    pub fn open(path: &Path) -> Result<RecordWriter, MatchError> {
        let file = OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| MatchError::Record(format!("record file '{}': {e}", path.display())))?;
        Ok(RecordWriter { file })
    }

    /// Appends one game in a single write.
    pub fn append(&mut self, headers: &[(String, String)], moves: &str) -> Result<(), MatchError> {
        let text = format_game(headers, moves);
        self.file
            .write_all(text.as_bytes())
            .and_then(|()| self.file.flush())
            .map_err(|e| MatchError::Record(format!("writing the record file: {e}")))
    }
}

/// One game read back from a record file.
#[derive(Debug)]
pub struct RecordedGame {
    /// Headers in file order.
    pub headers: Vec<(String, String)>,
    /// The move list as written.
    pub moves: String,
    /// The moves replayed by the rules core.
    pub game: Game,
    /// The `MoveData` entries, one per move; empty when the header is absent.
    pub move_info: Vec<MoveInfo>,
}

impl RecordedGame {
    /// The value of header `key`.
    #[must_use]
    pub fn header(&self, key: &str) -> Option<&str> {
        self.headers.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }

    /// The termination from the `Reason` header.
    #[must_use]
    pub fn termination(&self) -> Option<Termination> {
        let mut chars = self.header("Reason")?.chars();
        let c = chars.next()?;
        chars.next().is_none().then(|| Termination::from_code(c)).flatten()
    }

    /// The winner from the `Result` header: `Some(None)` for a draw.
    #[must_use]
    pub fn winner(&self) -> Option<Option<Color>> {
        match self.header("Result")? {
            "d" => Some(None),
            r => {
                let mut chars = r.chars();
                let c = chars.next()?;
                chars
                    .next()
                    .is_none()
                    .then(|| Color::from_letter(c).map(Some))
                    .flatten()
            }
        }
    }
}

fn parse_header(line: &str) -> Option<(String, String)> {
    let inner = line.strip_prefix('[')?.strip_suffix(']')?;
    let (key, rest) = inner.split_once(' ')?;
    let quoted = rest.trim().strip_prefix('"')?.strip_suffix('"')?;
    let mut value = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        if c == '\\' {
            value.push(chars.next()?);
        } else {
            value.push(c);
        }
    }
    Some((key.to_string(), value))
}

/// Splits a record file into games and replays each move list. Checks that a
/// game that ended by the rules (goal, elimination, immobilization,
/// repetition) replays to that result, and that any other game is still
/// unfinished after its moves.
pub fn read_records(text: &str) -> Result<Vec<RecordedGame>, MatchError> {
    struct Block {
        headers: Vec<(String, String)>,
        moves: String,
        line: usize,
    }
    let mut blocks: Vec<Block> = Vec::new();
    let mut in_headers = false;
    for (i, raw) in text.lines().enumerate() {
        let line = raw.trim();
        if line.is_empty() {
            in_headers = false;
            continue;
        }
        if line.starts_with('[') {
            let header =
                parse_header(line).ok_or_else(|| MatchError::Record(format!("line {}: bad header '{line}'", i + 1)))?;
            if !in_headers {
                blocks.push(Block {
                    headers: Vec::new(),
                    moves: String::new(),
                    line: i + 1,
                });
                in_headers = true;
            }
            if let Some(b) = blocks.last_mut() {
                b.headers.push(header);
            }
            continue;
        }
        in_headers = false;
        let block = blocks
            .last_mut()
            .ok_or_else(|| MatchError::Record(format!("line {}: a move before any game header", i + 1)))?;
        block.moves.push_str(line);
        block.moves.push('\n');
    }
    let mut games = Vec::new();
    for b in blocks {
        let game =
            parse_record(&b.moves).map_err(|e| MatchError::Record(format!("game at line {}: moves: {e}", b.line)))?;
        let mut g = RecordedGame {
            headers: b.headers,
            moves: b.moves,
            game,
            move_info: Vec::new(),
        };
        if let Some(data) = g.header("MoveData") {
            let info =
                parse_move_data(data).map_err(|e| MatchError::Record(format!("game at line {}: {e}", b.line)))?;
            if info.len() != g.game.record().len() {
                return Err(MatchError::Record(format!(
                    "game at line {}: MoveData has {} entries for {} moves",
                    b.line,
                    info.len(),
                    g.game.record().len()
                )));
            }
            g.move_info = info;
        }
        let (Some(term), Some(winner)) = (g.termination(), g.winner()) else {
            return Err(MatchError::Record(format!(
                "game at line {}: missing or bad Result/Reason header",
                b.line
            )));
        };
        let replayed = g.game.outcome();
        let consistent = match term {
            Termination::Goal | Termination::Elimination | Termination::Immobilization | Termination::Repetition => {
                replayed.is_some_and(|o| Some(o.winner) == winner && Termination::from(o.reason) == term)
            }
            _ => replayed.is_none(),
        };
        if !consistent {
            return Err(MatchError::Record(format!(
                "game at line {}: the moves replay to {:?}, but the headers say {} by {term}",
                b.line,
                replayed.map(|o| o.to_string()),
                g.header("Result").unwrap_or("?")
            )));
        }
        games.push(g);
    }
    Ok(games)
}

#[cfg(test)]
mod tests {
    use super::*;

    const MOVES: &str = "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2\n\
                         1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7\n\
                         2g Ee2n Ee3n\n";

    fn headers(result: &str, reason: &str, detail: &str) -> Vec<(String, String)> {
        vec![
            ("Event".into(), "test".into()),
            ("Result".into(), result.into()),
            ("Reason".into(), reason.into()),
            ("Termination".into(), detail.into()),
        ]
    }

    #[test]
    fn games_round_trip_through_the_file_form() {
        let mut text = format_game(&headers("g", "t", "B said \"x\\y\"\nand left"), MOVES);
        text += &format_game(&headers("s", "c", "A crashed"), "");
        text += &format_game(&headers("d", "s", "draw"), MOVES);
        let games = read_records(&text).unwrap();
        assert_eq!(games.len(), 3);
        assert_eq!(games[0].header("Termination"), Some("B said \"x\\y\" and left"));
        assert_eq!(games[0].winner(), Some(Some(Color::Gold)));
        assert_eq!(games[0].termination(), Some(Termination::Time));
        assert_eq!(games[0].game.record().len(), 3);
        assert_eq!(games[1].game.record().len(), 0);
        assert_eq!(games[2].winner(), Some(None));
        // The move list alone is a plain arimaa.com record.
        let alone = text.split("\n\n").nth(1).unwrap();
        assert_eq!(parse_record(alone).unwrap().record().len(), 3);
        assert!(games.iter().all(|g| g.move_info.is_empty()), "no MoveData, no entries");
    }

    #[test]
    fn move_data_round_trips_and_must_fit_the_moves() {
        let info = [
            MoveInfo::default(),
            MoveInfo {
                seconds: Some(0.0126),
                ..MoveInfo::default()
            },
            MoveInfo {
                score: Some(-35),
                depth: Some(6),
                seconds: Some(1.5),
            },
        ];
        let data = format_move_data(&info);
        assert_eq!(data, "1g:-/-/- 1s:-/-/0.013 2g:-35/6/1.500");
        let mut h = headers("g", "t", "late");
        h.push(("MoveData".into(), data.clone()));
        let games = read_records(&format_game(&h, MOVES)).unwrap();
        assert_eq!(games[0].move_info[2], info[2]);
        assert_eq!(games[0].move_info[1].seconds, Some(0.013));
        // One entry short, or out of order: refused.
        let short = data.rsplit_once(' ').unwrap().0.to_string();
        h.last_mut().unwrap().1 = short;
        assert!(read_records(&format_game(&h, MOVES)).is_err());
        for bad in ["1s:-/-/-", "1g:x/-/-", "1g:-/-", "1g:-/-/-1", "1g"] {
            assert!(parse_move_data(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn inconsistent_or_broken_records_are_refused() {
        // Headers claim a goal the moves do not reach.
        let e = read_records(&format_game(&headers("g", "g", "goal"), MOVES)).unwrap_err();
        assert!(e.to_string().contains("replay"), "{e}");
        let e = read_records(&format_game(&headers("g", "i", "x"), "1g Ra1\n")).unwrap_err();
        assert!(e.to_string().contains("moves"), "{e}");
        assert!(read_records("1g Ra1\n").is_err());
        assert!(read_records("[Event test]\n").is_err());
        assert!(read_records(&format_game(&headers("x", "i", "x"), "")).is_err());
    }
}
