//! A game from its setups (or a set position) on: the turn history, third
//! repetition, the end of the game and the move record.

use crate::error::MoveError;
use crate::notation::{format_move, format_setup, parse_move, parse_setup};
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
        let (mv, _) = parse_move(&self.position, text)?;
        self.play(&mv)
    }

    /// Places the side to move's pieces (validated by the caller through
    /// [`parse_setup`]; checked again here).
    pub fn play_setup(&mut self, placed: &[(Piece, Square)]) -> Result<(), MoveError> {
        if !self.in_setup() {
            return Err(MoveError::WrongPhase(
                "a setup was given, but the setup phase is over".into(),
            ));
        }
        let side = self.position.side();
        let checked = parse_setup(side, &format_setup(placed))?;
        let before = self.position;
        for &(p, s) in &checked {
            if self.position.occupied().has(s) {
                self.position = before;
                return Err(MoveError::WrongPhase(format!("setup square {s} is already occupied")));
            }
            self.position.put(p, s);
        }
        self.undo.push((before, None, self.result));
        self.position.end_turn();
        self.record.push(RecordedMove {
            number: self.number,
            side,
            text: format_setup(&checked),
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
            return Err(MoveError::WrongPhase("a setup is expected, not steps".into()));
        }
        // Re-check through the notation layer so that a hand-built Move gets the same scrutiny.
        let text = format_move(&self.position, mv);
        let (_, mut after) = parse_move(&self.position, &text)?;
        after.end_turn();
        if self.is_third_repetition(after.hash()) {
            return Err(MoveError::ThirdRepetition);
        }
        let side = self.position.side();
        self.undo.push((self.position, Some(after.hash()), self.result));
        self.record.push(RecordedMove {
            number: self.number,
            side,
            text,
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
