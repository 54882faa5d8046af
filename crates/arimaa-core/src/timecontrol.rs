//! Time controls: the one type that the engine's budgets (`arimaa-search`)
//! and the match runner's clock (`arimaa-match`) share, read and written in
//! the arimaa.com form and announced with the AEI `tc*` options.
//!
//! The form is `move/reserve[/percent[/max[/total[/turntime]]]]`:
//!
//! * `move`: time per turn; `reserve`: the starting reserve;
//! * `percent`: the share of unused move time added to the reserve (default 100);
//! * `max`: the cap on the reserve (0 = none);
//! * `total`: the limit on the game's length in time, or `Nt` for a limit of
//!   N turns (0 = none);
//! * `turntime`: a hard cap on one turn (0 = none); `Nt` here is read as a
//!   turn limit too, so `move/reserve/percent/max/total/turns` also works.
//!
//! A time is `1h30m`, `1m`, `30s`, `0.5s`, `1:30` (minutes:seconds) or
//! `1:30:00` (hours:minutes:seconds). Every non-zero time needs a unit: a bare
//! number is refused, because arimaa.com and pyrimaa read it as minutes (as
//! hours in the `total` field) while this program used to read it as seconds,
//! so `2/2/100/10/8` from a gameroom would have meant something else here.
//! The error shows both readings. For the same reason `h:mm` is refused in
//! the `total` field, where arimaa.com reads `1:30` as 1h30m. A bare `0`, the
//! percent and `Nt` turn counts have no unit. An empty field keeps its
//! default: `3s/30s//1m` has no percent.

use std::fmt;
use std::str::FromStr;

/// A time control's settings; all times in seconds. The match runner reads
/// every field (its clock, its draw by `total` or `turns`); the engine's
/// budget reads the move time, reserve, percent, max and turn time, and
/// leaves the game limits to the controller that adjudicates them.
#[derive(Clone, Debug, PartialEq)]
pub struct TimeControl {
    /// Time per move (`tcmove`).
    pub per_move: f64,
    /// Starting reserve (`tcreserve`).
    pub reserve: f64,
    /// Percentage of unused move time added to the reserve (`tcpercent`).
    pub percent: f64,
    /// Cap on the reserve (`tcmax`), 0 = none.
    pub max_reserve: f64,
    /// Limit on the game's total time (`tctotal`), 0 = none.
    pub total: f64,
    /// Limit on the number of turns (`tcturns`), 0 = none.
    pub turns: u32,
    /// Hard cap on one turn (`tcturntime`), 0 = none.
    pub turn_time: f64,
}

/// No limit at all (what an engine has before a controller sends one):
/// everything 0, the percent at its default 100.
impl Default for TimeControl {
    fn default() -> Self {
        TimeControl {
            per_move: 0.0,
            reserve: 0.0,
            percent: 100.0,
            max_reserve: 0.0,
            total: 0.0,
            turns: 0,
            turn_time: 0.0,
        }
    }
}

/// Longest time accepted in any field: a week. Keeps arithmetic on
/// `Duration` far from overflow whatever the user types.
const MAX_SECONDS: f64 = 7.0 * 24.0 * 3600.0;

/// Which reading arimaa.com gives a bare number in a field: minutes in the
/// time fields, hours in `total` (pyrimaa `util._parse_timefield`, whose
/// `start_unit` is `m`, or `h` for the total).
#[derive(Clone, Copy, PartialEq)]
enum Field {
    Time,
    Total,
}

/// The error for a unit-less number, showing arimaa.com's reading and the
/// one this program used to give it.
fn no_unit(field: &str, value: f64, kind: Field) -> String {
    let (unit, size) = match kind {
        Field::Time => ("minutes", 60.0),
        Field::Total => ("hours", 3600.0),
    };
    let text = field.trim();
    format!(
        "'{text}' has no unit: arimaa.com reads it as {text} {unit} (write {}), \
         this program used to read it as {text} seconds (write {})",
        format_seconds(value * size),
        format_seconds(value)
    )
}

