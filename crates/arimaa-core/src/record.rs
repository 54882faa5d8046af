//! Game records: `1g <setup>`, `1s <setup>`, `2g <steps>`, ... lines (`w`/`b` accepted),
//! and the move labels (`12g`) that name a place in them.

use crate::error::{MissingMoveError, MoveLabelError, RecordError, RecordErrorKind};
use crate::game::Game;
use crate::piece::Color;
use std::fmt;
use std::str::FromStr;

/// A move's place in a game: its number and the side that plays it, as in
/// `12g` (`w`/`b` are read as `g`/`s`). Move 1 is the setups.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveLabel {
    /// The move number, from 1.
    pub number: u32,
    /// The side that plays it.
    pub side: Color,
}

impl MoveLabel {
    /// The label of the move `game` plays next.
    #[must_use]
    pub fn next_in(game: &Game) -> MoveLabel {
        MoveLabel {
            number: game.move_number(),
            side: game.side_to_move(),
        }
    }

    /// How many moves a record holds before this one (1g: 0, 1s: 1, 2g: 2).
    #[must_use]
    pub fn index(self) -> u64 {
        (u64::from(self.number) - 1) * 2 + self.side.index() as u64
    }
}

impl FromStr for MoveLabel {
    type Err = MoveLabelError;

    fn from_str(text: &str) -> Result<MoveLabel, MoveLabelError> {
        parse_prefix(text)
            .filter(|&(number, _)| number >= 1)
            .map(|(number, side)| MoveLabel { number, side })
            .ok_or_else(|| MoveLabelError(text.to_string()))
    }
}

impl fmt::Display for MoveLabel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.number, self.side.letter())
    }
}

/// The game as it stood when the move `label` was to be played: `game`
/// with every move from `label` on taken back (its repetition history
/// with them). The label after the last move is the game itself.
pub fn rewound(game: &Game, label: MoveLabel) -> Result<Game, MissingMoveError> {
    let played = game.record().len() as u64;
    if label.index() > played {
        return Err(MissingMoveError {
            wanted: label,
            next: MoveLabel::next_in(game),
        });
    }
    let mut earlier = game.clone();
    for _ in label.index()..played {
        earlier.undo();
    }
    Ok(earlier)
}

/// Reads a game record from its first line, replaying every move through the
/// rules. Blank lines are skipped; a move line with no move (the usual last
/// line of an arimaa.com record) may only come last.
pub fn parse_record(text: &str) -> Result<Game, RecordError> {
    let mut game = Game::new();
    let mut ended = false;
    for (i, raw) in text.lines().enumerate() {
        let line = i + 1;
        let err = |kind| RecordError { line, kind };
        let trimmed = raw.trim();
        if trimmed.is_empty() {
            continue;
        }
        if ended {
            return Err(err(RecordErrorKind::AfterEnd));
        }
        let (prefix, rest) = trimmed.split_once(char::is_whitespace).unwrap_or((trimmed, ""));
        let (number, side) = parse_prefix(prefix).ok_or_else(|| err(RecordErrorKind::BadPrefix(prefix.to_string())))?;
        let expected_side = game.side_to_move();
        if number != game.move_number() || side != expected_side {
            return Err(err(RecordErrorKind::OutOfOrder {
                found: prefix.to_string(),
                expected: format!("{}{}", game.move_number(), expected_side.letter()),
            }));
        }
        if rest.trim().is_empty() {
            ended = true;
            continue;
        }
        game.play_text(rest).map_err(|e| err(RecordErrorKind::Move(e)))?;
    }
    Ok(game)
}

fn parse_prefix(prefix: &str) -> Option<(u32, Color)> {
    let side = Color::from_letter(prefix.chars().last()?)?;
    let digits = &prefix[..prefix.len() - 1];
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    Some((digits.parse().ok()?, side))
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETUPS: &str = "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2\n\
                          1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7\n";

    #[test]
    fn reads_and_writes_back() {
        let text = format!("{SETUPS}2g Ee2n Ee3n Ee4n Ee5n\n2s dg7s dg6s\n3w Ee6w\n");
        let game = parse_record(&text).unwrap();
        assert_eq!(game.record().len(), 5);
        let again = parse_record(&game.record_text()).unwrap();
        assert_eq!(again.position().hash(), game.position().hash());
        assert_eq!(game.side_to_move(), Color::Silver);
    }

    #[test]
    fn errors_name_the_line() {
        let text = format!("{SETUPS}2g Ee2n Ee3n\n2g Ee4n\n");
        let e = parse_record(&text).unwrap_err();
        assert_eq!(e.line, 4);
        assert!(e.to_string().contains("expected '2s'"), "{e}");
        let text = format!("{SETUPS}2g Ee2n Ee3x\n");
        assert_eq!(parse_record(&text).unwrap_err().line, 3);
        let text = format!("{SETUPS}2g\n2s ee7s\n");
        assert_eq!(parse_record(&text).unwrap_err().kind, RecordErrorKind::AfterEnd);
        assert!(matches!(
            parse_record("x1 Ra1").unwrap_err().kind,
            RecordErrorKind::BadPrefix(_)
        ));
    }

    #[test]
    fn move_labels_read_write_and_rewind_a_game() {
        let label = |t: &str| t.parse::<MoveLabel>();
        assert_eq!(label("12g").map(|l| (l.number, l.side)), Ok((12, Color::Gold)));
        assert_eq!(label("3b").map(|l| l.to_string()), Ok("3s".to_string()));
        assert_eq!(label("2s").map(MoveLabel::index), Ok(3));
        for bad in ["", "g", "0g", "12", "12x", "-1g", "1 g", "99999999999g"] {
            let e = label(bad).unwrap_err();
            assert!(e.to_string().contains("like '12g'"), "{bad}: {e}");
        }
        let game = parse_record(&format!(
            "{SETUPS}2g Ee2n Ee3n
2s ee7s
3g Ee4n
"
        ))
        .unwrap();
        let at = |t: &str| rewound(&game, t.parse().unwrap());
        let before_2s = at("2s").unwrap();
        assert_eq!(before_2s.record().len(), 3);
        assert_eq!(MoveLabel::next_in(&before_2s).to_string(), "2s");
        assert!(at("1g").unwrap().in_setup());
        assert_eq!(at("3s").unwrap().record().len(), game.record().len());
        let e = at("4g").unwrap_err();
        assert_eq!(
            e.to_string(),
            "the game has no move 4g: its record stops before move 3s"
        );
    }

    #[test]
    fn a_trailing_empty_move_line_is_accepted() {
        let text = format!("{SETUPS}2g Ee2n\n2s\n");
        assert_eq!(parse_record(&text).unwrap().record().len(), 3);
    }
}
