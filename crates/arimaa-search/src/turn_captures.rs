//! Whole-turn captures: the most material the side to move can win with the
//! steps it has left in its turn (an approach and then a push or pull, a
//! guard drawn away and then the capture, two pushes in a row), found by a
//! small step search.
//!
//! Every capture ends with a push or a pull (the victim is moved onto an
//! unguarded trap, or its trap's last guard is moved away), so the search
//! plays the steps before that last push or pull and asks the exact
//! two-step patterns of `crate::threats` at every position it reaches.
//! What keeps it small:
//! - a sound lower bound on the steps any capture of a piece needs (see
//!   `steps_needed`): a branch whose steps left are fewer is cut;
//! - only captures better than the best found are looked for, so a
//!   position that already offers its best victim in two steps ends the
//!   search at once;
//! - when every victim within reach needs all the steps left, only steps
//!   that can lower some victim's bound are played (enemy steps, a
//!   stronger piece nearing a victim or a guard, a step next to a frozen
//!   own piece): the others leave the bound where it was, so they are cut
//!   one step later anyway;
//! - with steps to spare, own steps far from every victim and its trap
//!   (beyond two squares) are skipped. That one is a judgement, not a
//!   proof: a spare step helps by clearing or unfreezing, next to the
//!   action. The tests compare the search with every sequence of legal
//!   steps on game states.
//!
//! A node budget ([`NODE_LIMIT`]) bounds the rare positions with many
//! near-captures; beyond it the best found so far is the answer.

use crate::eval::{NEAR_TRAPS, TRAPS_NEAR};
use crate::threats::for_each_capture;
use arimaa_core::keytable::KeyTable;
use arimaa_core::{Bitboard, Color, Kind, Pending, Position, Square, Step, StepList};
use std::cell::RefCell;

/// Positions one call may visit before it settles for the best found.
pub const NODE_LIMIT: u32 = 1024;

/// More steps than any turn has: "cannot be captured this turn".
const NEVER: u8 = 9;

/// The best net material the side to move can win in the steps it has left:
/// the value of the enemy pieces it can capture (`enemy(kind)`) less its own
/// pieces lost on the way (`own(kind)`), at best 0. A half-done push is
/// finished; an open pull may be completed.
#[must_use]
pub fn best_turn_capture(pos: &Position, enemy: impl Fn(Kind) -> i32, own: impl Fn(Kind) -> i32) -> i32 {
    run(pos, enemy, own).best
}

/// Bounds on [`best_turn_capture`] without its search: `(low, high)`, equal
/// when they are its value. The low one is the best push or pull of the
/// steps at hand, the high one what the sound bound of the search's first
/// node allows; a caller that only needs to know on which side of a margin
/// the value lies (the search at its horizon) runs the search only when
/// they disagree about it.
#[must_use]
pub fn turn_capture_bounds(pos: &Position, enemy: impl Fn(Kind) -> i32, own: impl Fn(Kind) -> i32) -> (i32, i32) {
    Search::new(pos, enemy, own).bounds(pos)
}

/// The search, done: its best and the nodes it took.
fn run(pos: &Position, enemy: impl Fn(Kind) -> i32, own: impl Fn(Kind) -> i32) -> Search {
    let mut search = Search::new(pos, enemy, own);
    SEEN.with(|cell| match cell.try_borrow_mut() {
        Ok(mut seen) => {
            seen.clear();
            search.visit(pos, 0, &mut seen);
        }
        Err(_) => search.visit(pos, 0, &mut KeyTable::with_capacity(64)),
    });
    search
}

thread_local! {
    /// States already searched in this call: step orders transpose.
    static SEEN: RefCell<KeyTable> = RefCell::new(KeyTable::with_capacity(1 << 9));
}

struct Search {
    us: Color,
    /// Value of each enemy kind captured, and of each own kind lost, by index.
    enemy: [i32; 6],
    own: [i32; 6],
    best: i32,
    nodes: u32,
}

