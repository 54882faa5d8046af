//! A game from its setups (or a set position) on: the turn history, third
//! repetition, the end of the game and the move record.

use crate::error::MoveError;
use crate::notation::{check_move, check_setup, format_move, format_setup, parse_move, parse_setup};
use crate::piece::{Color, Piece};
use crate::position::Position;
use crate::rules::{outcome, Outcome};
use crate::square::Square;
use crate::step::Move;
use crate::turns::{Turn, TurnGen};
use std::collections::HashMap;

/// One entry of the move record.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RecordedMove {
    /// The move number (1 for the setups).
    pub number: u32,
    /// The side that played it.
    pub side: Color,
    /// The move in official notation, capture tokens included.
    pub text: String,
}

/// A game: position, history and result.
#[derive(Clone, Debug)]
pub struct Game {
    position: Position,
    setups_left: u8,
    number: u32,
    seen: HashMap<u64, u8>,
    record: Vec<RecordedMove>,
    result: Option<Outcome>,
    undo: Vec<(Position, Option<u64>, Option<Outcome>)>,
}

impl Default for Game {
    fn default() -> Self {
        Self::new()
    }
}

impl Game {
    /// A new game: empty board, gold to place its setup.
    #[must_use]
    pub fn new() -> Game {
        Game {
            position: Position::empty(Color::Gold),
            setups_left: 2,
            number: 1,
            seen: HashMap::new(),
            record: Vec::new(),
            result: None,
            undo: Vec::new(),
        }
    }

    /// A game that continues from a set position (as after AEI `setposition`):
    /// no setups, and the start position does not count for repetition.
    #[must_use]
    pub fn from_position(position: Position) -> Game {
        let mut g = Game {
            position,
            setups_left: 0,
            number: 2,
            ..Game::new()
        };
        g.result = g.compute_outcome();
        g
    }

    /// The current position (at the start of the side to move's turn).
    #[must_use]
    pub fn position(&self) -> &Position {
        &self.position
    }

    /// True while a side still has to place its pieces.
    #[must_use]
    pub fn in_setup(&self) -> bool {
        self.setups_left > 0
    }

    /// The side to move.
    #[must_use]
    pub fn side_to_move(&self) -> Color {
        self.position.side()
    }

