//! The first search on the shared tactics suite: every goal taken, every
//! one-turn goal threat stopped, already at the shallowest depth (the root
//! turn plus the exact goal test for the opponent).

use arimaa_core::rules::goal_rank;
use arimaa_core::{parse_position, Game, Kind, Piece, TurnGen};
use arimaa_search::goal::can_goal;
use arimaa_search::{Limits, Searcher, TransTable};
use std::sync::atomic::AtomicBool;

fn suite(kind: &str) -> Vec<(String, Game)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../../shared/fixtures/tactics.jsonl");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON line"))
        .filter(|r| r["kind"] == kind)
        .map(|r| {
            let pos = parse_position(r["setposition"].as_str().unwrap().trim_start_matches("setposition ")).unwrap();
            (r["id"].as_str().unwrap().to_string(), Game::from_position(pos))
        })
        .collect()
}

fn best_at_depth(game: &Game, depth: u32) -> arimaa_core::Position {
    let limits = Limits::new(None, None, Some(depth));
    let stop = AtomicBool::new(false);
    let tt = TransTable::new(16);
    let r = Searcher::new(game, &limits, &stop, &tt)
        .run(&mut |_| {})
        .expect("a legal move");
    let mut g = game.clone();
    g.play(&r.best).expect("the engine's move is legal");
    *g.position()
}

#[test]
fn takes_every_goal_in_one() {
    let cases = suite("goal1");
    assert_eq!(cases.len(), 40);
    for (id, game) in cases {
        let us = game.side_to_move();
        let after = best_at_depth(&game, 4);
        assert!(
            (after.bitboard(Piece::new(us, Kind::Rabbit)) & goal_rank(us)).any(),
            "{id}: no goal"
        );
    }
}

#[test]
fn stops_every_one_turn_goal_threat() {
    let cases = suite("defend");
    assert_eq!(cases.len(), 30);
    for (id, game) in cases {
        let us = game.side_to_move();
        let after = best_at_depth(&game, 4);
        let them = us.opponent();
        assert!(
            !(after.bitboard(Piece::new(them, Kind::Rabbit)) & goal_rank(them)).any(),
            "{id}: lost at once"
        );
        assert!(
            after.bitboard(Piece::new(us, Kind::Rabbit)).any(),
            "{id}: lost all rabbits"
        );
        assert!(!can_goal(&after), "{id}: the opponent can still reach goal");
    }
}

/// The goal test against the slow truth (every turn enumerated) on positions
/// with rabbits close to goal, taken from the suites.
#[test]
fn goal_test_matches_full_enumeration() {
    let mut gen = TurnGen::new();
    let mut checked = 0;
    for kind in ["goal1", "defend", "capture"] {
        for (id, game) in suite(kind) {
            let mut positions = vec![*game.position()];
            // And the opponent's view after 20 turns spread over the list, and
            // our view again after one of its replies: goal races from both sides.
            let turns = gen.turns(game.position());
            for t in turns.iter().step_by(turns.len() / 20 + 1) {
                let after = t.result(game.position());
                positions.push(after);
                if let Some(reply) = gen.turns(&after).get(7) {
                    positions.push(reply.result(&after));
                }
            }
            for pos in positions {
                let us = pos.side();
                let truth = gen
                    .turns(&pos)
                    .iter()
                    .any(|t| (t.result(&pos).bitboard(Piece::new(us, Kind::Rabbit)) & goal_rank(us)).any());
                assert_eq!(can_goal(&pos), truth, "{id}: {}", arimaa_core::position_to_aei(&pos));
                checked += 1;
            }
        }
    }
    assert!(checked > 3000, "{checked}");
}
