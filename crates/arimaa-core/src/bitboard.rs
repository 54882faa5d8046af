//! A set of squares packed into a `u64`: bit `rank * 8 + file`, a1 = bit 0.

use crate::square::{Direction, Square};
use std::fmt;
use std::ops::{BitAnd, BitAndAssign, BitOr, BitOrAssign, BitXor, BitXorAssign, Not};

/// A set of squares.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Default)]
#[must_use]
pub struct Bitboard(pub u64);

impl Bitboard {
    /// No square.
    pub const EMPTY: Bitboard = Bitboard(0);
    /// Every square.
    pub const FULL: Bitboard = Bitboard(!0);
    /// The a-file.
    pub const FILE_A: Bitboard = Bitboard(0x0101_0101_0101_0101);
    /// The h-file.
    pub const FILE_H: Bitboard = Bitboard(0x8080_8080_8080_8080);
    /// Rank 1: silver's goal.
    pub const RANK_1: Bitboard = Bitboard(0xFF);
    /// Rank 2.
    pub const RANK_2: Bitboard = Bitboard(0xFF00);
    /// Rank 7.
    pub const RANK_7: Bitboard = Bitboard(0x00FF_0000_0000_0000);
    /// Rank 8: gold's goal.
    pub const RANK_8: Bitboard = Bitboard(0xFF00_0000_0000_0000);
    /// The four traps c3, f3, c6, f6.
    pub const TRAPS: Bitboard = Bitboard((1 << 18) | (1 << 21) | (1 << 42) | (1 << 45));

    /// The set holding one square.
    #[inline]
    pub const fn from_square(sq: Square) -> Bitboard {
        Bitboard(1 << sq.index())
    }

    /// True when no square is in the set.
    #[inline]
    #[must_use]
    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    /// True when some square is in the set.
    #[inline]
    #[must_use]
    pub const fn any(self) -> bool {
        self.0 != 0
    }

    /// Number of squares in the set.
    #[inline]
    #[must_use]
    pub const fn count(self) -> u32 {
        self.0.count_ones()
    }

    /// True when `sq` is in the set.
    #[inline]
    #[must_use]
    pub const fn has(self, sq: Square) -> bool {
        self.0 >> sq.index() & 1 != 0
    }

    /// The lowest square, if any.
    #[inline]
    #[must_use]
    pub const fn first(self) -> Option<Square> {
        if self.0 == 0 {
            None
        } else {
            Some(Square::from_index_unchecked(self.0.trailing_zeros() as u8))
        }
    }

    /// Every square moved one step in `dir`; squares that would leave the board drop out.
    ///
    /// Branch-free: the squares that would wrap are masked off first and the
    /// shift is a rotation, both from tables, because a `match` here compiles
    /// to a jump table that mispredicts in loops over the four directions.
    #[inline]
    pub const fn shift(self, dir: Direction) -> Bitboard {
        const KEEP: [u64; 4] = [
            !Bitboard::RANK_8.0,
            !Bitboard::RANK_1.0,
            !Bitboard::FILE_H.0,
            !Bitboard::FILE_A.0,
        ];
        const ROTATE: [u32; 4] = [8, 56, 1, 63];
        let i = dir.index();
        Bitboard((self.0 & KEEP[i]).rotate_left(ROTATE[i]))
    }

    /// Squares orthogonally next to some square of the set (the set itself excluded
    /// unless a member neighbours another member).
    #[inline]
    pub const fn neighbors(self) -> Bitboard {
        let b = self.0;
        Bitboard((b << 8) | (b >> 8) | ((b & !Self::FILE_H.0) << 1) | ((b & !Self::FILE_A.0) >> 1))
    }

    /// The squares orthogonally next to `sq`, from a table.
    #[inline]
    pub const fn around(sq: Square) -> Bitboard {
        AROUND[sq.index()]
    }

    /// Iterates the squares from a1 upwards.
    #[inline]
    pub fn iter(self) -> BitIter {
        BitIter(self.0)
    }
}

/// `AROUND[s]`: the neighbours of square `s`.
const AROUND: [Bitboard; 64] = {
    let mut out = [Bitboard::EMPTY; 64];
    let mut s = 0;
    while s < 64 {
        out[s] = Bitboard(1 << s).neighbors();
        s += 1;
    }
    out
};

/// Iterator over the squares of a [`Bitboard`], lowest first.
#[derive(Debug, Clone)]
pub struct BitIter(u64);

impl Iterator for BitIter {
    type Item = Square;

    #[inline]
    fn next(&mut self) -> Option<Square> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Square::from_index_unchecked(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl IntoIterator for Bitboard {
    type Item = Square;
    type IntoIter = BitIter;
    fn into_iter(self) -> BitIter {
        self.iter()
    }
}

macro_rules! bit_op {
    ($tr:ident, $f:ident, $atr:ident, $af:ident, $op:tt) => {
        impl $tr for Bitboard {
            type Output = Bitboard;
            #[inline]
            fn $f(self, rhs: Bitboard) -> Bitboard {
                Bitboard(self.0 $op rhs.0)
            }
        }
        impl $atr for Bitboard {
            #[inline]
            fn $af(&mut self, rhs: Bitboard) {
                self.0 = self.0 $op rhs.0;
            }
        }
    };
}
bit_op!(BitAnd, bitand, BitAndAssign, bitand_assign, &);
bit_op!(BitOr, bitor, BitOrAssign, bitor_assign, |);
bit_op!(BitXor, bitxor, BitXorAssign, bitxor_assign, ^);

impl Not for Bitboard {
    type Output = Bitboard;
    #[inline]
    fn not(self) -> Bitboard {
        Bitboard(!self.0)
    }
}

impl fmt::Debug for Bitboard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Bitboard({:#018x})", self.0)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shifts_drop_squares_at_the_edges() {
        let h4 = Bitboard::from_square(Square::parse("h4").unwrap());
        assert!(h4.shift(Direction::East).is_empty());
        let a4 = Bitboard::from_square(Square::parse("a4").unwrap());
        assert!(a4.shift(Direction::West).is_empty());
        assert!(Bitboard::RANK_8.shift(Direction::North).is_empty());
        assert!(Bitboard::RANK_1.shift(Direction::South).is_empty());
        assert_eq!(
            a4.shift(Direction::East),
            Bitboard::from_square(Square::parse("b4").unwrap())
        );
    }

    #[test]
    fn corner_has_two_neighbours_and_centre_four() {
        assert_eq!(
            Bitboard::from_square(Square::parse("a1").unwrap()).neighbors().count(),
            2
        );
        assert_eq!(
            Bitboard::from_square(Square::parse("d4").unwrap()).neighbors().count(),
            4
        );
    }

    #[test]
    fn iterates_lowest_first() {
        let b = Bitboard::TRAPS;
        let v: Vec<String> = b.iter().map(|s| s.to_string()).collect();
        assert_eq!(v, ["c3", "f3", "c6", "f6"]);
    }
}
