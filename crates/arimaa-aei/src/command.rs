//! AEI command lines parsed into a `Command`: the only place that reads
//! controller text. Everything after this works on typed values.

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
    /// `setoption name <id> [value <x>]`, the name lower-cased.
    SetOption {
        /// The option name, lower case.
        name: String,
        /// The value, if any (may contain spaces).
        value: Option<String>,
    },
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
    Ok(Command::SetOption {
        name: name.to_ascii_lowercase(),
        value,
    })
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
        assert_eq!(
            parse_command("setoption name tcmove value 30"),
            Ok(Some(Command::SetOption {
                name: "tcmove".into(),
                value: Some("30".into())
            }))
        );
        assert_eq!(
            parse_command("setoption name Event value World Championship 2026"),
            Ok(Some(Command::SetOption {
                name: "event".into(),
                value: Some("World Championship 2026".into())
            }))
        );
        assert_eq!(
            parse_command("setoption name rated"),
            Ok(Some(Command::SetOption {
                name: "rated".into(),
                value: None
            }))
        );
        assert!(parse_command("setoption tcmove 30").is_err());
        assert!(parse_command("setoption name").is_err());
        assert!(parse_command("setoption name x 5").is_err());
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
