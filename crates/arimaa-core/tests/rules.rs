//! One test (or more) per rule of RULES.md, edge cases included.

use arimaa_core::rules::{outcome, Reason};
use arimaa_core::{parse_move, Color, Game, MoveError, Outcome, Piece, Position, Square, TurnGen};
use std::collections::HashSet;

/// A position from a side letter and piece tokens like `Ed4 rd5`.
fn board(side: char, pieces: &str) -> Position {
    let mut p = Position::empty(Color::from_letter(side).unwrap());
    for tok in pieces.split_whitespace() {
        let piece = Piece::from_letter(tok.chars().next().unwrap()).unwrap();
        p.put(piece, Square::parse(&tok[1..]).unwrap());
    }
    p
}

fn legal(pos: &Position, mv: &str) -> Position {
    parse_move(pos, mv)
        .unwrap_or_else(|e| panic!("'{mv}' should be legal: {e}"))
        .1
}

fn illegal(pos: &Position, mv: &str) -> MoveError {
    match parse_move(pos, mv) {
        Ok(_) => panic!("'{mv}' should be illegal"),
        Err(e) => e,
    }
}

fn at(pos: &Position, sq: &str) -> Option<char> {
    pos.piece_at(Square::parse(sq).unwrap()).map(|p| p.letter())
}

#[test]
fn rabbits_never_step_backwards_but_can_be_pushed_back() {
    let p = board('g', "Rd4 Ed2 rd6 Hh8");
    assert!(matches!(illegal(&p, "Rd4s"), MoveError::Illegal { .. }));
    legal(&p, "Rd4e");
    let s = board('s', "rd5 Rh1 Ea1");
    assert!(illegal(&s, "rd5n").to_string().contains("backwards"));
    // Gold pushes a silver rabbit north (its backward direction).
    let push = board('g', "Ed4 rd5 Rh1");
    let after = legal(&push, "rd5n Ed4n");
    assert_eq!((at(&after, "d6"), at(&after, "d5")), (Some('r'), Some('E')));
}

#[test]
fn frozen_pieces_cannot_move_but_can_be_pushed() {
    let p = board('g', "Dd4 hd5 Ra1 ra8");
    assert!(illegal(&p, "Dd4w").to_string().contains("frozen"));
    // A friend next to it unfreezes it.
    legal(&board('g', "Dd4 hd5 Rc4 ra8"), "Dd4e");
    // The frozen gold dog can be pushed by silver's horse.
    let s = board('s', "Dd4 hd5 Ra1 ra8");
    let after = legal(&s, "Dd4e hd5s");
    assert_eq!((at(&after, "e4"), at(&after, "d4")), (Some('D'), Some('h')));
}

#[test]
fn equal_strength_neither_freezes_nor_pushes() {
    let p = board('g', "Dd4 dd5 Ra1 ra8");
    legal(&p, "Dd4w");
    assert!(matches!(illegal(&p, "dd5n Dd4n"), MoveError::Illegal { .. }));
}

#[test]
fn a_push_must_be_completed_and_cannot_start_on_the_fourth_step() {
    let p = board('g', "Ed4 rd5 Rh2 ra8");
    assert!(matches!(illegal(&p, "rd5n"), MoveError::UnfinishedPush(_)));
    assert!(illegal(&p, "Rh2n Rh3n Rh4n rd5n").to_string().contains("last step"));
    // The pusher must step into the vacated square, not elsewhere.
    assert!(illegal(&p, "rd5n Ed4e")
        .to_string()
        .contains("push must first be completed"));
    legal(&p, "Rh2n Rh3n rd5n Ed4n");
}

#[test]
fn a_pull_is_optional_and_may_be_the_fourth_step() {
    let p = board('g', "Ed4 rd5 Rh2 ra8");
    let after = legal(&p, "Rh2n Rh3n Ed4s rd5s");
    assert_eq!((at(&after, "d3"), at(&after, "d4")), (Some('E'), Some('r')));
    legal(&p, "Ed4s");
}

#[test]
fn the_completing_pusher_cannot_also_pull() {
    // E pushes r (d5 -> d6) stepping d4 -> d5; c4's cat may not follow E into d4 as a pull.
    let p = board('g', "Ed4 rd5 cd3 Rh2 ra8");
    let e = illegal(&p, "rd5n Ed4n cd3n");
    assert!(matches!(e, MoveError::Illegal { .. }), "{e}");
    // But a plain step of E may pull it.
    legal(&p, "Ed4e cd3n");
}

