//! Engine options set through `setoption`: the standard AEI ones, their AEI
//! v0 aliases, and the engine's own (`threads`, `hash`, `depth`).

use arimaa_core::Color;
use arimaa_search::{params, Clock, Params};

/// Everything `setoption` can change.
#[derive(Clone, Debug, PartialEq)]
pub struct Options {
    /// Time control and clock state.
    pub clock: Clock,
    /// Fixed search depth in steps (`depth`), `None` for none.
    pub depth: Option<u32>,
    /// Transposition table size in MB (`hash`).
    pub hash_mb: usize,
    /// Search threads (`threads`).
    pub threads: usize,
    /// `opponent`, `event` and the other informational options, as sent.
    pub info: Vec<(String, String)>,
    /// Evaluation weights and search constants (each also an option by its name).
    pub params: Params,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            clock: Clock::default(),
            depth: None,
            hash_mb: 64,
            threads: 1,
            info: Vec::new(),
            params: Params::default(),
        }
    }
}

/// What `apply` did with an option.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Applied {
    /// A known option, now set.
    Set,
    /// Not an option of this engine: nothing changed.
    Unknown,
}

/// Largest `hash` accepted, in MB: beyond this is a typo, not a wish.
pub const MAX_HASH_MB: usize = 65_536;
/// Largest `threads` accepted.
pub const MAX_THREADS: usize = 256;

/// Memory the system can still give, in MB (`MemAvailable` of
/// `/proc/meminfo`), or `None` where that is unknown.
#[must_use]
pub fn available_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

fn seconds(name: &str, value: Option<&str>) -> Result<f64, String> {
    let text = value.ok_or_else(|| format!("option '{name}' needs a value in seconds"))?;
    let v: f64 = text.trim().parse().map_err(|_| {
        format!(
            "option '{name}': '{}' is not a number",
            crate::command::printable(text, 40)
        )
    })?;
    if !v.is_finite() {
        return Err(format!("option '{name}': '{text}' is not a finite number"));
    }
    Ok(v)
}

