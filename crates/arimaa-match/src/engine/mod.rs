//! An engine as a child process, seen from the controller's side of AEI.
//!
//! The program is started directly (no shell), as the leader of its own
//! process group ([`crate::process_group`]): a Ctrl-C in the terminal reaches
//! only the runner, which then asks the engines to quit, and killing an
//! engine kills the whole group, so a wrapper script's children go with it.
//! A thread reads stdout into a channel so that every wait has a deadline;
//! another drains stderr (kept for error messages and the traffic log, never
//! shown on the terminal, where the progress bar lives).

use crate::config::EngineSpec;
use crate::error::MatchError;
use crate::outcome::Termination;
use crate::process_group::{AtExit, GroupChild};
use std::collections::VecDeque;
use std::fs::File;
use std::io::{BufRead, BufReader, Read, Write};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// Time allowed for `aeiok` after `aei` (pyrimaa allows 5 s; Python engines
/// on a loaded machine can need more).
pub const START_TIMEOUT: Duration = Duration::from_secs(10);
/// Time allowed for `readyok` (pyrimaa: 15 s; hash allocation can be slow).
pub const READY_TIMEOUT: Duration = Duration::from_secs(30);
/// Time an engine gets to exit after `quit` before it is killed.
pub const QUIT_TIMEOUT: Duration = Duration::from_secs(2);
/// How often a wait looks at the stop flag.
const POLL: Duration = Duration::from_millis(50);
/// Longest line kept; the rest of a longer line is dropped.
const MAX_LINE: usize = 64 * 1024;
/// Lines of stdout buffered between the reader thread and the referee.
const LINE_BACKLOG: usize = 4096;
/// Lines of stderr kept for error messages.
const STDERR_TAIL: usize = 8;

/// Every line exchanged with every engine, with a timestamp, for debugging.
#[derive(Debug)]
pub struct TrafficLog {
    file: Mutex<File>,
    start: Instant,
}

impl TrafficLog {
    /// Opens (appends to) the log file.
    pub fn open(path: &std::path::Path) -> Result<TrafficLog, MatchError> {
        let file = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(path)
            .map_err(|e| MatchError::Log(format!("log file '{}': {e}", path.display())))?;
        Ok(TrafficLog {
            file: Mutex::new(file),
            start: Instant::now(),
        })
    }

    fn write(&self, who: &str, dir: &str, line: &str) {
        let t = self.start.elapsed().as_secs_f64();
        if let Ok(mut f) = self.file.lock() {
            // A failing debug log must not stop the match.
            let _ = writeln!(f, "{t:10.3} {who} {dir} {line}");
        }
    }
}

/// What a wait for the engine's output produced.
#[derive(Debug, PartialEq, Eq)]
pub enum Wait {
    /// A line (without its line ending).
    Line(String),
    /// stdout closed: the engine exited or crashed.
    Closed,
    /// The deadline passed.
    Timeout,
    /// The runner is stopping (Ctrl-C or the SPRT ended).
    Stopped,
}

/// A write to the engine failed: its input is closed, so it has exited or
/// is exiting.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
#[error("the engine's input is closed")]
pub struct Gone;

/// How an engine failed. Each loses the game for that engine only (or, at
/// start-up, stops the match before it begins); the text says what happened.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum Failure {
    /// It could not be run, exited, or closed its pipes.
    #[error("{0}")]
    Crash(String),
    /// It did not answer at all in time (after `stop`, during a move): it is killed.
    #[error("{0}")]
    Hang(String),
    /// Its bestmove came after the deadline.
    #[error("{0}")]
    Timeout(String),
    /// Its bestmove broke a rule.
    #[error("{0}")]
    Illegal(String),
}

impl Failure {
    /// How a game lost by this failure ends.
    #[must_use]
    pub fn termination(&self) -> Termination {
        match self {
            Failure::Crash(_) => Termination::Crash,
            Failure::Hang(_) => Termination::Hang,
            Failure::Timeout(_) => Termination::Time,
            Failure::Illegal(_) => Termination::Illegal,
        }
    }

    /// The same failure with its text rewritten.
    #[must_use]
    pub fn map(self, f: impl FnOnce(String) -> String) -> Failure {
        match self {
            Failure::Crash(m) => Failure::Crash(f(m)),
            Failure::Hang(m) => Failure::Hang(f(m)),
            Failure::Timeout(m) => Failure::Timeout(f(m)),
            Failure::Illegal(m) => Failure::Illegal(f(m)),
        }
    }
}

#[derive(Debug)]
enum Event {
    Line(String),
    Closed,
}

