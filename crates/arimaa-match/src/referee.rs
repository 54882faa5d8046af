//! One game between two running engines, refereed move by move.
//!
//! Every bestmove is checked by the rules core as strictly as the official
//! server: piece letters, complete pushes, capture tokens, no third
//! repetition (a move that would make one is an illegal move, as in
//! pyrimaa's game runner). The runner keeps the clock itself: a bestmove
//! that arrives after the deadline plus the grace margin loses on time
//! whatever it says. An engine that does not answer `stop` within the hang
//! timeout is killed; one whose pipes close has crashed. Each of these, and
//! `bestmove resign`, loses the game for that engine only.
//!
//! For each move played the referee keeps the engine's last `info score`
//! and `info depth` and the time the move took ([`MoveInfo`]).

use crate::config::EngineSpec;
use crate::engine::{Engine, Failure, Wait, READY_TIMEOUT};
use crate::outcome::{GameResult, MoveInfo, Termination};
use crate::setups::Opening;
use crate::tc::{aei_seconds, Clock};
use arimaa_core::{Color, Game};
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

/// The referee's time limits.
#[derive(Clone, Debug)]
pub struct Limits {
    /// Slack after the deadline for pipes and scheduling.
    pub grace: Duration,
    /// How long a late engine gets to answer `stop` before it counts as hung.
    pub hang_timeout: Duration,
    /// Longest wait for a move from an engine without a clock.
    pub move_timeout: Duration,
    /// Adjudicate a draw once this move number is over (move 1 = setups).
    pub max_turns: Option<u32>,
}

/// A game's end as seen by the worker.
#[derive(Debug)]
pub enum Played {
    /// The game ended and counts; with what is known of each move in its
    /// record, one entry a move.
    Finished(GameResult, Vec<MoveInfo>),
    /// The runner is stopping; the game does not count.
    Aborted,
}

/// How a wait for a bestmove ended.
enum Reply {
    Move(String),
    Closed,
    Timeout,
    Stopped,
}

/// Why a game loop stopped early.
enum End {
    Result(GameResult),
    Aborted,
}

struct Referee<'a> {
    engines: [&'a mut Engine; 2],
    specs: [&'a EngineSpec; 2],
    game: Game,
    clock: Clock,
    limits: &'a Limits,
    stop: &'a AtomicBool,
    started: Option<Instant>,
    /// One entry per move in the game's record.
    move_info: Vec<MoveInfo>,
    /// What the engine to move has said so far this turn.
    thinking: MoveInfo,
}

/// Plays one game, `gold` against `silver`; with an opening, both setups come
/// from it instead of the engines.
pub fn play_game(
    gold: &mut Engine,
    silver: &mut Engine,
    specs: [&EngineSpec; 2],
    opening: Option<&Opening>,
    limits: &Limits,
    stop: &AtomicBool,
) -> Played {
    let mut r = Referee {
        engines: [gold, silver],
        specs,
        game: Game::new(),
        clock: Clock::new(specs[0].clock().cloned(), specs[1].clock().cloned()),
        limits,
        stop,
        started: None,
        move_info: Vec::new(),
        thinking: MoveInfo::default(),
    };
    match r.run(opening) {
        End::Result(res) => Played::Finished(res, r.move_info),
        End::Aborted => Played::Aborted,
    }
}

fn side_name(side: Color) -> &'static str {
    match side {
        Color::Gold => "gold",
        Color::Silver => "silver",
    }
}

/// At most `n` characters of an engine's text, for a record header.
fn clip(text: &str, n: usize) -> String {
    let mut s: String = text.chars().take(n).collect();
    if text.chars().count() > n {
        s.push_str("...");
    }
    s
}

