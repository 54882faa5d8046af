//! Turn generation: every distinct end-of-turn board reachable in 1–4 steps.
//!
//! A depth-first walk over steps with two hash tables: one drops a state
//! (board, steps left, open push or pull) already expanded by another step
//! order, the other collects distinct final boards. This is what makes the
//! count exact and cheap: the same board reached by many step orders is
//! expanded and counted once. The walk is here; `commute` holds the rules
//! that let it skip step orders whose boards another order reaches.

mod commute;

use self::commute::{Commute, Last};
use crate::bitboard::Bitboard;
use crate::keytable::KeyTable;
use crate::position::{Pending, Position};
use crate::step::{Move, Step, StepList};
use crate::zobrist;

/// One legal turn: its canonical steps and the hash of the position after it.
///
/// The position itself is not stored: a root list of 50,000 turns would hold
/// 5 MB of boards, and replaying at most four steps is cheaper than the
/// memory traffic of writing them all.
#[derive(Clone, Copy, Debug)]
pub struct Turn {
    /// The steps, the shortest sequence found first in generation order.
    pub steps: Move,
    /// Hash of the position after the turn (opponent to move).
    pub hash: u64,
}

impl Turn {
    /// The position after the turn, the opponent to move at the start of its
    /// turn. `from` is the position the turn was generated from.
    #[must_use]
    pub fn result(&self, from: &Position) -> Position {
        from.after_turn(&self.steps)
    }
}

/// Reusable turn generator (its tables are kept between calls).
#[derive(Debug, Clone)]
pub struct TurnGen {
    /// The boards after the last steps of one state (at most 16 pieces times
    /// 4 steps, plus 4 pulls).
    buf: [u64; 68],
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
            buf: [0; 68],
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
        self.walk::<COLLECT>(pos, &mut path, Last::Other);
    }

    /// Walks on from `pos`, reached as `last` tells.
    fn walk<const COLLECT: bool>(&mut self, pos: &Position, path: &mut Move, last: Last) {
        if pos.steps_left() == 1 {
            self.last_steps::<COLLECT>(pos, path, Commute::at(pos, last));
            return;
        }
        let plain = !matches!(pos.pending(), Pending::Push { .. });
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let commute = Commute::at(pos, last);
        let us = pos.side();
        let threatened = if commute.calm_from.any() {
            pos.threatened(us)
        } else {
            Bitboard::EMPTY
        };
        for &step in list.as_slice() {
            let piece = step.piece();
            let skipped = plain
                && piece.color == us
                && commute.skips(piece, step.from(), step.dir(), !threatened.has(step.from()));
            let mut child = *pos;
            if skipped {
                // Inside the turn the same rule drops the child: the other order
                // reaches its board with as many steps left and the same options,
                // except the pull the child leaves open. Each such swap removes one
                // inversion of the key order, so some order is walked; here only
                // the pulls remain to be walked.
                let pullable = pos.weaker_than(us.opponent(), piece.kind) & Bitboard::around(step.from());
                if pullable.any() {
                    child.make_step(step);
                    path.push(step);
                    self.walk_pulls::<COLLECT>(&child, path, commute.near);
                    path.pop();
                }
                continue;
            }
            let quiet = child.make_step(step).captured().is_none();
            let last = match pos.pending() {
                _ if plain && piece.color == us => Last::Own(step, quiet),
                Pending::Push { .. } => path.iter().last().map_or(Last::Other, |e| Last::pair(e, step, true)),
                Pending::Pull { from: hole, .. } if step.to() == hole => {
                    path.iter().last().map_or(Last::Other, |p| Last::pair(p, step, false))
                }
                _ => Last::Other,
            };
            path.push(step);
            self.visit::<COLLECT>(&child, path, last);
            path.pop();
        }
    }

    /// Walks only the pulls open in `pos`: its other steps and its own board
    /// are reached by another step order. A pull with both squares outside
    /// `near` (the squares within 2 of the step the puller's step was moved in
    /// front of) is skipped too: that step commutes with the whole pull, and
    /// played after it, it leaves a pull open besides.
    fn walk_pulls<const COLLECT: bool>(&mut self, pos: &Position, path: &mut Move, near: Bitboard) {
        let Pending::Pull { from: hole, kind } = pos.pending() else {
            return;
        };
        let them = pos.side().opponent();
        let mut pulled = pos.weaker_than(them, kind) & Bitboard::around(hole);
        if !near.has(hole) {
            pulled &= near;
        }
        for from in pulled {
            let (Some(piece), Some(dir)) = (pos.piece_at(from), from.direction_to(hole)) else {
                continue;
            };
            let step = Step::new(piece, from, dir);
            let mut child = *pos;
            child.make_step(step);
            let last = path.iter().last().map_or(Last::Other, |p| Last::pair(p, step, false));
            path.push(step);
            self.visit::<COLLECT>(&child, path, last);
            path.pop();
        }
    }

    /// Counts the board of `child` (reached by `path`) if the turn may end
    /// there, and walks on from it unless that state was already walked.
    #[inline]
    fn visit<const COLLECT: bool>(&mut self, child: &Position, path: &mut Move, last: Last) {
        if child.can_end_turn() && !COLLECT {
            self.ends.insert_key(child.hash());
        } else if child.can_end_turn() {
            let index = self.turns.len() as u32;
            match self.ends.insert(child.hash(), index) {
                Ok(()) => self.turns.push(Turn {
                    steps: *path,
                    hash: child.hash() ^ zobrist::SIDE,
                }),
                Err(old) => {
                    let turn = &mut self.turns[old as usize];
                    if path.len() < turn.steps.len() {
                        turn.steps = *path;
                    }
                }
            }
        }
        if child.steps_left() > 0 && self.seen.insert_key(child.state_key()) {
            self.walk::<COLLECT>(child, path, last);
        }
    }

    /// The turn's last step: only the final board matters. When counting, the
    /// boards are hashed straight from the bitboards without building or playing steps.
    fn last_steps<const COLLECT: bool>(&mut self, pos: &Position, path: &mut Move, commute: Commute) {
        let start = pos.turn_start_hash();
        if !COLLECT && !matches!(pos.pending(), Pending::Push { .. }) {
            let skip = |piece, from, calm| commute.skipped_from(piece, from, calm);
            // All the boards first, their table slots asked for as they come;
            // then the inserts, which then mostly find their slots in cache.
            let buf = &mut self.buf;
            let ends = &self.ends;
            let mut n = 0;
            let dropped = |piece, threatened| commute.dropped(piece, threatened);
            pos.for_each_last_step_hash(skip, dropped, |hash| {
                ends.prefetch(hash);
                buf[n] = hash;
                n += 1;
            });
            for &hash in &self.buf[..n] {
                if hash != start {
                    self.ends.insert_key(hash);
                }
            }
            return;
        }
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let push_pending = matches!(pos.pending(), Pending::Push { .. });
        let threatened = pos.threatened(pos.side());
        for &step in list.as_slice() {
            let own = step.piece().color == pos.side();
            let calm = !threatened.has(step.from());
            if own && !push_pending && commute.skips(step.piece(), step.from(), step.dir(), calm) {
                continue;
            }
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
                path.push(step);
                self.turns.push(Turn {
                    steps: *path,
                    hash: hash ^ zobrist::SIDE,
                });
                path.pop();
            }
        }
    }
}
