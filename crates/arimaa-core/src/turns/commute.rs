//! Which steps of a turn the generator may skip because another step order
//! reaching the same board is walked anyway (see [`Commute`]), and the
//! square tables those rules read.

use crate::bitboard::Bitboard;
use crate::piece::Piece;
use crate::position::Position;
use crate::square::{Direction, Square};
use crate::step::Step;

/// `NEAR[s]`: the squares within Manhattan distance 2 of `s`.
const NEAR: [Bitboard; 64] = {
    let mut out = [Bitboard::EMPTY; 64];
    let mut s = 0;
    while s < 64 {
        let one = Bitboard(1 << s).neighbors().0 | (1 << s);
        out[s] = Bitboard(Bitboard(one).neighbors().0 | one);
        s += 1;
    }
    out
};

/// `NEAR3[s]`: the squares within Manhattan distance 3 of `s`.
const NEAR3: [Bitboard; 64] = {
    let mut out = [Bitboard::EMPTY; 64];
    let mut s = 0;
    while s < 64 {
        out[s] = Bitboard(NEAR[s].neighbors().0 | NEAR[s].0);
        s += 1;
    }
    out
};

/// The traps and the squares next to them.
const TRAP_SIDES: Bitboard = Bitboard(Bitboard::TRAPS.neighbors().0 | Bitboard::TRAPS.0);

/// How the state being walked was reached, as far as [`Commute`] cares.
#[derive(Clone, Copy)]
pub(super) enum Last {
    /// The root, or a step after which no step is skipped.
    Other,
    /// A plain own step, and whether it captured nothing.
    Own(Step, bool),
    /// A push or a pull, just completed: the squares within 2 of its three
    /// squares, those within 3, and the key an own step must be below to be
    /// moved in front of it (a push starts with an enemy step, which every own
    /// step precedes in the order used here).
    Pair { near: Bitboard, near3: Bitboard, key: u16 },
}

impl Last {
    /// The push or pull completed by `step`, `before` the step just before it.
    pub(super) fn pair(before: Step, step: Step, push: bool) -> Last {
        let squares = [before.from(), before.to(), step.from(), step.to()];
        let mut near = Bitboard::EMPTY;
        let mut near3 = Bitboard::EMPTY;
        for sq in squares {
            near |= NEAR[sq.index()];
            near3 |= NEAR3[sq.index()];
        }
        let key = if push { u16::MAX } else { before.bits() };
        Last::Pair { near, near3, key }
    }
}

/// Decides which steps of a turn can be skipped because another step order
/// reaching the same board is walked anyway.
///
/// Two plain own steps whose squares are 3 or more apart commute: neither
/// changes what the other may do or capture, so playing them in either order
/// ends on the same board. Nearer ones commute when no capture or freezing
/// can come into play (see [`Commute::at`]). When a state was first reached by
/// the plain own step `a`, a last step `b` commuting with `a` with a smaller
/// key is skipped: the board is also `(state before a) + b + a`. That state is
/// walked from the same parent, and if `a` is skipped there too, it is because
/// of a third step with a still larger key; the keys rise along the chain, so
/// some order is counted. Inside the turn the same rule drops children, and
/// walks only the pull a dropped child leaves open (see `TurnGen::walk`).
///
/// `a`'s piece stepping straight back, when `a` captured nothing, returns to
/// the board before `a` (counted already) with fewer steps left: it is
/// dropped like a commuting step. After a push or a pull, an own step 3 or
/// more squares from all of its squares commutes with the pair: it is skipped
/// when it could go first, i.e. always after a push (steps are ordered own
/// before enemy, then by key) and below the puller's key after a pull. Every
/// rule turns a path into a shorter one or one smaller in that order, so the
/// smallest path to each board is never skipped.
#[derive(Clone, Copy)]
pub(super) struct Commute {
    pub(super) near: Bitboard,
    key: u16,
    /// Own pieces whose steps into `calm_to` commute with `a` at any distance.
    pub(super) calm_from: Bitboard,
    calm_to: Bitboard,
    /// Squares 4 or more from `a`'s squares.
    far: Bitboard,
    /// Calm squares none of whose neighbours is a trap or `a`'s old square.
    calm_drop: Bitboard,
    /// `a`'s new square, and where its piece's steps from there are skipped:
    /// straight back when `a` captured nothing, the far corner of a detour.
    a_at: Bitboard,
    a_skip: Bitboard,
}

impl Commute {
    const NONE: Commute = Commute {
        near: Bitboard::FULL,
        key: 0,
        calm_from: Bitboard::EMPTY,
        calm_to: Bitboard::EMPTY,
        far: Bitboard::EMPTY,
        calm_drop: Bitboard::EMPTY,
        a_at: Bitboard::EMPTY,
        a_skip: Bitboard::EMPTY,
    };