impl Search {
    /// A search for the side to move in `pos`, with the values of the enemy
    /// kinds it captures and of its own it loses.
    fn new(pos: &Position, enemy: impl Fn(Kind) -> i32, own: impl Fn(Kind) -> i32) -> Search {
        Search {
            us: pos.side(),
            enemy: Kind::ALL.map(enemy),
            own: Kind::ALL.map(own),
            best: 0,
            nodes: 0,
        }
    }

    /// [`turn_capture_bounds`] of `pos`. An open push or pull is played out
    /// first (its completing steps are few), so the bounds are taken where
    /// no step is owed.
    fn bounds(&self, pos: &Position) -> (i32, i32) {
        let left = pos.steps_left();
        let (none, push) = (
            pos.pending() == Pending::None,
            matches!(pos.pending(), Pending::Push { .. }),
        );
        // Below three steps and with no step owed a push or pull is all
        // there is; the bound first, as most leaves have no victim within
        // reach and then nothing need be asked.
        let reach = if push || (none && left < 3) {
            0
        } else {
            self.potential(pos, left).0
        };
        if none && left >= 3 && reach == 0 {
            return (0, 0);
        }
        let mut two = 0;
        if left >= 2 && !push {
            for_each_capture(pos, self.us, |kind, _| two = two.max(self.enemy[kind.index()]));
        }
        let (mut low, mut high) = match pos.pending() {
            Pending::None if left < 3 => return (two, two),
            Pending::None => return (two, reach.max(two)),
            Pending::Push { .. } => (i32::MIN, i32::MIN),
            // Stopping, a push or pull from here, or any capture the bound
            // allows with the pull left open.
            Pending::Pull { .. } => (two, reach.max(two)),
        };
        let completes = |step: &Step| match pos.pending() {
            Pending::Pull { from, .. } => step.to() == from && step.piece().color != self.us,
            _ => true,
        };
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        for step in list.as_slice().iter().filter(|s| completes(s)) {
            let mut child = *pos;
            let delta = match child.make_step(*step).captured() {
                Some((piece, _)) if piece.color == self.us => -self.own[piece.kind.index()],
                Some((piece, _)) => self.enemy[piece.kind.index()],
                None => 0,
            };
            let (lo, hi) = self.bounds(&child);
            low = low.max(delta + lo);
            high = high.max(delta + hi);
        }
        (low.max(0), high.max(0))
    }

    /// `gain`: the material won on the way to `pos`.
    fn visit(&mut self, pos: &Position, gain: i32, seen: &mut KeyTable) {
        self.nodes += 1;
        let left = pos.steps_left();
        let mid_push = matches!(pos.pending(), Pending::Push { .. });
        // The bound first: where it finds no victim within reach (two calls
        // in five at the bench's leaves with three or four steps left), the
        // two-step patterns need not be asked.
        let bound = (pos.pending() == Pending::None && left >= 3).then(|| self.potential(pos, left));
        if !mid_push {
            self.best = self.best.max(gain);
            if bound.is_some_and(|(value, _)| gain + value <= self.best) {
                return;
            }
            if left >= 2 {
                let mut two = 0;
                for_each_capture(pos, self.us, |kind, _| two = two.max(self.enemy[kind.index()]));
                self.best = self.best.max(gain + two);
            }
        }
        // Below three steps the two-step patterns have said all, unless a
        // push must be finished or a pull may be.
        if left == 0 || (left < 3 && pos.pending() == Pending::None) || self.nodes >= NODE_LIMIT {
            return;
        }
        // Between pushes and pulls the bound cuts, and when every victim
        // worth looking for needs all the steps left, only a step that brings
        // one a step nearer can start the capture. An open pull may still be
        // completed (the victim follows with one step), whatever the bound
        // says of the other steps; a half-done push must be finished.
        let filter = match pos.pending() {
            Pending::Push { .. } => Filter::All,
            Pending::Pull { from, .. } => {
                if gain + self.potential(pos, left).0 <= self.best {
                    Filter::Into(from)
                } else {
                    Filter::All
                }
            }
            Pending::None => {
                let (value, tight) = bound.unwrap_or_else(|| self.potential(pos, left));
                if gain + value <= self.best {
                    return;
                }
                tight
            }
        };
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        for &step in list.as_slice() {
            let keep = match filter {
                Filter::All => true,
                Filter::Into(sq) => step.to() == sq && step.piece().color != self.us,
                Filter::Near(focus) => self.may_help(pos, step, &focus),
                Filter::Region(focus) => {
                    step.piece().color != self.us || focus.region.has(step.from()) || self.may_help(pos, step, &focus)
                }
            };
            if !keep {
                continue;
            }
            let mut child = *pos;
            let undo = child.make_step(step);
            let delta = match undo.captured() {
                Some((piece, _)) if piece.color == self.us => -self.own[piece.kind.index()],
                Some((piece, _)) => self.enemy[piece.kind.index()],
                None => 0,
            };
            if seen.insert_key(child.state_key()) {
                self.visit(&child, gain + delta, seen);
            }
            if self.nodes >= NODE_LIMIT {
                return;
            }
        }
    }

