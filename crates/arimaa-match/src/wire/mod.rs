//! A game pair as it travels to a cluster worker and back: the spec
//! (engines with their commands and `option.X` settings, the games, the
//! opening, the referee's limits) and the outcome (the games as the worker's
//! referee saw them). Both are JSON; the worker is the same `arimaa` binary
//! (`arimaa match-pair`), which turns the spec back into a two-engine match
//! and plays it with the local executor.

use crate::config::{EngineSpec, Limit, MatchConfig};
use crate::error::MatchError;
use crate::schedule::{GameJob, PairJob};
use crate::setups::{Opening, SetupBook};
use crate::tc::TimeControl;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

mod outcome;
#[cfg(test)]
mod tests;

pub use outcome::{PairOutcome, WireResult};

/// One pair of games for a worker.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairSpec {
    /// The pair number in the driver's schedule (the result's key).
    pub index: usize,
    /// The two engines; games refer to them as 0 and 1.
    pub engines: [WireEngine; 2],
    /// The games, in order.
    pub games: Vec<WireGame>,
    /// The fixed setups of the pair, if any.
    pub opening: Option<WireOpening>,
    /// The referee's limits.
    pub limits: WireLimits,
}

/// An engine: how to start it and what to tell it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireEngine {
    /// Name in records.
    pub name: String,
    /// Program and arguments.
    pub command: Vec<String>,
    /// The program is the driver's own `arimaa` binary: the worker runs
    /// its own copy (the same file, checked by checksum) in its place.
    pub self_binary: bool,
    /// Working directory on the worker, if any.
    pub dir: Option<PathBuf>,
    /// `setoption` pairs, in order.
    pub options: Vec<(String, String)>,
    /// Clock or depth.
    pub limit: WireLimit,
}

/// How an engine is limited on each move.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", deny_unknown_fields)]
pub enum WireLimit {
    /// A time control, every field as in [`TimeControl`].
    Clock {
        per_move: f64,
        reserve: f64,
        percent: f64,
        max_reserve: f64,
        total: f64,
        turns: u32,
        turn_time: f64,
    },
    /// A fixed depth in steps.
    Depth(u32),
}

/// One game of the pair.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireGame {
    /// Its number in the driver's schedule.
    pub number: u32,
    /// Engine 0 or 1 with gold.
    pub gold: usize,
    /// The other engine.
    pub silver: usize,
}

/// Both setups of the pair.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireOpening {
    /// Gold's setup.
    pub gold: String,
    /// Silver's setup.
    pub silver: String,
    /// `file:line` of the setup file.
    pub source: String,
}

/// The referee's limits, in seconds.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireLimits {
    /// Slack after a deadline.
    pub grace: f64,
    /// Time a late engine gets to answer `stop`.
    pub hang_timeout: f64,
    /// Longest wait for a move without a clock.
    pub move_timeout: f64,
    /// Adjudication move number.
    pub max_turns: Option<u32>,
}

fn same_file(a: &Path, b: &Path) -> bool {
    match (a.canonicalize(), b.canonicalize()) {
        (Ok(a), Ok(b)) => a == b,
        _ => false,
    }
}

fn wire_engine(spec: &EngineSpec, driver_exe: Option<&Path>) -> WireEngine {
    let self_binary = driver_exe.is_some_and(|exe| same_file(Path::new(&spec.command[0]), exe));
    WireEngine {
        name: spec.name.clone(),
        command: spec.command.clone(),
        self_binary,
        dir: spec.dir.clone(),
        options: spec.options.clone(),
        limit: match &spec.limit {
            Limit::Depth(d) => WireLimit::Depth(*d),
            Limit::Clock(tc) => WireLimit::Clock {
                per_move: tc.per_move,
                reserve: tc.reserve,
                percent: tc.percent,
                max_reserve: tc.max_reserve,
                total: tc.total,
                turns: tc.turns,
                turn_time: tc.turn_time,
            },
        },
    }
}

fn seconds(what: &str, v: f64) -> Result<Duration, MatchError> {
    Duration::try_from_secs_f64(v)
        .map_err(|_| MatchError::Wire(format!("pair spec: {what} {v} is not a number of seconds")))
}

