//! The Ray executor: each game pair is a Ray task that runs the driver's
//! own `arimaa` binary (`arimaa match-pair`) on some node of the cluster.
//!
//! Ray is reached through a small Python bridge kept in the repository
//! (`cluster/arimaa_ray`), spoken to in JSON lines on its stdin/stdout: the
//! bridge submits tasks, Ray schedules them, retries a task whose worker
//! died, and cancels on request. This side only keeps `--concurrency` pairs
//! in flight and counts a pair when its result arrives, keyed by a number
//! of its own, so a pair played twice (a retry after a lost reply) is never
//! counted twice and a pair is never dropped without an error.

use crate::cluster::RayAddress;
use crate::config::MatchConfig;
use crate::error::MatchError;
use crate::executor::{Checked, Executor, FinishedGame};
use crate::process_group::{AtExit, GroupChild};
use crate::schedule::PairJob;
use crate::wire::{PairOutcome, PairSpec};
use serde::{Deserialize, Serialize};
use std::collections::{HashMap, VecDeque};
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{ChildStdin, Command, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

/// How many times Ray runs a pair again after its worker died.
const MAX_RETRIES: u32 = 3;
/// Longest wait for the bridge to connect (a new local Ray takes ~10 s).
const CONNECT_TIMEOUT: Duration = Duration::from_secs(180);
/// Longest wait for the bridge to confirm a cancellation.
const CANCEL_TIMEOUT: Duration = Duration::from_secs(30);
/// Lines of the bridge's stderr kept for error messages.
const STDERR_TAIL: usize = 30;

/// A request to the bridge.
#[derive(Debug, Serialize)]
#[serde(tag = "op", rename_all = "snake_case")]
enum Request<'a> {
    /// Connect to Ray and ship `binary` to the workers.
    Init {
        address: Option<&'a str>,
        binary: &'a Path,
        max_retries: u32,
    },
    /// Play a pair as a task needing `num_cpus` CPUs.
    Pair {
        key: u64,
        num_cpus: u32,
        spec: &'a PairSpec,
    },
    /// Cancel every task in flight.
    Cancel,
}

/// What the bridge reports.
#[derive(Debug, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
enum Event {
    /// Connected: the cluster's alive nodes and CPUs.
    Ready { nodes: u32, cpus: f64, sha256: String },
    /// A pair was played on `node`.
    Done {
        key: u64,
        node: String,
        outcome: PairOutcome,
    },
    /// A pair could not be played, for a reason of its own (not retried).
    Failed { key: u64, node: String, message: String },
    /// The tasks in flight were cancelled.
    Cancelled,
    /// The bridge cannot go on.
    Error { message: String },
}

/// Game pairs as Ray tasks.
#[derive(Debug)]
pub struct RayExecutor {
    child: GroupChild,
    stdin: Option<ChildStdin>,
    events: Receiver<Result<Event, MatchError>>,
    stderr_tail: Arc<Mutex<VecDeque<String>>>,
    driver_exe: PathBuf,
    next_key: u64,
    /// `N nodes, M CPUs, binary sha256 ...`, for the user.
    pub description: String,
}

/// The Python that runs the bridge: `ARIMAA_PYTHON`, else `python3`.
fn python() -> String {
    std::env::var("ARIMAA_PYTHON").unwrap_or_else(|_| "python3".into())
}

/// The bridge's package in the checkout this binary was built from, used
/// when it is there (else it must be installed: `pip install ./cluster`).
fn checkout_bridge() -> Option<PathBuf> {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../cluster");
    dir.join("arimaa_ray/__init__.py").is_file().then_some(dir)
}

