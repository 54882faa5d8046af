//! Setup files: fixed openings, one per line, to vary the games.
//!
//! A line holds both colours' setups: 16 gold tokens (upper case) and 16
//! silver tokens (lower case), in any order, optionally with the record
//! prefixes `1g`/`1s` (or `1w`/`1b`), so `1g Ra1 ... Hh2 1s ra8 ... hh7`
//! and a bare list of 32 tokens both work. Blank lines and lines starting
//! with `#` are skipped. Each pair of games uses one line, both colours'
//! setups fixed, so each engine plays both sides of the same opening.

use crate::error::MatchError;
use arimaa_core::notation::{format_setup, parse_setup};
use arimaa_core::Color;
use std::path::Path;

/// One opening: both setups, in canonical notation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Opening {
    /// Gold's setup.
    pub gold: String,
    /// Silver's setup.
    pub silver: String,
    /// Where it came from, for the record (`file:line`).
    pub source: String,
}

impl Opening {
    /// The setup of `side`.
    #[must_use]
    pub fn setup(&self, side: Color) -> &str {
        match side {
            Color::Gold => &self.gold,
            Color::Silver => &self.silver,
        }
    }
}

/// All openings of a setup file, in file order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SetupBook {
    openings: Vec<Opening>,
}

impl SetupBook {
    /// Reads a setup file; any bad line is an error naming the line.
    pub fn load(path: &Path) -> Result<SetupBook, MatchError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| MatchError::Setups(format!("setup file '{}': {e}", path.display())))?;
        let name = path.display().to_string();
        SetupBook::parse(&text, &name).map_err(|e| MatchError::Setups(format!("setup file {e}")))
    }

    /// Parses the text of a setup file; `name` labels the openings.
    pub fn parse(text: &str, name: &str) -> Result<SetupBook, MatchError> {
        let mut openings = Vec::new();
        for (i, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let at = format!("{name}:{}", i + 1);
            let tokens: Vec<&str> = line
                .split_whitespace()
                .filter(|t| !matches!(*t, "1g" | "1s" | "1w" | "1b"))
                .collect();
            let side_tokens = |upper: bool| {
                tokens
                    .iter()
                    .filter(|t| t.starts_with(|c: char| c.is_ascii_uppercase()) == upper)
                    .copied()
                    .collect::<Vec<_>>()
                    .join(" ")
            };
            let canonical = |color: Color, text: String| {
                parse_setup(color, &text)
                    .map(|placed| format_setup(&placed))
                    .map_err(|e| MatchError::Setups(format!("'{at}': {e}")))
            };
            openings.push(Opening {
                gold: canonical(Color::Gold, side_tokens(true))?,
                silver: canonical(Color::Silver, side_tokens(false))?,
                source: at,
            });
        }
        if openings.is_empty() {
            return Err(MatchError::Setups(format!("'{name}' has no setups")));
        }
        Ok(SetupBook { openings })
    }

    /// A book of one opening (a cluster worker's copy of its pair's).
    #[must_use]
    pub fn single(opening: Opening) -> SetupBook {
        SetupBook {
            openings: vec![opening],
        }
    }

    /// The opening for pair number `pair` (0-based), cycling through the file.
    #[must_use]
    pub fn for_pair(&self, pair: usize) -> &Opening {
        &self.openings[pair % self.openings.len()]
    }

    /// Number of openings.
    #[must_use]
    pub fn len(&self) -> usize {
        self.openings.len()
    }

    /// Always false: a loaded book has at least one opening.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.openings.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const GOLD: &str = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
    const SILVER: &str = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7";

    #[test]
    fn reads_both_forms_and_cycles() {
        let text = format!("# openings\n\n1g {GOLD} 1s {SILVER}\n{SILVER} {GOLD}\n");
        let book = SetupBook::parse(&text, "f").unwrap();
        assert_eq!(book.len(), 2);
        assert_eq!(book.for_pair(0).source, "f:3");
        assert_eq!(book.for_pair(3).source, "f:4");
        assert!(book.for_pair(1).setup(Color::Gold).contains("Ee2"));
        assert!(book.for_pair(1).setup(Color::Silver).contains("ee7"));
    }

    #[test]
    fn bad_lines_are_named() {
        let e = SetupBook::parse(&format!("{GOLD}\n"), "f").unwrap_err();
        assert!(e.to_string().contains("f:1"), "{e}");
        let e = SetupBook::parse(&format!("{GOLD} {}", SILVER.replace("hh7", "hh6")), "f").unwrap_err();
        assert!(e.to_string().contains("f:1"), "{e}");
        assert!(SetupBook::parse("# nothing\n", "f")
            .unwrap_err()
            .to_string()
            .contains("no setups"));
        assert!(SetupBook::load(Path::new("/nonexistent/setups.txt")).is_err());
    }
}
