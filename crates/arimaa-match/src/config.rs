//! Engine specs (`name=A cmd=PATH option.hash=64 tc=... depth=N`) and the
//! match settings.

use crate::error::MatchError;
use crate::pentanomial::StatsModel;
use crate::setups::SetupBook;
use crate::stats::Sprt;
use crate::tc::TimeControl;
use std::path::PathBuf;
use std::time::Duration;

/// How an engine is limited on each move.
#[derive(Clone, Debug, PartialEq)]
pub enum Limit {
    /// A clock, announced with the AEI `tc*` options and enforced by the runner.
    Clock(TimeControl),
    /// A fixed search depth in steps (the AEI `depth` option); no clock.
    Depth(u32),
}

impl Limit {
    /// The `setoption` lines that announce the limit to an engine: the
    /// clock's `tc*` options, or its depth.
    #[must_use]
    pub fn aei_lines(&self) -> Vec<String> {
        match self {
            Limit::Clock(tc) => tc
                .aei_options()
                .into_iter()
                .map(|(n, v)| format!("setoption name {n} value {v}"))
                .collect(),
            Limit::Depth(d) => vec![format!("setoption name depth value {d}")],
        }
    }
}

/// One engine: how to start it and what to tell it.
#[derive(Clone, Debug, PartialEq)]
pub struct EngineSpec {
    /// The name used in tables and records.
    pub name: String,
    /// Program and arguments (no shell is involved).
    pub command: Vec<String>,
    /// Working directory, if not the runner's.
    pub dir: Option<PathBuf>,
    /// `setoption` pairs sent once after the handshake, in order.
    pub options: Vec<(String, String)>,
    /// Clock or fixed depth.
    pub limit: Limit,
}

/// The keys an engine spec understands, for error messages.
const KEYS: &str = "name=, cmd=, dir=, tc=, depth=, option.<name>=";

impl EngineSpec {
    /// Builds a spec from `key=value` words: the `--each` words first, then
    /// the engine's own (a later key replaces an earlier one; `tc` and `depth`
    /// replace each other). `default_tc` applies when neither is given.
    pub fn parse<S: AsRef<str>>(
        own: &[S],
        each: &[S],
        default_tc: Option<&TimeControl>,
    ) -> Result<EngineSpec, MatchError> {
        let mut name = None;
        let mut command = None;
        let mut dir = None;
        let mut options: Vec<(String, String)> = Vec::new();
        let mut limit = default_tc.cloned().map(Limit::Clock);
        for word in each.iter().chain(own) {
            let word = word.as_ref();
            let (key, value) = word
                .split_once('=')
                .ok_or_else(|| MatchError::Config(format!("engine spec word '{word}': expected key=value ({KEYS})")))?;
            match key {
                "name" if !value.trim().is_empty() => name = Some(value.trim().to_string()),
                "cmd" => command = Some(split_command(value)?),
                "dir" => dir = Some(PathBuf::from(value)),
                "tc" => limit = Some(Limit::Clock(value.parse().map_err(MatchError::Config)?)),
                "depth" => {
                    let d = value
                        .parse::<u32>()
                        .ok()
                        .filter(|&d| (1..=1000).contains(&d))
                        .ok_or_else(|| {
                            MatchError::Config(format!(
                                "engine spec 'depth={value}': a depth is a whole number 1..=1000"
                            ))
                        })?;
                    limit = Some(Limit::Depth(d));
                }
                _ => {
                    let Some(opt) = key.strip_prefix("option.").filter(|o| valid_option_name(o)) else {
                        return Err(MatchError::Config(format!(
                            "engine spec word '{word}': unknown key '{key}' ({KEYS})"
                        )));
                    };
                    if value.contains(['\n', '\r']) {
                        return Err(MatchError::Config(format!(
                            "engine spec word '{word}': a value may not contain a line break"
                        )));
                    }
                    options.retain(|(n, _)| n != opt);
                    options.push((opt.to_string(), value.to_string()));
                }
            }
        }
        let command = command.ok_or_else(|| MatchError::Config("an engine needs cmd=PROGRAM".into()))?;
        let name = name.ok_or_else(|| MatchError::Config(format!("engine '{}' needs name=NAME", command.join(" "))))?;
        let limit = limit.ok_or_else(|| {
            MatchError::Config(format!("engine '{name}' has no time control: give --tc, tc= or depth="))
        })?;
        Ok(EngineSpec {
            name,
            command,
            dir,
            options,
            limit,
        })
    }

    /// The time control, if this engine plays on the clock.
    #[must_use]
    pub fn clock(&self) -> Option<&TimeControl> {
        match &self.limit {
            Limit::Clock(tc) => Some(tc),
            Limit::Depth(_) => None,
        }
    }

    /// How the limit reads in a record header.
    #[must_use]
    pub fn limit_text(&self) -> String {
        match &self.limit {
            Limit::Clock(tc) => tc.to_string(),
            Limit::Depth(d) => format!("depth {d}"),
        }
    }
}

