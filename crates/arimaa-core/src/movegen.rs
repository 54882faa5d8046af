//! Legal single steps: plain steps, both halves of pushes, and pulls.

use crate::bitboard::Bitboard;
use crate::piece::{Color, Kind, Piece};
use crate::position::{Pending, Position};
use crate::square::{Direction, Square};
use crate::step::{Step, StepList};
use crate::zobrist;

/// The direction a rabbit of `color` may not step in by itself.
#[inline]
const fn rabbit_backward(color: Color) -> Direction {
    match color {
        Color::Gold => Direction::South,
        Color::Silver => Direction::North,
    }
}

impl Position {
    /// Appends every legal next step of the turn in progress to `out`.
    ///
    /// After the first half of a push only its completions are legal. Otherwise:
    /// plain steps of unfrozen own pieces, pulls into the square the previous own
    /// step left, and first halves of pushes when at least two steps remain. A
    /// push half that lands where a pull could go is left out: the pull reaches
    /// the same board with more freedom afterwards.
    pub fn legal_steps(&self, out: &mut StepList) {
        if self.steps_left() == 0 {
            return;
        }
        if matches!(self.pending(), Pending::Push { .. }) {
            self.push_completions().for_each(|step| out.push(step));
            return;
        }
        let us = self.side();
        let them = us.opponent();
        let own = self.color_bb(us);
        let empty = self.empty_squares();
        let movable = own & !self.frozen(us);

        self.plain_steps(us, movable, empty, out);

        let mut pulled = Bitboard::EMPTY;
        let mut pull_hole = Bitboard::EMPTY;
        if let Pending::Pull {
            from: hole,
            kind: puller,
        } = self.pending()
        {
            pull_hole = Bitboard::from_square(hole);
            pulled = self.weaker_than(them, puller) & pull_hole.neighbors();
            for from in pulled {
                if let (Some(p), Some(step_dir)) = (self.piece_at(from), from.direction_to(hole)) {
                    out.push(Step::new(p, from, step_dir));
                }
            }
        }

        if self.steps_left() >= 2 {
            self.push_first_halves(us, movable, empty, pulled, pull_hole, out);
        }
    }

