//! The position: bitboards, side to move, the state of the turn in progress,
//! step make/unmake with trap captures, and the incremental Zobrist hash.
//!
//! This file holds the state and what reads it; `make` plays and takes back
//! steps and turns.

mod make;

pub use make::{StepUndo, TurnUndo};

use crate::bitboard::Bitboard;
use crate::piece::{Color, Kind, Piece};
use crate::square::Square;
use crate::zobrist;

/// What the previous step of this turn leaves open.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Pending {
    /// Nothing: the turn just started, or the last step closed a push or a pull.
    None,
    /// An own piece of `kind` just left `from` and a weaker enemy next to `from`
    /// may be pulled in (without such an enemy the state is `None`).
    Pull {
        /// The square the puller left.
        from: Square,
        /// The puller's kind.
        kind: Kind,
    },
    /// An enemy piece of `kind` was just pushed off `to`: a stronger own piece next
    /// to `to` must step into it now.
    Push {
        /// The square the pusher must fill.
        to: Square,
        /// The pushed piece's kind.
        kind: Kind,
    },
}

/// A position in the middle of a game: the board, whose turn it is, how many
/// steps are left in that turn and what the previous step leaves open.
#[derive(Copy, Clone, PartialEq, Eq)]
pub struct Position {
    kinds: [Bitboard; 6],
    colors: [Bitboard; 2],
    side: Color,
    steps_left: u8,
    pending: Pending,
    hash: u64,
    start_hash: u64,
}

impl Position {
    /// An empty board with `side` to move at the start of its turn.
    #[must_use]
    pub fn empty(side: Color) -> Position {
        let hash = if side == Color::Silver { zobrist::SIDE } else { 0 };
        Position {
            kinds: [Bitboard::EMPTY; 6],
            colors: [Bitboard::EMPTY; 2],
            side,
            steps_left: 4,
            pending: Pending::None,
            hash,
            start_hash: hash,
        }
    }

    /// The standard opening used by the fixtures and benchmarks (gold to move,
    /// rabbits on the back ranks, elephants on e2/e7).
    #[must_use]
    pub fn standard() -> Position {
        let mut p = Position::empty(Color::Gold);
        let back = "HDCMECDH";
        for (file, c) in back.chars().enumerate() {
            let f = file as u8;
            let gold = Piece::from_letter(c).unwrap_or(Piece::new(Color::Gold, Kind::Rabbit));
            p.put(gold, Square::new(f, 1));
            p.put(Piece::new(Color::Silver, gold.kind), Square::new(f, 6));
            p.put(Piece::new(Color::Gold, Kind::Rabbit), Square::new(f, 0));
            p.put(Piece::new(Color::Silver, Kind::Rabbit), Square::new(f, 7));
        }
        p.start_hash = p.hash;
        p
    }

    /// Places a piece on an empty square (board editing, not a game step).
    pub fn put(&mut self, piece: Piece, sq: Square) {
        debug_assert!(!self.occupied().has(sq));
        self.toggle(piece, sq);
        self.start_hash = self.hash;
    }

    /// Removes whatever stands on `sq` (board editing, not a game step).
    pub fn clear_square(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.piece_at(sq)?;
        self.toggle(piece, sq);
        self.start_hash = self.hash;
        Some(piece)
    }

    #[inline]
    fn toggle(&mut self, piece: Piece, sq: Square) {
        let b = Bitboard::from_square(sq);
        self.kinds[piece.kind.index()] ^= b;
        self.colors[piece.color.index()] ^= b;
        self.hash ^= zobrist::piece(piece.index(), sq.index());
    }

    /// The side whose turn it is.
    #[inline]
    #[must_use]
    pub const fn side(&self) -> Color {
        self.side
    }

    /// Steps left in the current turn (4 at its start).
    #[inline]
    #[must_use]
    pub const fn steps_left(&self) -> u8 {
        self.steps_left
    }

