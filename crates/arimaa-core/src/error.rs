//! Typed errors for everything that reads outside text or checks a move.
//! Each message names the offending token and says why it was refused.
//! The messages are declared with `thiserror`, next to the variants they
//! describe.

use crate::piece::{Color, Piece};
use crate::record::MoveLabel;
use crate::square::Square;
use thiserror::Error;

/// A position string (`g [64 chars]`) that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum PositionError {
    /// Nothing before the board, or an unknown side letter.
    #[error("side to move '{0}' is not one of g, s, w, b (expected e.g. 'g [64 characters]')")]
    BadSide(String),
    /// No `[` ... `]` pair.
    #[error("the board must be enclosed in '[' and ']'")]
    MissingBrackets,
    /// The text between the brackets is not 64 characters.
    #[error("the board has {0} characters between the brackets, not 64")]
    WrongLength(usize),
    /// A character that is neither a piece letter nor a space.
    #[error("character {ch:?} on {square} is not a piece letter (EMHDCR/emhdcr) or a space")]
    BadChar {
        /// The character.
        ch: char,
        /// Where it stands.
        square: Square,
    },
    /// More of one piece than a side owns.
    #[error("{count} pieces '{piece}' on the board, but a side has only {}", .piece.kind.count_at_start())]
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many the string has.
        count: u32,
    },
    /// A piece on a trap with no friend next to it: it would already have been captured.
    #[error("'{piece}' on trap {square} has no friendly neighbour and would have been captured")]
    UnguardedTrap {
        /// The piece.
        piece: Piece,
        /// The trap.
        square: Square,
    },
}

/// A setup (`Ra1 Rb1 ...`) that cannot be read or is not legal.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SetupError {
    /// A token that is not a piece letter followed by a square.
    #[error("setup token '{0}' is not a piece letter and a square, like 'Ra1'")]
    BadToken(String),
    /// A piece of the wrong colour.
    #[error("setup token '{0}' places a piece of the other side")]
    WrongColor(String),
    /// A square outside the side's two home ranks.
    #[error("setup token '{0}' is outside the side's two home ranks")]
    WrongRank(String),
    /// Two pieces on one square.
    #[error("setup token '{0}' places a second piece on the same square")]
    Duplicate(String),
    /// The wrong number of pieces of one kind.
    #[error("the setup has {count} '{piece}' but must have exactly {}", .piece.kind.count_at_start())]
    WrongCount {
        /// The piece.
        piece: Piece,
        /// How many the setup has.
        count: u32,
    },
}

/// A move (the steps of one turn) that cannot be read or is not legal here.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum MoveError {
    /// No steps at all.
    #[error("the move has no steps")]
    Empty,
    /// A token that is not a step (`Ed2n`) or a capture (`rc3x`).
    #[error("'{0}' is not a step like 'Ed2n' or a capture like 'rc3x'")]
    BadToken(String),
    /// A fifth step.
    #[error("step '{0}' would be a fifth step; a turn has at most four")]
    TooManySteps(String),
    /// The step starts on an empty square.
    #[error("step '{0}' starts on an empty square")]
    NoPiece(String),
    /// The piece letter does not match the piece on the square.
    #[error("step '{token}' names the wrong piece: the square holds '{found}'")]
    WrongPiece {
        /// The token.
        token: String,
        /// The piece actually there.
        found: Piece,
    },
    /// The step breaks a rule; `why` says which.
    #[error("step '{token}' is illegal: {why}")]
    Illegal {
        /// The token.
        token: String,
        /// The rule.
        why: String,
    },
    /// A capture token that does not match what the previous step captured.
    #[error("capture token '{token}' is wrong: {}", what_was_captured(.actual))]
    WrongCapture {
        /// The token.
        token: String,
        /// The capture that really happened, if any.
        actual: Option<String>,
    },
    /// The move ends after the first half of a push.
    #[error("the move ends half-way through a push ('{0}' must be followed by the pusher's step)")]
    UnfinishedPush(String),
    /// The board at the end equals the board at the start.
    #[error("the move leaves the board as it was")]
    NoChange,
    /// The move would produce the same position for the third time.
    #[error("the move repeats a position for the third time")]
    ThirdRepetition,
    /// Steps were given while a side still has to place its pieces.
    #[error("a setup is expected, not steps")]
    SetupExpected,
    /// A setup was given after both sides have placed their pieces.
    #[error("a setup was given, but the setup phase is over")]
    SetupOver,
    /// A setup places a piece on a square that already holds one (the other
    /// side's setup reached into this side's ranks).
    #[error("setup square {0} is already occupied")]
    SetupSquareTaken(Square),
    /// The game has already ended.
    #[error("the game is over")]
    GameOver,
    /// A setup move that is not legal.
    #[error(transparent)]
    Setup(#[from] SetupError),
}