    /// The result, once the game is over.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.result
    }

    /// The moves played so far.
    #[must_use]
    pub fn record(&self) -> &[RecordedMove] {
        &self.record
    }

    /// The record as text: `1g Ra1 ...` lines.
    #[must_use]
    pub fn record_text(&self) -> String {
        self.record
            .iter()
            .map(|m| format!("{}{} {}\n", m.number, m.side.letter(), m.text))
            .collect()
    }

    /// The current move number (1 during setup).
    #[must_use]
    pub fn move_number(&self) -> u32 {
        self.number
    }

    /// How often the game has been in the position with this hash after a turn.
    #[must_use]
    pub fn times_seen(&self, hash: u64) -> u8 {
        self.seen.get(&hash).copied().unwrap_or(0)
    }

    /// True when ending a turn on `hash` would repeat it for the third time.
    #[must_use]
    pub fn is_third_repetition(&self, hash: u64) -> bool {
        self.times_seen(hash) >= 2
    }

    /// Every legal turn for the side to move, third repetitions left out.
    pub fn legal_turns(&self, gen: &mut TurnGen) -> Vec<Turn> {
        if self.in_setup() || self.result.is_some() {
            return Vec::new();
        }
        let mut turns = gen.turns(&self.position);
        turns.retain(|t| !self.is_third_repetition(t.hash));
        turns
    }

    /// Plays a move given as text: a setup during the setup phase, steps after it.
    pub fn play_text(&mut self, text: &str) -> Result<Option<Outcome>, MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        if self.in_setup() {
            let placed = parse_setup(self.position.side(), text)?;
            self.play_setup(&placed)?;
            return Ok(None);
        }
        let (mv, after) = parse_move(&self.position, text)?;
        self.end_turn(&mv, after)
    }

    /// Places the side to move's pieces, checked as [`parse_setup`] checks text.
    pub fn play_setup(&mut self, placed: &[(Piece, Square)]) -> Result<(), MoveError> {
        if !self.in_setup() {
            return Err(MoveError::SetupOver);
        }
        let side = self.position.side();
        check_setup(side, placed)?;
        if let Some(&(_, s)) = placed.iter().find(|(_, s)| self.position.occupied().has(*s)) {
            return Err(MoveError::SetupSquareTaken(s));
        }
        let before = self.position;
        for &(p, s) in placed {
            self.position.put(p, s);
        }
        self.undo.push((before, None, self.result));
        self.position.end_turn();
        self.record.push(RecordedMove {
            number: self.number,
            side,
            text: format_setup(placed),
        });
        self.setups_left -= 1;
        if side == Color::Silver {
            self.number += 1;
        }
        *self.seen.entry(self.position.hash()).or_insert(0) += 1;
        Ok(())
    }

    /// Plays a turn given as steps, after checking every rule (including third
    /// repetition). Returns the outcome if the game ends with it.
    pub fn play(&mut self, mv: &Move) -> Result<Option<Outcome>, MoveError> {
        if self.result.is_some() {
            return Err(MoveError::GameOver);
        }
        if self.in_setup() {
            return Err(MoveError::SetupExpected);
        }
        // A hand-built Move gets the same scrutiny as text.
        let after = check_move(&self.position, mv)?;
        self.end_turn(mv, after)
    }

    /// Ends the turn `mv` (already checked) that led to `after`, unless it
    /// would be a third repetition, and records it.
    fn end_turn(&mut self, mv: &Move, mut after: Position) -> Result<Option<Outcome>, MoveError> {
        after.end_turn();
        if self.is_third_repetition(after.hash()) {
            return Err(MoveError::ThirdRepetition);
        }
        let side = self.position.side();
        self.undo.push((self.position, Some(after.hash()), self.result));
        self.record.push(RecordedMove {
            number: self.number,
            side,
            text: format_move(&self.position, mv),
        });
        self.position = after;
        if side == Color::Silver {
            self.number += 1;
        }
        *self.seen.entry(after.hash()).or_insert(0) += 1;
        self.result = self.compute_outcome();
        Ok(self.result)
    }

    /// Takes back the last move (setup or turn). Returns false when there is none.
    pub fn undo(&mut self) -> bool {
        let Some((before, counted, result)) = self.undo.pop() else {
            return false;
        };
        let hash = counted.unwrap_or(self.position.hash());
        if let Some(c) = self.seen.get_mut(&hash) {
            *c -= 1;
            if *c == 0 {
                self.seen.remove(&hash);
            }
        }
        if let Some(m) = self.record.pop() {
            self.number = m.number;
        }
        if counted.is_none() {
            self.setups_left += 1;
        }
        self.position = before;
        self.result = result;
        true
    }

    fn compute_outcome(&self) -> Option<Outcome> {
        let possible = self.seen.values().any(|&c| c >= 2);
        let mut gen = TurnGen::new();
        outcome(&self.position, possible, |h| self.is_third_repetition(h), &mut gen)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_step_token;

    const GOLD: &str = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
    const SILVER: &str = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7";

    fn steps(text: &str) -> Move {
        let mut mv = Move::new();
        for token in text.split_whitespace() {
            assert!(mv.push(parse_step_token(token).unwrap()));
        }
        mv
    }

    #[test]
    fn phase_errors_are_variants_and_change_nothing() {
        let mut g = Game::new();
        assert_eq!(g.play(&steps("Ee2n")), Err(MoveError::SetupExpected));
        g.play_text(GOLD).unwrap();
        g.play_text(SILVER).unwrap();
        let placed = parse_setup(Color::Gold, GOLD).unwrap();
        assert_eq!(g.play_setup(&placed), Err(MoveError::SetupOver));
        assert_eq!(g.record().len(), 2);
        assert!(!g.in_setup());
    }

    #[test]
    fn a_hand_built_move_gets_the_scrutiny_of_text() {
        let mut g = Game::new();
        g.play_text(GOLD).unwrap();
        g.play_text(SILVER).unwrap();
        let before = *g.position();
        for (bad, text) in [
            (steps("Ed2n"), "Ed2n"),           // d2 holds the camel
            (steps("Ee2e"), "Ee2e"),           // f2 is occupied
            (steps("Ee2n Ee3s"), "Ee2n Ee3s"), // back where it was
        ] {
            assert_eq!(g.play(&bad), g.clone().play_text(text), "{text}");
            assert!(g.play(&bad).is_err());
        }
        assert_eq!(g.play(&Move::new()), Err(MoveError::Empty));
        assert!(g.position().same_board(&before) && g.record().len() == 2);
        // A legal one is recorded in notation, capture tokens and all.
        assert_eq!(g.play(&steps("Ee2n Ee3n")), Ok(None));
        assert_eq!(g.record()[2].text, "Ee2n Ee3n");
    }
}
