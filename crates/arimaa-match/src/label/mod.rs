//! Teacher labels: positions searched by an AEI engine to a fixed depth,
//! each written back with the engine's score and move (`arimaa label`).
//!
//! Each worker runs its own engine and takes the next position from a shared
//! counter: `newgame`, `setposition`, `go`, then every line up to `bestmove`
//! is read for the score ([`ScoreSource`]). A position the engine answers
//! without a score, or not within the move timeout, is reported and skipped;
//! an engine that dies or hangs is killed, reported and started again, and
//! its position skipped. Labels reach the caller one by one as they are
//! made, so a caller that writes each at once loses nothing when stopped.

pub mod store;

use crate::config::{EngineSpec, Limit};
use crate::engine::{Engine, Failure, Wait, READY_TIMEOUT};
use arimaa_core::notation::position_to_aei;
use arimaa_core::Position;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// Where a score is read from in the engine's output.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ScoreSource {
    /// `info score N` (AEI's own score line; ours are centi-rabbits).
    Info,
    /// The integer after the word `key` in a `log` line, e.g. sharp's
    /// `log Depth 5 Eval -312 Time 0.1` with key `Eval`.
    Log {
        /// The word the score follows.
        key: String,
    },
}

/// A `--score` setting that is neither `info` nor `log:KEY`.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("score source '{0}': expected 'info' (info score N) or 'log:KEY' (the number after KEY in log lines)")]
pub struct ScoreSourceError(String);

impl std::str::FromStr for ScoreSource {
    type Err = ScoreSourceError;

    fn from_str(text: &str) -> Result<ScoreSource, ScoreSourceError> {
        match text.split_once(':') {
            None if text == "info" => Ok(ScoreSource::Info),
            Some(("log", key)) if !key.is_empty() && !key.contains(char::is_whitespace) => {
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
                words.skip_while(|w| w != key).nth(1)?.parse().ok()
            }
        }
    }
}

/// How positions are labelled.
#[derive(Clone, Debug)]
pub struct LabelConfig {
    /// The teacher; its limit must be a fixed depth.
    pub engine: EngineSpec,
    /// Engines run at once, one position each.
    pub concurrency: usize,
    /// Where the score is read.
    pub score: ScoreSource,
    /// The longest one position may take before it is given up.
    pub move_timeout: Duration,
}

/// A configuration that cannot be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelConfigError {
    /// Labels compare only when every position is searched alike.
    #[error("engine '{0}' must search to a fixed depth (depth=N), not on a clock")]
    NotFixedDepth(String),
    /// Zero engines would label nothing.
    #[error("concurrency must be 1 or more")]
    NoWorkers,
}

impl LabelConfig {
    /// Checks what `run` needs.
    pub fn validate(&self) -> Result<u32, LabelConfigError> {
        if self.concurrency == 0 {
            return Err(LabelConfigError::NoWorkers);
        }
        match self.engine.limit {
            Limit::Depth(d) => Ok(d),
            Limit::Clock(_) => Err(LabelConfigError::NotFixedDepth(self.engine.name.clone())),
        }
    }
}

/// One position to label: its index in the caller's list (written with the
/// label, so that a resumed run knows what is done) and the board.
#[derive(Clone, Copy, Debug)]
pub struct Task {
    /// The caller's index of this position.
    pub index: usize,
    /// The position, the side to move at the start of its turn.
    pub pos: Position,
}

/// The engine's answer for one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Label {
    /// The task's index.
    pub index: usize,
    /// The last score before `bestmove`, from the side to move's view.
    pub score: i64,
    /// The move the engine chose, as it wrote it.
    pub best: String,
}

/// What happened to one position.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Event {
    /// Labelled.
    Labelled(Label),
    /// Skipped, with the reason (the engine was restarted if it failed).
    Skipped {
        /// The task's index.
        index: usize,
        /// Why.
        why: String,
    },
}

