//! Helpers shared by the integration tests: fixtures, the RNG, random games.

#![allow(dead_code)]

use arimaa_core::{parse_position, Position, TurnGen};
use std::path::PathBuf;

/// The oracle data: pyrimaa's counts, written by `tools/oracle/generate.py`.
pub fn fixtures_dir() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/data")
}

/// The oracle's movegen fixtures, parsed.
pub fn movegen_fixtures() -> Vec<serde_json::Value> {
    let path = fixtures_dir().join("movegen.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str(l).expect("fixture line is JSON"))
        .collect()
}

/// The position of a fixture record.
pub fn fixture_position(rec: &serde_json::Value) -> Position {
    let text = rec["setposition"].as_str().expect("setposition field");
    parse_position(text.trim_start_matches("setposition ")).expect("fixture position parses")
}

/// The workspace's deterministic generator, under the tests' short name.
pub use arimaa_core::rng::XorShift as Rng;

/// Positions along random games from the standard opening: `games` games of up
/// to `turns` turns each, every turn a uniformly random legal turn.
pub fn random_game_positions(seed: u64, games: usize, turns: usize) -> Vec<Position> {
    let mut rng = Rng(seed | 1);
    let mut gen = TurnGen::new();
    let mut out = Vec::new();
    for _ in 0..games {
        let mut pos = Position::standard();
        for _ in 0..turns {
            out.push(pos);
            let options = gen.turns(&pos);
            if options.is_empty() || arimaa_core::rules::goal_rank(pos.side().opponent()).any() && finished(&pos) {
                break;
            }
            pos = options[rng.below(options.len())].result(&pos);
        }
    }
    out
}

fn finished(pos: &Position) -> bool {
    use arimaa_core::{Color, Kind, Piece};
    Color::ALL.into_iter().any(|c| {
        let r = pos.bitboard(Piece::new(c, Kind::Rabbit));
        r.is_empty() || (r & arimaa_core::rules::goal_rank(c)).any()
    })
}
