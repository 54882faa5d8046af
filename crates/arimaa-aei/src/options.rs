//! The engine's options: what the `setoption` lines, parsed into
//! [`EngineOption`]s by [`crate::command`], have set.

use crate::command::EngineOption;
use arimaa_search::time::Clock;
use arimaa_search::Params;

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
    /// Evaluation weights and search settings (each also an option by its name).
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

/// Memory the system can still give, in MB (`MemAvailable` of
/// `/proc/meminfo`), or `None` where that is unknown.
#[must_use]
pub fn available_mb() -> Option<usize> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemAvailable:"))?;
    let kb: usize = line.split_whitespace().nth(1)?.parse().ok()?;
    Some(kb / 1024)
}

impl Options {
    /// Applies a parsed option. The value was checked when the line was
    /// parsed; what can still fail is a `hash` the machine cannot hold. On an
    /// error nothing changes.
    pub fn apply(&mut self, option: EngineOption) -> Result<Applied, String> {
        let clock = &mut self.clock;
        let tc = &mut clock.control;
        match option {
            EngineOption::TcMove(v) => tc.per_move = v,
            EngineOption::TcReserve(v) => tc.reserve = v,
            EngineOption::TcPercent(v) => tc.percent = v,
            EngineOption::TcMax(v) => tc.max_reserve = v,
            EngineOption::TcTotal(v) => tc.total = v,
            EngineOption::TcTurns(n) => tc.turns = n,
            EngineOption::TcTurnTime(v) => tc.turn_time = v,
            EngineOption::Reserve(side, v) => clock.reserve[side.index()] = Some(v),
            // Known and checked, but the budget has no use for them: the
            // reserves and moveused already say what is left.
            EngineOption::Used(..) | EngineOption::LastMoveUsed(_) => {}
            EngineOption::MoveUsed(v) => clock.moveused = v,
            EngineOption::Depth(d) => self.depth = d,
            EngineOption::Hash(mb) => {
                // Linux grants more than it has and kills the process when
                // the table is filled in: refuse what the machine lacks.
                if let Some(free) = available_mb().filter(|free| mb > *free) {
                    return Err(format!(
                        "option 'hash': {mb} MB is more than the {free} MB of memory available"
                    ));
                }
                self.hash_mb = mb;
            }
            EngineOption::Threads(n) => self.threads = n,
            EngineOption::Info(name, value) => {
                self.info.retain(|(n, _)| n != name);
                self.info.push((name.to_string(), value));
            }
            // Checked when the line was parsed.
            EngineOption::Param(setting, value) => self.params.set(setting, value).map_err(|e| e.to_string())?,
            EngineOption::Unknown(_) => return Ok(Applied::Unknown),
        }
        Ok(Applied::Set)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::command::{parse_command, Command, MAX_HASH_MB};
    use arimaa_search::Setting;

    /// Parses `setoption name <name> [value <value>]` and applies it, as the
    /// session does: a parse error changes nothing.
    fn set(o: &mut Options, name: &str, value: Option<&str>) -> Result<Applied, String> {
        let line = match value {
            Some(v) => format!("setoption name {name} value {v}"),
            None => format!("setoption name {name}"),
        };
        match parse_command(&line) {
            Ok(Some(Command::SetOption(opt))) => o.apply(opt),
            other => Err(format!("{other:?}")),
        }
    }

    #[test]
    fn standard_options_set_the_time_control() {
        let mut o = Options::default();
        for (n, v) in [
            ("tcmove", "30"),
            ("tcreserve", "60"),
            ("tcpercent", "50"),
            ("greserve", "45.5"),
            ("moveused", "2"),
            ("tcturns", "80"),
            ("gused", "3"),
            ("lastmoveused", "3"),
        ] {
            assert_eq!(set(&mut o, n, Some(v)), Ok(Applied::Set));
        }
        assert_eq!(o.clock.control.per_move, 30.0);
        assert_eq!(o.clock.control.percent, 50.0);
        assert_eq!(o.clock.control.turns, 80);
        assert_eq!(o.clock.reserve[0], Some(45.5));
        assert_eq!(o.clock.moveused, 2.0);
        assert_eq!(set(&mut o, "wreserve", Some("10")), Ok(Applied::Set));
        assert_eq!(o.clock.reserve[0], Some(10.0));
    }

    #[test]
    fn bad_values_change_nothing() {
        let mut o = Options::default();
        let before = o.clone();
        assert!(set(&mut o, "tcmove", Some("fast")).is_err());
        assert!(set(&mut o, "tcmove", None).is_err());
        assert!(set(&mut o, "tcmove", Some("NaN")).is_err());
        assert!(set(&mut o, "hash", Some("0")).is_err());
        assert!(set(&mut o, "threads", Some("-3")).is_err());
        assert!(set(&mut o, "rated", Some("yes")).is_err());
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
            let e = set(&mut o, "hash", Some(&MAX_HASH_MB.to_string())).unwrap_err();
            assert!(e.contains("MB of memory available"), "{e}");
            assert_eq!(o, Options::default());
        }
        assert_eq!(set(&mut o, "hash", Some("32")), Ok(Applied::Set));
        assert_eq!(o.hash_mb, 32);
    }

    #[test]
    fn depth_zero_means_none_and_unknown_is_reported() {
        let mut o = Options::default();
        assert_eq!(set(&mut o, "depth", Some("8")), Ok(Applied::Set));
        assert_eq!(o.depth, Some(8));
        assert_eq!(set(&mut o, "depth", Some("0")), Ok(Applied::Set));
        assert_eq!(o.depth, None);
        assert_eq!(set(&mut o, "checkmoves", Some("1")), Ok(Applied::Unknown));
        assert_eq!(set(&mut o, "event", Some("World Championship")), Ok(Applied::Set));
        assert_eq!(o.info, vec![("event".to_string(), "World Championship".to_string())]);
    }

    #[test]
    fn every_declared_parameter_is_an_option_and_survives_the_file_form() {
        let mut o = Options::default();
        for (i, setting) in Setting::all().enumerate() {
            let (name, (min, max)) = (setting.name(), setting.range());
            let value = if i % 2 == 0 { max } else { min };
            assert_eq!(set(&mut o, name, Some(&value.to_string())), Ok(Applied::Set), "{name}");
            assert_eq!(o.params.get(setting), value);
            // Outside the declared range: an error, the value unchanged.
            let before = o.clone();
            assert!(set(&mut o, name, Some(&(max + 1).to_string())).is_err());
            assert!(set(&mut o, name, None).is_err());
            assert_eq!(o, before);
        }
        // The options set, written as a file and read back, are the same set.
        assert_eq!(Params::from_text(&o.params.to_text()), Ok(o.params.clone()));
        assert_ne!(o.params, Params::default());
    }
}
