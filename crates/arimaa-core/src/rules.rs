//! The end of the game, checked after each turn in the official order.

use crate::bitboard::Bitboard;
use crate::piece::{Color, Kind, Piece};
use crate::position::Position;
use crate::turns::TurnGen;
use std::fmt;

/// Why a game ended.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Reason {
    /// A rabbit reached its goal rank.
    Goal,
    /// A side lost all its rabbits.
    Elimination,
    /// The side to move has no legal turn.
    Immobilization,
    /// Every legal turn of the side to move would repeat a position for the third time.
    Repetition,
}

impl Reason {
    /// The one-letter code used in arimaa.com records: g, e, m, p.
    #[must_use]
    pub const fn code(self) -> char {
        match self {
            Reason::Goal => 'g',
            Reason::Elimination => 'e',
            Reason::Immobilization => 'm',
            Reason::Repetition => 'p',
        }
    }
}

/// The result of a finished game.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub struct Outcome {
    /// Who won (Arimaa has no draws).
    pub winner: Color,
    /// Why.
    pub reason: Reason,
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let who = match self.winner {
            Color::Gold => "gold",
            Color::Silver => "silver",
        };
        let why = match self.reason {
            Reason::Goal => "goal",
            Reason::Elimination => "elimination",
            Reason::Immobilization => "immobilization",
            Reason::Repetition => "repetition",
        };
        write!(f, "{who} wins by {why}")
    }
}

/// The goal rank of `color`.
pub const fn goal_rank(color: Color) -> Bitboard {
    match color {
        Color::Gold => Bitboard::RANK_8,
        Color::Silver => Bitboard::RANK_1,
    }
}

/// The first four end-of-game rules (goals, then lost rabbits), checked at a
/// turn start for the side that just moved and the side to move. These need
/// no move generation, so the search applies them at every turn start.
#[must_use]
pub fn goal_or_elimination(pos: &Position) -> Option<Outcome> {
    let b = pos.side();
    let a = b.opponent();
    let rabbits = |c: Color| pos.bitboard(Piece::new(c, Kind::Rabbit));
    let (winner, reason) = if (rabbits(a) & goal_rank(a)).any() {
        (a, Reason::Goal)
    } else if (rabbits(b) & goal_rank(b)).any() {
        (b, Reason::Goal)
    } else if rabbits(b).is_empty() {
        (a, Reason::Elimination)
    } else if rabbits(a).is_empty() {
        (b, Reason::Elimination)
    } else {
        return None;
    };
    Some(Outcome { winner, reason })
}

/// Decides whether the game is over at the start of a turn, `pos` having
/// just been reached by the other side's turn. `third_repetition(hash)` says
/// whether ending a turn on that position hash would repeat it a third time;
/// `repetition_possible` lets the caller skip the full turn enumeration when
/// no position has been seen twice.
pub fn outcome(
    pos: &Position,
    repetition_possible: bool,
    third_repetition: impl Fn(u64) -> bool,
    gen: &mut TurnGen,
) -> Option<Outcome> {
    if let Some(decided) = goal_or_elimination(pos) {
        return Some(decided);
    }
    let a = pos.side().opponent();
    // A single legal step (or a push's first half, which can be completed)
    // always makes a turn that changes the board.
    if pos.legal_step_list().is_empty() {
        return Some(Outcome {
            winner: a,
            reason: Reason::Immobilization,
        });
    }
    if repetition_possible && gen.turns(pos).iter().all(|t| third_repetition(t.hash)) {
        return Some(Outcome {
            winner: a,
            reason: Reason::Repetition,
        });
    }
    None
}