fn parse_time(field: &str, kind: Field) -> Result<f64, String> {
    let f = field.trim();
    if f.is_empty() {
        return Ok(0.0);
    }
    let seconds = if f.contains(':') {
        // [h:]m:s, as arimaa.com writes "1:30".
        let parts: Vec<&str> = f.split(':').collect();
        if parts.len() > 3 {
            return Err(format!("'{field}': too many ':' fields"));
        }
        let mut total = 0.0;
        for p in &parts {
            total = total * 60.0 + number(p, field)?;
        }
        if kind == Field::Total && parts.len() == 2 && total > 0.0 {
            return Err(format!(
                "'{f}' in the total field: arimaa.com reads it as hours:minutes (write {}), \
                 this program used to read it as minutes:seconds (write {})",
                format_seconds(total * 60.0),
                format_seconds(total)
            ));
        }
        total
    } else {
        let mut total = 0.0;
        let mut rest = f;
        let mut last_unit = f64::INFINITY;
        while !rest.is_empty() {
            let end = rest
                .find(|c: char| !(c.is_ascii_digit() || c == '.'))
                .unwrap_or(rest.len());
            let value = number(&rest[..end], field)?;
            let (unit, len) = match rest[end..].chars().next() {
                None if value == 0.0 && end == f.len() => (1.0, 0),
                None if end == f.len() => return Err(no_unit(field, value, kind)),
                None => {
                    return Err(format!(
                        "'{f}': '{}' has no unit (write it like 1m30s or 1:30)",
                        &rest[..end]
                    ))
                }
                Some('s') => (1.0, 1),
                Some('m') => (60.0, 1),
                Some('h') => (3600.0, 1),
                Some('d') => (86400.0, 1),
                Some(c) => return Err(format!("'{field}': unknown time unit '{c}' (use d, h, m or s)")),
            };
            if unit >= last_unit {
                return Err(format!("'{field}': units must go from large to small, like 1m30s"));
            }
            last_unit = unit;
            total += value * unit;
            rest = &rest[end + len..];
        }
        total
    };
    if !(0.0..=MAX_SECONDS).contains(&seconds) {
        return Err(format!("'{field}': more than a week"));
    }
    Ok(seconds)
}

fn number(text: &str, field: &str) -> Result<f64, String> {
    let v: f64 = text
        .parse()
        .map_err(|_| format!("'{field}': '{text}' is not a number"))?;
    if !v.is_finite() || v < 0.0 {
        return Err(format!("'{field}': '{text}' is not a non-negative number"));
    }
    Ok(v)
}

fn parse_turns(field: &str) -> Option<Result<u32, String>> {
    let digits = field.trim().strip_suffix('t')?;
    Some(
        digits
            .parse::<u32>()
            .map_err(|_| format!("'{field}': a turn limit is a whole number followed by 't', like 80t")),
    )
}

impl FromStr for TimeControl {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        let fields: Vec<&str> = s.trim().split('/').collect();
        if fields.len() < 2 || fields.len() > 6 || fields[0].trim().is_empty() {
            return Err(format!(
                "time control '{s}': expected move/reserve[/percent[/max[/total[/turntime]]]], like 3s/30s/100/60s"
            ));
        }
        let err = |e: String| format!("time control '{s}': {e}");
        let mut tc = TimeControl {
            per_move: parse_time(fields[0], Field::Time).map_err(err)?,
            reserve: parse_time(fields[1], Field::Time).map_err(err)?,
            percent: 100.0,
            max_reserve: 0.0,
            total: 0.0,
            turns: 0,
            turn_time: 0.0,
        };
        if let Some(p) = fields.get(2).filter(|p| !p.trim().is_empty()) {
            tc.percent = number(p.trim(), p).map_err(err)?;
            if tc.percent > 100.0 {
                return Err(err(format!("percent {p} is above 100")));
            }
        }
        if let Some(m) = fields.get(3) {
            tc.max_reserve = parse_time(m, Field::Time).map_err(err)?;
        }
        for (i, field) in fields.iter().enumerate().skip(4) {
            match parse_turns(field) {
                Some(turns) => tc.turns = turns.map_err(err)?,
                None if i == 4 => tc.total = parse_time(field, Field::Total).map_err(err)?,
                None => tc.turn_time = parse_time(field, Field::Time).map_err(err)?,
            }
        }
        if tc.per_move == 0.0 && tc.reserve == 0.0 && tc.turn_time == 0.0 {
            return Err(err("no time at all: give a move time or a reserve".into()));
        }
        Ok(tc)
    }
}

/// Seconds as the shortest unit form: `90` → `1m30s`, `0.5` → `0.5s`, `0` → `0`.
#[must_use]
pub fn format_seconds(seconds: f64) -> String {
    if seconds <= 0.0 {
        return "0".into();
    }
    let mut out = String::new();
    let mut left = seconds;
    for (unit, size) in [("h", 3600.0), ("m", 60.0)] {
        let n = (left / size).floor();
        if n >= 1.0 {
            out.push_str(&format!("{n}{unit}"));
            left -= n * size;
        }
    }
    // Round away binary noise (0.1 + 0.2) to milliseconds.
    let left = (left * 1000.0).round() / 1000.0;
    if left > 0.0 {
        out.push_str(&format!("{left}s"));
    }
    out
}