fn what_was_captured(actual: &Option<String>) -> String {
    match actual {
        Some(a) => format!("the step captured '{a}'"),
        None => "the step before it captured nothing".to_string(),
    }
}

/// A game record that cannot be read: which line, and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("line {line}: {kind}")]
pub struct RecordError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// What is wrong with a line of a game record.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RecordErrorKind {
    /// The line does not start with a move number and side, like `12g`.
    #[error("'{0}' is not a move number and side like '12g'")]
    BadPrefix(String),
    /// The number or side is not the one expected next.
    #[error("found move '{found}', expected '{expected}'")]
    OutOfOrder {
        /// What the line says.
        found: String,
        /// What was expected.
        expected: String,
    },
    /// The move itself is illegal.
    #[error(transparent)]
    Move(MoveError),
    /// A line after a line with no move.
    #[error("a move follows an empty move line")]
    AfterEnd,
}

/// A move label (`12g`) that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("'{0}' is not a move number and side like '12g'")]
pub struct MoveLabelError(pub String);

/// A move label beyond the end of a game: the record stops before it.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
#[error("the game has no move {wanted}: its record stops before move {next}")]
pub struct MissingMoveError {
    /// The label asked for.
    pub wanted: MoveLabel,
    /// The move the game would play next.
    pub next: MoveLabel,
}

/// A board diagram that cannot be read: which line (1-based, counting
/// every line of the text), and why.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DiagramError {
    /// Nothing but blank lines.
    #[error("the diagram is empty")]
    Empty,
    /// A first line that is neither a move label nor the top border.
    #[error("line {line}: '{text}' is neither a move number and side like '12g' nor the board's top border ' +-----------------+'")]
    BadLabel {
        /// The line.
        line: usize,
        /// Its text.
        text: String,
    },
    /// The line after the label is not the top border.
    #[error("line {line}: expected the board's top border ' +-----------------+'")]
    NoTopBorder {
        /// The line.
        line: usize,
    },
    /// The rows run to the end of the text.
    #[error("the board has no bottom border ' +-----------------+' after its rows")]
    NoBottomBorder,
    /// Not eight rows between the borders.
    #[error("the board has {0} rows between its borders, not 8")]
    WrongRowCount(usize),
    /// A row that does not start with its rank's number and `|`.
    #[error("line {line}: the row of rank {rank} must start with '{rank}|', found '{found}'")]
    BadRankLabel {
        /// The line.
        line: usize,
        /// The rank the row should show (8 first).
        rank: u8,
        /// The row's start as written.
        found: String,
    },
    /// A row whose squares are not single characters separated by spaces.
    #[error("line {line}: the squares must be one character each, separated by spaces, as in '8| r . x . . x . r |'")]
    Misaligned {
        /// The line.
        line: usize,
    },
    /// A square holding something that is not a piece or an empty mark.
    #[error("line {line}: '{ch}' on {square} is not a piece letter (EMHDCR/emhdcr), '.', 'x' or a space")]
    BadPiece {
        /// The line.
        line: usize,
        /// The character.
        ch: char,
        /// Where it stands.
        square: Square,
    },
    /// Text after the board other than its file letters.
    #[error("line {line}: unexpected text after the board (only the footer 'a b c d e f g h' may follow)")]
    TrailingText {
        /// The line.
        line: usize,
    },
    /// No label above the board and no side given.
    #[error("no side to move: the diagram has no first line like '12g' and no side was given")]
    NoSide,
    /// The label's side and the side given differ.
    #[error("the diagram's label {label} has {} to move, but {} was given", .label.side, .given)]
    SideConflict {
        /// The label above the board.
        label: MoveLabel,
        /// The side given beside it.
        given: Color,
    },
    /// The board read, but no game reaches it (too many pieces, an
    /// unguarded piece on a trap).
    #[error(transparent)]
    Board(#[from] PositionError),
}