impl Referee<'_> {
    fn run(&mut self, opening: Option<&Opening>) -> End {
        for side in [Color::Gold, Color::Silver] {
            if let Err(end) = self.prepare(side) {
                return end;
            }
        }
        loop {
            if let Some(end) = self.adjudicate() {
                return End::Result(end);
            }
            let side = self.game.side_to_move();
            let given = opening.filter(|_| self.game.in_setup()).map(|o| o.setup(side));
            let step = match given {
                Some(setup) => self.play_given_setup(setup),
                None => self.turn(side),
            };
            if let Err(end) = step {
                return end;
            }
        }
    }

    fn engine(&mut self, side: Color) -> &mut Engine {
        &mut *self.engines[side.index()]
    }

    fn name(&self, side: Color) -> &str {
        &self.specs[side.index()].name
    }

    fn game_result(&self, winner: Option<Color>, termination: Termination, detail: String) -> GameResult {
        GameResult {
            winner,
            termination,
            detail,
            moves: self.game.record_text(),
            turns: (self.game.record().len() as u32).saturating_sub(2),
        }
    }

    fn result(&self, winner: Option<Color>, termination: Termination, detail: String) -> End {
        End::Result(self.game_result(winner, termination, detail))
    }

    /// `side` loses: the message names the engine and its colour.
    fn loss(&self, side: Color, termination: Termination, what: &str) -> End {
        let detail = format!("{} ({}) {what}", self.name(side), side_name(side));
        self.result(Some(side.opponent()), termination, detail)
    }

    /// `side` loses by `failure`. A crashed or hung engine is killed; a
    /// crash's message gets the end of its stderr and its exit status.
    fn fault(&mut self, side: Color, failure: Failure) -> End {
        let what = match failure {
            Failure::Crash(what) => {
                let what = self.engine(side).describe_failure(&what);
                self.engine(side).kill();
                Failure::Crash(format!("crashed: {what}"))
            }
            Failure::Hang(what) => {
                self.engine(side).kill();
                Failure::Hang(what)
            }
            other => other,
        };
        self.loss(side, what.termination(), &what.to_string())
    }

    fn crash(&mut self, side: Color, what: &str) -> End {
        self.fault(side, Failure::Crash(what.to_string()))
    }

    /// Time control or depth, `newgame`, and a `readyok` round trip.
    fn prepare(&mut self, side: Color) -> Result<(), End> {
        let mut lines = self.specs[side.index()].limit.aei_lines();
        lines.push("newgame".into());
        for line in &lines {
            if self.engine(side).send(line).is_err() {
                return Err(self.crash(side, "its input closed before the game"));
            }
        }
        let stop = self.stop;
        match self.engine(side).sync(READY_TIMEOUT, stop) {
            Ok(()) => Ok(()),
            Err(_) if self.stopped() => Err(End::Aborted),
            Err(Failure::Hang(what)) => Err(self.fault(side, Failure::Hang(format!("hung before the game: {what}")))),
            Err(failure) => Err(self.fault(side, failure)),
        }
    }

    fn stopped(&self) -> bool {
        self.stop.load(std::sync::atomic::Ordering::Relaxed)
    }

    fn game_elapsed(&self) -> f64 {
        self.started.map_or(0.0, |s| s.elapsed().as_secs_f64())
    }

    /// A draw at the turn limit or when the game's total time is spent.
    fn adjudicate(&self) -> Option<GameResult> {
        let turn_limit = [self.limits.max_turns, self.clock.turn_count_limit()]
            .into_iter()
            .flatten()
            .min();
        let why = if turn_limit.is_some_and(|n| self.game.move_number() > n) {
            format!("turn limit {} reached", turn_limit.unwrap_or(0))
        } else if self.clock.total_left(self.game_elapsed()) == Some(0.0) {
            "the game's total time ran out".to_string()
        } else {
            return None;
        };
        Some(self.game_result(None, Termination::Adjudicated, format!("draw: {why}")))
    }

    fn play_given_setup(&mut self, setup: &str) -> Result<(), End> {
        // The setup file was checked when it was read, so this cannot fail
        // unless the book and the rules disagree; still, no panic.
        if let Err(e) = self.game.play_text(setup) {
            return Err(self.result(None, Termination::Adjudicated, format!("setup file move refused: {e}")));
        }
        self.move_info.push(MoveInfo::default());
        self.broadcast_last_move();
        Ok(())
    }

    /// Sends the last recorded move, in canonical form, to both engines. A
    /// failed write is noticed on that engine's next turn.
    fn broadcast_last_move(&mut self) {
        if let Some(m) = self.game.record().last() {
            let line = format!("makemove {}", m.text);
            for e in self.engines.iter_mut() {
                let _ = e.send(&line);
            }
        }
    }

    /// Waits for `bestmove`, noting `info score` and `info depth` and
    /// skipping anything else.
    fn await_bestmove(&mut self, side: Color, until: Instant) -> Reply {
        let stop = self.stop;
        loop {
            match self.engine(side).recv(until, stop) {
                Wait::Line(l) => {
                    self.thinking.read_info(&l);
                    if let Some(rest) = l.trim().strip_prefix("bestmove") {
                        if rest.is_empty() || rest.starts_with(char::is_whitespace) {
                            return Reply::Move(rest.trim().to_string());
                        }
                    }
                }
                Wait::Closed => return Reply::Closed,
                Wait::Timeout => return Reply::Timeout,
                Wait::Stopped => return Reply::Stopped,
            }
        }
    }

    fn turn(&mut self, side: Color) -> Result<(), End> {
        let setup = self.game.in_setup();
        let own_limit = self.clock.turn_limit(side);
        let total_left = self.clock.total_left(self.game_elapsed());
        let allowed = match (own_limit, total_left) {
            (Some(a), Some(t)) => Some(a.min(t)),
            (a, t) => a.or(t),
        };
        let mut lines = Vec::new();
        if own_limit.is_some() {
            for s in [Color::Gold, Color::Silver] {
                let name = if s == Color::Gold { "greserve" } else { "sreserve" };
                lines.push(format!(
                    "setoption name {name} value {}",
                    aei_seconds(self.clock.reserve(s))
                ));
            }
        }
        lines.push("go".into());
        for line in &lines {
            if self.engine(side).send(line).is_err() {
                return Err(self.crash(side, "its input closed"));
            }
        }
        let start = Instant::now();
        self.thinking = MoveInfo::default();
        self.started.get_or_insert(start);
        let wait = allowed.map_or(self.limits.move_timeout, |a| {
            Duration::from_secs_f64(a) + self.limits.grace
        });
        let mut reply = self.await_bestmove(side, start + wait);
        let mut answered_stop = false;
        if let Reply::Timeout = reply {
            // Past the deadline: the game is lost either way, but an engine
            // that still answers is slow, one that does not is hung.
            let _ = self.engine(side).send("stop");
            reply = self.await_bestmove(side, Instant::now() + self.limits.hang_timeout);
            answered_stop = true;
        }
        let used = start.elapsed().as_secs_f64();
        let text = match reply {
            Reply::Move(text) => text,
            Reply::Closed => return Err(self.crash(side, "its output closed while thinking")),
            Reply::Stopped => return Err(End::Aborted),
            Reply::Timeout => {
                let what = format!(
                    "hung: no bestmove {:.2}s after 'go', nor {:.1}s after 'stop'; killed",
                    used - self.limits.hang_timeout.as_secs_f64(),
                    self.limits.hang_timeout.as_secs_f64()
                );
                return Err(self.fault(side, Failure::Hang(what)));
            }
        };
        let late = match allowed {
            Some(a) => used > a + self.limits.grace.as_secs_f64(),
            None => answered_stop,
        };
        if late {
            if let (Some(t), Some(own)) = (total_left, own_limit) {
                if t < own {
                    return Err(self.result(
                        None,
                        Termination::Adjudicated,
                        "draw: the game's total time ran out".into(),
                    ));
                }
            }
            let what = match allowed {
                Some(a) => format!("lost on time: bestmove after {used:.3}s, {a:.3}s allowed"),
                None => format!(
                    "lost on time: no bestmove within the {:.1}s move timeout",
                    wait.as_secs_f64()
                ),
            };
            return Err(self.fault(side, Failure::Timeout(what)));
        }
        if text == "resign" {
            return Err(self.loss(side, Termination::Resign, "resigned"));
        }
        match self.game.play_text(&text) {
            Err(e) => Err(self.fault(side, Failure::Illegal(format!("played '{}': {e}", clip(&text, 200))))),
            Ok(outcome) => {
                self.clock.spend(side, used, setup);
                self.move_info.push(MoveInfo {
                    seconds: Some(used),
                    ..self.thinking
                });
                self.broadcast_last_move();
                match outcome {
                    Some(o) => {
                        let detail = format!("{} ({o})", self.name(o.winner));
                        Err(self.result(Some(o.winner), o.reason.into(), detail))
                    }
                    None => Ok(()),
                }
            }
        }
    }
}
