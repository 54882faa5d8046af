//! The rules core against the oracle (pyrimaa) fixtures.

mod common;

use arimaa_core::perft::turn_counts;
use arimaa_core::{notation, parse_move, Color, Kind, Piece, Position, TurnGen};
use common::{fixture_position, fixtures_dir, movegen_fixtures};

#[test]
fn every_fixture_has_the_oracles_turn_and_step_counts() {
    let mut gen = TurnGen::new();
    let fixtures = movegen_fixtures();
    assert_eq!(fixtures.len(), 200);
    let mut wrong = Vec::new();
    for rec in &fixtures {
        let pos = fixture_position(rec);
        let c = turn_counts(&pos, &mut gen);
        let want = (
            rec["moves"].as_u64().unwrap() as usize,
            rec["steps_from_here"].as_u64().unwrap() as usize,
        );
        if (c.turns, c.first_steps) != want {
            wrong.push(format!(
                "{}: got {:?}, oracle {:?}",
                rec["id"],
                (c.turns, c.first_steps),
                want
            ));
        }
    }
    assert!(wrong.is_empty(), "{} mismatches:\n{}", wrong.len(), wrong.join("\n"));
}

#[test]
fn goal_and_capture_counts_match_the_oracle() {
    let mut gen = TurnGen::new();
    for rec in movegen_fixtures() {
        let pos = fixture_position(&rec);
        let us = pos.side();
        let turns = gen.turns(&pos);
        let goal_row = arimaa_core::rules::goal_rank(us);
        let goals = turns
            .iter()
            .filter(|t| (t.result(&pos).bitboard(Piece::new(us, Kind::Rabbit)) & goal_row).any())
            .count();
        let them = us.opponent();
        let captures = turns
            .iter()
            .filter(|t| t.result(&pos).color_bb(them).count() < pos.color_bb(them).count())
            .count();
        assert_eq!(
            goals as u64,
            rec["moves_goal"].as_u64().unwrap(),
            "{} goal moves",
            rec["id"]
        );
        assert_eq!(
            captures as u64,
            rec["moves_capture"].as_u64().unwrap(),
            "{} capture moves",
            rec["id"]
        );
    }
}

#[test]
fn oracle_sample_moves_parse_strictly_and_give_the_oracles_boards() {
    for rec in movegen_fixtures() {
        let pos = fixture_position(&rec);
        let moves = rec["sample_moves"].as_array().unwrap();
        let results = rec["sample_results"].as_array().unwrap();
        for (m, r) in moves.iter().zip(results) {
            let text = m.as_str().unwrap();
            let (mv, after) = parse_move(&pos, text).unwrap_or_else(|e| panic!("{}: '{text}': {e}", rec["id"]));
            assert_eq!(
                notation::board_to_aei(&after),
                r.as_str().unwrap(),
                "{}: {text}",
                rec["id"]
            );
            // Our own printing (with capture tokens) parses back to the same board.
            let printed = notation::format_move(&pos, &mv);
            let (_, again) = parse_move(&pos, &printed).unwrap();
            assert!(again.same_board(&after));
        }
    }
}

#[test]
fn standard_opening_has_3353_turns_for_either_side() {
    let text = std::fs::read_to_string(fixtures_dir().join("standard_position.json")).unwrap();
    let rec: serde_json::Value = serde_json::from_str(&text).unwrap();
    let want = rec["gold_to_move_moves"].as_u64().unwrap() as usize;
    assert_eq!(want, 3353);
    let mut gen = TurnGen::new();
    let gold = notation::parse_position(&format!("g {}", rec["board"].as_str().unwrap())).unwrap();
    assert!(gold.same_board(&Position::standard()));
    assert_eq!(gen.count(&gold), want);
    assert_eq!(
        gold.legal_step_list().len() as u64,
        rec["gold_to_move_steps"].as_u64().unwrap()
    );
    let silver = notation::parse_position(&format!("s {}", rec["board"].as_str().unwrap())).unwrap();
    assert_eq!(silver.side(), Color::Silver);
    assert_eq!(
        gen.count(&silver),
        rec["silver_to_move_same_board_moves"].as_u64().unwrap() as usize
    );
    let spec = notation::parse_position(&format!("g {}", rec["spec_example_board"].as_str().unwrap())).unwrap();
    assert_eq!(
        gen.count(&spec),
        rec["spec_example_gold_moves"].as_u64().unwrap() as usize
    );
}
