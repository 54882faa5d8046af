//! Choosing a setup: from a few fixed formations (the default), or by the
//! evaluation (`setup_eval`).
//!
//! A family of a few thousand formations is scored by the evaluation of the
//! board after both setups, gold to move: as silver against gold's setup on
//! the board, as gold against a typical silver formation (gold sets up
//! first and cannot see silver's). The pick is random (by the seed) among the
//! best few, so that games vary without giving anything away.
//!
//! The family, in gold's orientation (rank 2 in front, rank 1 behind):
//! - the eight officers on rank 2 in every order, rabbits on rank 1;
//! - rabbits on a2 and h2, six officers on b2..g2 in every order, and two
//!   cats or dogs on rank 1 side by side in the centre or on the trap files
//!   or next to the edge;
//!
//! keeping only the sound ones (see [`sound`]). Silver's are the same,
//! flipped.

use crate::eval::evaluate;
use crate::params::{Param, Params};
use arimaa_core::{Color, Kind, Piece, Position, Square};

/// The officers, strongest first.
const OFFICERS: [Kind; 8] = [
    Kind::Elephant,
    Kind::Camel,
    Kind::Horse,
    Kind::Horse,
    Kind::Dog,
    Kind::Dog,
    Kind::Cat,
    Kind::Cat,
];

/// Setups scoring within this many centi-rabbits of the best are candidates.
const MARGIN: i32 = 10;
/// At most this many candidates (the best) share the random pick.
const TOP: usize = 8;

/// Rank 2 (index 0) and rank 1 (index 1) of a gold formation, files a..h.
type Formation = [[Kind; 8]; 2];

/// Every distinct order of `kinds` (a multiset), each passed to `f`.
fn orders(kinds: &mut [Kind], k: usize, f: &mut impl FnMut(&[Kind])) {
    if k == kinds.len() {
        f(kinds);
        return;
    }
    let mut used: Vec<Kind> = Vec::with_capacity(kinds.len() - k);
    for i in k..kinds.len() {
        if used.contains(&kinds[i]) {
            continue;
        }
        used.push(kinds[i]);
        kinds.swap(k, i);
        orders(kinds, k + 1, f);
        kinds.swap(k, i);
    }
}

/// The shape every strong setup shares, whatever the evaluation says (the
/// evaluation was fitted to middle games, and left alone it piles the strong
/// pieces on one wing): the elephant central (d2 or e2, with the next rule),
/// the camel off the edge files (where it hides from the danger terms but
/// does nothing), a horse on each wing, and a cat or dog in front of each
/// home trap (c2, f2).
fn sound(f: &Formation) -> bool {
    let front = &f[0];
    let file_of = |kind| front.iter().position(|&k| k == kind);
    let elephant_central = matches!(file_of(Kind::Elephant), Some(2..=5));
    let camel_inside = matches!(file_of(Kind::Camel), Some(1..=6));
    let horses_split = (front[..4].contains(&Kind::Horse)) && (front[4..].contains(&Kind::Horse));
    let guard = |k: Kind| matches!(k, Kind::Cat | Kind::Dog);
    elephant_central && camel_inside && horses_split && guard(front[2]) && guard(front[5])
}

/// The family of formations described in the module's comment.
fn family() -> Vec<Formation> {
    let mut out = Vec::new();
    let keep = |f: Formation| sound(&f);
    let mut all = OFFICERS;
    orders(&mut all, 0, &mut |o| {
        let mut f = [[Kind::Rabbit; 8]; 2];
        f[0].copy_from_slice(o);
        if keep(f) {
            out.push(f);
        }
    });
    // Two weak officers behind, on these pairs of rank-1 files.
    const BEHIND: [(usize, usize); 3] = [(3, 4), (2, 5), (1, 6)];
    const PAIRS: [(Kind, Kind); 4] = [
        (Kind::Dog, Kind::Dog),
        (Kind::Cat, Kind::Cat),
        (Kind::Dog, Kind::Cat),
        (Kind::Cat, Kind::Dog),
    ];
    for (left, right) in PAIRS {
        // The six officers left for b2..g2.
        let mut front: Vec<Kind> = OFFICERS.to_vec();
        for k in [left, right] {
            let i = front.iter().position(|&x| x == k).expect("a cat or dog left");
            front.remove(i);
        }
        orders(&mut front, 0, &mut |o| {
            for (a, b) in BEHIND {
                let mut f = [[Kind::Rabbit; 8]; 2];
                f[0][1..7].copy_from_slice(o);
                f[1][a] = left;
                f[1][b] = right;
                if keep(f) {
                    out.push(f);
                }
            }
        });
    }
    out
}

