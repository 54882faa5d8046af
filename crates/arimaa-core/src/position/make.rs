//! Playing the game on a [`Position`]: one step with its trap capture, the
//! end of a turn, and taking either back.

use super::{Pending, Position};
use crate::bitboard::Bitboard;
use crate::piece::{Kind, Piece};
use crate::square::Square;
use crate::step::{Move, Step};
use crate::zobrist;

/// `NEAR_TRAPS[s]`: the traps orthogonally next to square `s`.
const NEAR_TRAPS: [Bitboard; 64] = {
    let mut out = [Bitboard::EMPTY; 64];
    let mut s = 0;
    while s < 64 {
        out[s] = Bitboard(Bitboard(1 << s).neighbors().0 & Bitboard::TRAPS.0);
        s += 1;
    }
    out
};

/// What [`Position::make_step`] needs to take a step back.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct StepUndo {
    step: Step,
    captured: Option<(Piece, Square)>,
    steps_left: u8,
    pending: Pending,
    hash: u64,
}

impl StepUndo {
    /// The piece captured by the step, and where, if any.
    #[must_use]
    pub fn captured(&self) -> Option<(Piece, Square)> {
        self.captured
    }
}

/// What [`Position::end_turn`] needs to be undone.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TurnUndo {
    steps_left: u8,
    pending: Pending,
    start_hash: u64,
}

impl Position {
    /// True when the turn may end here: at least one step taken, no push half
    /// done, and the board differs from the turn's start.
    #[inline]
    #[must_use]
    pub fn can_end_turn(&self) -> bool {
        self.steps_left < 4 && !matches!(self.pending, Pending::Push { .. }) && self.hash != self.start_hash
    }

    /// Plays one step (assumed legal: see [`Position::legal_steps`]), resolves
    /// trap captures and updates the turn state. Returns what undoes it.
    #[inline]
    pub fn make_step(&mut self, step: Step) -> StepUndo {
        let mut undo = StepUndo {
            step,
            captured: None,
            steps_left: self.steps_left,
            pending: self.pending,
            hash: self.hash,
        };
        let piece = step.piece();
        let (from, to) = (step.from(), step.to());
        let captured = self.capture_at(piece, from, to);
        let moved = Bitboard::from_square(from) | Bitboard::from_square(to);
        self.kinds[piece.kind.index()] ^= moved;
        self.colors[piece.color.index()] ^= moved;
        self.hash ^= zobrist::piece(piece.index(), from.index()) ^ zobrist::piece(piece.index(), to.index());
        if let Some((victim, trap)) = captured {
            self.toggle(victim, trap);
            undo.captured = captured;
        }
        self.steps_left -= 1;
        self.pending = if piece.color == self.side {
            match self.pending {
                Pending::Push { to: hole, .. } if hole == to => Pending::None,
                // Only remember the square when a pull into it is possible: states
                // that differ in nothing else then share one table entry.
                // Most steps leave no enemy next to the square: skip the kind scan.
                _ if (self.colors[piece.color.opponent().index()] & Bitboard::around(from)).is_empty() => Pending::None,
                _ if (self.weaker_than(piece.color.opponent(), piece.kind) & Bitboard::around(from)).any() => {
                    Pending::Pull { from, kind: piece.kind }
                }
                _ => Pending::None,
            }
        } else {
            match self.pending {
                Pending::Pull { from: hole, kind } if hole == to && piece.kind < kind => Pending::None,
                _ => Pending::Push {
                    to: from,
                    kind: piece.kind,
                },
            }
        };
        undo
    }

    /// The board hash after `step`, captures included, without playing it: the
    /// last step of a turn only needs this to tell its end boards apart.
    #[inline]
    #[must_use]
    pub fn hash_after_step(&self, step: Step) -> u64 {
        let piece = step.piece();
        let (from, to) = (step.from(), step.to());
        self.hash
            ^ zobrist::piece(piece.index(), from.index())
            ^ zobrist::piece(piece.index(), to.index())
            ^ self.capture_key(piece, from, to)
    }

    /// The piece that `step` would capture, and where, without playing it.
    #[inline]
    #[must_use]
    pub fn capture_of(&self, step: Step) -> Option<(Piece, Square)> {
        self.capture_at(step.piece(), step.from(), step.to())
    }

