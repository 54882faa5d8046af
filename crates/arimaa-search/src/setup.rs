//! Choosing a setup: one of a few fixed formations, varied by a seed and
//! mirrored, so that games vary without giving anything away.

use arimaa_core::{Color, Kind, Piece, Position, Square};

/// Home-rank formations for gold, files a..h: (rank 2, rank 1). Rabbits mostly
/// on the back rank, cats and dogs next to the home traps (c2, f2, b3's
/// neighbours), elephant and camel central.
const FORMATIONS: [(&str, &str); 5] = [
    ("HDCEMCDH", "RRRRRRRR"),
    ("RHCEMCHR", "RDRRRRDR"),
    ("HCDMEDCH", "RRRRRRRR"),
    ("DHCMECHD", "RRRRRRRR"),
    ("RHDMEDHR", "RCRRRRCR"),
];

/// A setup for `color`, as (piece, square) pairs: one of the formations,
/// varied by `seed` and mirrored; as silver, against `opponent` (gold's
/// setup), the camel goes to the wing away from gold's elephant.
#[must_use]
pub fn choose_setup(color: Color, opponent: &Position, seed: u64) -> Vec<(Piece, Square)> {
    let mixed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    let (rank2, rank1) = FORMATIONS[(mixed % FORMATIONS.len() as u64) as usize];
    let mut mirror = (mixed >> 8) & 1 == 1;
    if color == Color::Silver {
        // Put our camel on the wing away from gold's elephant.
        let gold_e = opponent.bitboard(Piece::new(Color::Gold, Kind::Elephant)).first();
        if let Some(e) = gold_e {
            let camel_file = rank2.find('M').unwrap_or(4) as u8;
            let camel_file = if mirror { 7 - camel_file } else { camel_file };
            let same_wing = (camel_file < 4) == (e.file() < 4);
            if same_wing {
                mirror = !mirror;
            }
        }
    }
    let (home2, home1) = match color {
        Color::Gold => (1, 0),
        Color::Silver => (6, 7),
    };
    let mut placed = Vec::with_capacity(16);
    for (rank, row) in [(home2, rank2), (home1, rank1)] {
        for (i, c) in row.chars().enumerate() {
            let file = if mirror { 7 - i as u8 } else { i as u8 };
            if let Some(p) = Piece::from_letter(c) {
                placed.push((Piece::new(color, p.kind), Square::new(file, rank)));
            }
        }
    }
    placed
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_core::notation::{format_setup, parse_setup};

    fn board_of(color: Color, placed: &[(Piece, Square)]) -> Position {
        let mut board = Position::empty(color);
        for &(p, s) in placed {
            board.put(p, s);
        }
        board
    }

    #[test]
    fn every_choice_is_a_legal_setup_for_both_colours() {
        for seed in 0..8 {
            let gold = choose_setup(Color::Gold, &Position::empty(Color::Gold), seed);
            let text = format_setup(&gold);
            parse_setup(Color::Gold, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
            let silver = choose_setup(Color::Silver, &board_of(Color::Silver, &gold), seed);
            let text = format_setup(&silver);
            parse_setup(Color::Silver, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }

    #[test]
    fn fixed_silver_camel_avoids_gold_elephant_wing() {
        for seed in 0..32 {
            let gold = choose_setup(Color::Gold, &Position::empty(Color::Gold), seed);
            let board = board_of(Color::Silver, &gold);
            let e = board.bitboard(Piece::new(Color::Gold, Kind::Elephant)).first().unwrap();
            let silver = choose_setup(Color::Silver, &board, seed + 1000);
            let m = silver.iter().find(|(p, _)| p.kind == Kind::Camel).unwrap().1;
            assert_ne!(m.file() < 4, e.file() < 4, "seed {seed}");
        }
    }

    #[test]
    fn seeds_vary_the_setup() {
        let empty = Position::empty(Color::Gold);
        let all: std::collections::HashSet<String> = (0..40)
            .map(|s| format_setup(&choose_setup(Color::Gold, &empty, s)))
            .collect();
        assert!(all.len() >= 5, "{} distinct setups", all.len());
    }
}
