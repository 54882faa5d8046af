//! Arimaa rules on bitboards.
//!
//! The leaf crate of the engine: squares, pieces, steps, positions with
//! make/unmake and trap captures, legal steps (pushes and pulls included),
//! distinct-turn generation, the end-of-game rules, third repetition,
//! official notation, game records, Zobrist hashing and perft.
//!
//! Everything that reads text returns a typed error naming the bad token;
//! nothing here panics on input.

#![warn(missing_docs)]

pub mod bitboard;
pub mod diagram;
pub mod error;
pub mod game;
pub mod keytable;
mod movegen;
pub mod notation;
pub mod perft;
pub mod piece;
pub mod position;
pub mod record;
pub mod rng;
pub mod rules;
pub mod square;
pub mod step;
pub mod timecontrol;
pub mod turns;
pub mod zobrist;

pub use bitboard::Bitboard;
pub use error::{DiagramError, MoveError, PositionError, RecordError, SetupError};
pub use game::Game;
pub use notation::{format_move, parse_move, parse_position, position_to_aei};
pub use piece::{Color, Kind, Piece};
pub use position::{Pending, Position};
pub use rules::{Outcome, Reason};
pub use square::{Direction, Square};
pub use step::{Move, Step, StepList};
pub use turns::{Turn, TurnGen};
