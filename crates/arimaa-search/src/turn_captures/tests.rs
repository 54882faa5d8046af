use super::*;
use crate::eval::tests::board;
use arimaa_core::notation::parse_move;
use arimaa_core::Game;
use std::collections::HashMap;

fn value(kind: Kind) -> i32 {
    kind.index() as i32 * 100 + 50
}

/// Net material of the best continuation from `pos` over every sequence of
/// legal steps in the turn (0 for stopping, which a half-done push forbids):
/// the truth the search is checked against.
fn brute(pos: &Position, memo: &mut HashMap<u64, i32>) -> i32 {
    if let Some(&v) = memo.get(&pos.state_key()) {
        return v;
    }
    let mid_push = matches!(pos.pending(), Pending::Push { .. });
    let mut best = if mid_push { i32::MIN / 2 } else { 0 };
    if pos.steps_left() > 0 {
        for &step in pos.legal_step_list().as_slice() {
            let mut child = *pos;
            let delta = match child.make_step(step).captured() {
                Some((piece, _)) if piece.color == pos.side() => -value(piece.kind),
                Some((piece, _)) => value(piece.kind),
                None => 0,
            };
            best = best.max(delta + brute(&child, memo));
        }
    }
    memo.insert(pos.state_key(), best);
    best
}

fn search(pos: &Position) -> i32 {
    best_turn_capture(pos, value, value)
}

/// `pos` with only `steps` steps left in its turn, the others spent by the
/// side to move's rabbit on rank 1 or 2, far from the action.
fn with_steps(pos: &Position, steps: u8) -> Position {
    let mut p = *pos;
    while p.steps_left() > steps {
        let list = p.legal_step_list();
        let step = list
            .as_slice()
            .iter()
            .copied()
            .find(|s| s.piece().kind == Kind::Rabbit && s.piece().color == p.side() && s.from().rank() <= 1)
            .expect("a spare rabbit step");
        p.make_step(step);
    }
    p
}

/// The best capture of gold to move on `ranks` (a spare gold rabbit on
/// rank 1 or 2 spends the steps taken away), for each `(steps left, value)`.
fn assert_captures(ranks: [&str; 8], expected: &[(u8, i32)]) {
    let pos = board(ranks, 'g');
    for &(steps, want) in expected {
        assert_eq!(search(&with_steps(&pos, steps)), want, "{steps} steps left");
    }
}

#[test]
fn approach_then_push_takes_three_steps() {
    // Gold dog e5 steps to d5, then pushes the cat c5 onto c6; two steps
    // are a push alone, which does not reach.
    let cat = value(Kind::Cat);
    assert_captures(
        [
            "........", "........", "........", "..c.D...", "........", "........", "........", "R.......",
        ],
        &[(4, cat), (3, cat), (2, 0)],
    );
}

#[test]
fn guard_drawn_away_then_push_takes_four_steps() {
    // The horse e6 pushes c6's guard d6 to d7, then the dog b5 pushes the cat
    // c5 onto the unguarded trap.
    assert_captures(
        [
            "........", "........", "...rH...", ".Dc.....", "........", "........", "........", "R.......",
        ],
        &[(4, value(Kind::Cat)), (3, 0)],
    );
}

#[test]
fn two_pushes_in_a_row_take_four_steps() {
    // The rabbit a6 pushed to b6 and on onto c6 by the horse.
    let pos = board(
        [
            "........", "........", "r.......", "H.......", "........", "........", "........", "........",
        ],
        'g',
    );
    assert_eq!(search(&pos), value(Kind::Rabbit));
    let mut three = pos;
    three.make_step(
        *pos.legal_step_list()
            .as_slice()
            .iter()
            .find(|s| s.piece().kind == Kind::Horse && s.to().index() == 33)
            .expect("horse a5 to b5"),
    );
    assert_eq!(three.steps_left(), 3);
    assert_eq!(
        search(&three),
        0,
        "from b5 the horse has three steps left: one push short"
    );
}

#[test]
fn a_frozen_attacker_unfrozen_by_a_friend_pushes() {
    // The dog d5 is frozen by the horse d4; the rabbit e6 steps to d6 beside
    // it, and the dog pushes the cat c5 onto c6.
    let ranks = [
        "........", "........", "....R...", "..cD....", "...h....", "........", "........", "R.......",
    ];
    assert!(board(ranks, 'g').frozen(Color::Gold).has(Square::parse("d5").unwrap()));
    assert_captures(ranks, &[(3, value(Kind::Cat)), (2, 0)]);
}

