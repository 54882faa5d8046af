//! Board diagrams as people, pyrimaa and this engine's `selfplay` write them:
//! an optional first line with the move number and side to move (`12g`),
//! the boxed board from rank 8 down, and the file letters below it.
//!
//! ```text
//! 12g
//!  +-----------------+
//! 8| r r r r r r r r |
//! 7| h d c m e c d h |
//! 6| . . x . . x . . |
//! 5| . . . . . . . . |
//! 4| . . . . . . . . |
//! 3| . . x . . x . . |
//! 2| H D C M E C D H |
//! 1| R R R R R R R R |
//!  +-----------------+
//!    a b c d e f g h
//! ```
//!
//! An empty square is `.`, `x` (a trap, any case) or a space, as pyrimaa
//! writes it without dots. Every square sits in its column, so a space is
//! read as a square, not skipped. Lines are trimmed, as pyrimaa trims them.

use crate::error::DiagramError;
use crate::notation::validate_board;
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::record::MoveLabel;
use crate::square::Square;

/// A diagram read: its label, if it had one, and the position with the
/// side to move set.
#[derive(Clone, Debug)]
pub struct Diagram {
    /// The move label above the board (`12g`).
    pub label: Option<MoveLabel>,
    /// The board, at the start of the side to move's turn.
    pub position: Position,
}

/// Reads a diagram. The side to move is the label's, or `side` when there is
/// no label; when both are there they must agree. The board must be one a
/// game can reach (piece counts, no unguarded piece on a trap).
pub fn parse_diagram(text: &str, side: Option<Color>) -> Result<Diagram, DiagramError> {
    // (1-based line number, trimmed text) of the lines that are not blank.
    let mut lines = text
        .lines()
        .enumerate()
        .map(|(i, l)| (i + 1, l.trim()))
        .filter(|(_, l)| !l.is_empty());
    let (mut at, mut first) = lines.next().ok_or(DiagramError::Empty)?;
    let mut label = None;
    if !is_border(first) {
        label = Some(first.parse::<MoveLabel>().map_err(|_| DiagramError::BadLabel {
            line: at,
            text: first.to_string(),
        })?);
        (at, first) = lines.next().ok_or(DiagramError::NoTopBorder { line: at + 1 })?;
        if !is_border(first) {
            return Err(DiagramError::NoTopBorder { line: at });
        }
    }
    let mut rows = Vec::with_capacity(8);
    loop {
        let (at, line) = lines.next().ok_or(DiagramError::NoBottomBorder)?;
        if is_border(line) {
            break;
        }
        rows.push((at, line));
    }
    if rows.len() != 8 {
        return Err(DiagramError::WrongRowCount(rows.len()));
    }
    for (at, line) in lines {
        let footer: String = line.split_whitespace().collect();
        if footer != "abcdefgh" && !line.starts_with('#') {
            return Err(DiagramError::TrailingText { line: at });
        }
    }
    let side = match (label, side) {
        (Some(l), Some(given)) if l.side != given => return Err(DiagramError::SideConflict { label: l, given }),
        (Some(l), _) => l.side,
        (None, Some(given)) => given,
        (None, None) => return Err(DiagramError::NoSide),
    };
    let mut position = Position::empty(side);
    for (rank, &(at, line)) in (0..8u8).rev().zip(&rows) {
        for (square, piece) in read_row(at, rank, line)? {
            position.put(piece, square);
        }
    }
    validate_board(&position)?;
    Ok(Diagram { label, position })
}

/// ` +-----------------+` (trimmed): a `+`, dashes, a `+`.
fn is_border(line: &str) -> bool {
    line.len() > 2 && line.starts_with('+') && line.ends_with('+') && line[1..line.len() - 1].bytes().all(|b| b == b'-')
}

