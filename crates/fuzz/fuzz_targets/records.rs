//! Game records: the rules core's `1g ...` move lists and `arimaa match`
//! record files (headers, moves, results, replayed and checked).
#![no_main]

use arimaa_core::record::parse_record;
use arimaa_match::record::read_records;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let Ok(text) = std::str::from_utf8(data) else { return };
    if let Err(e) = parse_record(text) {
        assert!(!e.to_string().is_empty());
    }
    if let Err(e) = read_records(text) {
        assert!(!e.to_string().is_empty());
    }
});