#[test]
fn pull_completes_even_when_the_puller_was_captured() {
    let p = board('g', "Dc4 rc5 Rh2 ra8");
    let after = legal(&p, "Dc4s Dc3x rc5s");
    assert_eq!((at(&after, "c3"), at(&after, "c4")), (None, Some('r')));
    let same = legal(&p, "Dc4s rc5s");
    assert!(same.same_board(&after));
}

#[test]
fn captures_happen_after_every_step_and_tokens_are_checked() {
    // The silver rabbit on f3 loses its only guard when the cat on f4 is pushed away.
    let p = board('g', "Ef5 cf4 rf3 Ra1 rh8");
    let after = legal(&p, "cf4e rf3x Ef5s");
    assert_eq!(at(&after, "f3"), None);
    legal(&p, "cf4e Ef5s");
    assert!(matches!(illegal(&p, "cf4e rc3x Ef5s"), MoveError::WrongCapture { .. }));
    assert!(matches!(
        illegal(&p, "Ef5e Ef5x"),
        MoveError::BadToken(_) | MoveError::WrongCapture { .. }
    ));
    assert!(matches!(
        illegal(&p, "Ef5w rf3x"),
        MoveError::WrongCapture { actual: None, .. }
    ));
    // Stepping onto an unguarded trap: the elephant itself dies.
    let after = legal(&p, "Ef5n Ef6x");
    assert_eq!(at(&after, "f6"), None);
}

#[test]
fn a_capture_mid_turn_unfreezes_at_once() {
    // Silver's horse on c3 freezes gold's dog on b3. Pushing away the horse's only
    // guard captures it, and the dog may move in the same turn.
    let p = board('g', "Ed4 rc4 hc3 Db3 Ra1 rh8");
    assert!(illegal(&p, "Db3s").to_string().contains("frozen"));
    let after = legal(&p, "rc4n hc3x Ed4w Db3s");
    assert_eq!(
        (at(&after, "c3"), at(&after, "b2"), at(&after, "c4")),
        (None, Some('D'), Some('E'))
    );
}

#[test]
fn net_change_is_required() {
    let p = board('g', "Ed4 Rh2 rh8");
    assert_eq!(illegal(&p, "Ed4n Ed5s"), MoveError::NoChange);
    legal(&p, "Ed4n Ed5s Ed4e");
}

#[test]
fn strict_parser_errors_name_the_token() {
    let p = board('g', "Ed4 Rh2 rh8");
    assert!(matches!(illegal(&p, "Md4n"), MoveError::WrongPiece { .. }));
    assert!(matches!(illegal(&p, "Ea1n"), MoveError::NoPiece(_)));
    assert!(matches!(
        illegal(&p, "Ed4n Ed5n Ed6s Ed5s Ed4n"),
        MoveError::TooManySteps(_)
    ));
    assert!(matches!(illegal(&p, "Ed4q"), MoveError::BadToken(_)));
    assert!(matches!(illegal(&p, ""), MoveError::Empty));
    assert!(illegal(&p, "Ed4n Ed5n Ed6n rh8w").to_string().contains("rh8w"));
}

fn play(game: &mut Game, mv: &str) -> Option<Outcome> {
    game.play_text(mv).unwrap_or_else(|e| panic!("'{mv}': {e}"))
}

#[test]
fn own_rabbit_on_goal_wins() {
    let mut g = Game::from_position(board('g', "Rd7 Ed2 re7"));
    assert_eq!(
        play(&mut g, "Rd7n"),
        Some(Outcome {
            winner: Color::Gold,
            reason: Reason::Goal
        })
    );
    assert!(matches!(g.play_text("re7s"), Err(MoveError::GameOver)));
}

#[test]
fn rabbit_pushed_into_goal_and_out_again_does_not_count() {
    // Gold pushes silver's rabbit onto rank 1 (silver's goal) and pulls it back off.
    let start = board('g', "Ed3 rd2 Ra4 ra8");
    let mut g = Game::from_position(start);
    assert_eq!(play(&mut g, "rd2s Ed3s Ed2e rd1n"), None);
    // Left on rank 1 it wins for silver even though gold moved it there.
    let mut g = Game::from_position(start);
    assert_eq!(
        play(&mut g, "rd2s Ed3s"),
        Some(Outcome {
            winner: Color::Silver,
            reason: Reason::Goal
        })
    );
}

#[test]
fn mover_goal_comes_before_opponent_goal() {
    let mut g = Game::from_position(board('g', "Ed3 rd2 Rb7 ra8"));
    let o = play(&mut g, "rd2s Ed3s Rb7n");
    assert_eq!(
        o,
        Some(Outcome {
            winner: Color::Gold,
            reason: Reason::Goal
        })
    );
}

