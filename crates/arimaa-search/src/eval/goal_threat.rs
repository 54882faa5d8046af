//! Rabbits' goal threat, learned from the teacher: a small network scores
//! each rabbit from what stands around it and ahead of it, and a side's
//! threat is the root of the sum of its rabbits' squared scores (one strong
//! runner counts for more than several weak ones).
//!
//! The inputs of a rabbit (see [`rabbit_inputs`]): its distance to the goal
//! rank and to the edge, frozen or not, its friends beside it, the enemy
//! pieces in zones ahead of it (counted apart for rabbits, officers and
//! pieces on the goal rank), its own officers ahead, the strongest piece of
//! each side within two steps, and who holds the enemy home trap on its
//! wing. The weights (`goal_threat/net.rs`) are fitted to sharp's rabbit
//! score (`tuning/goal_threat/train.py`): our older goal and rabbit-advance
//! terms explained about half of its difference between the sides, this
//! model 85 % on games held out. Of what the rest of the hand evaluation
//! leaves of sharp's static score, the model's two terms explain 11 %, the
//! older terms refitted 3 % (and as they stood, less than nothing), so those
//! weigh zero now. Rabbits more than five ranks from goal are not scored (at
//! home: fitted without them, the model explains as much, for half the work).

// Written by the trainer at seven digits, as the engine was measured with.
#[rustfmt::skip]
#[allow(clippy::excessive_precision)]
mod net;

use super::{Shared, Terms};
use crate::params::Weight;
use arimaa_core::{Bitboard, Color, Kind, Piece, Position, Square};
use std::sync::LazyLock;

/// Inputs of one rabbit.
pub const INPUTS: usize = 56;

/// Hidden units of the per-rabbit network.
const HIDDEN: usize = 16;

/// Enemy officer zones (relative to the rabbit, `dy` forward): straight
/// ahead 1 and 2, one file aside 1 and 2, two files aside 1–2, far ahead
/// (files within 2, 3 or more ranks), far aside (3–4 files), beside,
/// behind.
const OFFICER_ZONES: usize = 9;

/// Where each input block starts.
const YDIST: usize = 0;
const XPOS: usize = 6;
const FROZEN: usize = 10;
const FRIENDS: usize = 11;
const ZONES: usize = 12;
const OWN_STRONGEST: usize = 26;
const ENEMY_STRONGEST: usize = 33;
const TRAP_OWN: usize = 40;
const TRAP_ENEMY: usize = 41;
const TRAP_OWN_STRONGEST: usize = 42;
const TRAP_ENEMY_STRONGEST: usize = 49;

/// Counts of the zone blocks stop at this.
const COUNT_CAP: u32 = 3;

/// Squares around each rabbit square, per colour (forward differs).
struct Masks {
    /// [colour][square][zone]: 0..9 enemy officers, 9 enemy rabbits near
    /// ahead, 10 enemy rabbits far ahead, 11 enemy pieces on the goal rank
    /// within two files, 12 own officers near ahead, 13 own officers further.
    zones: Vec<[[Bitboard; 14]; 64]>,
    /// Squares one or two steps from each square.
    within2: [Bitboard; 64],
}

fn square(file: i32, rank: i32) -> Option<Square> {
    ((0..8).contains(&file) && (0..8).contains(&rank)).then(|| Square::from_index_unchecked((rank * 8 + file) as u8))
}