/// The pieces of the row `N| a b c d e f g h |` of `rank` (0 = rank 1). The
/// closing `|` may be missing; squares past the end of the text are empty
/// (trailing spaces trimmed away).
fn read_row(at: usize, rank: u8, line: &str) -> Result<Vec<(Square, Piece)>, DiagramError> {
    let number = char::from(b'1' + rank);
    let Some(cells) = line.strip_prefix(number).and_then(|r| r.strip_prefix('|')) else {
        return Err(DiagramError::BadRankLabel {
            line: at,
            rank: rank + 1,
            found: line.chars().take(2).collect(),
        });
    };
    let cells: Vec<char> = cells.strip_suffix('|').unwrap_or(cells).chars().collect();
    // Squares at the odd columns 1, 3, ..., 15; spaces around them.
    let misplaced = cells
        .iter()
        .enumerate()
        .any(|(i, &c)| (i % 2 == 0 || i > 16) && c != ' ');
    if misplaced {
        return Err(DiagramError::Misaligned { line: at });
    }
    let mut pieces = Vec::new();
    for file in 0..8u8 {
        let square = Square::new(file, rank);
        match cells.get(1 + 2 * usize::from(file)).copied().unwrap_or(' ') {
            ' ' | '.' | 'x' | 'X' => {}
            ch => {
                let piece = Piece::from_letter(ch).ok_or(DiagramError::BadPiece { line: at, ch, square })?;
                pieces.push((square, piece));
            }
        }
    }
    Ok(pieces)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::PositionError;
    use crate::notation::{board_diagram, parse_position, position_to_aei};

    const BOARD: &str = " +-----------------+
8| . r . . r . . r |
7| . . r h . . r c |
6| . . x r . x R d |
5| . . e . . . . . |
4| E . . . . . C . |
3| . . x R . x . D |
2| r H M . . . . R |
1| . . R . . R R . |
 +-----------------+
   a b c d e f g h
";

    fn diagram(text: &str, side: Option<Color>) -> Result<Diagram, DiagramError> {
        parse_diagram(text, side)
    }

    #[test]
    fn reads_a_labelled_diagram_and_the_engines_own() {
        let d = diagram(&format!("12s\n{BOARD}"), None).unwrap();
        assert_eq!(d.label.map(|l| l.to_string()), Some("12s".to_string()));
        assert_eq!(
            position_to_aei(&d.position),
            "s [ r  r  r  rh  rc   r  Rd  e     E     C    R   DrHM    R  R  RR ]"
        );
        // What `board_diagram` writes reads back to the same board.
        for text in [
            "g [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]",
            &position_to_aei(&d.position),
        ] {
            let pos = parse_position(text).unwrap();
            let again = diagram(&board_diagram(&pos), Some(pos.side())).unwrap();
            assert_eq!(again.label, None);
            assert_eq!(position_to_aei(&again.position), position_to_aei(&pos));
        }
    }

    #[test]
    fn reads_pyrimaa_spaces_capital_traps_and_a_missing_right_border() {
        let spaced = BOARD.replace(". ", "  ").replace('x', "X");
        let ragged: String = spaced
            .lines()
            .map(|l| format!("   {}\n", l.trim_end_matches(" |").trim_end()))
            .collect();
        for text in [format!("12w\n{spaced}"), format!("\n  \n12w\n{ragged}# a comment\n")] {
            let d = diagram(&text, Some(Color::Gold)).unwrap_or_else(|e| panic!("{e}\n{text}"));
            assert_eq!(d.position.side(), Color::Gold);
            let plain = diagram(BOARD, Some(Color::Gold)).unwrap();
            assert!(d.position.same_board(&plain.position), "{text}");
        }
    }

    #[test]
    fn every_malformed_diagram_gets_its_own_error() {
        let rows: Vec<&str> = BOARD.lines().collect();
        let with = |i: usize, row: &str| {
            let mut r = rows.clone();
            r[i] = row;
            format!("3g\n{}\n", r.join("\n"))
        };
        let cases: Vec<(String, DiagramError)> = vec![
            ("\n  \n".into(), DiagramError::Empty),
            (
                format!("twelve\n{BOARD}"),
                DiagramError::BadLabel {
                    line: 1,
                    text: "twelve".into(),
                },
            ),
            ("3g\n8| . |\n".into(), DiagramError::NoTopBorder { line: 2 }),
            (format!("3g\n{}", rows[..9].join("\n")), DiagramError::NoBottomBorder),
            (
                format!("3g\n{}\n{}", rows[..8].join("\n"), rows[9..].join("\n")),
                DiagramError::WrongRowCount(7),
            ),
            (
                with(3, "5| . . x r . x R d |"),
                DiagramError::BadRankLabel {
                    line: 5,
                    rank: 6,
                    found: "5|".into(),
                },
            ),
            (with(4, "5|. . e . . . . . |"), DiagramError::Misaligned { line: 6 }),
            (with(4, "5| . . e . . . . . . |"), DiagramError::Misaligned { line: 6 }),
            (
                with(4, "5| . . e . . . . z |"),
                DiagramError::BadPiece {
                    line: 6,
                    ch: 'z',
                    square: Square::parse("h5").unwrap(),
                },
            ),
            (format!("3g\n{BOARD}2g Ee2n\n"), DiagramError::TrailingText { line: 13 }),
            (
                with(5, "4| E . . . . E C . |"),
                DiagramError::Board(PositionError::TooMany {
                    piece: Piece::from_letter('E').unwrap(),
                    count: 2,
                }),
            ),
        ];
        for (text, expected) in cases {
            assert_eq!(diagram(&text, None).unwrap_err(), expected, "{text}");
        }
        assert_eq!(diagram(BOARD, None).unwrap_err(), DiagramError::NoSide);
        let e = diagram(&format!("3g\n{BOARD}"), Some(Color::Silver)).unwrap_err();
        assert_eq!(
            e.to_string(),
            "the diagram's label 3g has gold to move, but silver was given"
        );
        // The messages say where and what.
        let e = diagram(&with(4, "5| . . e . . . . z |"), None).unwrap_err();
        assert_eq!(
            e.to_string(),
            "line 6: 'z' on h5 is not a piece letter (EMHDCR/emhdcr), '.', 'x' or a space"
        );
    }
}