/// The pieces of `formation` for `color`.
fn place(color: Color, formation: &Formation) -> Vec<(Piece, Square)> {
    let (front, back) = match color {
        Color::Gold => (1, 0),
        Color::Silver => (6, 7),
    };
    let mut placed = Vec::with_capacity(16);
    for (row, rank) in formation.iter().zip([front, back]) {
        for (file, &kind) in row.iter().enumerate() {
            placed.push((Piece::new(color, kind), Square::new(file as u8, rank)));
        }
    }
    placed
}

/// The silver formation gold plans against: officers in front, the camel
/// and elephant central, cats and dogs by the traps.
const TYPICAL: Formation = {
    use Kind::{Camel as M, Cat as C, Dog as D, Elephant as E, Horse as H, Rabbit as R};
    [[H, D, C, M, E, C, D, H], [R, R, R, R, R, R, R, R]]
};

/// What `formation` is worth to `color` on `board` (the opponent's setup, or
/// nothing yet): the evaluation after both setups, gold to move, from
/// `color`'s side.
fn score(color: Color, formation: &Formation, board: &Position, params: &Params) -> i32 {
    let mut pos = Position::empty(Color::Gold);
    for sq in (0..64).map(Square::from_index_unchecked) {
        if let Some(p) = board.piece_at(sq) {
            pos.put(p, sq);
        }
    }
    if color == Color::Gold {
        for (p, sq) in place(Color::Silver, &TYPICAL) {
            pos.put(p, sq);
        }
    }
    for (p, sq) in place(color, formation) {
        pos.put(p, sq);
    }
    match color {
        Color::Gold => evaluate(&pos, params),
        Color::Silver => -evaluate(&pos, params),
    }
}

/// A setup for `color`, as (piece, square) pairs, against `board` (gold's
/// setup when choosing silver's), varied by `seed`: by the evaluation with
/// `params` when `setup_eval` is on, else from the fixed formations.
#[must_use]
pub fn choose_setup(color: Color, board: &Position, params: &Params, seed: u64) -> Vec<(Piece, Square)> {
    if params[Param::setup_eval] == 0 {
        fixed_setup(color, board, seed)
    } else {
        evaluated_setup(color, board, params, seed)
    }
}

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