fn valid_option_name(name: &str) -> bool {
    !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || "_-".contains(c))
}

/// Splits a command line into words as a POSIX shell would (quotes group,
/// a backslash escapes, `#` at the start of a word begins a comment), with
/// `shlex`; nothing is expanded and no shell runs the command.
pub fn split_command(text: &str) -> Result<Vec<String>, MatchError> {
    let words = shlex::split(text).ok_or_else(|| {
        MatchError::Config(format!(
            "command '{text}' has an unclosed quote or ends with a backslash"
        ))
    })?;
    if words.is_empty() {
        return Err(MatchError::Config("cmd= is empty".into()));
    }
    Ok(words)
}

/// Limits that keep the schedule and the process count sane whatever is typed.
const MAX_ENGINES: usize = 64;
const MAX_GAMES: u32 = 1_000_000;
const MAX_CONCURRENCY: usize = 256;

/// Everything a match needs.
#[derive(Clone, Debug)]
pub struct MatchConfig {
    /// Two or more engines; every pair plays `games` games.
    pub engines: Vec<EngineSpec>,
    /// Games per pairing, played in pairs with colours swapped.
    pub games: u32,
    /// Games played at once.
    pub concurrency: usize,
    /// Extra time after the deadline before a bestmove counts as late:
    /// covers process start-up of the reply, pipes and scheduling.
    pub grace: Duration,
    /// How long an engine that missed its deadline gets to answer `stop`
    /// before it counts as hung and is killed.
    pub hang_timeout: Duration,
    /// Longest wait for a bestmove when the mover has no clock (fixed depth).
    pub move_timeout: Duration,
    /// Adjudicate a draw once this move number is over (move 1 = setups).
    pub max_turns: Option<u32>,
    /// Fixed setups for each pair of games, if any.
    pub setups: Option<SetupBook>,
    /// Record file the finished games are appended to.
    pub record: Option<PathBuf>,
    /// PGN file the finished games are also appended to, in the form of
    /// pyrimaa's roundrobin, for bayeselo and ordo (see [`crate::pgn`]).
    pub pgn: Option<PathBuf>,
    /// Sequential test between the first two engines.
    pub sprt: Option<Sprt>,
    /// The model of the Elo interval, LOS and SPRT; `None` picks
    /// [`StatsModel::default_for`] the number of games.
    pub stats: Option<StatsModel>,
    /// File for every line exchanged with the engines (and their stderr).
    pub log: Option<PathBuf>,
    /// The record's `Event` header.
    pub event: String,
    /// Count the games already in the record file as played and play only
    /// the rest of the schedule (see [`crate::resume`]).
    pub resume: bool,
}

impl MatchConfig {
    /// The statistics model in use: the one chosen, else pentanomial when
    /// every game has its colour-swapped partner in the schedule.
    #[must_use]
    pub fn stats_model(&self) -> StatsModel {
        self.stats.unwrap_or(StatsModel::default_for(self.games))
    }

