//! Every capture `threats` reports is a real one: over the positions of the
//! committed game sample and of random playouts, at turn starts and part-way
//! through turns (open pulls included), both steps of each reported capture
//! are in the full legal step lists and the victim leaves the board.
//! Quiescence plays these captures without generating any step list, on the
//! strength of this test.

use arimaa_core::notation::parse_move;
use arimaa_core::rng::XorShift;
use arimaa_core::{Game, Kind, Pending, Piece, Position, Step, TurnGen};
use arimaa_search::threats::for_each_capture;

/// What was checked, to show the test is not vacuous.
#[derive(Debug, Default)]
struct Seen {
    states: usize,
    mid_turn: usize,
    open_pull: usize,
    captures: usize,
    mid_turn_captures: usize,
    open_pull_captures: usize,
}

/// Checks the captures of the side to move (when it has a push's two steps
/// left and no push open, the states where quiescence asks) and those of the
/// other side on its next turn (what the evaluation counts against the mover).
fn check(pos: &Position, seen: &mut Seen) {
    if matches!(pos.pending(), Pending::Push { .. }) {
        return;
    }
    seen.states += 1;
    let mid_turn = pos.steps_left() < 4;
    seen.mid_turn += usize::from(mid_turn);
    seen.open_pull += usize::from(matches!(pos.pending(), Pending::Pull { .. }));
    if pos.steps_left() >= 2 {
        for_each_capture(pos, pos.side(), |victim, [s1, s2]| {
            verify(pos, victim, s1, s2);
            seen.captures += 1;
            seen.mid_turn_captures += usize::from(mid_turn);
            seen.open_pull_captures += usize::from(matches!(pos.pending(), Pending::Pull { .. }));
        });
    }
    let mut next = *pos;
    next.end_turn();
    for_each_capture(&next, next.side(), |victim, [s1, s2]| {
        verify(&next, victim, s1, s2);
        seen.captures += 1;
    });
}

/// `s1` then `s2` are legal from `pos` by full step generation, end outside a
/// push, and take a `victim` of the side not moving off the board.
fn verify(pos: &Position, victim: Kind, s1: Step, s2: Step) {
    let board = arimaa_core::position_to_aei(pos);
    let context = || {
        format!(
            "{s1} {s2} from {board} ({} steps left, {:?})",
            pos.steps_left(),
            pos.pending()
        )
    };
    assert!(pos.legal_step_list().contains(s1), "first step illegal: {}", context());
    let mut after = *pos;
    after.make_step(s1);
    assert!(
        after.legal_step_list().contains(s2),
        "second step illegal: {}",
        context()
    );
    after.make_step(s2);
    assert!(
        !matches!(after.pending(), Pending::Push { .. }),
        "a push left open: {}",
        context()
    );
    let piece = Piece::new(pos.side().opponent(), victim);
    assert_eq!(after.count(piece) + 1, pos.count(piece), "no capture: {}", context());
}

/// `pos` and the states after each step of `turn` played from it.
fn along(pos: &Position, turn: &arimaa_core::Move, seen: &mut Seen) {
    let mut p = *pos;
    check(&p, seen);
    for step in turn.iter() {
        p.make_step(step);
        check(&p, seen);
    }
}

/// The turn texts of each game of the sample (setups first).
fn sample_games() -> Vec<Vec<String>> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tuning/tests/data/strong_sample.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the committed game sample");
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let game: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            game["moves"]
                .as_array()
                .expect("moves")
                .iter()
                .map(|m| m.as_str().expect("a move").to_string())
                .collect()
        })
        .collect()
}

#[test]
fn every_reported_capture_is_legal_and_captures_in_the_game_sample() {
    let mut seen = Seen::default();
    let games = sample_games();
    assert!(games.len() >= 10, "{} games", games.len());
    for moves in games {
        let mut game = Game::new();
        for text in moves {
            if !game.in_setup() {
                let pos = *game.position();
                let (turn, _) = parse_move(&pos, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
                along(&pos, &turn, &mut seen);
            }
            game.play_text(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        }
    }
    eprintln!("{seen:?}");
    assert!(seen.states > 2000 && seen.mid_turn > 1500, "{seen:?}");
    assert!(seen.captures > 100 && seen.mid_turn_captures > 20, "{seen:?}");
}

#[test]
fn every_reported_capture_is_legal_and_captures_along_random_playouts() {
    let mut rng = XorShift(0x9E37_79B9_7F4A_7C15);
    let mut seen = Seen::default();
    let mut gen = TurnGen::new();
    for _ in 0..30 {
        let mut game = Game::from_position(Position::standard());
        for _ in 0..70 {
            if game.outcome().is_some() {
                break;
            }
            let turns = game.legal_turns(&mut gen);
            if turns.is_empty() {
                break;
            }
            let pos = *game.position();
            // Random walks of single steps through the turn: pushes, pulls
            // left open or closed, and the steps of turns no generator keeps.
            for _ in 0..4 {
                let mut p = pos;
                check(&p, &mut seen);
                while p.steps_left() > 0 {
                    let steps = p.legal_step_list();
                    if steps.as_slice().is_empty() {
                        break;
                    }
                    p.make_step(steps.as_slice()[rng.below(steps.as_slice().len())]);
                    check(&p, &mut seen);
                }
            }
            let steps = turns[rng.below(turns.len())].steps;
            along(&pos, &steps, &mut seen);
            game.play(&steps).expect("a generated turn is legal");
        }
    }
    eprintln!("{seen:?}");
    assert!(seen.states > 10_000 && seen.open_pull > 500, "{seen:?}");
    assert!(seen.captures > 500 && seen.mid_turn_captures > 200, "{seen:?}");
    assert!(seen.open_pull_captures > 20, "{seen:?}");
}