#[test]
fn both_sides_out_of_rabbits_the_mover_wins() {
    // Gold captures silver's last rabbit on f6 (its guard is pushed away) and
    // loses its own last rabbit on c3.
    let start = board('g', "Ed6 ce6 rf6 Rb3 Hh1 mh8");
    let mut g = Game::from_position(start);
    let o = play(&mut g, "ce6n rf6x Ed6e Rb3e Rc3x");
    assert_eq!(
        o,
        Some(Outcome {
            winner: Color::Gold,
            reason: Reason::Elimination
        })
    );
    // Only its own rabbits lost: gold loses.
    let mut g = Game::from_position(board('g', "Rb3 Hh1 rh8"));
    assert_eq!(
        play(&mut g, "Rb3e Rc3x"),
        Some(Outcome {
            winner: Color::Silver,
            reason: Reason::Elimination
        })
    );
}

#[test]
fn immobilization_wins() {
    // Silver's lone rabbit is frozen by the gold cat after gold's move.
    let mut g = Game::from_position(board('g', "Cb6 ra7 Ra2 Eh2"));
    let o = play(&mut g, "Cb6n");
    assert_eq!(
        o,
        Some(Outcome {
            winner: Color::Gold,
            reason: Reason::Immobilization
        })
    );
    // Blocked rather than frozen: the two rabbits guard each other but have no empty square.
    let mut g = Game::from_position(board('g', "ra8 rb8 Ha7 Hb7 Dc8 Rh2"));
    assert_eq!(
        play(&mut g, "Rh2n"),
        Some(Outcome {
            winner: Color::Gold,
            reason: Reason::Immobilization
        })
    );
}

#[test]
fn third_repetition_is_refused() {
    // Gold shuttles its elephant; silver shuttles a rabbit between a8 and b8.
    let mut g = Game::from_position(board('g', "Ed4 Ra6 Rb7 Rh1 ra8"));
    for _ in 0..2 {
        for mv in ["Ed4n", "ra8e", "Ed5s", "rb8w"] {
            play(&mut g, mv);
        }
    }
    assert_eq!(g.times_seen(g.position().hash()), 2);
    assert_eq!(g.play_text("Ed4n"), Err(MoveError::ThirdRepetition));
    // The refused move changed nothing; another one is fine.
    play(&mut g, "Ed4e");
}

#[test]
fn a_side_whose_every_turn_repeats_a_third_time_loses() {
    // From a set position (which does not count), silver's only turn is ra2e:
    // its rabbit shuttles between a2 and b2, walled in by gold rabbits.
    let mut g = Game::from_position(board('s', "Ed5 Ra1 Rb1 Rc2 ra2"));
    let mut last = None;
    for mv in ["ra2e", "Ed5s", "rb2w", "Ed4n", "ra2e", "Ed5s", "rb2w", "Ed4n"] {
        last = play(&mut g, mv);
    }
    assert_eq!(
        last,
        Some(Outcome {
            winner: Color::Gold,
            reason: Reason::Repetition
        })
    );
}

#[test]
fn repetition_rule_through_the_outcome_function() {
    let pos = board('s', "Ed5 Ra6 Rb7 Rh1 ra8 rh7");
    let mut gen = TurnGen::new();
    let all: HashSet<u64> = gen.turns(&pos).iter().map(|t| t.hash).collect();
    assert!(all.len() > 1);
    let o = outcome(&pos, true, |h| all.contains(&h), &mut gen);
    assert_eq!(
        o,
        Some(Outcome {
            winner: Color::Gold,
            reason: Reason::Repetition
        })
    );
    let keep_one = *all.iter().next().unwrap();
    assert_eq!(
        outcome(&pos, true, |h| h != keep_one && all.contains(&h), &mut gen),
        None
    );
}

#[test]
fn setups_are_validated_and_positions_after_them_count() {
    let mut g = Game::new();
    assert!(g.in_setup());
    assert!(matches!(g.play_text("Ed2n"), Err(MoveError::Setup(_))));
    play(
        &mut g,
        "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2",
    );
    assert!(matches!(
        g.play_text("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2"),
        Err(MoveError::Setup(_))
    ));
    play(
        &mut g,
        "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7",
    );
    assert!(!g.in_setup());
    assert!(g.position().same_board(&Position::standard()));
    assert_eq!(g.times_seen(g.position().hash()), 1);
    assert_eq!(g.move_number(), 2);
    assert!(g.undo());
    assert!(g.in_setup());
    assert_eq!(g.times_seen(Position::standard().hash()), 0);
}