/// States of the committed game sample: each turn start, and after each
/// step of the turn played.
pub(crate) fn sample_states() -> Vec<Position> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../../tuning/tests/data/strong_sample.jsonl"
    );
    let text = std::fs::read_to_string(path).expect("the committed game sample");
    let mut out = Vec::new();
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        let game: serde_json::Value = serde_json::from_str(line).expect("a JSON line");
        let mut g = Game::new();
        for m in game["moves"].as_array().expect("moves") {
            let text = m.as_str().expect("a move");
            if !g.in_setup() {
                let mut pos = *g.position();
                let (turn, _) = parse_move(&pos, text).expect("a recorded move");
                out.push(pos);
                for step in turn.iter() {
                    pos.make_step(step);
                    out.push(pos);
                }
            }
            g.play_text(text).expect("a recorded move");
        }
    }
    out
}

/// Against every sequence of steps, on game states with three or four steps
/// left: the search never reports more than there is (every capture it
/// counts is played out), misses little, and its bound never cuts a branch
/// that holds more than it says.
#[test]
fn agrees_with_every_step_sequence_on_game_states() {
    let (mut states, mut equal, mut with_capture, mut longer) = (0, 0, 0, 0);
    let mut nodes = Vec::new();
    for pos in sample_states().into_iter().step_by(2) {
        if pos.steps_left() < 3 {
            continue;
        }
        let mut memo = HashMap::new();
        let truth = brute(&pos, &mut memo);
        let run = run(&pos, value, value);
        let found = run.best;
        nodes.push(run.nodes);
        assert!(
            found <= truth,
            "{found} > {truth} at {}",
            arimaa_core::position_to_aei(&pos)
        );
        states += 1;
        equal += usize::from(found == truth);
        if found != truth {
            eprintln!(
                "missed: {found} of {truth} at {} ({} steps left, {:?})",
                arimaa_core::position_to_aei(&pos),
                pos.steps_left(),
                pos.pending()
            );
        }
        with_capture += usize::from(truth > 0);
        let mut two = 0;
        for_each_capture(&pos, pos.side(), |k, _| two = two.max(value(k)));
        longer += usize::from(truth > two);
        // The bound: the enemy material any continuation wins is within it.
        if pos.pending() == Pending::None {
            let s = Search::new(&pos, value, value);
            let reach = pos.steps_left();
            assert!(
                s.potential(&pos, reach).0 >= truth,
                "bound {} below {truth} at {} ({} steps left, {:?})",
                s.potential(&pos, reach).0,
                arimaa_core::position_to_aei(&pos),
                pos.steps_left(),
                pos.pending()
            );
        }
        if states >= 600 {
            break;
        }
    }
    nodes.sort_unstable();
    let n = nodes.len();
    eprintln!(
        "nodes: mean {:.1}, median {}, 90 % {}, 99 % {}, most {}",
        nodes.iter().sum::<u32>() as f64 / n as f64,
        nodes[n / 2],
        nodes[n * 9 / 10],
        nodes[n * 99 / 100],
        nodes[n - 1]
    );
    eprintln!("{states} states, {with_capture} with a capture, {longer} beyond two steps, {equal} equal");
    assert!(
        states >= 600 && with_capture >= 100 && longer >= 60,
        "{states} {with_capture} {longer}"
    );
    assert!(equal * 100 >= states * 99, "{equal} of {states} equal");
}

/// The cheap bounds hold the truth (every sequence of steps) and the
/// search's answer between them on game states at every step of a turn,
/// open pushes and pulls included, and settle most of them exactly.
#[test]
fn bounds_hold_the_search_and_the_truth() {
    let (mut states, mut exact, mut pending) = (0, 0, 0);
    for pos in sample_states().into_iter().skip(1).step_by(3).take(900) {
        let truth = brute(&pos, &mut HashMap::new());
        let (low, high) = turn_capture_bounds(&pos, value, value);
        let found = search(&pos);
        let at = arimaa_core::position_to_aei(&pos);
        assert!(low <= found && found <= high, "{low} {found} {high} at {at}");
        assert!(low <= truth && truth <= high, "{low} {truth} {high} at {at}");
        states += 1;
        exact += usize::from(low == high);
        pending += usize::from(pos.pending() != Pending::None);
    }
    eprintln!("{states} states, {exact} settled by the bounds, {pending} with a push or pull open");
    assert!(
        pending >= 20 && exact * 2 >= states && exact < states,
        "{states} {exact} {pending}"
    );
}

/// The evaluation's feature: the mover's best capture over the steps it has
/// left, in neither side's view when the board has none for the mover.
#[test]
fn the_evaluation_reads_the_movers_whole_turn_capture() {
    use crate::eval::trace;
    use crate::params::Weight;
    let ranks = [
        "........", "........", "........", "..c.D...", "........", "........", "........", "R.......",
    ];
    let turn = Weight::capture_turn_16ths as usize;
    let gold = board(ranks, 'g');
    assert!(
        trace(&gold).features[turn] > 0.0,
        "gold's dog takes the cat in three steps"
    );
    assert_eq!(
        trace(&board(ranks, 's')).features[turn],
        0.0,
        "silver has nothing stronger"
    );
    assert_eq!(
        trace(&with_steps(&gold, 2)).features[turn],
        0.0,
        "two steps left: no capture"
    );
}
