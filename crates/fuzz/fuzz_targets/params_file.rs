//! Parameter files (`arimaa --params FILE`): accepted sets round-trip through
//! the file form, rejected ones say why.
#![no_main]

use arimaa_search::Params;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    match Params::from_text(text) {
        Ok(p) => assert_eq!(Params::from_text(&p.to_text()), Ok(p)),
        Err(e) => assert!(!e.to_string().is_empty()),
    }
});