impl PairSpec {
    /// The spec of `pair` of the match `config`. An engine whose program is
    /// `driver_exe` is marked to be replaced by the worker's own binary.
    pub fn new(config: &MatchConfig, pair: &PairJob, driver_exe: Option<&Path>) -> Result<PairSpec, MatchError> {
        let first = pair
            .games
            .first()
            .ok_or_else(|| MatchError::Wire("a pair without games".into()))?;
        let (a, b) = (first.gold, first.silver);
        let local = |i: usize| -> Result<usize, MatchError> {
            match i {
                _ if i == a => Ok(0),
                _ if i == b => Ok(1),
                _ => Err(MatchError::Wire(format!(
                    "pair {} mixes more than two engines",
                    pair.index
                ))),
            }
        };
        let games = pair
            .games
            .iter()
            .map(|g| {
                Ok(WireGame {
                    number: g.number,
                    gold: local(g.gold)?,
                    silver: local(g.silver)?,
                })
            })
            .collect::<Result<Vec<_>, MatchError>>()?;
        let opening = config.setups.as_ref().map(|book| {
            let o = book.for_pair(pair.index);
            WireOpening {
                gold: o.gold.clone(),
                silver: o.silver.clone(),
                source: o.source.clone(),
            }
        });
        Ok(PairSpec {
            index: pair.index,
            engines: [
                wire_engine(&config.engines[a], driver_exe),
                wire_engine(&config.engines[b], driver_exe),
            ],
            games,
            opening,
            limits: WireLimits {
                grace: config.grace.as_secs_f64(),
                hang_timeout: config.hang_timeout.as_secs_f64(),
                move_timeout: config.move_timeout.as_secs_f64(),
                max_turns: config.max_turns,
            },
        })
    }

    /// The pair as a two-engine match for the worker's local executor, the
    /// driver's binary replaced by `own_exe`; every field is checked.
    pub fn to_match(&self, own_exe: &Path) -> Result<(MatchConfig, PairJob), MatchError> {
        if !(1..=2).contains(&self.games.len()) {
            return Err(MatchError::Wire(format!(
                "pair spec: {} games (a pair has one or two)",
                self.games.len()
            )));
        }
        let mut games = Vec::new();
        for g in &self.games {
            if g.gold > 1 || g.silver > 1 || g.gold == g.silver {
                return Err(MatchError::Wire(format!(
                    "pair spec: game {} needs engines 0 and 1, one each side",
                    g.number
                )));
            }
            games.push(GameJob {
                number: g.number,
                gold: g.gold,
                silver: g.silver,
                pair: 0,
            });
        }
        let engines = self
            .engines
            .iter()
            .map(|e| engine_spec(e, own_exe))
            .collect::<Result<Vec<_>, MatchError>>()?;
        let config = MatchConfig {
            engines,
            games: games.len() as u32,
            concurrency: 1,
            grace: seconds("grace", self.limits.grace)?,
            hang_timeout: seconds("hang_timeout", self.limits.hang_timeout)?,
            move_timeout: seconds("move_timeout", self.limits.move_timeout)?,
            max_turns: self.limits.max_turns,
            setups: self.opening.as_ref().map(|o| {
                SetupBook::single(Opening {
                    gold: o.gold.clone(),
                    silver: o.silver.clone(),
                    source: o.source.clone(),
                })
            }),
            record: None,
            pgn: None,
            sprt: None,
            stats: None,
            log: None,
            event: String::new(),
            resume: false,
        };
        config
            .validate()
            .map_err(|e| MatchError::Wire(format!("pair spec: {e}")))?;
        Ok((config, PairJob { index: 0, games }))
    }

    /// The largest `option.threads` of the two engines (1 without one): the
    /// engines take turns, so that is what a game keeps busy.
    pub fn threads(&self) -> Result<u32, MatchError> {
        let mut most = 1;
        for e in &self.engines {
            if let Some((_, v)) = e.options.iter().find(|(n, _)| n == "threads") {
                let n = v
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| (1..=1024).contains(&n))
                    .ok_or_else(|| {
                        MatchError::Wire(format!(
                            "engine '{}': option.threads={v} is not a thread count 1..=1024",
                            e.name
                        ))
                    })?;
                most = most.max(n);
            }
        }
        Ok(most)
    }
}

fn engine_spec(e: &WireEngine, own_exe: &Path) -> Result<EngineSpec, MatchError> {
    let mut command = e.command.clone();
    if command.is_empty() {
        return Err(MatchError::Wire(format!(
            "pair spec: engine '{}' has an empty command",
            e.name
        )));
    }
    if e.self_binary {
        command[0] = own_exe.display().to_string();
    }
    let limit = match &e.limit {
        WireLimit::Depth(d) => Limit::Depth(*d),
        &WireLimit::Clock {
            per_move,
            reserve,
            percent,
            max_reserve,
            total,
            turns,
            turn_time,
        } => {
            let tc = TimeControl {
                per_move,
                reserve,
                percent,
                max_reserve,
                total,
                turns,
                turn_time,
            };
            if [per_move, reserve, percent, max_reserve, total, turn_time]
                .iter()
                .any(|v| !v.is_finite() || *v < 0.0)
            {
                return Err(MatchError::Wire(format!(
                    "pair spec: engine '{}' has a bad time control {tc:?}",
                    e.name
                )));
            }
            Limit::Clock(tc)
        }
    };
    Ok(EngineSpec {
        name: e.name.clone(),
        command,
        dir: e.dir.clone(),
        options: e.options.clone(),
        limit,
    })
}