    /// Whether `step` can bring a capture of a piece of `focus`'s targets (victims
    /// and the guards standing in their way) a step nearer: any enemy step
    /// (half of a push or pull), an own piece stronger than a target moving
    /// nearer to it or starting to pull it, or an own piece stepping next
    /// to a frozen one (which may be the attacker).
    fn may_help(&self, pos: &Position, step: Step, focus: &Focus) -> bool {
        let piece = step.piece();
        if piece.color != self.us {
            return true;
        }
        if (Bitboard::around(step.to()) & focus.frozen).any() {
            return true;
        }
        focus.targets.iter().any(|t| {
            pos.kind_at(t).is_some_and(|k| k < piece.kind)
                && (distance(step.to(), t) < distance(step.from(), t) || distance(step.from(), t) == 1)
        })
    }

    /// The most `pos` can still yield in `left` steps: the best victim a
    /// capture could reach, two of them with four steps; with it, the steps
    /// worth playing next (see [`Filter`]).
    fn potential(&self, pos: &Position, left: u8) -> (i32, Filter) {
        let (mut first, mut second) = (0, 0);
        let enemy = pos.color_bb(self.us.opponent());
        let mut targets = Bitboard::EMPTY;
        let mut region = Bitboard::EMPTY;
        let mut tight = true;
        let mut reach = Reach::new(pos, self.us);
        for v in enemy & NEAR_TRAPS {
            let (need, traps) = steps_needed(pos, self.us, &mut reach, v);
            if need > left {
                continue;
            }
            let value = self.enemy[pos.kind_at(v).unwrap_or(Kind::Rabbit).index()];
            if value > first {
                second = first;
                first = value;
            } else {
                second = second.max(value);
            }
            tight &= need == left;
            targets |= Bitboard::from_square(v);
            region |= traps;
            for trap in traps {
                targets |= Bitboard::around(trap) & enemy;
            }
        }
        let value = if left >= 4 { first + second } else { first };
        let near = (targets | region).neighbors() | targets | region;
        let focus = Focus {
            targets,
            frozen: reach.frozen,
            region: near | near.neighbors(),
        };
        (
            value,
            if tight {
                Filter::Near(focus)
            } else {
                Filter::Region(focus)
            },
        )
    }
}

/// The steps a node plays.
#[derive(Clone, Copy)]
enum Filter {
    All,
    /// Only the enemy step that completes the open pull into this square.
    Into(Square),
    /// Every victim needs all the steps left: only steps that may bring a
    /// capture of a target nearer.
    Near(Focus),
    /// Steps to spare: also own steps from the region, which may clear a
    /// square on the way.
    Region(Focus),
}

/// The pieces a capture works on and the squares around them.
#[derive(Clone, Copy)]
struct Focus {
    /// The victims within reach and the guards of their traps.
    targets: Bitboard,
    /// Squares within two steps of a target or of its trap.
    region: Bitboard,
    /// The attacker's frozen pieces, found once for the node's steps.
    frozen: Bitboard,
}

