//! Deterministic random-input tests of every parser that reads outside text:
//! positions, board diagrams, moves, setups, step tokens and game records. Inputs are random
//! strings over the notation's alphabet, byte garbage, and valid texts cut,
//! spliced and mutated. Each parser must return (never panic), and every
//! error must say something. (`cargo fuzz` needs a nightly toolchain; these
//! run in the ordinary test suite and in CI.)

mod common;

use arimaa_core::diagram::parse_diagram;
use arimaa_core::notation::{board_diagram, format_setup, parse_setup, parse_step_token};
use arimaa_core::record::parse_record;
use arimaa_core::{format_move, parse_move, parse_position, position_to_aei, Color, Game, Position, TurnGen};
use common::{random_game_positions, Rng};

/// Characters the notations use, plus a few that they do not.
const ALPHABET: &[u8] = b"RCDHMErcdhmeabcdefgh12345678nsewx gsbw[]. \t\n#-=?|+\xc3\xa9";

fn random_text(rng: &mut Rng, max: usize) -> String {
    let len = rng.below(max + 1);
    let bytes: Vec<u8> = (0..len).map(|_| ALPHABET[rng.below(ALPHABET.len())]).collect();
    String::from_utf8_lossy(&bytes).into_owned()
}

/// A valid text cut short, with a character changed, or with a slice repeated.
fn mutate(rng: &mut Rng, text: &str) -> String {
    let chars: Vec<char> = text.chars().collect();
    if chars.is_empty() {
        return String::new();
    }
    let at = rng.below(chars.len());
    match rng.below(4) {
        0 => chars[..at].iter().collect(),
        1 => {
            let mut c = chars.clone();
            c[at] = ALPHABET[rng.below(ALPHABET.len())] as char;
            c.into_iter().collect()
        }
        2 => {
            let end = (at + 1 + rng.below(8)).min(chars.len());
            let mut c = chars.clone();
            c.splice(at..at, chars[at..end].iter().copied());
            c.into_iter().collect()
        }
        _ => {
            let mut c = chars.clone();
            c.remove(at);
            c.into_iter().collect()
        }
    }
}

fn say_something<E: std::fmt::Display>(e: E) {
    assert!(!e.to_string().trim().is_empty(), "an error without a message");
}

#[test]
fn position_strings() {
    let mut rng = Rng(0x5EED_0001);
    let valid: Vec<String> = random_game_positions(3, 4, 20).iter().map(position_to_aei).collect();
    let mut accepted = 0;
    for i in 0..40_000 {
        let text = if i % 2 == 0 {
            random_text(&mut rng, 90)
        } else {
            let pick = rng.below(valid.len());
            mutate(&mut rng, &valid[pick])
        };
        match parse_position(&text) {
            Ok(p) => {
                accepted += 1;
                // Whatever parses prints back to a string that parses to the same board.
                assert!(parse_position(&position_to_aei(&p)).is_ok_and(|q| q.same_board(&p)));
            }
            Err(e) => say_something(e),
        }
    }
    assert!(accepted > 100, "the mutations keep some inputs valid: {accepted}");
}

#[test]
fn board_diagrams() {
    let mut rng = Rng(0x5EED_0005);
    let valid: Vec<String> = random_game_positions(3, 4, 20)
        .iter()
        .map(|p| format!("7{}\n{}", p.side().letter(), board_diagram(p)))
        .collect();
    let mut accepted = 0;
    for i in 0..20_000 {
        let text = if i % 4 == 0 {
            random_text(&mut rng, 300)
        } else {
            let pick = rng.below(valid.len());
            mutate(&mut rng, &valid[pick])
        };
        match parse_diagram(&text, None) {
            Ok(d) => {
                accepted += 1;
                // Whatever reads prints back to a diagram that reads the same.
                let again = parse_diagram(&board_diagram(&d.position), Some(d.position.side()));
                assert!(again.is_ok_and(|a| a.position.same_board(&d.position)), "{text}");
            }
            Err(e) => say_something(e),
        }
    }
    assert!(accepted > 100, "the mutations keep some inputs valid: {accepted}");
}

#[test]
fn moves_and_step_tokens() {
    let mut rng = Rng(0x5EED_0002);
    let mut gen = TurnGen::new();
    let positions: Vec<Position> = random_game_positions(5, 4, 25);
    let mut accepted = 0;
    for (n, pos) in positions.iter().enumerate() {
        let turns = gen.turns(pos);
        let texts: Vec<String> = turns.iter().take(50).map(|t| format_move(pos, &t.steps)).collect();
        for i in 0..400 {
            let text = if i % 2 == 0 || texts.is_empty() {
                random_text(&mut rng, 30)
            } else {
                let pick = rng.below(texts.len());
                mutate(&mut rng, &texts[pick])
            };
            match parse_move(pos, &text) {
                Ok((mv, after)) => {
                    accepted += 1;
                    // An accepted move is a legal turn: generation finds its board.
                    assert!(
                        turns.iter().any(|t| t.result(pos).same_board(&after)),
                        "{n}: '{text}' -> {mv:?}"
                    );
                }
                Err(e) => say_something(e),
            }
            let _ = parse_step_token(&text);
        }
    }
    assert!(accepted > 100, "{accepted}");
}

#[test]
fn setups() {
    let mut rng = Rng(0x5EED_0003);
    let std = Position::standard();
    let mut gold = Vec::new();
    for sq in std.color_bb(Color::Gold) {
        gold.push((std.piece_at(sq).expect("a piece"), sq));
    }
    let valid = format_setup(&gold);
    for i in 0..20_000 {
        let text = if i % 2 == 0 {
            random_text(&mut rng, 80)
        } else {
            mutate(&mut rng, &valid)
        };
        for color in [Color::Gold, Color::Silver] {
            if let Err(e) = parse_setup(color, &text) {
                say_something(e);
            }
        }
    }
}

#[test]
fn game_records() {
    let mut rng = Rng(0x5EED_0004);
    // A real record to cut up: two setups and a few random turns.
    let mut game = Game::new();
    game.play_text("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
        .expect("gold setup");
    game.play_text("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 ed7 me7 cf7 dg7 hh7")
        .expect("silver setup");
    let mut gen = TurnGen::new();
    for _ in 0..12 {
        let turns = game.legal_turns(&mut gen);
        if turns.is_empty() || game.outcome().is_some() {
            break;
        }
        let pick = turns[rng.below(turns.len())].steps;
        game.play(&pick).expect("a generated turn");
    }
    let valid = game.record_text();
    assert!(parse_record(&valid).is_ok());
    for i in 0..3_000 {
        let text = match i % 3 {
            0 => random_text(&mut rng, 200),
            1 => mutate(&mut rng, &valid),
            _ => {
                // Whole lines dropped or swapped.
                let mut lines: Vec<&str> = valid.lines().collect();
                let a = rng.below(lines.len());
                let b = rng.below(lines.len());
                lines.swap(a, b);
                if rng.below(2) == 0 {
                    lines.remove(rng.below(lines.len()));
                }
                lines.join("\n")
            }
        };
        if let Err(e) = parse_record(&text) {
            say_something(e);
        }
    }
}
