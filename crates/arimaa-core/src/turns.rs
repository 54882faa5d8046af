//! Turn generation: every distinct end-of-turn board reachable in 1–4 steps.
//!
//! A depth-first walk over steps with two hash tables: one drops a state
//! (board, steps left, open push or pull) already expanded by another step
//! order, the other collects distinct final boards. This is what makes the
//! count exact and cheap: the same board reached by many step orders is
//! expanded and counted once.

use crate::keytable::KeyTable;
use crate::position::{Pending, Position};
use crate::step::{Move, StepList};

/// One legal turn: its canonical steps and the position after it (opponent to move).
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    /// The steps, the shortest sequence found first in generation order.
    pub steps: Move,
    /// The position after the turn, the opponent to move at the start of its turn.
    pub result: Position,
}

/// Reusable turn generator (its tables are kept between calls).
#[derive(Debug, Clone)]
pub struct TurnGen {
    seen: KeyTable,
    ends: KeyTable,
    turns: Vec<Turn>,
}

impl Default for TurnGen {
    fn default() -> Self {
        Self::new()
    }
}

impl TurnGen {
    /// A generator; its tables grow to fit the largest position it has seen.
    #[must_use]
    pub fn new() -> TurnGen {
        TurnGen {
            seen: KeyTable::with_capacity(1 << 10),
            ends: KeyTable::with_capacity(1 << 10),
            turns: Vec::new(),
        }
    }

    /// Number of distinct legal end-of-turn boards from `pos`, the unchanged
    /// board excluded. Game history (repetition) is not considered.
    pub fn count(&mut self, pos: &Position) -> usize {
        self.run::<false>(pos);
        self.ends.len()
    }

    /// Every distinct legal turn from `pos`, each with one canonical step sequence.
    pub fn turns(&mut self, pos: &Position) -> Vec<Turn> {
        self.run::<true>(pos);
        std::mem::take(&mut self.turns)
    }

    fn run<const COLLECT: bool>(&mut self, pos: &Position) {
        self.seen.clear();
        self.ends.clear();
        self.turns.clear();
        let mut path = Move::new();
        self.walk::<COLLECT>(pos, &mut path);
    }

    fn walk<const COLLECT: bool>(&mut self, pos: &Position, path: &mut Move) {
        if pos.steps_left() == 1 {
            self.last_steps::<COLLECT>(pos, path);
            return;
        }
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        for &step in list.as_slice() {
            let mut child = *pos;
            child.make_step(step);
            path.push(step);
            if child.can_end_turn() && !COLLECT {
                self.ends.insert_key(child.hash());
            } else if child.can_end_turn() {
                let index = self.turns.len() as u32;
                match self.ends.insert(child.hash(), index) {
                    Ok(()) => {
                        let mut result = child;
                        result.end_turn();
                        self.turns.push(Turn { steps: *path, result });
                    }
                    Err(old) => {
                        let turn = &mut self.turns[old as usize];
                        if path.len() < turn.steps.len() {
                            turn.steps = *path;
                        }
                    }
                }
            }
            if child.steps_left() > 0 && self.seen.insert_key(child.state_key()) {
                self.walk::<COLLECT>(&child, path);
            }
            path.pop();
        }
    }

    /// The turn's last step: only the final board matters. When counting, the
    /// boards are hashed straight from the bitboards without building or playing steps.
    fn last_steps<const COLLECT: bool>(&mut self, pos: &Position, path: &mut Move) {
        let start = pos.turn_start_hash();
        if !COLLECT && !matches!(pos.pending(), Pending::Push { .. }) {
            let ends = &mut self.ends;
            pos.for_each_last_step_hash(|hash| {
                if hash != start {
                    ends.insert_key(hash);
                }
            });
            return;
        }
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        for &step in list.as_slice() {
            let hash = pos.hash_after_step(step);
            if hash == start {
                continue;
            }
            if !COLLECT {
                self.ends.insert_key(hash);
                continue;
            }
            let index = self.turns.len() as u32;
            if self.ends.insert(hash, index).is_ok() {
                let mut result = *pos;
                result.make_step(step);
                result.end_turn();
                path.push(step);
                self.turns.push(Turn { steps: *path, result });
                path.pop();
            }
        }
    }
}