    /// The Zobrist key of what `piece` moving `from` -> `to` captures (0 for nothing).
    #[inline]
    pub(crate) fn capture_key(&self, piece: Piece, from: Square, to: Square) -> u64 {
        self.capture_at(piece, from, to)
            .map_or(0, |(p, sq)| zobrist::piece(p.index(), sq.index()))
    }

    #[inline]
    fn capture_at(&self, piece: Piece, from: Square, to: Square) -> Option<(Piece, Square)> {
        let to_bb = Bitboard::from_square(to);
        let own = self.colors[piece.color.index()] ^ Bitboard::from_square(from) ^ to_bb;
        // Only a trap next to the old square, or the new square itself, can lose
        // its guard, and only for the moving colour: at most one capture.
        let candidates = (NEAR_TRAPS[from.index()] | (to_bb & Bitboard::TRAPS)) & own;
        for trap in candidates {
            if (Bitboard::around(trap) & own).is_empty() {
                let kind = if trap == to {
                    piece.kind
                } else {
                    self.kind_at(trap).unwrap_or(Kind::Rabbit)
                };
                return Some((Piece::new(piece.color, kind), trap));
            }
        }
        None
    }

    /// Takes back the step that returned `undo`.
    #[inline]
    pub fn unmake_step(&mut self, undo: StepUndo) {
        if let Some((victim, sq)) = undo.captured {
            self.toggle(victim, sq);
        }
        let piece = undo.step.piece();
        let moved = Bitboard::from_square(undo.step.from()) | Bitboard::from_square(undo.step.to());
        self.kinds[piece.kind.index()] ^= moved;
        self.colors[piece.color.index()] ^= moved;
        self.hash = undo.hash;
        self.steps_left = undo.steps_left;
        self.pending = undo.pending;
    }

    /// Ends the turn: the other side moves next with 4 steps.
    #[inline]
    pub fn end_turn(&mut self) -> TurnUndo {
        let undo = TurnUndo {
            steps_left: self.steps_left,
            pending: self.pending,
            start_hash: self.start_hash,
        };
        self.side = self.side.opponent();
        self.hash ^= zobrist::SIDE;
        self.steps_left = 4;
        self.pending = Pending::None;
        self.start_hash = self.hash;
        undo
    }

    /// The position after playing `steps` from here and ending the turn.
    /// `steps` must be legal from here (a generated or parsed move).
    #[must_use]
    pub fn after_turn(&self, steps: &Move) -> Position {
        let mut pos = *self;
        for step in steps.iter() {
            pos.make_step(step);
        }
        pos.end_turn();
        pos
    }

    /// Takes back [`Position::end_turn`].
    #[inline]
    pub fn unmake_end_turn(&mut self, undo: TurnUndo) {
        self.side = self.side.opponent();
        self.hash ^= zobrist::SIDE;
        self.steps_left = undo.steps_left;
        self.pending = undo.pending;
        self.start_hash = undo.start_hash;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::piece::Color;
    use crate::square::Direction;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn stepping_onto_an_unguarded_trap_captures_and_unmake_restores() {
        let mut p = Position::empty(Color::Gold);
        let d = Piece::new(Color::Gold, Kind::Dog);
        p.put(d, sq("c4"));
        let before = p;
        let undo = p.make_step(Step::new(d, sq("c4"), Direction::South));
        assert_eq!(undo.captured(), Some((d, sq("c3"))));
        assert!(p.occupied().is_empty());
        assert_eq!(p.hash(), p.hash_from_scratch());
        p.unmake_step(undo);
        assert!(p == before);
    }

    #[test]
    fn leaving_a_trap_guard_captures_the_friend_on_it() {
        let mut p = Position::empty(Color::Gold);
        let c = Piece::new(Color::Gold, Kind::Cat);
        let r = Piece::new(Color::Gold, Kind::Rabbit);
        p.put(c, sq("f3"));
        p.put(r, sq("f4"));
        p.put(Piece::new(Color::Silver, Kind::Elephant), sq("g3"));
        let undo = p.make_step(Step::new(r, sq("f4"), Direction::North));
        assert_eq!(undo.captured(), Some((c, sq("f3"))));
        assert!(p.kind_at(sq("f3")).is_none());
    }
}
