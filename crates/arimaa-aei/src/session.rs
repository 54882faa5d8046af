//! The AEI session: the opening handshake, then the main phase. Game state is
//! changed only here, on the protocol thread; a search runs on a thread of its
//! own with a snapshot of the game and writes its own `info` and `bestmove`.

use crate::command::{parse_command, printable, Command, EngineOption};
use crate::options::Options;
use crate::output::Output;
use crate::report::{bestmove, progress_line, summary_line, write_info};
use arimaa_core::notation::{format_setup, parse_position};
use arimaa_core::{Color, Game};
use arimaa_search::search::{Progress, Report};
use arimaa_search::setup::choose_setup;
use arimaa_search::smp::Watch;
use arimaa_search::{Params, TimeManager, TransTable};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::Instant;

/// Whether to keep reading.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Flow {
    /// Go on.
    Continue,
    /// `quit` was received: exit.
    Quit,
}

/// Identification sent in the handshake.
#[derive(Clone, Debug)]
pub struct Identity {
    /// `id name`.
    pub name: String,
    /// `id author`.
    pub author: String,
    /// `id version`.
    pub version: String,
}

struct Running {
    handle: JoinHandle<()>,
    /// The search's clock, its stop flag included.
    time: Arc<TimeManager>,
    /// Set by the search thread just before it writes its bestmove: a command
    /// sent after the bestmove then finds the search over and joins it, so
    /// that `isready` resizes the table even if the thread has not exited yet.
    done: Arc<AtomicBool>,
    ponder: bool,
    side: Color,
}

/// One controller connection.
pub struct Session {
    out: Output,
    id: Identity,
    opened: bool,
    game: Game,
    options: Options,
    search: Option<Running>,
    tt: Arc<TransTable>,
    seed: u64,
}

impl std::fmt::Debug for Session {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Session")
            .field("opened", &self.opened)
            .field("searching", &self.search.is_some())
            .finish()
    }
}

impl Session {
    /// A session writing to `out`. `seed` varies the setups.
    #[must_use]
    pub fn new(out: Output, id: Identity, seed: u64) -> Session {
        // The table is allocated at full size on the first `isready` or `go`,
        // not here: the handshake must be quick.
        Session {
            out,
            id,
            opened: false,
            game: Game::new(),
            options: Options::default(),
            search: None,
            tt: Arc::new(TransTable::new(1)),
            seed,
        }
    }

    /// Starts from the evaluation weights and search settings `params`
    /// instead of the defaults (`arimaa --params FILE`).
    #[must_use]
    pub fn with_params(mut self, params: Params) -> Session {
        self.options.params = params;
        self
    }

    /// The game as the session sees it.
    #[must_use]
    pub fn game(&self) -> &Game {
        &self.game
    }

    /// Bytes of the transposition table now allocated.
    #[must_use]
    pub fn table_bytes(&self) -> usize {
        self.tt.bytes()
    }

    /// The current options.
    #[must_use]
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// True while a search thread runs.
    #[must_use]
    pub fn searching(&mut self) -> bool {
        self.reap();
        self.search.is_some()
    }

    /// Handles one input line.
    pub fn handle_line(&mut self, line: &str) -> Flow {
        self.reap();
        let command = match parse_command(line) {
            Ok(Some(c)) => c,
            Ok(None) => return Flow::Continue,
            Err(e) => {
                if self.opened {
                    self.out.error(&e.to_string());
                } else {
                    log::warn!("before 'aei': {e}");
                }
                return Flow::Continue;
            }
        };
        if !self.opened {
            // Nothing may reach stdout before the handshake.
            if command == Command::Aei {
                self.open();
            } else if command == Command::Quit {
                return Flow::Quit;
            } else {
                log::warn!("ignored before 'aei': {}", printable(line, 60));
            }
            return Flow::Continue;
        }
        self.handle(command)
    }

    /// Reports a line the reader refused (too long, not UTF-8).
    pub fn bad_input(&self, why: &str) {
        if self.opened {
            self.out.error(why);
        }
    }

    fn open(&mut self) {
        self.opened = true;
        self.out.line("protocol-version 1");
        self.out.line(&format!("id name {}", self.id.name));
        self.out.line(&format!("id author {}", self.id.author));
        self.out.line(&format!("id version {}", self.id.version));
        self.out.line("aeiok");
    }

    fn handle(&mut self, command: Command) -> Flow {
        match command {
            Command::Aei => self.out.warning("'aei' again: the session is already open"),
            Command::IsReady => {
                if self.search.is_none() {
                    self.resize_table();
                }
                self.out.line("readyok");
            }
            Command::NewGame => {
                self.finish_search();
                self.game = Game::new();
                self.options.clock.new_game();
                self.tt.clear();
            }
            Command::SetPosition(text) => match parse_position(&text) {
                Ok(pos) => {
                    self.finish_search();
                    self.game = Game::from_position(pos);
                }
                Err(e) => self.out.error(&format!("setposition: {e}")),
            },
            Command::SetOption(option) => self.set_option(option),
            Command::MakeMove(text) => self.make_move(&text),
            Command::Go { ponder } => self.go(ponder),
            Command::Stop => match &self.search {
                Some(r) => r.time.stop(),
                None => log::debug!("stop with no search running"),
            },
            Command::Quit => {
                self.shutdown();
                return Flow::Quit;
            }
        }
        Flow::Continue
    }

    fn set_option(&mut self, option: EngineOption) {
        if let EngineOption::Unknown(name) = &option {
            self.out
                .warning(&format!("unknown option '{}' ignored", printable(name, 40)));
            return;
        }
        let retime = matches!(option, EngineOption::MoveUsed(_));
        match self.options.apply(option) {
            Ok(_) if retime => self.retime_running_search(),
            Ok(_) => {}
            Err(e) => self.out.error(&e),
        }
    }

