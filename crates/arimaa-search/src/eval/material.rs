//! Material on the HarLog model: a piece is worth more the fewer enemy pieces
//! are stronger than it (those are the ones that can push, pull, freeze and
//! capture it), and rabbits with the side's piece count enter by logarithm,
//! so the last rabbits and the last pieces weigh most. The constants are
//! HarLog's (Q = 1.4475, G = 0.6314), scaled so that a side's first lost
//! rabbit costs about 100 (a centi-rabbit).

use arimaa_core::{Color, Kind, Piece, Position};
use std::cell::RefCell;

/// An officer's value by the number of stronger enemy pieces: 800 / (Q + n),
/// doubled for a piece with none stronger (800 * 2 / Q).
const OFFICER: [i32; 17] = [
    1105, 327, 232, 180, 147, 124, 107, 95, 85, 77, 70, 64, 59, 55, 52, 49, 46,
];

/// 800 * G * ln(x): the rabbit term is LN[rabbits] + LN[pieces].
const LN: [i32; 17] = [
    0, 0, 350, 555, 700, 813, 905, 983, 1050, 1110, 1163, 1211, 1255, 1296, 1333, 1368, 1401,
];

/// A side with no rabbit has lost (the game ends with its turn): below any
/// material a side with rabbits can have.
const NO_RABBITS: i32 = -2000;

/// Piece counts by colour and kind.
#[derive(Clone, Copy, Debug)]
pub struct Counts([[u8; 6]; 2]);

impl Counts {
    /// The counts of a position.
    #[must_use]
    pub fn of(pos: &Position) -> Counts {
        let mut c = [[0; 6]; 2];
        for color in [Color::Gold, Color::Silver] {
            for kind in Kind::ALL {
                c[color.index()][kind.index()] = pos.count(Piece::new(color, kind)).min(16) as u8;
            }
        }
        Counts(c)
    }

    /// The material of `color`.
    #[must_use]
    pub fn side(&self, color: Color) -> i32 {
        let own = &self.0[color.index()];
        let enemy = &self.0[color.opponent().index()];
        let mut value = 0;
        let mut stronger = 0;
        // From the elephant down, counting the enemy pieces stronger than each kind.
        for k in (1..6).rev() {
            value += i32::from(own[k]) * OFFICER[usize::from(stronger).min(16)];
            stronger += enemy[k];
        }
        let rabbits = usize::from(own[0]);
        let pieces = own.iter().map(|&n| usize::from(n)).sum::<usize>().min(16);
        value
            + if rabbits == 0 {
                NO_RABBITS
            } else {
                LN[rabbits] + LN[pieces]
            }
    }

    /// Material of `color` less its opponent's.
    #[must_use]
    pub fn balance(&self, color: Color) -> i32 {
        self.side(color) - self.side(color.opponent())
    }

    /// What losing one piece of `kind` costs `color` in balance (0 if it has none).
    #[must_use]
    pub fn loss(&self, color: Color, kind: Kind) -> i32 {
        if self.0[color.index()][kind.index()] == 0 {
            return 0;
        }
        let mut after = *self;
        after.0[color.index()][kind.index()] -= 1;
        self.balance(color) - after.balance(color)
    }
}

/// The material balance and every piece's marginal value of one set of
/// counts: what the evaluation asks of HarLog, a dozen times per position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Material {
    gold_balance: i32,
    loss: [[i32; 6]; 2],
}

impl Material {
    /// Material of `color` less its opponent's.
    #[must_use]
    pub fn balance(&self, color: Color) -> i32 {
        match color {
            Color::Gold => self.gold_balance,
            Color::Silver => -self.gold_balance,
        }
    }

    /// What losing one piece of `kind` costs `color` (see [`Counts::loss`]).
    #[must_use]
    pub fn loss(&self, color: Color, kind: Kind) -> i32 {
        self.loss[color.index()][kind.index()]
    }
}