impl RayExecutor {
    /// Starts the bridge and connects to the cluster at `address`.
    pub fn start(address: &RayAddress) -> Result<RayExecutor, MatchError> {
        let driver_exe = std::env::current_exe()
            .map_err(|e| MatchError::Cluster(format!("cannot find this program's binary to ship: {e}")))?;
        let python = python();
        let mut cmd = Command::new(&python);
        cmd.args(["-m", "arimaa_ray"])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped());
        if let Some(dir) = checkout_bridge() {
            let mut paths = vec![dir];
            if let Some(old) = std::env::var_os("PYTHONPATH") {
                paths.extend(std::env::split_paths(&old));
            }
            let joined = std::env::join_paths(paths).map_err(|e| MatchError::Cluster(format!("PYTHONPATH: {e}")))?;
            cmd.env("PYTHONPATH", joined);
        }
        // Its own process group, as for engines: a terminal's Ctrl-C reaches
        // only the runner, which then cancels the tasks through the bridge.
        // Left alone by a second Ctrl-C: the end of its input is what makes
        // it stop the private Ray it may have started.
        let mut child = GroupChild::spawn(&mut cmd, AtExit::Leave).map_err(|e| {
            MatchError::Cluster(format!(
                "cannot run {python} for the Ray bridge ({e}); set ARIMAA_PYTHON to a Python with ray installed"
            ))
        })?;
        let (stdin, stdout, stderr) = child.take_pipes();
        let stdout = stdout.ok_or_else(|| MatchError::Cluster("the bridge has no stdout".into()))?;
        let stderr = stderr.ok_or_else(|| MatchError::Cluster("the bridge has no stderr".into()))?;
        let stderr_tail = Arc::new(Mutex::new(VecDeque::new()));
        let tail = Arc::clone(&stderr_tail);
        std::thread::spawn(move || {
            for line in BufReader::new(stderr).lines().map_while(Result::ok) {
                if let Ok(mut t) = tail.lock() {
                    if t.len() == STDERR_TAIL {
                        t.pop_front();
                    }
                    t.push_back(line);
                }
            }
        });
        let (tx, events) = mpsc::channel();
        std::thread::spawn(move || {
            for line in BufReader::new(stdout).lines().map_while(Result::ok) {
                let event = serde_json::from_str::<Event>(&line).map_err(|e| {
                    MatchError::Cluster(format!("the bridge sent a line that is not an event ({e}): {line}"))
                });
                if tx.send(event).is_err() {
                    break;
                }
            }
        });
        let mut ex = RayExecutor {
            child,
            stdin,
            events,
            stderr_tail,
            driver_exe,
            next_key: 0,
            description: String::new(),
        };
        let address = match address {
            RayAddress::Default => None,
            RayAddress::Local => Some("local"),
            RayAddress::Head(a) | RayAddress::Client(a) => Some(a.as_str()),
        };
        let binary = ex.driver_exe.clone();
        ex.send(&Request::Init {
            address,
            binary: &binary,
            max_retries: MAX_RETRIES,
        })?;
        let deadline = Instant::now() + CONNECT_TIMEOUT;
        loop {
            match ex.next_event(deadline)? {
                Some(Event::Ready { nodes, cpus, sha256 }) => {
                    ex.description = format!(
                        "{nodes} nodes, {cpus} CPUs; binary sha256 {}",
                        &sha256[..16.min(sha256.len())]
                    );
                    return Ok(ex);
                }
                Some(Event::Error { message }) => return Err(ex.with_stderr(&format!("Ray: {message}"))),
                Some(_) => {}
                None => return Err(ex.with_stderr("Ray: no answer from the bridge")),
            }
        }
    }

    fn send(&mut self, request: &Request<'_>) -> Result<(), MatchError> {
        let line =
            serde_json::to_string(request).map_err(|e| MatchError::Cluster(format!("cannot encode a request: {e}")))?;
        let sent = self
            .stdin
            .as_mut()
            .map(|s| writeln!(s, "{line}").and_then(|()| s.flush()));
        match sent {
            Some(Ok(())) => Ok(()),
            _ => Err(self.with_stderr("the Ray bridge has exited")),
        }
    }

    /// The next event, `None` at `deadline`; an error once the bridge is gone.
    fn next_event(&mut self, deadline: Instant) -> Result<Option<Event>, MatchError> {
        let wait = deadline.saturating_duration_since(Instant::now());
        match self.events.recv_timeout(wait) {
            Ok(Ok(e)) => Ok(Some(e)),
            Ok(Err(e)) => Err(e),
            Err(RecvTimeoutError::Timeout) => Ok(None),
            Err(RecvTimeoutError::Disconnected) => Err(self.with_stderr("the Ray bridge has exited")),
        }
    }

    /// `what`, with the end of the bridge's stderr.
    fn with_stderr(&self, what: &str) -> MatchError {
        // The reader thread may still be taking the last lines.
        std::thread::sleep(Duration::from_millis(200));
        let tail: Vec<String> = self
            .stderr_tail
            .lock()
            .map(|t| t.iter().cloned().collect())
            .unwrap_or_default();
        MatchError::Cluster(if tail.is_empty() {
            what.to_string()
        } else {
            format!("{what}; the bridge said:\n  {}", tail.join("\n  "))
        })
    }

    /// Cancels the tasks in flight and waits for the bridge to confirm.
    fn cancel(&mut self) -> Result<(), MatchError> {
        self.send(&Request::Cancel)?;
        let deadline = Instant::now() + CANCEL_TIMEOUT;
        while let Some(e) = self.next_event(deadline)? {
            if let Event::Cancelled = e {
                return Ok(());
            }
        }
        Err(MatchError::Cluster(
            "Ray did not confirm the cancellation in time".into(),
        ))
    }
}