    fn make_move(&mut self, text: &str) {
        // Check first, so that a refused move does not disturb a running search.
        let mut trial = self.game.clone();
        if let Err(e) = trial.play_text(text) {
            self.out.error(&format!("makemove '{}': {e}", printable(text, 80)));
            return;
        }
        self.finish_search();
        self.game = trial;
    }

    /// Stops the running search, if any, and waits for it: a ponder ends
    /// silently, a plain `go` still sends its one bestmove.
    fn finish_search(&mut self) {
        if let Some(r) = self.search.take() {
            r.time.stop();
            if r.handle.join().is_err() {
                self.out.error("the search thread failed");
            }
        }
    }

    /// Joins a search thread that has finished by itself.
    fn reap(&mut self) {
        if self
            .search
            .as_ref()
            .is_some_and(|r| r.handle.is_finished() || r.done.load(Ordering::Acquire))
        {
            self.finish_search();
        }
    }

    /// Stops everything before exit.
    pub fn shutdown(&mut self) {
        self.finish_search();
    }

    fn go(&mut self, ponder: bool) {
        if let Some(r) = &self.search {
            if r.ponder {
                self.finish_search();
            } else {
                self.out.error("go: a search is already running (send stop first)");
                return;
            }
        }
        if self.game.in_setup() {
            if ponder {
                return;
            }
            let side = self.game.side_to_move();
            self.seed = self.seed.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let placed = choose_setup(side, self.game.position(), self.seed);
            self.out.line(&format!("bestmove {}", format_setup(&placed)));
            return;
        }
        if let Some(outcome) = self.game.outcome() {
            if !ponder {
                self.out
                    .warning(&format!("go: the game is over ({outcome}); resigning"));
                self.out.line("bestmove resign");
            }
            return;
        }
        self.resize_table();
        let side = self.game.side_to_move();
        // A ponder searches until told otherwise.
        let (time, depth) = if ponder {
            (TimeManager::unlimited(), None)
        } else {
            let depth = self.options.depth;
            (TimeManager::for_turn(&self.options.clock, side, depth.is_some()), depth)
        };
        let time = Arc::new(time);
        let game = self.game.clone();
        let out = self.out.clone();
        let (t_time, tt) = (Arc::clone(&time), Arc::clone(&self.tt));
        let done = Arc::new(AtomicBool::new(false));
        let how = How {
            threads: self.options.threads,
            depth,
            params: self.options.params.clone(),
            ponder,
            done: Arc::clone(&done),
        };
        let spawned = std::thread::Builder::new().name("search".into()).spawn(move || {
            run_search(&game, &t_time, &tt, &how, &out);
        });
        match spawned {
            Ok(handle) => {
                self.search = Some(Running {
                    handle,
                    time,
                    done,
                    ponder,
                    side,
                })
            }
            Err(e) => {
                self.out.error(&format!("go: cannot start the search thread: {e}"));
                if !ponder {
                    self.out.line("bestmove resign");
                }
            }
        }
    }

    /// Applies a changed `hash` option (between searches only). The old table
    /// is freed before the new one is allocated, so memory never holds both.
    fn resize_table(&mut self) {
        let bytes = self.options.hash_mb * 1024 * 1024;
        if self.tt.bytes().abs_diff(bytes) > bytes / 8 {
            let old_mb = (self.tt.bytes() >> 20).max(1);
            self.tt = Arc::new(TransTable::new(1));
            match TransTable::try_new(self.options.hash_mb) {
                Ok(tt) => self.tt = Arc::new(tt),
                Err(e) => {
                    // Back to the size that worked, and the option says so.
                    self.out.error(&format!("{e}; keeping {old_mb} MB"));
                    self.options.hash_mb = old_mb;
                    self.tt = Arc::new(TransTable::try_new(old_mb).unwrap_or_else(|_| TransTable::new(1)));
                }
            }
        }
    }

    /// `moveused` arrived during a search: its clock re-times it.
    fn retime_running_search(&mut self) {
        if let Some(r) = self.search.as_ref().filter(|r| !r.ponder) {
            r.time.retime(&self.options.clock, r.side);
        }
    }
}

impl Drop for Session {
    fn drop(&mut self) {
        self.shutdown();
    }
}

/// How a search thread searches: the settings taken from the options at `go`.
struct How {
    threads: usize,
    depth: Option<u32>,
    params: Params,
    ponder: bool,
    done: Arc<AtomicBool>,
}

/// The search thread's body: info lines as iterations complete and a
/// progress line every second in between, then for a plain `go` (not a
/// ponder) a `log summary` line and exactly one bestmove.
fn run_search(game: &Game, time: &TimeManager, tt: &TransTable, how: &How, out: &Output) {
    let started = Instant::now();
    let root = *game.position();
    let mut report = |r: &Report| write_info(out, &root, r);
    let progress = |p: &Progress| out.line(&progress_line(&root, p));
    let watch = Watch::iterations(&mut report).with_progress(&progress);
    let result = arimaa_search::smp::search(game, time, tt, how.threads, how.depth, &how.params, watch);
    log::debug!("search done in {:?}", started.elapsed());
    if how.ponder {
        return;
    }
    how.done.store(true, Ordering::Release);
    match result {
        Some(r) => {
            out.line(&summary_line(&root, &r, time.elapsed()));
            out.line(&bestmove(&root, &r.best));
        }
        None => {
            out.warning("no legal move: resigning");
            out.line("bestmove resign");
        }
    }
}