    /// What the previous step leaves open.
    #[inline]
    #[must_use]
    pub const fn pending(&self) -> Pending {
        self.pending
    }

    /// True at the start of a turn.
    #[inline]
    #[must_use]
    pub const fn at_turn_start(&self) -> bool {
        self.steps_left == 4
    }

    /// Hash of the board and the side to move: equal for positions that count as
    /// the same for repetition.
    #[inline]
    #[must_use]
    pub const fn hash(&self) -> u64 {
        self.hash
    }

    /// Hash of everything that decides the rest of the turn: board, side, steps
    /// left and the open push or pull. Keys for tables inside a turn use this.
    #[inline]
    #[must_use]
    pub fn state_key(&self) -> u64 {
        let pending = match self.pending {
            Pending::None => 0,
            Pending::Pull { from, kind } => zobrist::PULL[kind.index() * 64 + from.index()],
            Pending::Push { to, kind } => zobrist::PUSH[kind.index() * 64 + to.index()],
        };
        self.hash ^ zobrist::STEPS[self.steps_left as usize] ^ pending
    }

    /// The board hash at the start of the current turn.
    #[inline]
    #[must_use]
    pub const fn turn_start_hash(&self) -> u64 {
        self.start_hash
    }

    /// The hash computed from nothing; equals [`Position::hash`] when the incremental updates are right.
    #[must_use]
    pub fn hash_from_scratch(&self) -> u64 {
        let mut h = if self.side == Color::Silver { zobrist::SIDE } else { 0 };
        for color in Color::ALL {
            for kind in Kind::ALL {
                let p = Piece::new(color, kind);
                for sq in self.bitboard(p) {
                    h ^= zobrist::piece(p.index(), sq.index());
                }
            }
        }
        h
    }

    /// Squares of one piece kind, both colours.
    #[inline]
    pub const fn kind_bb(&self, kind: Kind) -> Bitboard {
        self.kinds[kind.index()]
    }

    /// Squares of one colour.
    #[inline]
    pub const fn color_bb(&self, color: Color) -> Bitboard {
        self.colors[color.index()]
    }

    /// Squares of one piece.
    #[inline]
    pub const fn bitboard(&self, piece: Piece) -> Bitboard {
        Bitboard(self.kinds[piece.kind.index()].0 & self.colors[piece.color.index()].0)
    }

    /// Occupied squares.
    #[inline]
    pub const fn occupied(&self) -> Bitboard {
        Bitboard(self.colors[0].0 | self.colors[1].0)
    }

    /// Empty squares.
    #[inline]
    pub const fn empty_squares(&self) -> Bitboard {
        Bitboard(!(self.colors[0].0 | self.colors[1].0))
    }