/// A running engine.
#[derive(Debug)]
pub struct Engine {
    name: String,
    child: GroupChild,
    stdin: Option<ChildStdin>,
    lines: Receiver<Event>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    log: Option<Arc<TrafficLog>>,
    closed: bool,
    /// The engine's `id name`, if it sent one.
    pub id_name: Option<String>,
}

/// Reads one line of at most `MAX_LINE` bytes; `None` at end of input.
fn read_bounded_line(reader: &mut impl BufRead) -> Option<String> {
    let mut buf = Vec::new();
    let n = reader.by_ref().take(MAX_LINE as u64).read_until(b'\n', &mut buf).ok()?;
    if n == 0 {
        return None;
    }
    if buf.last() != Some(&b'\n') && buf.len() >= MAX_LINE {
        // Skip the rest of an overlong line.
        let mut rest = Vec::new();
        loop {
            rest.clear();
            match reader.by_ref().take(MAX_LINE as u64).read_until(b'\n', &mut rest) {
                Ok(0) | Err(_) => break,
                Ok(_) if rest.last() == Some(&b'\n') => break,
                Ok(_) => {}
            }
        }
    }
    let text = String::from_utf8_lossy(&buf);
    Some(text.trim_end_matches(['\n', '\r']).to_string())
}

impl Engine {
    /// Starts the engine and runs the AEI opening phase, then sends the spec's
    /// options and waits for `readyok`.
    pub fn start(spec: &EngineSpec, log: Option<Arc<TrafficLog>>, stop: &AtomicBool) -> Result<Engine, Failure> {
        let (program, args) = spec
            .command
            .split_first()
            .ok_or_else(|| Failure::Crash("empty command".into()))?;
        let mut cmd = Command::new(program);
        cmd.args(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = &spec.dir {
            cmd.current_dir(dir);
        }
        let mut child = GroupChild::spawn(&mut cmd, AtExit::Kill)
            .map_err(|e| Failure::Crash(format!("cannot run '{}': {e}", spec.command.join(" "))))?;
        // Bounded, so that an engine flooding its output while nobody reads
        // it blocks on its own pipe instead of filling the runner's memory.
        let (tx, rx) = mpsc::sync_channel(LINE_BACKLOG);
        let (stdin, stdout, stderr) = child.take_pipes();
        let who = format!("{}#{}", spec.name, child.id());
        if let Some(out) = stdout {
            let log = log.clone();
            let who = who.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(out);
                while let Some(line) = read_bounded_line(&mut reader) {
                    if let Some(l) = &log {
                        l.write(&who, "<", &line);
                    }
                    if tx.send(Event::Line(line)).is_err() {
                        return;
                    }
                }
                let _ = tx.send(Event::Closed);
            });
        }
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        if let Some(err) = stderr {
            let tail = Arc::clone(&stderr_tail);
            let log = log.clone();
            let who = who.clone();
            std::thread::spawn(move || {
                let mut reader = BufReader::new(err);
                while let Some(line) = read_bounded_line(&mut reader) {
                    if let Some(l) = &log {
                        l.write(&who, "!", &line);
                    }
                    if let Ok(mut t) = tail.lock() {
                        if t.len() == STDERR_TAIL {
                            t.pop_front();
                        }
                        t.push_back(line);
                    }
                }
            });
        }
        let mut engine = Engine {
            name: spec.name.clone(),
            child,
            stdin,
            lines: rx,
            stderr_tail,
            log,
            closed: false,
            id_name: None,
        };
        engine.handshake(spec, stop).map_err(|failure| {
            let failure = failure.map(|what| engine.describe_failure(&what));
            engine.kill();
            failure
        })?;
        Ok(engine)
    }

    fn handshake(&mut self, spec: &EngineSpec, stop: &AtomicBool) -> Result<(), Failure> {
        self.send("aei")
            .map_err(|Gone| Failure::Crash("could not write 'aei'".to_string()))?;
        let deadline = Instant::now() + START_TIMEOUT;
        loop {
            match self.recv(deadline, stop) {
                Wait::Line(l) if l.trim() == "aeiok" => break,
                Wait::Line(l) => {
                    if let Some(name) = l.trim().strip_prefix("id name ") {
                        self.id_name = Some(name.trim().to_string());
                    }
                }
                Wait::Closed => return Err(Failure::Crash("exited before 'aeiok'".into())),
                Wait::Timeout => return Err(Failure::Hang(format!("no 'aeiok' within {}s", START_TIMEOUT.as_secs()))),
                Wait::Stopped => return Err(Failure::Crash("interrupted during start-up".into())),
            }
        }
        for (name, value) in &spec.options {
            self.set_option(name, value)
                .map_err(|Gone| Failure::Crash(format!("could not send option '{name}'")))?;
        }
        self.sync(READY_TIMEOUT, stop)
    }

    /// Sends `isready` and waits for `readyok`, dropping any other line (such
    /// as a stale reply from the previous game). A crash or a hang; when the
    /// runner is stopping, a crash that the caller ignores.
    pub fn sync(&mut self, timeout: Duration, stop: &AtomicBool) -> Result<(), Failure> {
        self.send("isready")
            .map_err(|Gone| Failure::Crash("could not write 'isready'".to_string()))?;
        let deadline = Instant::now() + timeout;
        loop {
            match self.recv(deadline, stop) {
                Wait::Line(l) if l.trim() == "readyok" => return Ok(()),
                Wait::Line(_) => {}
                Wait::Closed => return Err(Failure::Crash("exited before 'readyok'".into())),
                Wait::Timeout => {
                    return Err(Failure::Hang(format!("no 'readyok' within {}s", timeout.as_secs_f64())));
                }
                Wait::Stopped => return Err(Failure::Crash("interrupted".into())),
            }
        }
    }

    /// The message for a failure, with the end of stderr and the exit status.
    #[must_use]
    pub fn describe_failure(&mut self, what: &str) -> String {
        // A process whose pipes just closed is usually exiting: give it a
        // moment so that its exit status and last stderr lines make the message.
        let settle = Instant::now() + Duration::from_millis(200);
        while Instant::now() < settle && self.child.try_wait().is_none() {
            if !self.closed {
                break;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        let mut msg = format!("engine '{}': {what}", self.name);
        if let Some(status) = self.child.try_wait() {
            msg.push_str(&format!(" ({status})"));
        }
        if let Ok(tail) = self.stderr_tail.lock() {
            if !tail.is_empty() {
                let lines: Vec<&str> = tail.iter().map(String::as_str).collect();
                msg.push_str(&format!("; its stderr ends: {}", lines.join(" | ")));
            }
        }
        msg
    }

    /// The name given in the engine spec.
    #[must_use]
    pub fn name(&self) -> &str {
        &self.name
    }

    /// Sends one line. An error means the engine is gone.
    pub fn send(&mut self, line: &str) -> Result<(), Gone> {
        if let Some(l) = &self.log {
            l.write(&self.name, ">", line);
        }
        let Some(stdin) = self.stdin.as_mut() else {
            return Err(Gone);
        };
        let ok = stdin
            .write_all(line.as_bytes())
            .and_then(|()| stdin.write_all(b"\n"))
            .and_then(|()| stdin.flush())
            .is_ok();
        if ok {
            Ok(())
        } else {
            self.stdin = None;
            self.closed = true;
            Err(Gone)
        }
    }

    /// Sends `setoption name <name> value <value>`.
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Gone> {
        self.send(&format!("setoption name {name} value {value}"))
    }

    /// Waits for the next line until `deadline`, looking at `stop` as it goes.
    pub fn recv(&mut self, deadline: Instant, stop: &AtomicBool) -> Wait {
        if self.closed {
            return Wait::Closed;
        }
        loop {
            if stop.load(Ordering::Relaxed) {
                return Wait::Stopped;
            }
            let now = Instant::now();
            if now >= deadline {
                return Wait::Timeout;
            }
            match self.lines.recv_timeout((deadline - now).min(POLL)) {
                Ok(Event::Line(l)) => return Wait::Line(l),
                Ok(Event::Closed) | Err(RecvTimeoutError::Disconnected) => {
                    self.closed = true;
                    return Wait::Closed;
                }
                Err(RecvTimeoutError::Timeout) => {}
            }
        }
    }

    /// True once the engine has closed its output or a write failed.
    #[must_use]
    pub fn is_closed(&self) -> bool {
        self.closed
    }

    /// Kills the engine with its whole process group and reaps it.
    pub fn kill(&mut self) {
        self.stdin = None;
        self.closed = true;
        self.child.kill();
    }

    /// Asks the engine to quit, then kills it if it is still there after
    /// `QUIT_TIMEOUT`. Either way its process group ends with it; dropping
    /// an `Engine` kills it too.
    pub fn quit(mut self) {
        let _ = self.send("quit");
        self.stdin = None;
        let deadline = Instant::now() + QUIT_TIMEOUT;
        while Instant::now() < deadline {
            if self.child.try_wait().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(10));
        }
        self.kill();
    }
}

#[cfg(test)]
mod tests;
