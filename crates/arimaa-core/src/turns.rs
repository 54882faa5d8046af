//! Turn generation: every distinct end-of-turn board reachable in 1–4 steps.
//!
//! A depth-first walk over steps with two hash tables: one drops a state
//! (board, steps left, open push or pull) already expanded by another step
//! order, the other collects distinct final boards. This is what makes the
//! count exact and cheap: the same board reached by many step orders is
//! expanded and counted once.

use crate::bitboard::Bitboard;
use crate::keytable::KeyTable;
use crate::piece::Piece;
use crate::position::{Pending, Position};
use crate::square::{Direction, Square};
use crate::step::{Move, Step, StepList};
use crate::zobrist;

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
enum Last {
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
    fn pair(before: Step, step: Step, push: bool) -> Last {
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
struct Commute {
    near: Bitboard,
    key: u16,
    /// Own pieces whose steps into `calm_to` commute with `a` at any distance.
    calm_from: Bitboard,
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
    fn at(pos: &Position, last: Last) -> Commute {
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
    fn dropped(self, piece: Piece, threatened: Bitboard) -> Bitboard {
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
    fn skips(self, piece: Piece, from: Square, dir: Direction, calm: bool) -> bool {
        self.skipped_from(piece, from, calm).has(from.step_unchecked(dir))
    }

    /// The arrival squares of the plain own steps of the piece on `from` that
    /// are skipped; `calm` when no stronger enemy stands next to the piece.
    #[inline]
    fn skipped_from(self, piece: Piece, from: Square, calm: bool) -> Bitboard {
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
