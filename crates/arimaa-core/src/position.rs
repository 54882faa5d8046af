//! The position: bitboards, side to move, the state of the turn in progress,
//! step make/unmake with trap captures, and the incremental Zobrist hash.

use crate::bitboard::Bitboard;
use crate::piece::{Color, Kind, Piece};
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
    use crate::square::Direction;

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