/// Entries of the per-thread material cache (a power of two).
const CACHE: usize = 256;

thread_local! {
    /// Counts change only by captures, so a search meets few of them: the
    /// values are remembered instead of recomputed (each loss is four
    /// HarLog sums) at every evaluation.
    static MATERIAL: RefCell<Vec<(u64, Material)>> = const { RefCell::new(Vec::new()) };
}

impl Counts {
    /// The counts packed five bits each, plus one so that no key is 0.
    fn key(&self) -> u64 {
        self.0.iter().flatten().fold(0u64, |k, &n| k << 5 | u64::from(n)) + 1
    }

    fn compute(&self) -> Material {
        let mut loss = [[0; 6]; 2];
        for color in [Color::Gold, Color::Silver] {
            for kind in Kind::ALL {
                loss[color.index()][kind.index()] = self.loss(color, kind);
            }
        }
        Material {
            gold_balance: self.balance(Color::Gold),
            loss,
        }
    }

    /// [`Material`] of these counts, from the thread's cache when it has them.
    #[must_use]
    pub fn material(&self) -> Material {
        let key = self.key();
        let slot = (key.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 56) as usize & (CACHE - 1);
        MATERIAL.with(|cell| {
            let Ok(mut cache) = cell.try_borrow_mut() else {
                return self.compute();
            };
            if cache.is_empty() {
                cache.resize(CACHE, (0, self.compute()));
            }
            let (k, m) = cache[slot];
            if k == key {
                return m;
            }
            let m = self.compute();
            cache[slot] = (key, m);
            m
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn values_follow_the_harlog_order() {
        let c = Counts::of(&Position::standard());
        assert_eq!(c.balance(Color::Gold), 0);
        let loss = |k| c.loss(Color::Gold, k);
        // Each piece costs more than the next weaker one; the first rabbit ~100.
        assert!(loss(Kind::Elephant) > loss(Kind::Camel));
        assert!(loss(Kind::Camel) > loss(Kind::Horse));
        assert!(loss(Kind::Horse) > loss(Kind::Dog));
        assert!(loss(Kind::Dog) > loss(Kind::Cat));
        assert!(loss(Kind::Cat) > loss(Kind::Rabbit));
        assert!((90..=110).contains(&loss(Kind::Rabbit)), "{}", loss(Kind::Rabbit));
        // The camel is worth more against a side that lost its elephant.
        let mut p = Position::standard();
        let e = p.bitboard(Piece::new(Color::Silver, Kind::Elephant)).first().unwrap();
        p.clear_square(e);
        let c2 = Counts::of(&p);
        assert!(c2.loss(Color::Gold, Kind::Camel) > loss(Kind::Camel));
        // The last rabbit costs more than any officer but the elephant.
        let mut last = Counts::of(&Position::standard());
        last.0[0][0] = 1;
        assert!(last.loss(Color::Gold, Kind::Rabbit) > last.loss(Color::Gold, Kind::Camel));
    }

    #[test]
    fn the_cached_material_is_the_computed_one() {
        // Counts met twice (the second time from the cache) and counts that
        // share a cache slot must all give the direct computation.
        let mut p = Position::standard();
        let mut seen = Vec::new();
        for i in 0..64 {
            if p.clear_square(arimaa_core::Square::from_index_unchecked(i)).is_some() {
                seen.push(Counts::of(&p));
            }
        }
        assert_eq!(seen.len(), 32);
        for c in seen.iter().chain(seen.iter()) {
            let m = c.material();
            assert_eq!(m, c.compute());
            assert_eq!(m.balance(Color::Gold), c.balance(Color::Gold));
            assert_eq!(m.balance(Color::Silver), c.balance(Color::Silver));
            for kind in Kind::ALL {
                assert_eq!(m.loss(Color::Silver, kind), c.loss(Color::Silver, kind));
            }
        }
    }
}
