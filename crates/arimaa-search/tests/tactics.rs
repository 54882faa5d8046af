//! The search on the tactics suite (`tests/data/tactics.jsonl`, written and
//! proved with pyrimaa by `tools/oracle/generate.py`): every goal taken, every
//! one-turn goal threat stopped, already at the shallowest depth (the root
//! turn plus the exact goal test for the opponent), and two turns deep with
//! every selective rule on.

use arimaa_core::rules::goal_rank;
use arimaa_core::{parse_move, parse_position, Color, Game, Kind, Piece, Position, TurnGen};
use arimaa_search::goal::can_goal;
use arimaa_search::params::DEFAULT;
use arimaa_search::{Params, SearchConfig, Searcher, TimeManager, TransTable};

/// The suite's records of one kind.
fn records(kind: &str) -> Vec<serde_json::Value> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/tactics.jsonl");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| serde_json::from_str::<serde_json::Value>(l).expect("JSON line"))
        .filter(|r| r["kind"] == kind)
        .collect()
}

fn position(r: &serde_json::Value) -> Position {
    parse_position(r["setposition"].as_str().unwrap().trim_start_matches("setposition ")).unwrap()
}

fn suite(kind: &str) -> Vec<(String, Game)> {
    records(kind)
        .iter()
        .map(|r| (r["id"].as_str().unwrap().to_string(), Game::from_position(position(r))))
        .collect()
}

fn reaches_goal(after: &Position, side: Color) -> bool {
    (after.bitboard(Piece::new(side, Kind::Rabbit)) & goal_rank(side)).any()
}

/// What pyrimaa proved when the suite was written holds for the rules core
/// too: the same turn counts, and every example answer does what its kind asks.
#[test]
fn the_suites_proved_answers_hold_in_the_rules_core() {
    let mut gen = TurnGen::new();
    let mut examples = 0;
    for kind in ["goal1", "defend", "capture"] {
        for r in records(kind) {
            let (id, pos, answer) = (&r["id"], position(&r), &r["answer"]);
            let us = pos.side();
            let turns = gen.turns(&pos);
            assert_eq!(Some(turns.len() as u64), answer["total_moves"].as_u64(), "{id}");
            let after_each: Vec<Position> = turns.iter().map(|t| t.result(&pos)).collect();
            let count = |f: &dyn Fn(&Position) -> bool| Some(after_each.iter().filter(|a| f(a)).count() as u64);
            let captures = |a: &Position| a.color_bb(us.opponent()).count() < pos.color_bb(us.opponent()).count();
            match kind {
                "goal1" => assert_eq!(count(&|a| reaches_goal(a, us)), answer["goal_moves"].as_u64(), "{id}"),
                "capture" => assert_eq!(count(&captures), answer["capture_moves"].as_u64(), "{id}"),
                _ => {}
            }
            for text in answer["examples"].as_array().expect("examples") {
                let text = text.as_str().expect("a move");
                let (_, mut after) = parse_move(&pos, text).unwrap_or_else(|e| panic!("{id}: {text}: {e}"));
                after.end_turn();
                examples += 1;
                if kind == "goal1" {
                    assert!(reaches_goal(&after, us), "{id}: {text}");
                    continue;
                }
                assert!(!reaches_goal(&after, us.opponent()), "{id}: {text} loses at once");
                assert!(
                    after.bitboard(Piece::new(us, Kind::Rabbit)).any(),
                    "{id}: {text} loses every rabbit"
                );
                assert!(kind != "capture" || captures(&after), "{id}: {text} captures nothing");
                assert!(
                    reaches_goal(&after, us) || !can_goal(&after),
                    "{id}: {text} allows a goal"
                );
            }
        }
    }
    assert!(examples >= 90, "{examples} examples");
}

fn best_at_depth(game: &Game, depth: u32, params: &Params) -> arimaa_core::Position {
    let time = TimeManager::unlimited();
    let tt = TransTable::new(16);
    let r = Searcher::new(game, &time, &tt)
        .params(params)
        .depth(depth)
        .run(&mut |_| {})
        .expect("a legal move");
    let mut g = game.clone();
    g.play(&r.best).expect("the engine's move is legal");
    *g.position()
}

/// The defaults at one turn's depth, and every selective rule switched on
/// (root reductions, commuting steps skipped, passes charged) two turns
/// deep and two steps more, where all of them act: none may prune a goal
/// or a goal defence away.
fn settings() -> Vec<(u32, Params, &'static str)> {
    let selective = Params {
        search: SearchConfig {
            root_reduce: true,
            commute: true,
            pass_cost: true,
            ..DEFAULT.search
        },
        ..DEFAULT
    };
    vec![
        (4, DEFAULT, "defaults, depth 4"),
        (8, selective.clone(), "all selective rules, depth 8"),
        (10, selective, "all selective rules, depth 10"),
    ]
}

#[test]
fn takes_every_goal_in_one() {
    let cases = suite("goal1");
    assert_eq!(cases.len(), 40);
    for (depth, params, what) in settings() {
        for (id, game) in &cases {
            let us = game.side_to_move();
            let after = best_at_depth(game, depth, &params);
            assert!(
                (after.bitboard(Piece::new(us, Kind::Rabbit)) & goal_rank(us)).any(),
                "{id} ({what}): no goal"
            );
        }
    }
}

#[test]
fn stops_every_one_turn_goal_threat() {
    let cases = suite("defend");
    assert_eq!(cases.len(), 30);
    for (depth, params, what) in settings() {
        for (id, game) in &cases {
            let us = game.side_to_move();
            let after = best_at_depth(game, depth, &params);
            let them = us.opponent();
            assert!(
                !(after.bitboard(Piece::new(them, Kind::Rabbit)) & goal_rank(them)).any(),
                "{id} ({what}): lost at once"
            );
            assert!(
                after.bitboard(Piece::new(us, Kind::Rabbit)).any(),
                "{id} ({what}): lost all rabbits"
            );
            assert!(!can_goal(&after), "{id} ({what}): the opponent can still reach goal");
        }
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