/// A run that could not go on.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LabelError {
    /// The configuration was refused.
    #[error(transparent)]
    Config(#[from] LabelConfigError),
    /// An engine could not be started (at the start, or again after a
    /// failure), so no position can be labelled by that worker.
    #[error("{0}")]
    Start(Failure),
}

/// Consecutive failures (crashes, hangs) after which a worker gives up: an
/// engine that fails on every position would otherwise skip them all.
const MAX_FAILURES_IN_A_ROW: u32 = 5;

/// Time a late engine gets to answer `stop` before it counts as hung.
const STOP_GRACE: Duration = Duration::from_secs(2);

/// Labels `tasks` with `config.concurrency` engines; `sink` gets each event
/// on the calling thread as it happens. Stops early when `stop` is set (the
/// tasks not reached are simply not reported). Returns the first error that
/// stopped a worker, after the others have finished.
pub fn run(
    config: &LabelConfig,
    tasks: &[Task],
    stop: &AtomicBool,
    mut sink: impl FnMut(Event),
) -> Result<(), LabelError> {
    let depth = config.validate()?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<Event, LabelError>>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(tasks.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                if let Err(e) = Worker::new(config, depth, stop).and_then(|w| w.work(tasks, next, &tx)) {
                    let _ = tx.send(Err(e));
                }
            });
        }
        drop(tx);
        for event in rx {
            match event {
                Ok(e) => sink(e),
                Err(e) => {
                    first_error.get_or_insert(e);
                }
            }
        }
    });
    first_error.map_or(Ok(()), Err)
}

/// One engine and the positions it labels.
struct Worker<'a> {
    config: &'a LabelConfig,
    depth: u32,
    stop: &'a AtomicBool,
    engine: Engine,
}

/// How one position went.
enum Outcome {
    Label(i64, String),
    /// The engine answered but gave no score, or refused the position: it
    /// is still usable.
    Refused(String),
    /// The engine failed: it must be replaced.
    Failed(String),
    Stopped,
}