static MASKS: LazyLock<Masks> = LazyLock::new(|| {
    let mut zones = vec![[[Bitboard::EMPTY; 14]; 64]; 2];
    let mut within2 = [Bitboard::EMPTY; 64];
    for i in 0..64i32 {
        let (f, r) = (i % 8, i / 8);
        for dy in -2..=2i32 {
            for dx in -2..=2i32 {
                let d = dx.abs() + dy.abs();
                if (1..=2).contains(&d) {
                    if let Some(sq) = square(f + dx, r + dy) {
                        within2[i as usize] |= Bitboard::from_square(sq);
                    }
                }
            }
        }
        for color in Color::ALL {
            let forward = if color == Color::Gold { 1 } else { -1 };
            let goal_rank = if color == Color::Gold { 7 } else { 0 };
            let z = &mut zones[color.index()][i as usize];
            for dy in -2..=7i32 {
                for dx in -4..=4i32 {
                    let Some(sq) = square(f + dx, r + forward * dy) else {
                        continue;
                    };
                    let bit = Bitboard::from_square(sq);
                    let adx = dx.abs();
                    let officer = match (adx, dy) {
                        (0, 1) => Some(0),
                        (1, 1) => Some(1),
                        (0, 2) => Some(2),
                        (1, 2) => Some(3),
                        (2, 1..=2) => Some(4),
                        (0..=2, 3..) => Some(5),
                        (3..=4, 1..) => Some(6),
                        (1, 0) => Some(7),
                        (0..=1, -1) => Some(8),
                        _ => None,
                    };
                    if let Some(k) = officer {
                        z[k] |= bit;
                    }
                    if (1..=2).contains(&dy) && adx <= 1 {
                        z[9] |= bit;
                    } else if dy >= 3 && adx <= 2 {
                        z[10] |= bit;
                    }
                    if r + forward * dy == goal_rank && adx <= 2 {
                        z[11] |= bit;
                    }
                    if dy >= 1 {
                        if adx <= 1 && dy <= 2 {
                            z[12] |= bit;
                        } else if adx <= 2 {
                            z[13] |= bit;
                        }
                    }
                }
            }
        }
    }
    Masks { zones, within2 }
});

/// The active inputs of one rabbit: (input, value) pairs.
#[derive(Clone, Copy, Debug)]
pub struct RabbitInputs {
    pairs: [(u8, f32); MAX_ACTIVE],
    len: usize,
}

/// Inputs a rabbit sets at most: one per block.
const MAX_ACTIVE: usize = 26;

impl RabbitInputs {
    /// Adds a nonzero input (a zero adds nothing to the first layer).
    fn push(&mut self, input: usize, value: f32) {
        if value != 0.0 {
            self.pairs[self.len] = (input as u8, value);
            self.len += 1;
        }
    }

    /// The (input, value) pairs.
    #[must_use]
    pub fn pairs(&self) -> &[(u8, f32)] {
        &self.pairs[..self.len]
    }
}

/// What every rabbit of one side reads, computed once per side.
struct Side {
    color: Color,
    own: Bitboard,
    enemy: Bitboard,
    own_rabbits: Bitboard,
    enemy_rabbits: Bitboard,
    frozen: Bitboard,
    /// Each side's pieces by kind, strongest first: own, then enemy.
    kinds: [[Bitboard; 6]; 2],
    /// The inputs of the enemy home trap on each wing (files a–d, e–h):
    /// own and enemy pieces beside it, the strongest of each side within
    /// two steps. Every rabbit on a wing reads the same four.
    wings: [[(usize, f32); 4]; 2],
}

impl Side {
    fn new(pos: &Position, color: Color, frozen: Bitboard) -> Side {
        let them = color.opponent();
        let by_kind = |c: Color| {
            let mut k = [Bitboard::EMPTY; 6];
            for (slot, kind) in k.iter_mut().zip(Kind::ALL.iter().rev()) {
                *slot = pos.bitboard(Piece::new(c, *kind));
            }
            k
        };
        let mut side = Side {
            color,
            own: pos.color_bb(color),
            enemy: pos.color_bb(them),
            own_rabbits: pos.bitboard(Piece::new(color, Kind::Rabbit)),
            enemy_rabbits: pos.bitboard(Piece::new(them, Kind::Rabbit)),
            frozen,
            kinds: [by_kind(color), by_kind(them)],
            wings: [[(0, 0.0); 4]; 2],
        };
        for (wing, file) in [2, 5].into_iter().enumerate() {
            let trap = square(file, if color == Color::Gold { 5 } else { 2 }).expect("a trap square is on the board");
            let beside = Bitboard::from_square(trap).neighbors();
            let around = MASKS.within2[trap.index()];
            side.wings[wing] = [
                (TRAP_OWN, (side.own & beside).count() as f32),
                (TRAP_ENEMY, (side.enemy & beside).count() as f32),
                (TRAP_OWN_STRONGEST + side.strongest(0, around), 1.0),
                (TRAP_ENEMY_STRONGEST + side.strongest(1, around), 1.0),
            ];
        }
        side
    }

    /// The strongest kind of the own (`who` 0) or enemy (1) side in
    /// `area`, as an index 0..=6 (0: none, 1: a rabbit, 6: the elephant).
    fn strongest(&self, who: usize, area: Bitboard) -> usize {
        self.kinds[who]
            .iter()
            .position(|b| (*b & area).any())
            .map_or(0, |strongest_first| 6 - strongest_first)
    }