    /// Pieces of `color` stronger than `kind`.
    #[inline]
    pub fn stronger_than(&self, color: Color, kind: Kind) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for k in &self.kinds[kind.index() + 1..] {
            b |= *k;
        }
        b & self.colors[color.index()]
    }

    /// Pieces of `color` weaker than `kind`.
    #[inline]
    pub fn weaker_than(&self, color: Color, kind: Kind) -> Bitboard {
        let mut b = Bitboard::EMPTY;
        for k in &self.kinds[..kind.index()] {
            b |= *k;
        }
        b & self.colors[color.index()]
    }

    /// The kind standing on `sq`, if any.
    #[inline]
    #[must_use]
    pub fn kind_at(&self, sq: Square) -> Option<Kind> {
        Kind::ALL.into_iter().find(|k| self.kinds[k.index()].has(sq))
    }

    /// The piece standing on `sq`, if any.
    #[inline]
    #[must_use]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        let color = if self.colors[0].has(sq) {
            Color::Gold
        } else if self.colors[1].has(sq) {
            Color::Silver
        } else {
            return None;
        };
        self.kind_at(sq).map(|k| Piece::new(color, k))
    }

    /// Pieces of `color` that are frozen: next to a stronger enemy and to no friend.
    pub fn frozen(&self, color: Color) -> Bitboard {
        let own = self.colors[color.index()];
        // Only pieces without a friend next to them can be frozen; usually few.
        let lonely = own & !own.neighbors();
        if lonely.is_empty() {
            return Bitboard::EMPTY;
        }
        self.next_to_stronger(color, lonely)
    }

    /// Pieces of `color` next to a stronger enemy: frozen unless a friend is next to them.
    pub fn threatened(&self, color: Color) -> Bitboard {
        self.next_to_stronger(color, self.colors[color.index()])
    }

    /// The squares of `among` (pieces of `color`) next to a stronger enemy.
    fn next_to_stronger(&self, color: Color, among: Bitboard) -> Bitboard {
        let enemy = self.colors[color.opponent().index()];
        let mut stronger = Bitboard::EMPTY;
        let mut out = Bitboard::EMPTY;
        for k in (0..5).rev() {
            stronger |= self.kinds[k + 1] & enemy;
            let mine = self.kinds[k] & among;
            if mine.any() {
                out |= mine & stronger.neighbors();
            }
        }
        out
    }

    /// The same position with colours swapped and the board flipped north-south:
    /// every rule treats it the same way.
    #[must_use]
    pub fn mirror(&self) -> Position {
        let mut m = Position::empty(self.side.opponent());
        for sq in self.occupied() {
            if let Some(p) = self.piece_at(sq) {
                m.put(Piece::new(p.color.opponent(), p.kind), sq.flip_rank());
            }
        }
        m.steps_left = self.steps_left;
        m.pending = match self.pending {
            Pending::None => Pending::None,
            Pending::Pull { from, kind } => Pending::Pull {
                from: from.flip_rank(),
                kind,
            },
            Pending::Push { to, kind } => Pending::Push {
                to: to.flip_rank(),
                kind,
            },
        };
        m
    }

    /// True when the boards (pieces only) are equal.
    #[must_use]
    pub fn same_board(&self, other: &Position) -> bool {
        self.kinds == other.kinds && self.colors == other.colors
    }

    /// Number of pieces of `piece`.
    #[must_use]
    pub fn count(&self, piece: Piece) -> u32 {
        self.bitboard(piece).count()
    }
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(
            f,
            "Position({} steps_left={} {:?})",
            crate::notation::board_to_aei(self),
            self.steps_left,
            self.pending
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sq(s: &str) -> Square {
        Square::parse(s).unwrap()
    }

    #[test]
    fn standard_position_hash_is_consistent() {
        let p = Position::standard();
        assert_eq!(p.hash(), p.hash_from_scratch());
        assert_eq!(p.occupied().count(), 32);
        assert_eq!(p.frozen(Color::Gold), Bitboard::EMPTY);
    }

    #[test]
    fn lone_piece_next_to_stronger_enemy_is_frozen() {
        let mut p = Position::empty(Color::Gold);
        p.put(Piece::new(Color::Gold, Kind::Dog), sq("d4"));
        p.put(Piece::new(Color::Silver, Kind::Horse), sq("d5"));
        assert!(p.frozen(Color::Gold).has(sq("d4")));
        assert!(p.frozen(Color::Silver).is_empty());
        // A friend anywhere around unfreezes it.
        p.put(Piece::new(Color::Gold, Kind::Rabbit), sq("c4"));
        assert!(p.frozen(Color::Gold).is_empty());
    }

    #[test]
    fn equal_strength_does_not_freeze() {
        let mut p = Position::empty(Color::Gold);
        p.put(Piece::new(Color::Gold, Kind::Dog), sq("d4"));
        p.put(Piece::new(Color::Silver, Kind::Dog), sq("d5"));
        assert!(p.frozen(Color::Gold).is_empty());
        assert!(p.frozen(Color::Silver).is_empty());
    }
}