fn distance(a: Square, b: Square) -> u8 {
    a.file().abs_diff(b.file()) + a.rank().abs_diff(b.rank())
}

/// Where the attacker's pieces stronger than each kind can push or pull one:
/// filled in per kind when first asked.
struct Reach {
    /// `within[k][j]`: the squares where a piece of kind index `k` stands
    /// within push or pull range after at most `j` approach steps (an
    /// unfrozen stronger piece at most `j + 1` squares away, a frozen one at
    /// most `j`: it needs another piece's step first).
    within: [[Bitboard; 4]; 5],
    /// Kinds with some stronger attacker, and the kinds filled in.
    exists: [bool; 5],
    done: [bool; 5],
    frozen: Bitboard,
}

impl Reach {
    fn new(pos: &Position, attacker: Color) -> Reach {
        Reach {
            within: [[Bitboard::EMPTY; 4]; 5],
            exists: [false; 5],
            done: [false; 5],
            frozen: pos.frozen(attacker),
        }
    }

    /// Steps before a stronger attacker can push or pull the piece of `kind`
    /// on `sq`: exact up to 3, 4 for "4 or more", [`NEVER`] for no attacker.
    fn approach(&mut self, pos: &Position, attacker: Color, kind: Kind, sq: Square) -> u8 {
        let k = kind.index();
        if k >= 5 {
            return NEVER;
        }
        if !self.done[k] {
            let stronger = pos.stronger_than(attacker, kind);
            let (a, f) = (stronger & !self.frozen, stronger & self.frozen);
            let (mut na, mut nf) = (a | a.neighbors(), f);
            for j in 0..4 {
                self.within[k][j] = na | nf;
                na |= na.neighbors();
                nf |= nf.neighbors();
            }
            self.exists[k] = stronger.any();
            self.done[k] = true;
        }
        if !self.exists[k] {
            return NEVER;
        }
        (0..4u8).find(|&j| self.within[k][usize::from(j)].has(sq)).unwrap_or(4)
    }
}

/// A lower bound on the steps `attacker` needs to capture the enemy piece
/// on `victim` ([`NEVER`] when it cannot this turn), and the traps it needs
/// the fewest for. Each enemy piece that must move (the victim one square
/// nearer its trap, a guard away from it) costs a push or pull of two steps,
/// moving one own piece one square; an attacker stronger than the piece
/// must first stand next to it, unfrozen (a frozen one needs another
/// piece's step), and only the pushes and pulls before it can carry it
/// there for free.
fn steps_needed(pos: &Position, attacker: Color, reach: &mut Reach, victim: Square) -> (u8, Bitboard) {
    let own = pos.color_bb(attacker.opponent());
    let kind_at = |sq: Square| pos.kind_at(sq).unwrap_or(Kind::Rabbit);
    let mut best = (NEVER, Bitboard::EMPTY);
    for trap in TRAPS_NEAR[victim.index()] {
        let d = distance(victim, trap);
        let guards = Bitboard::around(trap) & own & !Bitboard::from_square(victim);
        let g = guards.count() as u8;
        if 2 * d + 2 * g > best.0 {
            continue;
        }
        // Every guard must be movable; the nearest to an attacker goes first.
        let mut first = NEVER;
        let mut movable = true;
        for s in guards {
            let a = reach.approach(pos, attacker, kind_at(s), s);
            movable &= a != NEVER;
            first = first.min(a);
        }
        if !movable {
            continue;
        }
        let need = if d == 0 {
            2 * g + first
        } else {
            let a = reach.approach(pos, attacker, kind_at(victim), victim);
            if a == NEVER {
                continue;
            }
            2 * d + 2 * g + a.saturating_sub(g)
        };
        if need < best.0 {
            best = (need, Bitboard::from_square(trap));
        } else if need == best.0 {
            best.1 |= Bitboard::from_square(trap);
        }
    }
    best
}

#[cfg(test)]
pub(crate) mod tests;
