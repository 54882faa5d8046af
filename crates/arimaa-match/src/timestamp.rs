//! UTC date and time for record headers, formatted by `jiff`.

use jiff::Timestamp;

/// `YYYY-MM-DD HH:MM:SS` in UTC, now.
pub fn utc_now() -> String {
    format_utc(Timestamp::now())
}

/// `YYYY-MM-DD HH:MM:SS` for an instant, in UTC.
fn format_utc(t: Timestamp) -> String {
    t.strftime("%Y-%m-%d %H:%M:%S").to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_dates() {
        let at = |secs| format_utc(Timestamp::from_second(secs).unwrap());
        assert_eq!(at(0), "1970-01-01 00:00:00");
        assert_eq!(at(951_782_400), "2000-02-29 00:00:00");
        assert_eq!(at(1_700_000_000), "2023-11-14 22:13:20");
        assert_eq!(utc_now().len(), "2023-11-14 22:13:20".len());
    }
}
