//! Teacher labels: positions searched by an AEI engine to a fixed depth,
//! each written back with the engine's score and move (`arimaa label`).
//!
//! Each worker runs its own engine and takes the next position from a shared
//! counter: `newgame`, `setposition`, `go`, then every line up to `bestmove`
//! is read for the score ([`ScoreSource`]). An engine's static evaluation
//! can be asked for instead ([`Ask::Static`], e.g. sharp's `eval`): its
//! answer ends at the score line, with no search and no move. A position the engine answers
//! without a score, or not within the move timeout, is reported and skipped;
//! an engine that dies or hangs is killed, reported and started again, and
//! its position skipped. Labels reach the caller one by one as they are
//! made, so a caller that writes each at once loses nothing when stopped.

mod source;
pub mod store;

pub use source::{Ask, ScoreSource, ScoreSourceError};

use crate::config::{EngineSpec, Limit};
use crate::engine::{Engine, Failure, Wait, READY_TIMEOUT};
use arimaa_core::notation::position_to_aei;
use arimaa_core::Position;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::mpsc;
use std::time::{Duration, Instant};

/// How positions are labelled.
#[derive(Clone, Debug)]
pub struct LabelConfig {
    /// The teacher; for a search its limit must be a fixed depth.
    pub engine: EngineSpec,
    /// A search or a static evaluation.
    pub ask: Ask,
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
    /// Checks what `run` needs; returns the depth the labels are made at
    /// (0 for a static evaluation or a search on a clock).
    pub fn validate(&self) -> Result<u32, LabelConfigError> {
        if self.concurrency == 0 {
            return Err(LabelConfigError::NoWorkers);
        }
        match (&self.ask, &self.engine.limit) {
            (Ask::Static { .. }, _) => Ok(0),
            (Ask::Search | Ask::Play, Limit::Depth(d)) => Ok(*d),
            (Ask::Play, Limit::Clock(_)) => Ok(0),
            (Ask::Search, Limit::Clock(_)) => Err(LabelConfigError::NotFixedDepth(self.engine.name.clone())),
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
    /// The last score before `bestmove` (or the static evaluation), from
    /// the side to move's view.
    pub score: i64,
    /// The move the engine chose, as it wrote it (empty for a static
    /// evaluation).
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
    config.validate()?;
    let next = AtomicUsize::new(0);
    let (tx, rx) = mpsc::channel::<Result<Event, LabelError>>();
    let mut first_error = None;
    std::thread::scope(|scope| {
        for _ in 0..config.concurrency.min(tasks.len().max(1)) {
            let tx = tx.clone();
            let next = &next;
            scope.spawn(move || {
                if let Err(e) = Worker::new(config, stop).and_then(|w| w.work(tasks, next, &tx)) {
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
    fn new(config: &'a LabelConfig, stop: &'a AtomicBool) -> Result<Worker<'a>, LabelError> {
        let engine = start(config, stop)?;
        Ok(Worker { config, stop, engine })
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
                    self.engine = start(self.config, self.stop)?;
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

    /// Labels one position as the configuration asks.
    fn label(&mut self, pos: &Position) -> Outcome {
        match &self.config.ask {
            Ask::Search | Ask::Play => self.search(pos),
            Ask::Static { command, minus } => self.evaluate(pos, command, minus.as_ref()),
        }
    }

    /// Asks for the static evaluation of one position: the answer ends at
    /// the first score line; there is no move and nothing to stop.
    fn evaluate(&mut self, pos: &Position, command: &str, minus: Option<&ScoreSource>) -> Outcome {
        // No `newgame` per position (sent once at the start): sharp clears
        // its hash table on each, which costs more than the evaluation.
        for line in [format!("setposition {}", position_to_aei(pos)), command.to_string()] {
            if self.engine.send(&line).is_err() {
                return Outcome::Failed("its input closed".into());
            }
        }
        let deadline = Instant::now() + self.config.move_timeout;
        let mut taken = 0;
        loop {
            match self.engine.recv(deadline, self.stop) {
                Wait::Line(l) => {
                    let l = l.trim();
                    if let Some(s) = self.config.score.read(l) {
                        return Outcome::Label(s - taken, String::new());
                    }
                    if let Some(m) = minus.and_then(|m| m.read(l)) {
                        taken = m;
                    } else if l.starts_with("log Error") || l.starts_with("error") {
                        return Outcome::Refused(format!("the engine said: {}", clip(l, 120)));
                    }
                }
                Wait::Closed => return Outcome::Failed("its output closed while evaluating".into()),
                Wait::Stopped => return Outcome::Stopped,
                Wait::Timeout => {
                    return Outcome::Failed(format!(
                        "hung: no score {:.0}s after '{command}'",
                        self.config.move_timeout.as_secs_f64()
                    ))
                }
            }
        }
    }

    /// Searches one position and reads its score and move.
    fn search(&mut self, pos: &Position) -> Outcome {
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

/// Starts the teacher with its options and its depth or clock.
fn start(config: &LabelConfig, stop: &AtomicBool) -> Result<Engine, LabelError> {
    let mut engine = Engine::start(&config.engine, None, stop).map_err(LabelError::Start)?;
    // A search needs its depth or clock (`validate` allows a clock only
    // for `Play`); a static evaluation one game to set positions in.
    let first = match config.ask {
        Ask::Static { .. } => vec!["newgame".to_string()],
        Ask::Search | Ask::Play => config.engine.limit.aei_lines(),
    };
    if first.iter().any(|line| engine.send(line).is_err()) {
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
