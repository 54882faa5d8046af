//! Steps (one piece moving one square) and moves (the 1–4 steps of a turn).

use crate::piece::{Color, Kind, Piece};
use crate::square::{Direction, Square};
use std::fmt;

/// One piece moving one square, packed in 16 bits: from (6), direction (2), piece (4).
/// The piece is part of the step so that notation needs no board and so that a
/// stale step (from a table or a killer slot) can be checked cheaply.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Step(u16);

const DELTA: [i8; 4] = [8, -8, 1, -1];

impl Step {
    /// `piece` steps from `from` in `dir`. The caller guarantees the target is on the board.
    #[inline]
    #[must_use]
    pub const fn new(piece: Piece, from: Square, dir: Direction) -> Step {
        Step(from.index() as u16 | (dir.index() as u16) << 6 | (piece.index() as u16) << 8)
    }

    /// The step of `piece` from `from` to the adjacent `to`, if they are adjacent.
    #[must_use]
    pub fn between(piece: Piece, from: Square, to: Square) -> Option<Step> {
        from.direction_to(to).map(|d| Step::new(piece, from, d))
    }

    /// The square the piece leaves.
    #[inline]
    #[must_use]
    pub const fn from(self) -> Square {
        Square::from_index_unchecked((self.0 & 63) as u8)
    }

    /// The direction.
    #[inline]
    #[must_use]
    pub const fn dir(self) -> Direction {
        Direction::from_index(((self.0 >> 6) & 3) as usize)
    }

    /// The square the piece arrives on.
    #[inline]
    #[must_use]
    pub const fn to(self) -> Square {
        Square::from_index_unchecked((self.from().index() as i8 + DELTA[self.dir().index()]) as u8)
    }

    /// The moving piece.
    #[inline]
    #[must_use]
    pub const fn piece(self) -> Piece {
        // A table rather than a division by 6: this runs for every step played.
        const PIECES: [Piece; 16] = {
            let mut out = [Piece::new(Color::Gold, Kind::Rabbit); 16];
            let mut i = 0;
            while i < 12 {
                let color = if i >= 6 { Color::Silver } else { Color::Gold };
                out[i] = Piece::new(color, Kind::from_index(i % 6));
                i += 1;
            }
            out
        };
        PIECES[(self.0 >> 8) as usize & 15]
    }

    /// The packed form (stable: usable as an index into history tables).
    #[inline]
    #[must_use]
    pub const fn bits(self) -> u16 {
        self.0
    }

    /// The step packed as `bits` (see [`Step::bits`]), if those bits describe a
    /// step that stays on the board: for steps read back from a table.
    #[must_use]
    pub fn from_bits(bits: u16) -> Option<Step> {
        let from = Square::from_index((bits & 63) as u8)?;
        let dir = Direction::from_index(((bits >> 6) & 3) as usize);
        let piece = (bits >> 8) as usize;
        if piece >= 12 || from.step(dir).is_none() {
            return None;
        }
        Some(Step(bits))
    }

    /// The same step on the colour-swapped, north-south flipped board.
    #[must_use]
    pub const fn mirror(self) -> Step {
        let p = self.piece();
        Step::new(
            Piece::new(p.color.opponent(), p.kind),
            self.from().flip_rank(),
            self.dir().flip_rank(),
        )
    }
}

impl fmt::Display for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}{}", self.piece(), self.from(), self.dir().letter())
    }
}

impl fmt::Debug for Step {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The steps of one turn: 1 to 4, in order.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
pub struct Move {
    steps: [Option<Step>; 4],
    len: u8,
}

impl Move {
    /// The empty move (no steps yet).
    #[must_use]
    pub const fn new() -> Move {
        Move {
            steps: [None; 4],
            len: 0,
        }
    }

    /// Appends a step. Returns false (and changes nothing) when 4 steps are already there.
    pub fn push(&mut self, step: Step) -> bool {
        if self.len >= 4 {
            return false;
        }
        self.steps[self.len as usize] = Some(step);
        self.len += 1;
        true
    }

    /// Removes the last step.
    pub fn pop(&mut self) -> Option<Step> {
        if self.len == 0 {
            return None;
        }
        self.len -= 1;
        self.steps[self.len as usize].take()
    }

    /// Number of steps.
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len as usize
    }

    /// True when there is no step.
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The steps in order.
    pub fn iter(&self) -> impl Iterator<Item = Step> + '_ {
        self.steps[..self.len as usize].iter().flatten().copied()
    }

    /// The steps as a vector.
    #[must_use]
    pub fn to_vec(&self) -> Vec<Step> {
        self.iter().collect()
    }
}

impl fmt::Debug for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let v: Vec<String> = self.iter().map(|s| s.to_string()).collect();
        write!(f, "Move({})", v.join(" "))
    }
}

/// A fixed-capacity list of steps, filled by the step generator without allocating.
#[derive(Clone)]
pub struct StepList {
    steps: [Step; StepList::CAPACITY],
    len: usize,
}

impl StepList {
    /// More than any position can produce: 16 pieces × 4 single steps plus
    /// 16 victims × 3 push targets plus 4 pulls.
    pub const CAPACITY: usize = 128;

    /// An empty list.
    #[must_use]
    pub const fn new() -> StepList {
        StepList {
            steps: [Step(0); Self::CAPACITY],
            len: 0,
        }
    }

    /// Appends a step.
    #[inline]
    pub fn push(&mut self, s: Step) {
        debug_assert!(self.len < Self::CAPACITY);
        self.steps[self.len] = s;
        self.len += 1;
    }

    /// Empties the list.
    #[inline]
    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Number of steps.
    #[inline]
    #[must_use]
    pub const fn len(&self) -> usize {
        self.len
    }

    /// True when empty.
    #[inline]
    #[must_use]
    pub const fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// The steps as a slice.
    #[inline]
    #[must_use]
    pub fn as_slice(&self) -> &[Step] {
        &self.steps[..self.len]
    }

    /// True when `s` is in the list.
    #[must_use]
    pub fn contains(&self, s: Step) -> bool {
        self.as_slice().contains(&s)
    }
}

impl Default for StepList {
    fn default() -> Self {
        Self::new()
    }
}

impl fmt::Debug for StepList {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_list().entries(self.as_slice()).finish()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn packing_round_trips() {
        for i in 0..64u8 {
            let from = Square::from_index(i).unwrap();
            for dir in Direction::ALL {
                let Some(to) = from.step(dir) else { continue };
                for color in Color::ALL {
                    for kind in Kind::ALL {
                        let p = Piece::new(color, kind);
                        let s = Step::new(p, from, dir);
                        assert_eq!((s.piece(), s.from(), s.dir(), s.to()), (p, from, dir, to));
                        assert_eq!(s.mirror().mirror(), s);
                        assert_eq!(Step::from_bits(s.bits()), Some(s));
                    }
                }
            }
        }
    }

    #[test]
    fn from_bits_refuses_steps_off_the_board() {
        // a1 west, and a piece index of 12.
        assert_eq!(Step::from_bits(3 << 6), None);
        assert_eq!(Step::from_bits(12 << 8 | 9), None);
    }

    #[test]
    fn move_holds_at_most_four() {
        let s = Step::new(
            Piece::new(Color::Gold, Kind::Elephant),
            Square::new(3, 1),
            Direction::North,
        );
        let mut m = Move::new();
        for _ in 0..4 {
            assert!(m.push(s));
        }
        assert!(!m.push(s));
        assert_eq!(m.len(), 4);
        assert_eq!(m.pop(), Some(s));
        assert_eq!(m.len(), 3);
    }
}