impl<'a> Worker<'a> {
    fn new(config: &'a LabelConfig, depth: u32, stop: &'a AtomicBool) -> Result<Worker<'a>, LabelError> {
        let engine = start(config, depth, stop)?;
        Ok(Worker {
            config,
            depth,
            stop,
            engine,
        })
    }

    fn work(
        mut self,
        tasks: &[Task],
        next: &AtomicUsize,
        tx: &mpsc::Sender<Result<Event, LabelError>>,
    ) -> Result<(), LabelError> {
        let mut failures = 0;
        while !self.stop.load(Ordering::Relaxed) {
            let Some(task) = tasks.get(next.fetch_add(1, Ordering::Relaxed)) else {
                break;
            };
            let event = match self.label(&task.pos) {
                Outcome::Label(score, best) => {
                    failures = 0;
                    Event::Labelled(Label {
                        index: task.index,
                        score,
                        best,
                    })
                }
                Outcome::Refused(why) => {
                    failures = 0;
                    Event::Skipped { index: task.index, why }
                }
                Outcome::Failed(why) => {
                    failures += 1;
                    let why = self.engine.describe_failure(&why);
                    self.engine.kill();
                    if failures >= MAX_FAILURES_IN_A_ROW {
                        let _ = tx.send(Ok(Event::Skipped { index: task.index, why }));
                        return Err(LabelError::Start(Failure::Crash(format!(
                            "engine '{}' failed on {failures} positions in a row; this worker stops",
                            self.config.engine.name
                        ))));
                    }
                    self.engine = start(self.config, self.depth, self.stop)?;
                    Event::Skipped {
                        index: task.index,
                        why: format!("{why}; engine restarted"),
                    }
                }
                Outcome::Stopped => break,
            };
            if tx.send(Ok(event)).is_err() {
                break;
            }
        }
        self.engine.quit();
        Ok(())
    }

    /// Searches one position and reads its score and move.
    fn label(&mut self, pos: &Position) -> Outcome {
        for line in [
            "newgame".to_string(),
            format!("setposition {}", position_to_aei(pos)),
            "go".to_string(),
        ] {
            if self.engine.send(&line).is_err() {
                return Outcome::Failed("its input closed".into());
            }
        }
        let mut score = None;
        let mut refused = None;
        let mut deadline = Instant::now() + self.config.move_timeout;
        let mut stopped = false;
        loop {
            match self.engine.recv(deadline, self.stop) {
                Wait::Line(l) => {
                    let l = l.trim();
                    if let Some(rest) = l.strip_prefix("bestmove") {
                        if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                            return match (score, refused, stopped) {
                                (_, _, true) => Outcome::Refused(format!(
                                    "no bestmove within {:.0}s; stopped",
                                    self.config.move_timeout.as_secs_f64()
                                )),
                                (Some(s), None, false) => Outcome::Label(s, rest.trim().to_string()),
                                (_, Some(why), false) => Outcome::Refused(why),
                                (None, None, false) => Outcome::Refused("no score before bestmove".into()),
                            };
                        }
                    }
                    if let Some(s) = self.config.score.read(l) {
                        score = Some(s);
                    } else if l.starts_with("log Error") || l.starts_with("error") {
                        refused.get_or_insert_with(|| format!("the engine said: {}", clip(l, 120)));
                    }
                }
                Wait::Closed => return Outcome::Failed("its output closed while searching".into()),
                Wait::Stopped => return Outcome::Stopped,
                Wait::Timeout if !stopped => {
                    // Past the timeout: ask for the move; an engine that
                    // answers is slow (the position is skipped), one that
                    // does not is hung.
                    if self.engine.send("stop").is_err() {
                        return Outcome::Failed("its input closed".into());
                    }
                    stopped = true;
                    deadline = Instant::now() + STOP_GRACE;
                }
                Wait::Timeout => {
                    return Outcome::Failed(format!(
                        "hung: no bestmove {:.0}s after 'go', nor {:.0}s after 'stop'",
                        self.config.move_timeout.as_secs_f64(),
                        STOP_GRACE.as_secs_f64()
                    ))
                }
            }
        }
    }
}

/// Starts the teacher with its options and depth.
fn start(config: &LabelConfig, depth: u32, stop: &AtomicBool) -> Result<Engine, LabelError> {
    let mut engine = Engine::start(&config.engine, None, stop).map_err(LabelError::Start)?;
    let depth_line = format!("setoption name depth value {depth}");
    if engine.send(&depth_line).is_err() {
        return Err(LabelError::Start(Failure::Crash(
            engine.describe_failure("its input closed after start-up"),
        )));
    }
    engine.sync(READY_TIMEOUT, stop).map_err(LabelError::Start)?;
    Ok(engine)
}

fn clip(text: &str, n: usize) -> String {
    text.chars().take(n).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_sources_parse_and_read_only_their_own_lines() {
        assert_eq!("info".parse(), Ok(ScoreSource::Info));
        let log: ScoreSource = "log:Eval".parse().unwrap();
        assert_eq!(log, ScoreSource::Log { key: "Eval".into() });
        for bad in ["", "inf", "log:", "log:a b", "score:Eval"] {
            assert!(bad.parse::<ScoreSource>().is_err(), "{bad}");
        }
        assert_eq!(ScoreSource::Info.read("info score -37"), Some(-37));
        assert_eq!(ScoreSource::Info.read("info depth 5"), None);
        assert_eq!(ScoreSource::Info.read("log Eval 5"), None);
        assert_eq!(log.read("log Depth 5 Eval -312 Time 0.1 Seed 9"), Some(-312));
        assert_eq!(log.read("info score 40"), None);
        assert_eq!(log.read("log Depth 5 Eval"), None, "no number after the key");
        assert_eq!(log.read("log Depth 5 Eval x"), None);
    }
}