/// One of the fixed formations, varied by `seed` and mirrored; as silver,
/// the camel goes to the wing away from gold's elephant (`opponent`).
fn fixed_setup(color: Color, opponent: &Position, seed: u64) -> Vec<(Piece, Square)> {
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

/// The best formations of the family by the evaluation with `params`, one
/// of them picked by `seed`.
fn evaluated_setup(color: Color, board: &Position, params: &Params, seed: u64) -> Vec<(Piece, Square)> {
    let mut scored: Vec<(i32, Formation)> = family()
        .into_iter()
        .map(|f| (score(color, &f, board, params), f))
        .collect();
    // Best first; ties in the family's order, so the choice is reproducible.
    scored.sort_by_key(|&(s, _)| std::cmp::Reverse(s));
    let best = scored[0].0;
    let candidates = scored
        .iter()
        .take(TOP)
        .take_while(|&&(s, _)| s >= best - MARGIN)
        .count();
    let mixed = seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) >> 32;
    place(color, &scored[(mixed % candidates as u64) as usize].1)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::{Param, DEFAULT};

    fn evaluated() -> Params {
        DEFAULT.with(Param::setup_eval, 1)
    }
    use arimaa_core::notation::{format_setup, parse_setup};

    fn board_of(color: Color, placed: &[(Piece, Square)]) -> Position {
        let mut board = Position::empty(color);
        for &(p, s) in placed {
            board.put(p, s);
        }
        board
    }

    #[test]
    fn the_family_is_wide_distinct_and_sound() {
        let f = family();
        assert!(f.len() > 200, "{} formations", f.len());
        let distinct: std::collections::HashSet<_> = f.iter().collect();
        assert_eq!(distinct.len(), f.len());
        for formation in &f {
            let mut kinds: Vec<Kind> = formation.iter().flatten().copied().collect();
            kinds.sort_by_key(|k| k.index());
            let mut want = OFFICERS.to_vec();
            want.extend([Kind::Rabbit; 8]);
            want.sort_by_key(|k| k.index());
            assert_eq!(kinds, want);
            let e = formation[0].iter().position(|&k| k == Kind::Elephant);
            assert!(matches!(e, Some(3 | 4)), "{formation:?}");
            assert!(matches!(formation[0][2], Kind::Cat | Kind::Dog));
        }
    }

    #[test]
    fn every_choice_is_a_legal_setup_for_both_colours() {
        for params in [DEFAULT, evaluated()] {
            for seed in 0..8 {
                let gold = choose_setup(Color::Gold, &Position::empty(Color::Gold), &params, seed);
                let text = format_setup(&gold);
                parse_setup(Color::Gold, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
                let silver = choose_setup(Color::Silver, &board_of(Color::Silver, &gold), &params, seed);
                let text = format_setup(&silver);
                parse_setup(Color::Silver, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
            }
        }
    }

    #[test]
    fn fixed_silver_camel_avoids_gold_elephant_wing() {
        for seed in 0..32 {
            let gold = choose_setup(Color::Gold, &Position::empty(Color::Gold), &DEFAULT, seed);
            let board = board_of(Color::Silver, &gold);
            let e = board.bitboard(Piece::new(Color::Gold, Kind::Elephant)).first().unwrap();
            let silver = choose_setup(Color::Silver, &board, &DEFAULT, seed + 1000);
            let m = silver.iter().find(|(p, _)| p.kind == Kind::Camel).unwrap().1;
            assert_ne!(m.file() < 4, e.file() < 4, "seed {seed}");
        }
    }

    #[test]
    fn the_evaluated_choice_follows_the_evaluation() {
        // Dogs in front weighed against: both dogs go behind (rank 1);
        // weighed for: both stay in front.
        let dogs_behind = |params: &Params, seed| {
            let placed = choose_setup(Color::Gold, &Position::empty(Color::Gold), params, seed);
            placed
                .iter()
                .filter(|(p, s)| p.kind == Kind::Dog && s.rank() == 0)
                .count()
        };
        let back = evaluated().with(Param::dog_rank23, -200);
        let front = evaluated().with(Param::dog_rank23, 200);
        for seed in 0..6 {
            assert_eq!(dogs_behind(&back, seed), 2, "seed {seed}");
            assert_eq!(dogs_behind(&front, seed), 0, "seed {seed}");
        }
    }

    #[test]
    fn evaluated_silver_answers_golds_board_and_picks_among_its_best() {
        let params = evaluated();
        let gold = choose_setup(Color::Gold, &Position::empty(Color::Gold), &params, 3);
        let board = board_of(Color::Silver, &gold);
        let all: Vec<i32> = family()
            .iter()
            .map(|f| score(Color::Silver, f, &board, &params))
            .collect();
        let best = *all.iter().max().unwrap();
        for seed in 0..6 {
            let silver = choose_setup(Color::Silver, &board, &params, seed);
            let mut gold_to_move = Position::empty(Color::Gold);
            for &(p, s) in gold.iter().chain(&silver) {
                gold_to_move.put(p, s);
            }
            let got = -evaluate(&gold_to_move, &params);
            assert!(got >= best - MARGIN, "seed {seed}: {got} against a best of {best}");
        }
    }

    #[test]
    fn seeds_vary_the_setup() {
        let empty = Position::empty(Color::Gold);
        for (params, least) in [(DEFAULT, 5), (evaluated(), 2)] {
            let all: std::collections::HashSet<String> = (0..40)
                .map(|s| format_setup(&choose_setup(Color::Gold, &empty, &params, s)))
                .collect();
            assert!(all.len() >= least, "{} distinct setups", all.len());
        }
    }
}
