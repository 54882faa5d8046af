//! A game pair as it travels to a cluster worker and back: the spec
//! (engines with their commands and `option.X` settings, the games, the
//! opening, the referee's limits) and the outcome (the games as the worker's
//! referee saw them). Both are JSON; the worker is the same `arimaa` binary
//! (`arimaa match-pair`), which turns the spec back into a two-engine match
//! and plays it with the local executor.

use crate::config::{EngineSpec, Limit, MatchConfig};
use crate::executor::FinishedGame;
use crate::outcome::{GameResult, Termination};
use crate::schedule::{GameJob, PairJob};
use crate::setups::{Opening, SetupBook};
use crate::tc::TimeControl;
use arimaa_core::Color;
use serde::{Deserialize, Serialize};
use std::path::{Path, PathBuf};
use std::time::Duration;

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

/// What a worker sends back: the pair's games.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PairOutcome {
    /// The pair number of the spec.
    pub index: usize,
    /// The finished games.
    pub games: Vec<WireResult>,
}

/// One finished game.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct WireResult {
    /// The game's number in the driver's schedule.
    pub number: u32,
    /// Start time, UTC.
    pub date: String,
    /// `g`, `s`, or `d` for a draw.
    pub result: char,
    /// The termination's record code.
    pub reason: char,
    /// What happened, for the record.
    pub detail: String,
    /// The moves, as record lines.
    pub moves: String,
    /// Turns after the setups.
    pub turns: u32,
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

fn seconds(what: &str, v: f64) -> Result<Duration, String> {
    Duration::try_from_secs_f64(v).map_err(|_| format!("pair spec: {what} {v} is not a number of seconds"))
}