    /// Checks what the parts cannot check alone.
    pub fn validate(&self) -> Result<(), MatchError> {
        if self.engines.len() < 2 {
            return Err(MatchError::Config(
                "a match needs at least two engines (--engine name=A cmd=... twice)".into(),
            ));
        }
        for (i, a) in self.engines.iter().enumerate() {
            if self.engines[..i].iter().any(|b| b.name == a.name) {
                return Err(MatchError::Config(format!(
                    "two engines are named '{}': names must differ",
                    a.name
                )));
            }
        }
        if self.resume && self.record.is_none() {
            return Err(MatchError::Config(
                "--resume needs --record FILE: the record is what a match resumes from".into(),
            ));
        }
        if self.sprt.is_some() && self.engines.len() != 2 {
            return Err(MatchError::Config("--sprt needs exactly two engines".into()));
        }
        if self.engines.len() > MAX_ENGINES {
            return Err(MatchError::Config(format!("at most {MAX_ENGINES} engines")));
        }
        if !(1..=MAX_GAMES).contains(&self.games) {
            return Err(MatchError::Config(format!("--games must be 1..={MAX_GAMES}")));
        }
        if !(1..=MAX_CONCURRENCY).contains(&self.concurrency) {
            return Err(MatchError::Config(format!(
                "--concurrency must be 1..={MAX_CONCURRENCY}"
            )));
        }
        if self.max_turns.is_some_and(|n| n < 2) {
            return Err(MatchError::Config(
                "--max-turns must be at least 2 (move 1 is the setups)".into(),
            ));
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(own: &[&str], each: &[&str]) -> Result<EngineSpec, MatchError> {
        EngineSpec::parse(own, each, None)
    }

    /// A clock is announced by its `tc*` options and no depth; a depth by
    /// the depth alone.
    #[test]
    fn a_limit_is_announced_as_setoption_lines() {
        let clock = spec(&["name=A", "cmd=x", "tc=1s/10s/100/20s"], &[]).unwrap().limit;
        let lines = clock.aei_lines();
        for line in [
            "setoption name tcmove value 1",
            "setoption name tcreserve value 10",
            "setoption name tcmax value 20",
        ] {
            assert!(lines.iter().any(|l| l == line), "{line}: {lines:?}");
        }
        assert!(lines.iter().all(|l| !l.contains("name depth")), "{lines:?}");
        assert_eq!(Limit::Depth(8).aei_lines(), ["setoption name depth value 8"]);
    }

    #[test]
    fn reads_name_cmd_options_and_limits() {
        let s = spec(
            &[
                "name=A",
                "cmd=python3 -m pyrimaa.simple_engine",
                "option.hash=64",
                "tc=3s/30s",
            ],
            &["option.threads=1", "option.hash=16"],
        )
        .unwrap();
        assert_eq!(s.name, "A");
        assert_eq!(s.command, ["python3", "-m", "pyrimaa.simple_engine"]);
        assert_eq!(
            s.options,
            [("threads".to_string(), "1".to_string()), ("hash".into(), "64".into())]
        );
        assert_eq!(s.limit_text(), "3s/30s");
        let s = spec(&["name=B", "cmd=./arimaa", "depth=3"], &["tc=1s/1s"]).unwrap();
        assert_eq!(s.limit, Limit::Depth(3));
        assert!(s.clock().is_none());
        let tc: TimeControl = "1s/2s".parse().unwrap();
        let s = EngineSpec::parse(&["name=C", "cmd=x"], &[], Some(&tc)).unwrap();
        assert_eq!(s.clock(), Some(&tc));
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let cases: [(&[&str], &str); 9] = [
            (&["name=A", "tc=1s/1s"], "cmd="),
            (&["cmd=x", "tc=1s/1s"], "name="),
            (&["name=A", "cmd=x"], "no time control"),
            (&["name=A", "cmd=x", "depth=0"], "depth"),
            (&["name=A", "cmd=x", "tc=fast"], "time control"),
            (&["name=A", "cmd=x", "colour=red"], "unknown key"),
            (&["name=A", "cmd=x", "option.=1"], "unknown key"),
            (&["name=A", "cmd='x", "depth=2"], "unclosed quote"),
            (&["name=A", "cmd=x", "depth=2", "hash"], "key=value"),
        ];
        for (words, needle) in cases {
            let e = spec(words, &[]).unwrap_err();
            assert!(e.to_string().contains(needle), "{words:?}: {e}");
        }
    }

    fn config(names: &[&str]) -> MatchConfig {
        MatchConfig {
            engines: names
                .iter()
                .map(|n| spec(&[&format!("name={n}"), "cmd=x", "depth=2"], &[]).unwrap())
                .collect(),
            games: 2,
            concurrency: 1,
            grace: Duration::ZERO,
            hang_timeout: Duration::ZERO,
            move_timeout: Duration::ZERO,
            max_turns: None,
            setups: None,
            record: None,
            pgn: None,
            sprt: None,
            stats: None,
            log: None,
            event: String::new(),
            resume: false,
        }
    }

    #[test]
    fn match_settings_are_checked() {
        assert!(config(&["a", "b"]).validate().is_ok());
        assert!(config(&["a"])
            .validate()
            .unwrap_err()
            .to_string()
            .contains("two engines"));
        assert!(config(&["a", "a"])
            .validate()
            .unwrap_err()
            .to_string()
            .contains("names must differ"));
        let sprt = Some(Sprt::parse::<&str>(&[]).unwrap());
        assert!(MatchConfig {
            sprt,
            ..config(&["a", "b", "c"])
        }
        .validate()
        .unwrap_err()
        .to_string()
        .contains("exactly two"));
        for bad in [
            MatchConfig {
                games: 0,
                ..config(&["a", "b"])
            },
            MatchConfig {
                games: u32::MAX,
                ..config(&["a", "b"])
            },
            MatchConfig {
                concurrency: 0,
                ..config(&["a", "b"])
            },
            MatchConfig {
                max_turns: Some(1),
                ..config(&["a", "b"])
            },
        ] {
            assert!(bad.validate().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn command_words_follow_shell_quoting() {
        assert_eq!(
            split_command("a  'b c' \"d e\" f\\ g").unwrap(),
            ["a", "b c", "d e", "f g"]
        );
        assert_eq!(split_command("'' x").unwrap(), ["", "x"]);
        // Inside double quotes a backslash escapes only what a shell lets it.
        assert_eq!(split_command(r#"a "b\"c" "d\e""#).unwrap(), ["a", "b\"c", "d\\e"]);
        assert_eq!(
            split_command("engine --x 1 # a comment").unwrap(),
            ["engine", "--x", "1"]
        );
        assert!(split_command("  ").is_err());
        assert!(split_command("# only a comment").is_err());
        assert!(split_command("x\\").is_err());
    }
}