    /// Calls `put(input, value)` for each input of the rabbit on `sq`, in
    /// input order (zeros included: the caller skips them); false for a
    /// rabbit the model does not score (see [`rabbit_inputs`]).
    #[inline]
    fn visit(&self, sq: Square, mut put: impl FnMut(usize, f32)) -> bool {
        let i = sq.index() as i32;
        let (f, r) = (i % 8, i / 8);
        let ydist = if self.color == Color::Gold { 7 - r } else { r };
        if !(1..=5).contains(&ydist) {
            return false;
        }
        let masks = &*MASKS;
        let (own, enemy) = (self.own, self.enemy);
        let z = &masks.zones[self.color.index()][sq.index()];
        put(YDIST + ydist as usize - 1, 1.0);
        put(XPOS + f.min(7 - f) as usize, 1.0);
        put(FROZEN, if self.frozen.has(sq) { 1.0 } else { 0.0 });
        let friends = (own & Bitboard::from_square(sq).neighbors()).count().min(4);
        put(FRIENDS, friends as f32 / 4.0);
        let counted = |set: Bitboard| (set.count().min(COUNT_CAP)) as f32;
        let enemy_officers = enemy & !self.enemy_rabbits;
        for (k, zone) in z.iter().enumerate().take(OFFICER_ZONES) {
            put(ZONES + k, counted(enemy_officers & *zone));
        }
        put(ZONES + 9, counted(self.enemy_rabbits & z[9]));
        put(ZONES + 10, counted(self.enemy_rabbits & z[10]));
        put(ZONES + 11, counted(enemy & z[11]));
        put(ZONES + 12, counted(own & !self.own_rabbits & z[12]));
        put(ZONES + 13, counted(own & !self.own_rabbits & z[13]));
        let near = masks.within2[sq.index()];
        put(OWN_STRONGEST + self.strongest(0, near), 1.0);
        put(ENEMY_STRONGEST + self.strongest(1, near), 1.0);
        for &(input, value) in &self.wings[usize::from(f >= 4)] {
            put(input, value);
        }
        true
    }

    fn inputs(&self, sq: Square) -> Option<RabbitInputs> {
        let mut v = RabbitInputs {
            pairs: [(0, 0.0); MAX_ACTIVE],
            len: 0,
        };
        self.visit(sq, |input, value| v.push(input, value)).then_some(v)
    }

    /// The rabbit's score (as [`rabbit_score`] of its inputs, summed in
    /// the same order), without building the input list.
    fn score(&self, sq: Square) -> Option<f32> {
        let mut hidden = net::B1;
        let scored = self.visit(sq, |input, x| {
            if x != 0.0 {
                for (h, w) in hidden.iter_mut().zip(&net::W1[input]) {
                    *h += x * w;
                }
            }
        });
        scored.then(|| output(&hidden))
    }
}

/// The inputs of `color`'s rabbit on `sq` (what the trainer reads); `None`
/// for a rabbit more than five ranks from its goal (at home: the model was
/// fitted without them, which costs nothing in fit and halves the work) or
/// already on goal.
#[must_use]
pub fn rabbit_inputs(pos: &Position, color: Color, sq: Square) -> Option<RabbitInputs> {
    Side::new(pos, color, pos.frozen(color)).inputs(sq)
}

/// One rabbit's score, in rabbits, from its inputs (the search sums the
/// same rows in the same order without the list: `Side::score`).
#[cfg(test)]
fn rabbit_score(inputs: &RabbitInputs) -> f32 {
    let mut hidden = net::B1;
    for &(i, x) in inputs.pairs() {
        for (h, w) in hidden.iter_mut().zip(&net::W1[usize::from(i)]) {
            *h += x * w;
        }
    }
    output(&hidden)
}

/// The network's output (in rabbits) from its first layer's sums.
fn output(hidden: &[f32; HIDDEN]) -> f32 {
    let out = hidden
        .iter()
        .zip(&net::W2)
        .fold(net::B2, |sum, (h, w)| sum + h.max(0.0) * w);
    softplus(out)
}