/// Seconds as an AEI option value: whole seconds stay integers (what every
/// controller sends), fractions keep milliseconds, rounded down so that an
/// engine never believes it has more time than it has.
#[must_use]
pub fn aei_seconds(seconds: f64) -> String {
    let ms = (seconds.max(0.0) * 1000.0 + 1e-6).floor() as u64;
    if ms.is_multiple_of(1000) {
        (ms / 1000).to_string()
    } else {
        let text = format!("{}.{:03}", ms / 1000, ms % 1000);
        text.trim_end_matches('0').to_string()
    }
}

impl fmt::Display for TimeControl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut fields = vec![format_seconds(self.per_move), format_seconds(self.reserve)];
        fields.push(format!("{}", self.percent));
        fields.push(format_seconds(self.max_reserve));
        fields.push(if self.turns > 0 {
            format!("{}t", self.turns)
        } else {
            format_seconds(self.total)
        });
        fields.push(format_seconds(self.turn_time));
        // Drop trailing defaults, as arimaa.com does.
        const DEFAULTS: [&str; 6] = ["", "", "100", "0", "0", "0"];
        while fields.len() > 2 && fields.last().map(String::as_str) == Some(DEFAULTS[fields.len() - 1]) {
            fields.pop();
        }
        if self.turns > 0 && self.total > 0.0 {
            // Both limits cannot fit the total field; the turn limit moves to the last field.
            fields.truncate(4);
            fields.extend([format_seconds(self.total), format!("{}t", self.turns)]);
        }
        write!(f, "{}", fields.join("/"))
    }
}

impl TimeControl {
    /// Seconds a side holding `reserve` may use on one turn before it loses
    /// on time: the move time plus the reserve, lowered to the turn cap
    /// (`turntime`). The match runner's referee judges by it; the engine's
    /// budget stays inside it.
    #[must_use]
    pub fn turn_limit(&self, reserve: f64) -> f64 {
        let limit = self.per_move + reserve;
        if self.turn_time > 0.0 {
            limit.min(self.turn_time)
        } else {
            limit
        }
    }

