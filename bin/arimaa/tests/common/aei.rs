//! A small AEI controller for the end-to-end tests: the real `arimaa` binary
//! on pipes, every line it writes timestamped by a reader thread, and move
//! checks by the rules core.

use arimaa_core::{format_move, parse_move, Position, TurnGen};
use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::time::{Duration, Instant};

/// The engine process and what it has written so far.
#[derive(Debug)]
pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<(Instant, String)>,
    /// Every line received, in order.
    pub seen: Vec<String>,
}

impl Engine {
    /// Starts the binary as an AEI engine (no handshake yet).
    pub fn start() -> Engine {
        let mut child = Command::new(super::bin())
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("start the engine");
        let stdout = child.stdout.take().expect("piped stdout");
        let (tx, lines) = channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send((Instant::now(), line)).is_err() {
                    break;
                }
            }
        });
        let stdin = child.stdin.take();
        Engine {
            child,
            stdin,
            lines,
            seen: Vec::new(),
        }
    }

    /// Starts the engine and completes the handshake.
    pub fn opened() -> Engine {
        let mut e = Engine::start();
        e.send("aei");
        e.until("aeiok", Duration::from_secs(5))
            .unwrap_or_else(|seen| panic!("no aeiok within 5 s: {seen:?}"));
        e
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}").expect("write to the engine");
        stdin.flush().expect("flush to the engine");
    }

    /// The next line within `limit`, with the moment it arrived.
    pub fn next(&mut self, limit: Duration) -> Option<(Instant, String)> {
        match self.lines.recv_timeout(limit) {
            Ok((at, line)) => {
                self.seen.push(line.clone());
                Some((at, line))
            }
            Err(RecvTimeoutError::Timeout | RecvTimeoutError::Disconnected) => None,
        }
    }

    /// Reads until a line starting with `prefix` arrives within `limit`;
    /// returns the lines before it and that line (its arrival time too), or
    /// every line read if it never came.
    #[allow(clippy::type_complexity)]
    pub fn until(&mut self, prefix: &str, limit: Duration) -> Result<(Vec<String>, String, Instant), Vec<String>> {
        let end = Instant::now() + limit;
        let mut before = Vec::new();
        while let Some((at, line)) = self.next(end.saturating_duration_since(Instant::now())) {
            if line.starts_with(prefix) {
                return Ok((before, line, at));
            }
            before.push(line);
        }
        Err(before)
    }

    /// Everything written during `span`.
    pub fn quiet_for(&mut self, span: Duration) -> Vec<String> {
        let end = Instant::now() + span;
        let mut got = Vec::new();
        while let Some((_, line)) = self.next(end.saturating_duration_since(Instant::now())) {
            got.push(line);
        }
        got
    }

    /// `isready` → `readyok`; returns the lines written before it.
    pub fn ready(&mut self) -> Vec<String> {
        self.send("isready");
        match self.until("readyok", Duration::from_secs(15)) {
            Ok((before, _, _)) => before,
            Err(seen) => panic!("no readyok within 15 s: {seen:?}"),
        }
    }

    /// Sends `setoption name N value V` for each pair.
    pub fn options(&mut self, pairs: &[(&str, &str)]) {
        for (name, value) in pairs {
            self.send(&format!("setoption name {name} value {value}"));
        }
    }

    /// A short clock for a quick legal move: `tcmove` seconds a move, no reserve.
    pub fn quick_clock(&mut self, tcmove: &str) {
        self.options(&[
            ("tcmove", tcmove),
            ("tcreserve", "0"),
            ("tcpercent", "100"),
            ("greserve", "0"),
            ("sreserve", "0"),
        ]);
    }

    /// `go` and the move of its `bestmove` within `limit`, with the lines before it.
    pub fn go(&mut self, limit: Duration) -> (String, Vec<String>) {
        self.send("go");
        match self.until("bestmove", limit) {
            Ok((before, line, _)) => (line["bestmove".len()..].trim().to_string(), before),
            Err(seen) => panic!(
                "no bestmove within {limit:?}: {:?}",
                &seen[seen.len().saturating_sub(8)..]
            ),
        }
    }

    /// Closes the engine's input, as a controller that goes away does.
    pub fn close_input(&mut self) {
        self.stdin = None;
    }

    /// Waits up to `limit` for the process to exit.
    pub fn exit_within(&mut self, limit: Duration) -> Option<ExitStatus> {
        let end = Instant::now() + limit;
        loop {
            if let Ok(Some(status)) = self.child.try_wait() {
                return Some(status);
            }
            if Instant::now() >= end {
                return None;
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // Only our own child: a test that failed half-way must not leave it running.
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// The `log Error` lines among `lines`.
pub fn errors(lines: &[String]) -> Vec<&String> {
    lines.iter().filter(|l| l.starts_with("log Error")).collect()
}

/// Checks `text` as a turn from `pos` by the rules core: every token well
/// formed with the right piece letter, every step legal, capture tokens where
/// captures happen (the text must be the canonical one), no unfinished push,
/// and the result one of the distinct legal turns. Returns the position after
/// it, the opponent to move.
pub fn assert_legal(pos: &Position, text: &str) -> Position {
    let board = arimaa_core::position_to_aei(pos);
    let (mv, mut after) = parse_move(pos, text).unwrap_or_else(|e| panic!("illegal move '{text}' in {board}: {e}"));
    assert_eq!(
        format_move(pos, &mv),
        text,
        "not the canonical text of the move in {board}"
    );
    after.end_turn();
    let turns = TurnGen::new().turns(pos);
    assert!(
        turns.iter().any(|t| t.hash == after.hash()),
        "'{text}' in {board} is not among the {} legal turns",
        turns.len()
    );
    after
}