impl Executor for RayExecutor {
    fn check(&mut self, config: &MatchConfig, _stop: &AtomicBool, quiet: bool) -> Result<Checked, MatchError> {
        if config.log.is_some() {
            return Err(MatchError::Cluster(
                "--log records engines run by this process: it cannot be used with --cluster ray".into(),
            ));
        }
        if !quiet {
            eprintln!("Ray cluster: {}", self.description);
        }
        // The engines start on the workers: one that cannot is reported
        // with its node by the pair that tried.
        Ok(Checked::Ready)
    }

    fn play(
        &mut self,
        config: &MatchConfig,
        pairs: Vec<PairJob>,
        stop: &AtomicBool,
        done: &mpsc::Sender<FinishedGame>,
    ) -> Result<(), MatchError> {
        let mut queue = VecDeque::new();
        for p in pairs {
            let spec = PairSpec::new(config, &p, Some(&self.driver_exe))?;
            let cpus = spec.threads()?;
            queue.push_back((p, spec, cpus));
        }
        let mut in_flight: HashMap<u64, PairJob> = HashMap::new();
        loop {
            if stop.load(Ordering::Relaxed) {
                if !in_flight.is_empty() {
                    self.cancel()?;
                }
                return Ok(());
            }
            while in_flight.len() < config.concurrency {
                let Some((pair, spec, num_cpus)) = queue.pop_front() else {
                    break;
                };
                let key = self.next_key;
                self.next_key += 1;
                self.send(&Request::Pair {
                    key,
                    num_cpus,
                    spec: &spec,
                })?;
                in_flight.insert(key, pair);
            }
            if in_flight.is_empty() {
                return Ok(());
            }
            match self.next_event(Instant::now() + Duration::from_millis(100))? {
                Some(Event::Done { key, node, outcome }) => {
                    // A key already counted (or from an earlier match) is
                    // a duplicate: ignored.
                    let Some(pair) = in_flight.remove(&key) else { continue };
                    let games = outcome
                        .into_games(&pair)
                        .map_err(|e| MatchError::Cluster(format!("{e} (node {node})")))?;
                    for g in games {
                        if done.send(g).is_err() {
                            return Ok(());
                        }
                    }
                }
                Some(Event::Failed { key, node, message }) => {
                    let pair = in_flight.get(&key).map_or(0, |p| p.index + 1);
                    let _ = self.cancel();
                    return Err(MatchError::Cluster(format!(
                        "pair {pair} failed on node {node}: {message}"
                    )));
                }
                Some(Event::Error { message }) => return Err(self.with_stderr(&format!("Ray: {message}"))),
                Some(Event::Ready { .. } | Event::Cancelled) | None => {}
            }
        }
    }
}

impl Drop for RayExecutor {
    fn drop(&mut self) {
        // End of input tells the bridge to cancel what is left and
        // disconnect (stopping a private local Ray); a bridge that does not
        // exit in time is killed, with its process group.
        self.stdin = None;
        let deadline = Instant::now() + Duration::from_secs(30);
        while Instant::now() < deadline {
            if self.child.try_wait().is_some() {
                return;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        self.child.kill();
    }
}
