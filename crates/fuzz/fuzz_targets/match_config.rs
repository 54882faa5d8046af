//! What a user types for `arimaa match` and `arimaa tune`: time controls,
//! engine specs, SPRT settings, engine command lines, setup files. The first
//! byte picks the parser.
#![no_main]

use arimaa_match::config::split_command;
use arimaa_match::setups::SetupBook;
use arimaa_match::{EngineSpec, Sprt, TimeControl};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Some((&which, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else { return };
    let words: Vec<&str> = text.split_whitespace().collect();
    let message = match which % 5 {
        0 => text.parse::<TimeControl>().err(),
        1 => EngineSpec::parse(&words, &["name=x", "cmd=true"], None)
            .err()
            .map(|e| e.to_string()),
        2 => Sprt::parse(&words).err().map(|e| e.to_string()),
        3 => split_command(text).err().map(|e| e.to_string()),
        _ => SetupBook::parse(text, "fuzz").err().map(|e| e.to_string()),
    };
    if let Some(m) = message {
        assert!(!m.trim().is_empty());
    }
});