impl PairSpec {
    /// The spec of `pair` of the match `config`. An engine whose program is
    /// `driver_exe` is marked to be replaced by the worker's own binary.
    pub fn new(config: &MatchConfig, pair: &PairJob, driver_exe: Option<&Path>) -> Result<PairSpec, String> {
        let first = pair.games.first().ok_or("a pair without games")?;
        let (a, b) = (first.gold, first.silver);
        let local = |i: usize| -> Result<usize, String> {
            match i {
                _ if i == a => Ok(0),
                _ if i == b => Ok(1),
                _ => Err(format!("pair {} mixes more than two engines", pair.index)),
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
            .collect::<Result<Vec<_>, String>>()?;
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
    pub fn to_match(&self, own_exe: &Path) -> Result<(MatchConfig, PairJob), String> {
        if !(1..=2).contains(&self.games.len()) {
            return Err(format!("pair spec: {} games (a pair has one or two)", self.games.len()));
        }
        let mut games = Vec::new();
        for g in &self.games {
            if g.gold > 1 || g.silver > 1 || g.gold == g.silver {
                return Err(format!(
                    "pair spec: game {} needs engines 0 and 1, one each side",
                    g.number
                ));
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
            .collect::<Result<Vec<_>, String>>()?;
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
            sprt: None,
            log: None,
            event: String::new(),
            resume: false,
        };
        config.validate().map_err(|e| format!("pair spec: {e}"))?;
        Ok((config, PairJob { index: 0, games }))
    }

    /// The largest `option.threads` of the two engines (1 without one): the
    /// engines take turns, so that is what a game keeps busy.
    pub fn threads(&self) -> Result<u32, String> {
        let mut most = 1;
        for e in &self.engines {
            if let Some((_, v)) = e.options.iter().find(|(n, _)| n == "threads") {
                let n = v
                    .trim()
                    .parse::<u32>()
                    .ok()
                    .filter(|&n| (1..=1024).contains(&n))
                    .ok_or_else(|| format!("engine '{}': option.threads={v} is not a thread count 1..=1024", e.name))?;
                most = most.max(n);
            }
        }
        Ok(most)
    }
}

fn engine_spec(e: &WireEngine, own_exe: &Path) -> Result<EngineSpec, String> {
    let mut command = e.command.clone();
    if command.is_empty() {
        return Err(format!("pair spec: engine '{}' has an empty command", e.name));
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
                return Err(format!("pair spec: engine '{}' has a bad time control {tc:?}", e.name));
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

impl PairOutcome {
    /// The outcome of pair `index` from its finished games.
    #[must_use]
    pub fn new(index: usize, games: &[FinishedGame]) -> PairOutcome {
        let games = games
            .iter()
            .map(|f| WireResult {
                number: f.job.number,
                date: f.date.clone(),
                result: f.result.result_code(),
                reason: f.result.termination.code(),
                detail: f.result.detail.clone(),
                moves: f.result.moves.clone(),
                turns: f.result.turns,
            })
            .collect();
        PairOutcome { index, games }
    }

    /// The games of `pair`, each matched to its job by number: every game
    /// of the pair exactly once, or an error.
    pub fn into_games(self, pair: &PairJob) -> Result<Vec<FinishedGame>, String> {
        let bad = |what: String| format!("pair {}: the worker's result {what}", pair.index);
        if self.index != pair.index {
            return Err(bad(format!("is for pair {}", self.index)));
        }
        if self.games.len() != pair.games.len() {
            return Err(bad(format!("has {} games, not {}", self.games.len(), pair.games.len())));
        }
        let mut out = Vec::new();
        for job in &pair.games {
            let mut found = self.games.iter().filter(|g| g.number == job.number);
            let (Some(g), None) = (found.next(), found.next()) else {
                return Err(bad(format!("does not have game {} exactly once", job.number)));
            };
            let winner = match g.result {
                'd' => None,
                c => Some(Color::from_letter(c).ok_or_else(|| bad(format!("has result '{c}'")))?),
            };
            let termination =
                Termination::from_code(g.reason).ok_or_else(|| bad(format!("has reason '{}'", g.reason)))?;
            out.push(FinishedGame {
                job: *job,
                date: g.date.clone(),
                result: GameResult {
                    winner,
                    termination,
                    detail: g.detail.clone(),
                    moves: g.moves.clone(),
                    turns: g.turns,
                },
            });
        }
        Ok(out)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::schedule::{pairs, schedule};

    fn config() -> MatchConfig {
        let spec = |own: &[&str]| EngineSpec::parse(own, &[], None).unwrap();
        MatchConfig {
            engines: vec![
                spec(&["name=a", "cmd=/bin/a --x", "tc=1s/2s/50", "option.threads=2"]),
                spec(&["name=b", "cmd=b", "depth=3", "option.hash=16"]),
                spec(&["name=c", "cmd=c", "depth=2"]),
            ],
            games: 2,
            concurrency: 1,
            grace: Duration::from_millis(100),
            hang_timeout: Duration::from_secs(2),
            move_timeout: Duration::from_secs(9),
            max_turns: Some(40),
            setups: None,
            record: None,
            sprt: None,
            log: None,
            event: String::new(),
            resume: false,
        }
    }

    #[test]
    fn a_spec_survives_json_and_becomes_the_same_two_engine_match() {
        let config = config();
        let all = pairs(schedule(3, 2));
        // The pair of engines b and c: numbered 0 and 1 on the worker.
        let pair = &all[2];
        let spec = PairSpec::new(&config, pair, None).unwrap();
        let text = serde_json::to_string(&spec).unwrap();
        let back: PairSpec = serde_json::from_str(&text).unwrap();
        assert_eq!(back, spec);
        let (m, job) = back.to_match(Path::new("/own")).unwrap();
        assert_eq!(m.engines, [config.engines[1].clone(), config.engines[2].clone()]);
        assert_eq!((m.max_turns, m.move_timeout), (Some(40), Duration::from_secs(9)));
        let numbers: Vec<u32> = job.games.iter().map(|g| g.number).collect();
        assert_eq!(numbers, pair.games.iter().map(|g| g.number).collect::<Vec<_>>());
        assert_eq!((job.games[0].gold, job.games[1].gold), (0, 1));
        let first = PairSpec::new(&config, &all[0], None).unwrap();
        assert_eq!(first.threads(), Ok(2), "the larger of the two engines' threads");
        assert_eq!(back.threads(), Ok(1));
    }

    #[test]
    fn the_driver_binary_is_replaced_by_the_workers_own() {
        let mut config = config();
        let exe = std::env::current_exe().unwrap();
        config.engines[0].command = vec![exe.display().to_string(), "--params".into(), "p".into()];
        let spec = PairSpec::new(&config, &pairs(schedule(3, 2))[0], Some(&exe)).unwrap();
        assert!(spec.engines[0].self_binary && !spec.engines[1].self_binary);
        let (m, _) = spec.to_match(Path::new("/worker/arimaa")).unwrap();
        assert_eq!(m.engines[0].command, ["/worker/arimaa", "--params", "p"]);
        assert_eq!(m.engines[1].command, ["b"]);
    }

    #[test]
    fn an_outcome_must_hold_each_game_of_its_pair_once() {
        let pair = pairs(schedule(2, 2)).remove(0);
        let game = |number: u32| WireResult {
            number,
            date: "2026-01-01 00:00:00".into(),
            result: 'g',
            reason: 'g',
            detail: "goal".into(),
            moves: String::new(),
            turns: 3,
        };
        let ok = PairOutcome {
            index: 0,
            games: vec![game(2), game(1)],
        };
        let games = ok.into_games(&pair).unwrap();
        assert_eq!(games.iter().map(|g| g.job).collect::<Vec<_>>(), pair.games);
        assert_eq!(games[0].result.winner, Some(Color::Gold));
        for (bad, words) in [
            (vec![game(1), game(1)], "exactly once"),
            (vec![game(1)], "has 1 games"),
            (vec![game(1), game(3)], "exactly once"),
            (vec![game(1), WireResult { reason: 'z', ..game(2) }], "reason 'z'"),
        ] {
            let e = PairOutcome { index: 0, games: bad }.into_games(&pair).unwrap_err();
            assert!(e.contains(words), "{e}");
        }
        let e = PairOutcome {
            index: 5,
            games: vec![game(1), game(2)],
        }
        .into_games(&pair)
        .unwrap_err();
        assert!(e.contains("is for pair 5"), "{e}");
    }

    #[test]
    fn a_bad_spec_is_an_error() {
        let config = config();
        let mut spec = PairSpec::new(&config, &pairs(schedule(3, 2))[0], None).unwrap();
        spec.games[0].silver = spec.games[0].gold;
        assert!(spec.to_match(Path::new("x")).unwrap_err().contains("one each side"));
        let text = r#"{"index": 0, "engines": [], "games": [], "opening": null, "limits": {}}"#;
        assert!(serde_json::from_str::<PairSpec>(text).is_err());
        let mut spec = PairSpec::new(&config, &pairs(schedule(3, 2))[0], None).unwrap();
        spec.limits.grace = -1.0;
        assert!(spec.to_match(Path::new("x")).unwrap_err().contains("grace"));
        spec.limits.grace = 0.1;
        spec.engines[1].options.push(("threads".into(), "many".into()));
        assert!(spec.threads().unwrap_err().contains("option.threads=many"));
    }
}