    /// The steps that finish the open push: each unfrozen own piece
    /// stronger than the pushed one, next to the square it left, stepping
    /// in (at most three; none when no push is open). Every caller that
    /// completes a push (the turn generator, the search's push units)
    /// takes them from here, in this order.
    pub fn push_completions(&self) -> impl Iterator<Item = Step> + '_ {
        let open = match self.pending() {
            Pending::Push { to, kind } if self.steps_left() > 0 => Some((to, kind)),
            _ => None,
        };
        open.into_iter().flat_map(move |(to, pushed)| {
            let us = self.side();
            let near = Bitboard::from_square(to).neighbors() & self.color_bb(us) & !self.frozen(us);
            (pushed.index() + 1..6).flat_map(move |k| {
                let piece = Piece::new(us, Kind::from_index(k));
                (self.kind_bb(piece.kind) & near)
                    .into_iter()
                    .filter_map(move |from| Step::between(piece, from, to))
            })
        })
    }

    fn plain_steps(&self, us: Color, movable: Bitboard, empty: Bitboard, out: &mut StepList) {
        for kind in Kind::ALL {
            let movers = self.kind_bb(kind) & movable;
            if movers.is_empty() {
                continue;
            }
            let piece = Piece::new(us, kind);
            for dir in Direction::ALL {
                if kind == Kind::Rabbit && dir == rabbit_backward(us) {
                    continue;
                }
                let back = dir.opposite();
                for to in movers.shift(dir) & empty {
                    out.push(Step::new(piece, to.step_unchecked(back), dir));
                }
            }
        }
    }

    fn push_first_halves(
        &self,
        us: Color,
        movable: Bitboard,
        empty: Bitboard,
        pulled: Bitboard,
        pull_hole: Bitboard,
        out: &mut StepList,
    ) {
        let them = us.opponent();
        let enemy = self.color_bb(them);
        // Pushers stronger than the victim kind, built from the elephant down.
        let mut pushers = Bitboard::EMPTY;
        for k in (0..5).rev() {
            pushers |= self.kind_bb(Kind::from_index(k + 1)) & movable;
            let kind = Kind::from_index(k);
            let victims = self.kind_bb(kind) & enemy & pushers.neighbors() & empty.neighbors();
            for from in victims {
                let mut targets = Bitboard::around(from) & empty;
                if pulled.has(from) {
                    targets &= !pull_hole;
                }
                let piece = Piece::new(them, kind);
                for to in targets {
                    if let Some(step) = Step::between(piece, from, to) {
                        out.push(step);
                    }
                }
            }
        }
    }

    /// For the last step of a turn (no push can start, none is half done): calls
    /// `f` with the board hash after each legal step, without building steps or
    /// playing them. Plain own steps of the piece on `from` arriving on
    /// `skip(piece, from, calm)` are left out, `calm` telling that no stronger
    /// enemy stands next to the piece. Piece by piece, so that the hash of
    /// a piece leaving its square is computed once for its up to four steps.
    pub(crate) fn for_each_last_step_hash(
        &self,
        skip: impl Fn(Piece, Square, bool) -> Bitboard,
        dropped: impl Fn(Piece, Bitboard) -> Bitboard,
        mut f: impl FnMut(u64),
    ) {
        debug_assert!(!matches!(self.pending(), Pending::Push { .. }));
        let us = self.side();
        let them = us.opponent();
        let own = self.color_bb(us);
        let enemy = self.color_bb(them);
        let lonely = own & !own.neighbors();
        let empty = self.empty_squares();
        let hash = self.hash();
        // Pieces with no empty square next to them have no step to try.
        let mobile = own & empty.neighbors();
        // Own pieces on traps with exactly one guard: that guard leaving captures them.
        let mut sole_guards = Bitboard::EMPTY;
        for trap in own & Bitboard::TRAPS {
            let guards = Bitboard::around(trap) & own;
            if guards.0.count_ones() == 1 {
                sole_guards |= guards;
            }
        }
        let back = rabbit_backward(us);
        // From the elephant down, so the enemies stronger than each kind
        // accumulate: freezing is worked out here rather than by `frozen`.
        let mut stronger = Bitboard::EMPTY;
        let near_enemy = own & enemy.neighbors();
        for kind in Kind::ALL.into_iter().rev() {
            let pieces = self.kind_bb(kind) & own;
            let mut threatened = Bitboard::EMPTY;
            if (pieces & near_enemy).any() {
                threatened = pieces & stronger.neighbors();
            }
            stronger |= self.kind_bb(kind) & enemy;
            let piece = Piece::new(us, kind);
            let index = piece.index();
            for from in pieces & mobile & !(threatened & lonely) & !dropped(piece, threatened) {
                let from_bb = Bitboard::from_square(from);
                let mut targets = Bitboard::around(from) & empty & !skip(piece, from, !threatened.has(from));
                if kind == Kind::Rabbit {
                    targets &= !from_bb.shift(back);
                }
                let mut base = hash ^ zobrist::piece(index, from.index());
                if sole_guards.has(from) {
                    for trap in Bitboard::around(from) & Bitboard::TRAPS & own {
                        if Bitboard::around(trap) & own == from_bb {
                            let kind = self.kind_at(trap).unwrap_or(Kind::Rabbit);
                            base ^= zobrist::piece(Piece::new(us, kind).index(), trap.index());
                        }
                    }
                }
                let guards = own ^ from_bb;
                for to in targets {
                    let mut h = base;
                    // A piece stepping onto a trap with no friend next to it is gone.
                    if !(Bitboard::from_square(to) & Bitboard::TRAPS).any() || (Bitboard::around(to) & guards).any() {
                        h ^= zobrist::piece(index, to.index());
                    }
                    f(h);
                }
            }
        }
        if let Pending::Pull {
            from: hole,
            kind: puller,
        } = self.pending()
        {
            for from in self.weaker_than(them, puller) & Bitboard::around(hole) {
                let Some(kind) = self.kind_at(from) else { continue };
                let piece = Piece::new(them, kind);
                f(hash
                    ^ zobrist::piece(piece.index(), from.index())
                    ^ zobrist::piece(piece.index(), hole.index())
                    ^ self.capture_key(piece, from, hole));
            }
        }
    }

    /// Every legal next step, as a new list.
    #[must_use]
    pub fn legal_step_list(&self) -> StepList {
        let mut list = StepList::new();
        self.legal_steps(&mut list);
        list
    }
}
