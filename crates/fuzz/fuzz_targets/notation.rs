//! Position strings, board diagrams, moves, steps, capture tokens and
//! setups. The first line is a position (`g [64 chars]`), the rest a move
//! played on it; a move that parses must print back to text that parses to
//! the same position. The whole text is also read as a diagram, which must
//! print back to one that reads the same.
#![no_main]

use arimaa_core::diagram::parse_diagram;
use arimaa_core::notation::{board_diagram, parse_capture_token, parse_setup, parse_step_token};
use arimaa_core::{format_move, parse_move, parse_position, position_to_aei, Color};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    let (first, rest) = text.split_once('\n').unwrap_or((text, ""));
    for token in text.split_whitespace() {
        let _ = parse_step_token(token);
        let _ = parse_capture_token(token);
    }
    let _ = parse_setup(Color::Gold, text);
    let _ = parse_setup(Color::Silver, rest);
    match parse_diagram(text, Some(Color::Gold)) {
        Ok(d) => {
            let again =
                parse_diagram(&board_diagram(&d.position), Some(d.position.side())).expect("a printed diagram parses");
            assert!(again.position.same_board(&d.position));
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
    match parse_position(first) {
        Ok(pos) => {
            // The printed position reads back the same.
            let again = parse_position(&position_to_aei(&pos)).expect("a printed position parses");
            assert!(again.same_board(&pos));
            if let Ok((mv, after)) = parse_move(&pos, rest) {
                let printed = format_move(&pos, &mv);
                let (_, replay) = parse_move(&pos, &printed).expect("a printed move parses");
                assert!(replay.same_board(&after), "{rest:?} printed as {printed:?}");
            }
        }
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
