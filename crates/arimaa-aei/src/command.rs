//! AEI command lines parsed into a `Command`: the only place that reads
//! controller text. Everything after this works on typed values: a
//! `setoption` line arrives as an [`EngineOption`], its name resolved (AEI v0
//! names included) and its value parsed.

use arimaa_core::Color;
use arimaa_search::{Params, Setting};
use thiserror::Error;

/// A controller message.
#[derive(Clone, Debug, PartialEq)]
pub enum Command {
    /// `aei`: open the session.
    Aei,
    /// `isready`.
    IsReady,
    /// `newgame`.
    NewGame,
    /// `setposition <side> [board]` (the text after the command).
    SetPosition(String),
    /// `setoption name <id> [value <x>]`, read.
    SetOption(EngineOption),
    /// `makemove <move>`.
    MakeMove(String),
    /// `go` or `go ponder`.
    Go {
        /// True for `go ponder`.
        ponder: bool,
    },
    /// `stop`.
    Stop,
    /// `quit`.
    Quit,
}

/// Why a line is not a command.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum CommandError {
    /// The first word is not an AEI command.
    #[error("unknown command '{}'", printable(.0, 40))]
    Unknown(String),
    /// The command needs an argument it did not get, or got one it does not take.
    #[error("{command}: {why}")]
    BadArguments {
        /// The command.
        command: &'static str,
        /// What was wrong.
        why: String,
    },
    /// A known option with a value it cannot take.
    #[error("{0}")]
    BadValue(String),
}

/// At most `max` characters of `text`, control characters shown escaped, so an
/// error line stays one short line whatever the input was.
#[must_use]
pub fn printable(text: &str, max: usize) -> String {
    let mut out: String = text.chars().take(max).flat_map(char::escape_default).collect();
    if text.chars().count() > max {
        out.push_str("...");
    }
    out
}

/// Parses one line (without its line ending). `Ok(None)` for a blank line.
pub fn parse_command(line: &str) -> Result<Option<Command>, CommandError> {
    let line = line.trim();
    if line.is_empty() {
        return Ok(None);
    }
    let (word, rest) = match line.split_once(char::is_whitespace) {
        Some((w, r)) => (w, r.trim()),
        None => (line, ""),
    };
    let no_args = |command: &'static str, c: Command| {
        if rest.is_empty() {
            Ok(Some(c))
        } else {
            Err(CommandError::BadArguments {
                command,
                why: format!("takes no argument, got '{}'", printable(rest, 40)),
            })
        }
    };
    let needs = |command: &'static str, what: &str| CommandError::BadArguments {
        command,
        why: format!("needs {what}"),
    };
    match word {
        "aei" => no_args("aei", Command::Aei),
        "isready" => no_args("isready", Command::IsReady),
        "newgame" => no_args("newgame", Command::NewGame),
        "stop" => no_args("stop", Command::Stop),
        "quit" => no_args("quit", Command::Quit),
        "go" => match rest {
            "" => Ok(Some(Command::Go { ponder: false })),
            "ponder" => Ok(Some(Command::Go { ponder: true })),
            other => Err(CommandError::BadArguments {
                command: "go",
                why: format!("'{}' is not 'ponder'", printable(other, 40)),
            }),
        },
        "setposition" if rest.is_empty() => Err(needs("setposition", "a side and a board, like 'g [64 chars]'")),
        // The board keeps its inner spaces: take the raw remainder, not split words.
        "setposition" => Ok(Some(Command::SetPosition(
            line["setposition".len()..].trim().to_string(),
        ))),
        "makemove" if rest.is_empty() => Err(needs("makemove", "a move")),
        "makemove" => Ok(Some(Command::MakeMove(rest.to_string()))),
        "setoption" => parse_setoption(rest).map(Some),
        other => Err(CommandError::Unknown(other.to_string())),
    }
}