    /// The `setoption` pairs that announce this time control (AEI §2.1).
    #[must_use]
    pub fn aei_options(&self) -> Vec<(&'static str, String)> {
        vec![
            ("tcmove", aei_seconds(self.per_move)),
            ("tcreserve", aei_seconds(self.reserve)),
            ("tcpercent", aei_seconds(self.percent)),
            ("tcmax", aei_seconds(self.max_reserve)),
            ("tcturns", self.turns.to_string()),
            ("tctotal", aei_seconds(self.total)),
            ("tcturntime", aei_seconds(self.turn_time)),
        ]
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn parses_the_arimaa_com_form() {
        let t = tc("3s/30s/100/60s");
        assert_eq!(
            (t.per_move, t.reserve, t.percent, t.max_reserve),
            (3.0, 30.0, 100.0, 60.0)
        );
        let t = tc("15s/1m");
        assert_eq!((t.per_move, t.reserve, t.percent), (15.0, 60.0, 100.0));
        let t = tc("0.5s/5s");
        assert_eq!((t.per_move, t.reserve), (0.5, 5.0));
        let t = tc("1m30s/1:30/75/10m/2h/1m");
        assert_eq!((t.per_move, t.reserve, t.percent), (90.0, 90.0, 75.0));
        assert_eq!((t.max_reserve, t.total, t.turn_time), (600.0, 7200.0, 60.0));
        let t = tc("2s/10s/50/0/80t");
        assert_eq!(
            (t.per_move, t.reserve, t.percent, t.turns, t.total),
            (2.0, 10.0, 50.0, 80, 0.0)
        );
        // A sixth field "Nt" is a turn limit too.
        let t = tc("3s/30s/100/60s/0/100t");
        assert_eq!((t.turns, t.turn_time), (100, 0.0));
        let t = tc("3s/30s//1m");
        assert_eq!((t.percent, t.max_reserve), (100.0, 60.0));
    }

    #[test]
    fn rejects_bad_forms_with_a_message() {
        for bad in [
            "",
            "3s",
            "x/1m",
            "3q/1m",
            "1s/1m/101",
            "1s/1m/1/2/3/4/5",
            "1s30m/1m",
            "-1s/1m",
            "0/0",
            "1s/1m/100/0/xt",
            "1:2:3:4/0",
            "NaNs/1s",
            "1e400/1",
        ] {
            let e = bad.parse::<TimeControl>().unwrap_err();
            assert!(e.contains("time control"), "{bad}: {e}");
        }
    }

    #[test]
    fn refuses_unit_less_times_showing_both_readings() {
        // The gameroom form: every field but the percent is unit-less.
        let e = "2/2/100/10/8".parse::<TimeControl>().unwrap_err();
        assert!(
            e.contains("'2' has no unit: arimaa.com reads it as 2 minutes (write 2m)"),
            "{e}"
        );
        assert!(
            e.contains("this program used to read it as 2 seconds (write 2s)"),
            "{e}"
        );
        for (text, arimaa_com, old) in [
            ("2/10s", "2 minutes (write 2m)", "2 seconds (write 2s)"),
            ("2s/10", "10 minutes (write 10m)", "10 seconds (write 10s)"),
            ("2s/10s/100/5", "5 minutes (write 5m)", "5 seconds (write 5s)"),
            ("2s/10s/100/0/8", "8 hours (write 8h)", "8 seconds (write 8s)"),
            ("2s/10s/100/0/0/30", "30 minutes (write 30m)", "30 seconds (write 30s)"),
            (
                "2s/10s/100/0/40t/30",
                "30 minutes (write 30m)",
                "30 seconds (write 30s)",
            ),
            ("0.5/10s", "0.5 minutes (write 30s)", "0.5 seconds (write 0.5s)"),
            (
                "2s/10s/100/0/1:30",
                "hours:minutes (write 1h30m)",
                "minutes:seconds (write 1m30s)",
            ),
        ] {
            let e = text.parse::<TimeControl>().unwrap_err();
            assert!(
                e.contains(&format!("arimaa.com reads it as {arimaa_com}")),
                "{text}: {e}"
            );
            assert!(
                e.contains(&format!("this program used to read it as {old}")),
                "{text}: {e}"
            );
        }
        // A unit-less number after a unit is refused too (pyrimaa would read
        // `1m30` as 31 minutes).
        let e = "1m30/10s".parse::<TimeControl>().unwrap_err();
        assert!(e.contains("'30' has no unit"), "{e}");
    }

    #[test]
    fn takes_zero_percent_turns_and_colon_forms_without_units() {
        let t = tc("0/30s/50/0/80t/0");
        assert_eq!((t.per_move, t.reserve, t.percent, t.turns), (0.0, 30.0, 50.0, 80));
        // m:ss agrees with arimaa.com in every field but the total.
        let t = tc("0:30/1:30/100/10:00/0/2:00");
        assert_eq!((t.per_move, t.reserve), (30.0, 90.0));
        assert_eq!((t.max_reserve, t.turn_time), (600.0, 120.0));
        // h:mm:ss is read the same way everywhere, the total included.
        let t = tc("30s/1m/100/0/1:30:00");
        assert_eq!(t.total, 5400.0);
        assert_eq!(tc("1s/0/100/0/0:00").total, 0.0);
    }

    #[test]
    fn prints_back_with_units() {
        assert_eq!(tc("3s/30s/100/60s").to_string(), "3s/30s/100/1m");
        assert_eq!(tc("15s/1m").to_string(), "15s/1m");
        assert_eq!(tc("0.5s/5s/100").to_string(), "0.5s/5s");
        assert_eq!(tc("1s/0/50").to_string(), "1s/0/50");
        assert_eq!(tc("2s/10s/100/0/80t").to_string(), "2s/10s/100/0/80t");
        assert_eq!(tc("2s/10s/100/0/1h/80t").to_string(), "2s/10s/100/0/1h/80t");
        for s in ["3s/30s/100/1m", "1m30s/1m30s/75/10m/2h/1m", "0.1s/0.2s"] {
            assert_eq!(tc(&tc(s).to_string()), tc(s), "{s}");
        }
    }

    #[test]
    fn the_turn_limit_is_move_time_plus_reserve_under_the_turn_cap() {
        assert_eq!(tc("10s/20s").turn_limit(20.0), 30.0);
        assert_eq!(tc("10s/20s").turn_limit(3.5), 13.5);
        assert_eq!(tc("10s/1m/100/0/2m/15s").turn_limit(60.0), 15.0);
        assert_eq!(tc("10s/1m/100/0/2m/15s").turn_limit(2.0), 12.0);
        assert_eq!(tc("0/30s").turn_limit(0.0), 0.0);
    }

    #[test]
    fn aei_values_are_seconds() {
        assert_eq!(aei_seconds(30.0), "30");
        assert_eq!(aei_seconds(0.5), "0.5");
        assert_eq!(aei_seconds(4.9999), "4.999");
        assert_eq!(aei_seconds(-1.0), "0");
        let opts = tc("0.5s/5s/100/1m/0/80t").aei_options();
        assert!(opts.contains(&("tcmove", "0.5".into())));
        assert!(opts.contains(&("tcturns", "80".into())));
        assert!(opts.contains(&("tcmax", "60".into())));
    }
}