/// Softplus ln(1 + eˣ) (a score is never negative), from a table with
/// linear interpolation: the library's logarithm was a third of this
/// module's time. Off the table it is eˣ below (under 0.0004) and x above.
fn softplus(x: f32) -> f32 {
    const LO: f32 = -8.0;
    const HI: f32 = 8.0;
    const PER_UNIT: f32 = 32.0;
    const LEN: usize = ((HI - LO) * PER_UNIT) as usize + 1;
    static TABLE: LazyLock<[f32; LEN]> =
        LazyLock::new(|| std::array::from_fn(|i| (LO + i as f32 / PER_UNIT).exp().ln_1p()));
    if x <= LO {
        return x.exp();
    }
    if x >= HI {
        return x;
    }
    let at = (x - LO) * PER_UNIT;
    let i = (at as usize).min(LEN - 2);
    let frac = at - i as f32;
    let t = &*TABLE;
    t[i] + (t[i + 1] - t[i]) * frac
}

/// `color`'s goal threat, in centi-rabbits.
#[must_use]
pub fn threat(pos: &Position, color: Color) -> i32 {
    threat_with(pos, color, pos.frozen(color))
}

/// As [`threat`], with `color`'s frozen pieces given.
fn threat_with(pos: &Position, color: Color, frozen: Bitboard) -> i32 {
    let side = Side::new(pos, color, frozen);
    let squares: f32 = side
        .own_rabbits
        .iter()
        .filter_map(|sq| side.score(sq))
        .map(|score| score.powi(2))
        .sum();
    (squares.sqrt() * 100.0) as i32
}

/// The goal-threat terms: the mover's and the waiting side's, each with its
/// weight (percent of the model's score).
pub(super) fn terms<T: Terms>(pos: &Position, shared: &Shared, acc: &mut T) {
    let us = pos.side();
    for (color, weight, sign) in [
        (us, Weight::goal_threat_mover_pct, 1),
        (us.opponent(), Weight::goal_threat_waiting_pct, -1),
    ] {
        if acc.wants(weight) {
            acc.add(weight, sign * threat_with(pos, color, shared.frozen(color)), 100);
        }
    }
}

const _: () = assert!(TRAP_ENEMY_STRONGEST + 7 == INPUTS && HIDDEN == 16);

#[cfg(test)]
mod tests {
    use super::super::tests::board;
    use super::*;

    #[test]
    fn a_free_runner_threatens_more_than_a_blocked_one_and_more_than_a_far_one() {
        let free = board(
            [
                "........", "........", "...R....", "........", "........", "........", "........", "e.......",
            ],
            'g',
        );
        let blocked = board(
            [
                "...dd...", "..hcch..", "...R....", "........", "........", "........", "........", "e.......",
            ],
            'g',
        );
        let far = board(
            [
                "........", "........", "........", "........", "........", "...R....", "........", "e.......",
            ],
            'g',
        );
        let (f, b, d) = (
            threat(&free, Color::Gold),
            threat(&blocked, Color::Gold),
            threat(&far, Color::Gold),
        );
        assert!(f > b && f > d, "free {f}, blocked {b}, far {d}");
        assert_eq!(threat(&free, Color::Silver), 0, "silver has no rabbit");
    }

    #[test]
    fn the_search_scores_each_rabbit_as_its_inputs_do() {
        let pos = board(
            [
                "r.r.rr.r", "..d.hm.r", "..cRE...", "R...r...", "...eR.d.", ".H.cD.r.", "...RMRR.", "..RC..RH",
            ],
            'g',
        );
        let mut scored = 0;
        for color in Color::ALL {
            let side = Side::new(&pos, color, pos.frozen(color));
            for sq in pos.bitboard(Piece::new(color, Kind::Rabbit)).iter() {
                let fast = side.score(sq);
                let listed = rabbit_inputs(&pos, color, sq).map(|v| rabbit_score(&v));
                assert_eq!(
                    fast.map(f32::to_bits),
                    listed.map(f32::to_bits),
                    "{color:?} rabbit on {sq:?}"
                );
                scored += usize::from(fast.is_some());
            }
        }
        assert!(scored >= 4, "rabbits within five ranks of goal are scored: {scored}");
    }

    #[test]
    fn the_threat_is_colour_symmetric() {
        let pos = board(
            [
                "r.r.rr.r", "..d.hm.r", "..c.E...", "R...r...", "...eR.d.", ".H.cD...", "R..RMRR.", "..RC..RH",
            ],
            'g',
        );
        let m = pos.mirror();
        assert_eq!(threat(&pos, Color::Gold), threat(&m, Color::Silver));
        assert_eq!(threat(&pos, Color::Silver), threat(&m, Color::Gold));
    }
}