fn parse_setoption(rest: &str) -> Result<Command, CommandError> {
    let bad = |why: &str| CommandError::BadArguments {
        command: "setoption",
        why: why.to_string(),
    };
    let Some(after_name) = rest.strip_prefix("name") else {
        return Err(bad("expected 'setoption name <id> [value <x>]'"));
    };
    if !after_name.starts_with(char::is_whitespace) {
        return Err(bad("expected 'setoption name <id> [value <x>]'"));
    }
    let after_name = after_name.trim_start();
    let (name, value) = match after_name.split_once(char::is_whitespace) {
        Some((name, tail)) => {
            let tail = tail.trim_start();
            match tail.strip_prefix("value") {
                Some(v) if v.is_empty() || v.starts_with(char::is_whitespace) => (name, Some(v.trim().to_string())),
                _ => {
                    return Err(bad(&format!(
                        "expected 'value' after the option name, got '{}'",
                        printable(tail, 40)
                    )))
                }
            }
        }
        None => (after_name, None),
    };
    if name.is_empty() {
        return Err(bad("the option name is missing"));
    }
    parse_option(&name.to_ascii_lowercase(), value.as_deref()).map(Command::SetOption)
}

/// What a `setoption` line sets: the name resolved through [`OPTION_NAMES`]
/// (or the parameter table), the value parsed and range-checked. Times are
/// seconds.
#[derive(Clone, Debug, PartialEq)]
pub enum EngineOption {
    /// `tcmove`: time per move.
    TcMove(f64),
    /// `tcreserve`: the reserve at the start of the game.
    TcReserve(f64),
    /// `tcpercent`: the share of unused move time added to the reserve.
    TcPercent(f64),
    /// `tcmax`: the cap on the reserve, 0 = none.
    TcMax(f64),
    /// `tctotal`: the game's total time, 0 = none.
    TcTotal(f64),
    /// `tcturns`: the game's turn limit, 0 = none.
    TcTurns(u32),
    /// `tcturntime`: the cap on one turn, 0 = none.
    TcTurnTime(f64),
    /// `greserve` / `sreserve`: a side's reserve now.
    Reserve(Color, f64),
    /// `gused` / `sused`: the time a side used on its last turn.
    Used(Color, f64),
    /// `lastmoveused`: the time used on the previous turn.
    LastMoveUsed(f64),
    /// `moveused`: the time already used on this turn.
    MoveUsed(f64),
    /// `depth`: a fixed depth in steps, `None` for none (0 or less).
    Depth(Option<u32>),
    /// `hash`: the transposition table in MB.
    Hash(usize),
    /// `threads`: search threads.
    Threads(usize),
    /// `rated`, `rating`, `opponent_rating`, `opponent`, `event`: kept as
    /// sent (the numbers checked), by their standard name.
    Info(&'static str, String),
    /// An evaluation weight or search setting, by its declared name.
    Param(Setting, i64),
    /// Not an option of this engine (the name, lower case).
    Unknown(String),
}

/// How an option's value is read and what it sets.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Key {
    TcMove,
    TcReserve,
    TcPercent,
    TcMax,
    TcTotal,
    TcTurns,
    TcTurnTime,
    Reserve(Color),
    Used(Color),
    LastMoveUsed,
    MoveUsed,
    Depth,
    Hash,
    Threads,
    Rated,
    Rating(&'static str),
    Text(&'static str),
}

/// Every option name the engine answers to, the AEI v0 names (`w`/`b` for
/// gold and silver, the `tc` prefixes) beside the current ones, and what each
/// sets. The evaluation weights and search constants come from their own
/// declaration (`arimaa_search::params`).
const OPTION_NAMES: &[(&str, Key)] = &[
    ("tcmove", Key::TcMove),
    ("tcreserve", Key::TcReserve),
    ("tcpercent", Key::TcPercent),
    ("tcmax", Key::TcMax),
    ("tctotal", Key::TcTotal),
    ("tcturns", Key::TcTurns),
    ("tcturntime", Key::TcTurnTime),
    ("greserve", Key::Reserve(Color::Gold)),
    ("wreserve", Key::Reserve(Color::Gold)),
    ("sreserve", Key::Reserve(Color::Silver)),
    ("breserve", Key::Reserve(Color::Silver)),
    ("gused", Key::Used(Color::Gold)),
    ("wused", Key::Used(Color::Gold)),
    ("sused", Key::Used(Color::Silver)),
    ("bused", Key::Used(Color::Silver)),
    ("lastmoveused", Key::LastMoveUsed),
    ("tclastmoveused", Key::LastMoveUsed),
    ("moveused", Key::MoveUsed),
    ("tcmoveused", Key::MoveUsed),
    ("depth", Key::Depth),
    ("hash", Key::Hash),
    ("threads", Key::Threads),
    ("rated", Key::Rated),
    ("rating", Key::Rating("rating")),
    ("opponent_rating", Key::Rating("opponent_rating")),
    ("opponent", Key::Text("opponent")),
    ("event", Key::Text("event")),
];

/// Largest `hash` accepted, in MB: beyond this is a typo, not a wish.
pub const MAX_HASH_MB: usize = 65_536;
/// Largest `threads` accepted.
pub const MAX_THREADS: usize = 256;

/// Reads the option `name` (lower case) with `value`.
fn parse_option(name: &str, value: Option<&str>) -> Result<EngineOption, CommandError> {
    let bad = CommandError::BadValue;
    let Some(&(_, key)) = OPTION_NAMES.iter().find(|(n, _)| *n == name) else {
        let Some(setting) = Setting::from_name(name) else {
            return Ok(EngineOption::Unknown(name.to_string()));
        };
        let text = value.ok_or_else(|| bad(format!("option '{name}' needs a value")))?;
        // The declaration checks the value and words the error.
        let mut checked = Params::default();
        checked.set_text(name, text).map_err(|e| bad(e.to_string()))?;
        return Ok(EngineOption::Param(setting, checked.get(setting)));
    };
    let secs = || seconds(name, value);
    let int = |min, max| integer(name, value, min, max);
    Ok(match key {
        Key::TcMove => EngineOption::TcMove(secs()?.max(0.0)),
        Key::TcReserve => EngineOption::TcReserve(secs()?.max(0.0)),
        Key::TcPercent => EngineOption::TcPercent(secs()?.clamp(0.0, 100.0)),
        Key::TcMax => EngineOption::TcMax(secs()?.max(0.0)),
        Key::TcTotal => EngineOption::TcTotal(secs()?.max(0.0)),
        // A count, but read as the other tc values are (a fraction is cut).
        Key::TcTurns => EngineOption::TcTurns(secs()?.clamp(0.0, f64::from(u32::MAX)) as u32),
        Key::TcTurnTime => EngineOption::TcTurnTime(secs()?.max(0.0)),
        Key::Reserve(side) => EngineOption::Reserve(side, secs()?),
        Key::Used(side) => EngineOption::Used(side, secs()?),
        Key::LastMoveUsed => EngineOption::LastMoveUsed(secs()?),
        Key::MoveUsed => EngineOption::MoveUsed(secs()?),
        Key::Depth => {
            let d = int(i64::MIN, 1000)?;
            EngineOption::Depth((d > 0).then_some(d as u32))
        }
        Key::Hash => EngineOption::Hash(int(1, MAX_HASH_MB as i64)? as usize),
        Key::Threads => EngineOption::Threads(int(1, MAX_THREADS as i64)? as usize),
        Key::Rated => EngineOption::Info("rated", int(0, 1)?.to_string()),
        Key::Rating(name) => EngineOption::Info(name, int(-100_000, 100_000)?.to_string()),
        Key::Text(name) => EngineOption::Info(name, value.unwrap_or("").to_string()),
    })
}

fn seconds(name: &str, value: Option<&str>) -> Result<f64, CommandError> {
    let text = value.ok_or_else(|| CommandError::BadValue(format!("option '{name}' needs a value in seconds")))?;
    let v: f64 = text
        .trim()
        .parse()
        .map_err(|_| CommandError::BadValue(format!("option '{name}': '{}' is not a number", printable(text, 40))))?;
    if !v.is_finite() {
        return Err(CommandError::BadValue(format!(
            "option '{name}': '{}' is not a finite number",
            printable(text, 40)
        )));
    }
    Ok(v)
}

fn integer(name: &str, value: Option<&str>, min: i64, max: i64) -> Result<i64, CommandError> {
    let text = value.ok_or_else(|| CommandError::BadValue(format!("option '{name}' needs a value")))?;
    let v: i64 = text
        .trim()
        .parse()
        .map_err(|_| CommandError::BadValue(format!("option '{name}': '{}' is not an integer", printable(text, 40))))?;
    if v < min || v > max {
        return Err(CommandError::BadValue(format!(
            "option '{name}': {v} is outside {min}..={max}"
        )));
    }
    Ok(v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_command() {
        assert_eq!(parse_command("aei"), Ok(Some(Command::Aei)));
        assert_eq!(parse_command("  isready  "), Ok(Some(Command::IsReady)));
        assert_eq!(parse_command("isready\r"), Ok(Some(Command::IsReady)));
        assert_eq!(parse_command("go"), Ok(Some(Command::Go { ponder: false })));
        assert_eq!(parse_command("go ponder"), Ok(Some(Command::Go { ponder: true })));
        assert_eq!(parse_command(""), Ok(None));
        let b = "setposition g [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]";
        assert_eq!(
            parse_command(b),
            Ok(Some(Command::SetPosition(
                "g [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]".into()
            )))
        );
        assert_eq!(
            parse_command("makemove Ed2n Ed3n"),
            Ok(Some(Command::MakeMove("Ed2n Ed3n".into())))
        );
    }

    #[test]
    fn setoption_forms() {
        let option = |line| match parse_command(line) {
            Ok(Some(Command::SetOption(o))) => Ok(o),
            other => Err(format!("{other:?}")),
        };
        assert_eq!(option("setoption name tcmove value 30"), Ok(EngineOption::TcMove(30.0)));
        assert_eq!(
            option("setoption name Event value World Championship 2026"),
            Ok(EngineOption::Info("event", "World Championship 2026".into()))
        );
        assert_eq!(
            option("setoption name opponent"),
            Ok(EngineOption::Info("opponent", String::new()))
        );
        assert_eq!(
            option("setoption name no_such value 1"),
            Ok(EngineOption::Unknown("no_such".into()))
        );
        let e = parse_command("setoption name rated").unwrap_err();
        assert_eq!(e.to_string(), "option 'rated' needs a value");
        assert!(parse_command("setoption tcmove 30").is_err());
        assert!(parse_command("setoption name").is_err());
        assert!(parse_command("setoption name x 5").is_err());
    }

    #[test]
    fn the_v0_names_are_aliases_and_values_are_read_once() {
        let option = |line: &str| match parse_command(line) {
            Ok(Some(Command::SetOption(o))) => o,
            other => panic!("{line}: {other:?}"),
        };
        for (v0, now) in [
            ("wreserve", "greserve"),
            ("breserve", "sreserve"),
            ("wused", "gused"),
            ("bused", "sused"),
            ("tcmoveused", "moveused"),
            ("tclastmoveused", "lastmoveused"),
        ] {
            assert_eq!(
                option(&format!("setoption name {v0} value 7")),
                option(&format!("setoption name {now} value 7"))
            );
        }
        assert_eq!(
            option("setoption name wreserve value 7"),
            EngineOption::Reserve(Color::Gold, 7.0)
        );
        assert_eq!(
            option("setoption name tcpercent value 150"),
            EngineOption::TcPercent(100.0)
        );
        assert_eq!(option("setoption name tcmove value -3"), EngineOption::TcMove(0.0));
        assert_eq!(option("setoption name depth value -1"), EngineOption::Depth(None));
        assert_eq!(
            option("setoption name rating value 2100"),
            EngineOption::Info("rating", "2100".into())
        );
        assert_eq!(
            option("setoption name mobility value 3"),
            EngineOption::Param(Setting::Weight(arimaa_search::Weight::mobility), 3)
        );
        for (line, message) in [
            (
                "setoption name tcmove value fast",
                "option 'tcmove': 'fast' is not a number",
            ),
            ("setoption name hash value 0", "option 'hash': 0 is outside 1..=65536"),
            (
                "setoption name mobility value x",
                "parameter 'mobility': 'x' is not an integer",
            ),
        ] {
            assert_eq!(parse_command(line).unwrap_err().to_string(), message);
        }
    }

    #[test]
    fn bad_lines_are_errors_not_panics() {
        assert!(matches!(parse_command("fly"), Err(CommandError::Unknown(_))));
        assert!(parse_command("go fast").is_err());
        assert!(parse_command("makemove").is_err());
        assert!(parse_command("setposition").is_err());
        assert!(parse_command("quit now").is_err());
        let long = "x".repeat(10_000);
        let e = parse_command(&long).unwrap_err().to_string();
        assert!(e.len() < 100, "{e}");
        assert!(parse_command("\u{0}\u{1}garbage").is_err());
    }
}
