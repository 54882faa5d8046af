//! What a teacher is asked for each position (a search or a static
//! evaluation) and where its score is read in the engine's output.

/// Where a score is read from in the engine's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreSource {
    /// `info score N` (AEI's own score line; ours are centi-rabbits).
    Info,
    /// The integer after the words `key` in a `log` line, e.g. sharp's
    /// `log Depth 5 Eval -312 Time 0.1` with key `Eval`, or its static
    /// evaluation's `log Final Score: 163` with key `Final Score:`.
    Log {
        /// The word, or words, the score follows.
        key: String,
    },
}

/// A `--score` setting that is neither `info` nor `log:KEY`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "score source '{0}': expected 'info' (info score N) or 'log:KEY' (the number after the word(s) KEY in log lines)"
)]
pub struct ScoreSourceError(String);

impl std::str::FromStr for ScoreSource {
    type Err = ScoreSourceError;

    fn from_str(text: &str) -> Result<ScoreSource, ScoreSourceError> {
        match text.split_once(':') {
            None if text == "info" => Ok(ScoreSource::Info),
            Some(("log", key)) if !key.is_empty() && key.trim() == key && !key.contains(['\n', '\r']) => {
                Ok(ScoreSource::Log { key: key.to_string() })
            }
            _ => Err(ScoreSourceError(text.chars().take(60).collect())),
        }
    }
}

impl ScoreSource {
    /// The score a line carries, if it is a score line of this source. The
    /// last one before `bestmove` is the search's final score.
    #[must_use]
    pub fn read(&self, line: &str) -> Option<i64> {
        let mut words = line.split_whitespace();
        match self {
            ScoreSource::Info => {
                (words.next() == Some("info") && words.next() == Some("score")).then_some(())?;
                words.next()?.parse().ok()
            }
            ScoreSource::Log { key } => {
                (words.next() == Some("log")).then_some(())?;
                // The key's words, then the number, as whole words.
                let words: Vec<&str> = words.collect();
                let key: Vec<&str> = key.split_whitespace().collect();
                let at = words.windows(key.len()).position(|w| w == key.as_slice())?;
                words.get(at + key.len())?.parse().ok()
            }
        }
    }
}

/// What the engine is asked for each position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ask {
    /// A search to the engine's fixed depth (`go`): the last score before
    /// `bestmove`, and the move.
    Search,
    /// A search as a game's move (a move test's candidate): to the engine's
    /// fixed depth, or on its clock (the `tc*` options, sent once; with
    /// `newgame` before each position and no reserve sent, each is searched
    /// with a game's first-move budget). Read as [`Ask::Search`].
    Play,
    /// A static evaluation by an engine command (sharp's `eval`, in its
    /// developer build): the answer ends at the first score line. `minus`,
    /// when given, is read from the lines before it and subtracted (sharp's
    /// bonus for the steps left, the same for every turn start).
    Static {
        /// The line sent instead of `go`.
        command: String,
        /// A part of the score to take out of it.
        minus: Option<ScoreSource>,
    },
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_sources_parse_and_read_only_their_own_lines() {
        assert_eq!("info".parse(), Ok(ScoreSource::Info));
        let log: ScoreSource = "log:Eval".parse().unwrap();
        assert_eq!(log, ScoreSource::Log { key: "Eval".into() });
        for bad in ["", "inf", "log:", "log: Eval", "log:Eval ", "score:Eval"] {
            assert!(bad.parse::<ScoreSource>().is_err(), "{bad}");
        }
        assert_eq!(ScoreSource::Info.read("info score -37"), Some(-37));
        assert_eq!(ScoreSource::Info.read("info depth 5"), None);
        assert_eq!(ScoreSource::Info.read("log Eval 5"), None);
        assert_eq!(log.read("log Depth 5 Eval -312 Time 0.1 Seed 9"), Some(-312));
        assert_eq!(log.read("info score 40"), None);
        assert_eq!(log.read("log Depth 5 Eval"), None, "no number after the key");
        assert_eq!(log.read("log Depth 5 Eval x"), None);
        assert_eq!(log.read("log PEval 5"), None, "whole words only");
        // A key of several words: sharp's static evaluation.
        let last: ScoreSource = "log:Final Score:".parse().unwrap();
        assert_eq!(last.read("log Final Score: 163"), Some(163));
        assert_eq!(last.read("log Total Score: -37"), None);
        assert_eq!(last.read("log Final 163"), None);
    }
}
