//! Colours, piece kinds and coloured pieces.

use std::fmt;

/// A side. Gold moves first and aims for rank 8.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug)]
pub enum Color {
    /// Upper-case pieces, home ranks 1–2.
    Gold = 0,
    /// Lower-case pieces, home ranks 7–8.
    Silver = 1,
}

impl Color {
    /// Both colours, gold first.
    pub const ALL: [Color; 2] = [Color::Gold, Color::Silver];

    /// The other side.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Color {
        match self {
            Color::Gold => Color::Silver,
            Color::Silver => Color::Gold,
        }
    }

    /// Index 0 (gold) or 1 (silver).
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// `g` or `s`, as in AEI and move numbers.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Color::Gold => 'g',
            Color::Silver => 's',
        }
    }

    /// Parses `g`/`s`, and the older `w`/`b`.
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Color> {
        match c {
            'g' | 'w' => Some(Color::Gold),
            's' | 'b' => Some(Color::Silver),
            _ => None,
        }
    }
}

/// A piece kind, weakest first, so that `a > b` means `a` is stronger than `b`.
#[derive(Copy, Clone, PartialEq, Eq, Hash, Debug, PartialOrd, Ord)]
pub enum Kind {
    /// R, 8 per side.
    Rabbit = 0,
    /// C, 2 per side.
    Cat = 1,
    /// D, 2 per side.
    Dog = 2,
    /// H, 2 per side.
    Horse = 3,
    /// M, 1 per side.
    Camel = 4,
    /// E, 1 per side.
    Elephant = 5,
}

impl Kind {
    /// All six, weakest first.
    pub const ALL: [Kind; 6] = [
        Kind::Rabbit,
        Kind::Cat,
        Kind::Dog,
        Kind::Horse,
        Kind::Camel,
        Kind::Elephant,
    ];

    /// Index 0..6, weakest first.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The kind with this index (0..6).
    #[inline]
    #[must_use]
    pub const fn from_index(i: usize) -> Kind {
        Self::ALL[i]
    }

    /// How many of this kind a side starts with.
    #[must_use]
    pub const fn count_at_start(self) -> u32 {
        match self {
            Kind::Rabbit => 8,
            Kind::Cat | Kind::Dog | Kind::Horse => 2,
            Kind::Camel | Kind::Elephant => 1,
        }
    }

    /// The upper-case letter.
    #[must_use]
    pub const fn letter(self) -> char {
        match self {
            Kind::Rabbit => 'R',
            Kind::Cat => 'C',
            Kind::Dog => 'D',
            Kind::Horse => 'H',
            Kind::Camel => 'M',
            Kind::Elephant => 'E',
        }
    }
}

/// A coloured piece.
#[derive(Copy, Clone, PartialEq, Eq, Hash)]
pub struct Piece {
    /// Its side.
    pub color: Color,
    /// Its kind.
    pub kind: Kind,
}

impl Piece {
    /// A piece of `color` and `kind`.
    #[must_use]
    pub const fn new(color: Color, kind: Kind) -> Piece {
        Piece { color, kind }
    }

    /// Index 0..12: gold kinds 0..6, silver 6..12.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self.color.index() * 6 + self.kind.index()
    }

    /// The notation letter: upper case for gold, lower case for silver.
    #[must_use]
    pub const fn letter(self) -> char {
        let c = self.kind.letter();
        match self.color {
            Color::Gold => c,
            Color::Silver => c.to_ascii_lowercase(),
        }
    }

    /// Parses a notation letter (`EMHDCR` gold, `emhdcr` silver).
    #[must_use]
    pub const fn from_letter(c: char) -> Option<Piece> {
        let kind = match c.to_ascii_uppercase() {
            'R' => Kind::Rabbit,
            'C' => Kind::Cat,
            'D' => Kind::Dog,
            'H' => Kind::Horse,
            'M' => Kind::Camel,
            'E' => Kind::Elephant,
            _ => return None,
        };
        let color = if c.is_ascii_uppercase() {
            Color::Gold
        } else {
            Color::Silver
        };
        Some(Piece { color, kind })
    }
}

/// `gold` or `silver`, for messages.
impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Gold => "gold",
            Color::Silver => "silver",
        })
    }
}

impl fmt::Display for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

impl fmt::Debug for Piece {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.letter())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn letters_round_trip() {
        for color in Color::ALL {
            for kind in Kind::ALL {
                let p = Piece::new(color, kind);
                assert_eq!(Piece::from_letter(p.letter()), Some(p));
            }
        }
        assert_eq!(Piece::from_letter('x'), None);
        assert_eq!(Piece::from_letter('e'), Some(Piece::new(Color::Silver, Kind::Elephant)));
    }

    #[test]
    fn strength_order() {
        assert!(Kind::Elephant > Kind::Camel && Kind::Camel > Kind::Horse);
        assert!(Kind::Horse > Kind::Dog && Kind::Dog > Kind::Cat && Kind::Cat > Kind::Rabbit);
    }
}
