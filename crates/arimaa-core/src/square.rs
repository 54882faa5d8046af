//! Squares and the four step directions.

use std::fmt;

/// One of the 64 squares; index `rank * 8 + file`, so a1 = 0, h1 = 7, a8 = 56.
#[derive(Copy, Clone, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct Square(u8);

impl Square {
    /// The square with this index, if `index < 64`.
    #[must_use]
    pub const fn from_index(index: u8) -> Option<Square> {
        if index < 64 {
            Some(Square(index))
        } else {
            None
        }
    }

    /// The square with this index; the caller guarantees `index < 64`.
    #[inline]
    #[must_use]
    pub const fn from_index_unchecked(index: u8) -> Square {
        debug_assert!(index < 64);
        Square(index)
    }

    /// The square on `file` (0 = a) and `rank` (0 = rank 1), both below 8.
    #[inline]
    #[must_use]
    pub const fn new(file: u8, rank: u8) -> Square {
        debug_assert!(file < 8 && rank < 8);
        Square(rank * 8 + file)
    }

    /// Index 0..64.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.0 as usize
    }

    /// File 0..8 (0 = a).
    #[inline]
    #[must_use]
    pub const fn file(self) -> u8 {
        self.0 & 7
    }

    /// Rank 0..8 (0 = rank 1).
    #[inline]
    #[must_use]
    pub const fn rank(self) -> u8 {
        self.0 >> 3
    }

    /// The neighbouring square in `dir`, if on the board.
    #[inline]
    #[must_use]
    pub const fn step(self, dir: Direction) -> Option<Square> {
        match dir {
            Direction::North if self.rank() < 7 => Some(Square(self.0 + 8)),
            Direction::South if self.rank() > 0 => Some(Square(self.0 - 8)),
            Direction::East if self.file() < 7 => Some(Square(self.0 + 1)),
            Direction::West if self.file() > 0 => Some(Square(self.0 - 1)),
            _ => None,
        }
    }

    /// The neighbour in `dir`; the caller guarantees it is on the board (hot loops
    /// that got the square from an edge-masked shift).
    #[inline]
    #[must_use]
    pub const fn step_unchecked(self, dir: Direction) -> Square {
        const DELTA: [i8; 4] = [8, -8, 1, -1];
        Square::from_index_unchecked((self.0 as i8 + DELTA[dir.index()]) as u8)
    }

    /// The same square seen from the other side: rank 1 becomes rank 8.
    #[inline]
    #[must_use]
    pub const fn flip_rank(self) -> Square {
        Square(self.0 ^ 56)
    }

    /// Parses `a1`..`h8`.
    #[must_use]
    pub fn parse(s: &str) -> Option<Square> {
        let b = s.as_bytes();
        if b.len() != 2 || !(b'a'..=b'h').contains(&b[0]) || !(b'1'..=b'8').contains(&b[1]) {
            return None;
        }
        Some(Square::new(b[0] - b'a', b[1] - b'1'))
    }

    /// The direction from `self` to the adjacent square `to`, if they are adjacent.
    #[must_use]
    pub fn direction_to(self, to: Square) -> Option<Direction> {
        Direction::ALL.into_iter().find(|&d| self.step(d) == Some(to))
    }
}

impl fmt::Display for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", (b'a' + self.file()) as char, (b'1' + self.rank()) as char)
    }
}

impl fmt::Debug for Square {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// A step direction as written in notation: `n` towards rank 8, `s`, `e` towards the h-file, `w`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Direction {
    /// Towards rank 8.
    North = 0,
    /// Towards rank 1.
    South = 1,
    /// Towards the h-file.
    East = 2,
    /// Towards the a-file.
    West = 3,
}

impl Direction {
    /// All four, in notation order n, s, e, w.
    pub const ALL: [Direction; 4] = [Direction::North, Direction::South, Direction::East, Direction::West];

    /// The notation letter.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Direction::North => 'n',
            Direction::South => 's',
            Direction::East => 'e',
            Direction::West => 'w',
        }
    }

    /// Parses a notation letter.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Direction> {
        match c {
            'n' => Some(Direction::North),
            's' => Some(Direction::South),
            'e' => Some(Direction::East),
            'w' => Some(Direction::West),
            _ => None,
        }
    }

    /// The opposite direction.
    #[must_use]
    pub const fn opposite(self) -> Direction {
        // n/s and e/w are index pairs 0/1 and 2/3.
        Direction::from_index(self.index() ^ 1)
    }

    /// The same direction on a board flipped north-south.
    #[must_use]
    pub const fn flip_rank(self) -> Direction {
        match self {
            Direction::North => Direction::South,
            Direction::South => Direction::North,
            d => d,
        }
    }

    /// Index 0..4.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The direction with this index (masked to 0..4).
    #[inline]
    #[must_use]
    pub const fn from_index(i: usize) -> Direction {
        Self::ALL[i & 3]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_print_round_trip() {
        for i in 0..64 {
            let sq = Square::from_index(i).unwrap();
            assert_eq!(Square::parse(&sq.to_string()), Some(sq));
        }
        assert_eq!(Square::parse("i1"), None);
        assert_eq!(Square::parse("a9"), None);
        assert_eq!(Square::parse("a"), None);
    }

    #[test]
    fn steps_stay_on_board() {
        let a1 = Square::parse("a1").unwrap();
        assert_eq!(a1.step(Direction::South), None);
        assert_eq!(a1.step(Direction::West), None);
        assert_eq!(a1.step(Direction::North), Square::parse("a2"));
        assert_eq!(a1.direction_to(Square::parse("b1").unwrap()), Some(Direction::East));
    }
}