fn integer(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, String> {
    let text = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
    let v: i64 = text.trim().parse().map_err(|_| {
        format!(
            "option '{name}': '{}' is not an integer",
            crate::command::printable(text, 40)
        )
    })?;
    if v < min || v > max {
        return Err(format!("option '{name}': {v} is outside {min}..={max}"));
    }
    Ok(v)
}

impl Options {
    /// Sets option `name` (lower case) to `value`. On an error nothing changes.
    pub fn apply(&mut self, name: &str, value: Option<&str>) -> Result<Applied, String> {
        let clock = &mut self.clock;
        let tc = &mut clock.control;
        match name {
            "tcmove" => tc.per_move = seconds(name, value)?.max(0.0),
            "tcreserve" => tc.reserve = seconds(name, value)?.max(0.0),
            "tcpercent" => tc.percent = seconds(name, value)?.clamp(0.0, 100.0),
            "tcmax" => tc.max_reserve = seconds(name, value)?.max(0.0),
            "tctotal" => tc.total = seconds(name, value)?.max(0.0),
            // A count, but read as the other tc values are (a fraction is cut).
            "tcturns" => tc.turns = seconds(name, value)?.clamp(0.0, f64::from(u32::MAX)) as u32,
            "tcturntime" => tc.turn_time = seconds(name, value)?.max(0.0),
            "greserve" | "wreserve" => clock.reserve[Color::Gold.index()] = Some(seconds(name, value)?),
            "sreserve" | "breserve" => clock.reserve[Color::Silver.index()] = Some(seconds(name, value)?),
            // Known and checked, but the budget has no use for them: the
            // reserves and moveused already say what is left.
            "gused" | "wused" | "sused" | "bused" | "lastmoveused" | "tclastmoveused" => {
                seconds(name, value)?;
            }
            "moveused" | "tcmoveused" => clock.moveused = seconds(name, value)?,
            "depth" => {
                let d = integer(name, value, i64::MIN, 1000)?;
                self.depth = (d > 0).then_some(d as u32);
            }
            "hash" => {
                let mb = integer(name, value, 1, MAX_HASH_MB as i64)? as usize;
                // Linux grants more than it has and kills the process when
                // the table is filled in: refuse what the machine lacks.
                if let Some(free) = available_mb().filter(|free| mb > *free) {
                    return Err(format!(
                        "option 'hash': {mb} MB is more than the {free} MB of memory available"
                    ));
                }
                self.hash_mb = mb;
            }
            "threads" => self.threads = integer(name, value, 1, MAX_THREADS as i64)? as usize,
            "rated" => {
                let v = integer(name, value, 0, 1)?;
                self.set_info(name, &v.to_string());
            }
            "opponent_rating" | "rating" => {
                let v = integer(name, value, -100_000, 100_000)?;
                self.set_info(name, &v.to_string());
            }
            "opponent" | "event" => self.set_info(name, value.unwrap_or("")),
            _ if params::spec(name).is_some() => {
                let text = value.ok_or_else(|| format!("option '{name}' needs a value"))?;
                self.params.set_text(name, text).map_err(|e| e.to_string())?;
            }
            _ => return Ok(Applied::Unknown),
        }
        Ok(Applied::Set)
    }

    fn set_info(&mut self, name: &str, value: &str) {
        self.info.retain(|(n, _)| n != name);
        self.info.push((name.to_string(), value.to_string()));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_options_set_the_time_control() {
        let mut o = Options::default();
        for (n, v) in [
            ("tcmove", "30"),
            ("tcreserve", "60"),
            ("tcpercent", "50"),
            ("greserve", "45.5"),
            ("moveused", "2"),
        ] {
            assert_eq!(o.apply(n, Some(v)), Ok(Applied::Set));
        }
        assert_eq!(o.clock.control.per_move, 30.0);
        assert_eq!(o.clock.control.percent, 50.0);
        assert_eq!(o.clock.reserve[0], Some(45.5));
        assert_eq!(o.clock.moveused, 2.0);
        assert_eq!(o.apply("wreserve", Some("10")), Ok(Applied::Set));
        assert_eq!(o.clock.reserve[0], Some(10.0));
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut o = Options::default();
        let before = o.clone();
        assert!(o.apply("tcmove", Some("fast")).is_err());
        assert!(o.apply("tcmove", None).is_err());
        assert!(o.apply("tcmove", Some("NaN")).is_err());
        assert!(o.apply("hash", Some("0")).is_err());
        assert!(o.apply("threads", Some("-3")).is_err());
        assert!(o.apply("rated", Some("yes")).is_err());
        assert_eq!(o, before);
    }

    #[test]
    fn a_hash_beyond_the_free_memory_is_refused() {
        let mut o = Options::default();
        let Some(free) = available_mb() else {
            panic!("the test machines have /proc/meminfo with MemAvailable");
        };
        assert!(free > 64, "{free} MB free");
        if free < MAX_HASH_MB {
            let e = o.apply("hash", Some(&MAX_HASH_MB.to_string())).unwrap_err();
            assert!(e.contains("MB of memory available"), "{e}");
            assert_eq!(o, Options::default());
        }
        assert_eq!(o.apply("hash", Some("32")), Ok(Applied::Set));
        assert_eq!(o.hash_mb, 32);
    }

    #[test]
    fn depth_zero_means_none_and_unknown_is_reported() {
        let mut o = Options::default();
        assert_eq!(o.apply("depth", Some("8")), Ok(Applied::Set));
        assert_eq!(o.depth, Some(8));
        assert_eq!(o.apply("depth", Some("0")), Ok(Applied::Set));
        assert_eq!(o.depth, None);
        assert_eq!(o.apply("checkmoves", Some("1")), Ok(Applied::Unknown));
        assert_eq!(o.apply("event", Some("World Championship")), Ok(Applied::Set));
        assert_eq!(o.info, vec![("event".to_string(), "World Championship".to_string())]);
    }

    #[test]
    fn every_declared_parameter_is_an_option_and_survives_the_file_form() {
        let mut o = Options::default();
        for (i, spec) in params::SPECS.iter().enumerate() {
            let value = if i % 2 == 0 { spec.max } else { spec.min };
            assert_eq!(
                o.apply(spec.name, Some(&value.to_string())),
                Ok(Applied::Set),
                "{}",
                spec.name
            );
            assert_eq!(o.params.get(spec.name), Some(value));
            // Outside the declared range: an error, the value unchanged.
            let before = o.clone();
            assert!(o.apply(spec.name, Some(&(spec.max + 1).to_string())).is_err());
            assert!(o.apply(spec.name, None).is_err());
            assert_eq!(o, before);
        }
        // The options set, written as a file and read back, are the same set.
        assert_eq!(Params::from_text(&o.params.to_text()), Ok(o.params.clone()));
        assert_ne!(o.params, Params::default());
    }
}