    /// The rule for the state `pos`, reached by `last`: below, the plain own
    /// step `a` and whether it captured nothing (after a push or pull only the
    /// far rule applies).
    ///
    /// Steps near each other commute too when nothing about them can depend on
    /// the order. `a` captured nothing, none of its squares is a trap or next
    /// to an own piece on a trap, so in either order it neither captures nor
    /// changes a guard; its piece has no stronger enemy next to its first
    /// square, so it cannot be frozen there. `b` moves another piece, not into
    /// the square `a` left nor onto a trap next to `a`'s squares, and its
    /// piece has no stronger enemy next to it (enemies do not move). Then both
    /// orders are legal and end on the same board, with the same captures by
    /// `b` if any.
    pub(super) fn at(pos: &Position, last: Last) -> Commute {
        let (a, quiet) = match last {
            Last::Other => return Commute::NONE,
            Last::Own(a, quiet) => (a, quiet),
            Last::Pair { near, near3, key } => {
                return Commute {
                    near,
                    key,
                    far: !near3,
                    ..Commute::NONE
                }
            }
        };
        let (fa, ta) = (a.from(), a.to());
        let near = NEAR[fa.index()] | NEAR[ta.index()];
        let mut rule = Commute {
            near,
            key: a.bits(),
            calm_from: Bitboard::EMPTY,
            calm_to: Bitboard::EMPTY,
            far: !(NEAR3[fa.index()] | NEAR3[ta.index()]),
            calm_drop: Bitboard::EMPTY,
            a_at: Bitboard::from_square(ta),
            a_skip: Commute::detours(pos, a),
        };
        if !quiet {
            return rule;
        }
        rule.a_skip |= Bitboard::from_square(fa);
        let us = pos.side();
        let own = pos.color_bb(us);
        let (fa_bb, ta_bb) = (Bitboard::from_square(fa), Bitboard::from_square(ta));
        let a_squares = fa_bb | ta_bb;
        // A square of `a` on a trap or next to an own piece on one.
        let by_trap = (a_squares & TRAP_SIDES).any()
            && ((a_squares & Bitboard::TRAPS).any()
                || ((Bitboard::around(fa) | Bitboard::around(ta)) & own & Bitboard::TRAPS).any());
        let a_threatened = (Bitboard::around(fa) & pos.stronger_than(us.opponent(), a.piece().kind)).any();
        if by_trap || a_threatened {
            return rule;
        }
        rule.calm_from = own & !ta_bb;
        // A trap next to neither of `a`'s squares keeps its guards in both orders.
        let not_calm = fa_bb | (Bitboard::TRAPS & (Bitboard::around(fa) | Bitboard::around(ta)));
        rule.calm_to = !not_calm;
        rule.calm_drop = rule.calm_from & !not_calm.neighbors();
        rule
    }

    /// The corners `z` diagonal to `a`'s old square `x` that `a`'s piece, having
    /// stepped sideways to `y`, reaches as well by the vertical-first detour
    /// `x -> y' -> z`. That route ends on the same board: `y'` is empty and no
    /// trap (so empty before `a` too), the piece is not frozen there (friends
    /// next to `y'` are the same as before `a`: `y` is not next to it, and a
    /// capture by `a` is on a trap next to `x`, never next to `y'`), leaving `x`
    /// captures the same in both routes, and leaving `y` or `y'` captures
    /// nothing (a trap piece next to them was guarded before the piece came).
    /// The vertical first step has the smaller key, so the sideways-first
    /// route is the one dropped.
    fn detours(pos: &Position, a: Step) -> Bitboard {
        let side = a.dir();
        if !matches!(side, Direction::East | Direction::West) {
            return Bitboard::EMPTY;
        }
        let from = Bitboard::from_square(a.from());
        let corners =
            (from.shift(Direction::North) | from.shift(Direction::South)) & !(Bitboard::TRAPS | pos.occupied());
        if corners.is_empty() {
            return Bitboard::EMPTY;
        }
        let us = pos.side();
        let unfrozen = pos.color_bb(us).neighbors() | !pos.stronger_than(us.opponent(), a.piece().kind).neighbors();
        (corners & unfrozen).shift(side)
    }

    /// Squares from which every plain step of `piece` is skipped, given the
    /// own pieces next to a stronger enemy: for a weaker kind than `a`'s, 4 or
    /// more squares from `a` (all its steps are far), or calm with no trap nor
    /// `a`'s old square next to it (all its steps are calm).
    #[inline]
    pub(super) fn dropped(self, piece: Piece, threatened: Bitboard) -> Bitboard {
        let high = Step::new(piece, Square::from_index_unchecked(0), Direction::North).bits();
        if high < self.key & !255 {
            self.far | (self.calm_drop & !threatened)
        } else {
            Bitboard::EMPTY
        }
    }

    /// True when the plain own step `piece from dir` is skipped; `calm` when
    /// no stronger enemy stands next to the piece.
    #[inline]
    pub(super) fn skips(self, piece: Piece, from: Square, dir: Direction, calm: bool) -> bool {
        self.skipped_from(piece, from, calm).has(from.step_unchecked(dir))
    }

    /// The arrival squares of the plain own steps of the piece on `from` that
    /// are skipped; `calm` when no stronger enemy stands next to the piece.
    #[inline]
    pub(super) fn skipped_from(self, piece: Piece, from: Square, calm: bool) -> Bitboard {
        let high = Step::new(piece, Square::from_index_unchecked(0), Direction::North).bits();
        let key_high = self.key & !255;
        if high > key_high {
            return Bitboard::EMPTY;
        }
        if self.a_at.has(from) {
            return self.a_skip;
        }
        let around = Bitboard::around(from);
        let mut commuting = Bitboard::EMPTY;
        if !self.near.has(from) {
            commuting = around & !self.near;
        }
        if calm && self.calm_from.has(from) {
            commuting |= around & self.calm_to;
        }
        if high < key_high || commuting.is_empty() {
            return commuting;
        }
        let mut out = Bitboard::EMPTY;
        for dir in Direction::ALL {
            if Step::new(piece, from, dir).bits() < self.key {
                out |= Bitboard::from_square(from).shift(dir);
            }
        }
        out & commuting
    }
}
