//! Typed errors for everything that reads outside text or checks a move.
//! Each message names the offending token and says why it was refused.

use crate::piece::Piece;
use crate::square::Square;
use std::fmt;

/// A position string (`g [64 chars]`) that cannot be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PositionError {
    /// Nothing before the board, or an unknown side letter.
    BadSide(String),
    /// No `[` ... `]` pair.
    MissingBrackets,
    /// The text between the brackets is not 64 characters.
    WrongLength(usize),
    /// A character that is neither a piece letter nor a space.
    BadChar {
        /// The character.
        ch: char,
        /// Where it stands.
        square: Square,
    },
    /// More of one piece than a side owns.
    TooMany {
        /// The piece.
        piece: Piece,
        /// How many the string has.
        count: u32,
    },
    /// A piece on a trap with no friend next to it: it would already have been captured.
    UnguardedTrap {
        /// The piece.
        piece: Piece,
        /// The trap.
        square: Square,
    },
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PositionError::BadSide(s) => {
                write!(
                    f,
                    "side to move '{s}' is not one of g, s, w, b (expected e.g. 'g [64 characters]')"
                )
            }
            PositionError::MissingBrackets => {
                write!(f, "the board must be enclosed in '[' and ']'")
            }
            PositionError::WrongLength(n) => write!(f, "the board has {n} characters between the brackets, not 64"),
            PositionError::BadChar { ch, square } => {
                write!(
                    f,
                    "character {ch:?} on {square} is not a piece letter (EMHDCR/emhdcr) or a space"
                )
            }
            PositionError::TooMany { piece, count } => write!(
                f,
                "{count} pieces '{piece}' on the board, but a side has only {}",
                piece.kind.count_at_start()
            ),
            PositionError::UnguardedTrap { piece, square } => {
                write!(
                    f,
                    "'{piece}' on trap {square} has no friendly neighbour and would have been captured"
                )
            }
        }
    }
}

impl std::error::Error for PositionError {}

/// A setup (`Ra1 Rb1 ...`) that cannot be read or is not legal.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SetupError {
    /// A token that is not a piece letter followed by a square.
    BadToken(String),
    /// A piece of the wrong colour.
    WrongColor(String),
    /// A square outside the side's two home ranks.
    WrongRank(String),
    /// Two pieces on one square.
    Duplicate(String),
    /// The wrong number of pieces of one kind.
    WrongCount {
        /// The piece.
        piece: Piece,
        /// How many the setup has.
        count: u32,
    },
}

impl fmt::Display for SetupError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SetupError::BadToken(t) => write!(f, "setup token '{t}' is not a piece letter and a square, like 'Ra1'"),
            SetupError::WrongColor(t) => {
                write!(f, "setup token '{t}' places a piece of the other side")
            }
            SetupError::WrongRank(t) => {
                write!(f, "setup token '{t}' is outside the side's two home ranks")
            }
            SetupError::Duplicate(t) => write!(f, "setup token '{t}' places a second piece on the same square"),
            SetupError::WrongCount { piece, count } => write!(
                f,
                "the setup has {count} '{piece}' but must have exactly {}",
                piece.kind.count_at_start()
            ),
        }
    }
}

impl std::error::Error for SetupError {}

/// A move (the steps of one turn) that cannot be read or is not legal here.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MoveError {
    /// No steps at all.
    Empty,
    /// A token that is not a step (`Ed2n`) or a capture (`rc3x`).
    BadToken(String),
    /// A fifth step.
    TooManySteps(String),
    /// The step starts on an empty square.
    NoPiece(String),
    /// The piece letter does not match the piece on the square.
    WrongPiece {
        /// The token.
        token: String,
        /// The piece actually there.
        found: Piece,
    },
    /// The step breaks a rule; `why` says which.
    Illegal {
        /// The token.
        token: String,
        /// The rule.
        why: String,
    },
    /// A capture token that does not match what the previous step captured.
    WrongCapture {
        /// The token.
        token: String,
        /// The capture that really happened, if any.
        actual: Option<String>,
    },
    /// The move ends after the first half of a push.
    UnfinishedPush(String),
    /// The board at the end equals the board at the start.
    NoChange,
    /// The move would produce the same position for the third time.
    ThirdRepetition,
    /// A setup was expected (or a normal move, when a setup was given).
    WrongPhase(String),
    /// The game has already ended.
    GameOver,
    /// A setup move that is not legal.
    Setup(SetupError),
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Empty => write!(f, "the move has no steps"),
            MoveError::BadToken(t) => write!(f, "'{t}' is not a step like 'Ed2n' or a capture like 'rc3x'"),
            MoveError::TooManySteps(t) => write!(f, "step '{t}' would be a fifth step; a turn has at most four"),
            MoveError::NoPiece(t) => write!(f, "step '{t}' starts on an empty square"),
            MoveError::WrongPiece { token, found } => {
                write!(f, "step '{token}' names the wrong piece: the square holds '{found}'")
            }
            MoveError::Illegal { token, why } => write!(f, "step '{token}' is illegal: {why}"),
            MoveError::WrongCapture { token, actual: Some(a) } => {
                write!(f, "capture token '{token}' is wrong: the step captured '{a}'")
            }
            MoveError::WrongCapture { token, actual: None } => {
                write!(
                    f,
                    "capture token '{token}' is wrong: the step before it captured nothing"
                )
            }
            MoveError::UnfinishedPush(t) => {
                write!(
                    f,
                    "the move ends half-way through a push ('{t}' must be followed by the pusher's step)"
                )
            }
            MoveError::NoChange => write!(f, "the move leaves the board as it was"),
            MoveError::ThirdRepetition => {
                write!(f, "the move repeats a position for the third time")
            }
            MoveError::WrongPhase(why) => write!(f, "{why}"),
            MoveError::GameOver => write!(f, "the game is over"),
            MoveError::Setup(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for MoveError {}

impl From<SetupError> for MoveError {
    fn from(e: SetupError) -> Self {
        MoveError::Setup(e)
    }
}

/// A game record that cannot be read: which line, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RecordError {
    /// 1-based line number.
    pub line: usize,
    /// What is wrong.
    pub kind: RecordErrorKind,
}

/// What is wrong with a line of a game record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum RecordErrorKind {
    /// The line does not start with a move number and side, like `12g`.
    BadPrefix(String),
    /// The number or side is not the one expected next.
    OutOfOrder {
        /// What the line says.
        found: String,
        /// What was expected.
        expected: String,
    },
    /// The move itself is illegal.
    Move(MoveError),
    /// A line after a line with no move.
    AfterEnd,
}

impl fmt::Display for RecordError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "line {}: ", self.line)?;
        match &self.kind {
            RecordErrorKind::BadPrefix(p) => {
                write!(f, "'{p}' is not a move number and side like '12g'")
            }
            RecordErrorKind::OutOfOrder { found, expected } => {
                write!(f, "found move '{found}', expected '{expected}'")
            }
            RecordErrorKind::Move(e) => write!(f, "{e}"),
            RecordErrorKind::AfterEnd => write!(f, "a move follows an empty move line"),
        }
    }
}

impl std::error::Error for RecordError {}
