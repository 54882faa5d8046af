//! Child processes that lead a process group of their own and end with it.
//!
//! An engine command may be a wrapper: a shell script that starts the real
//! engine, `python -m ...`, `nice`, `taskset`. Killing the process we
//! started would leave what it started running, holding a core (and its
//! hash) for the rest of the match. So each child leads a new process group,
//! and every way it ends, killed or found to have exited, sends SIGKILL to
//! the whole group. The group also keeps a terminal's Ctrl-C from the child:
//! only the runner gets it, and it stops its children itself.
//!
//! A group's id is its leader's pid, which the system may give to a new
//! process once the leader is reaped and the group is empty. So a group is
//! signalled only while its leader is unreaped: an exit is noticed with
//! `waitid(WNOWAIT)`, which leaves the leader a zombie, the group is killed,
//! and only then is the leader reaped (on Linux; elsewhere the leader is
//! reaped first and the group signalled just after).
//!
//! A process that leaves the group on purpose (`setsid`, a daemon's double
//! fork) is beyond this.

use std::collections::BTreeSet;
use std::io;
use std::process::{Child, ChildStderr, ChildStdin, ChildStdout, Command, ExitStatus};
use std::sync::{Mutex, MutexGuard, PoisonError};

/// The groups that [`kill_all`] ends, by leader pid. Only [`GroupChild`]
/// adds and removes them; a leader is taken out before it is reaped.
static LIVE: Mutex<BTreeSet<u32>> = Mutex::new(BTreeSet::new());

fn live() -> MutexGuard<'static, BTreeSet<u32>> {
    // The set stays consistent whatever panicked while holding it.
    LIVE.lock().unwrap_or_else(PoisonError::into_inner)
}

/// What becomes of a group when the runner exits without ending it itself
/// (a second Ctrl-C exits at once, and no destructor runs).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtExit {
    /// Killed by [`kill_all`]: an engine, which may hang, and which its own
    /// process group hides from the terminal's Ctrl-C.
    Kill,
    /// Left to end by itself when its input closes, which it must do
    /// cleanly: the Ray bridge stops the private Ray it started.
    Leave,
}

/// A child process leading its own process group. Dropping it kills the
/// group and reaps the leader.
#[derive(Debug)]
pub struct GroupChild {
    child: Child,
    /// Set once the group is killed and the leader reaped.
    ended: bool,
    /// The leader's exit status, once reaped.
    status: Option<ExitStatus>,
}

impl GroupChild {
    /// Spawns `cmd` as the leader of a new process group.
    pub fn spawn(cmd: &mut Command, at_exit: AtExit) -> io::Result<GroupChild> {
        #[cfg(unix)]
        std::os::unix::process::CommandExt::process_group(cmd, 0);
        // Registered under the same lock as the spawn, so that `kill_all`
        // cannot run between the two and miss the group.
        let mut live = live();
        let child = cmd.spawn()?;
        if at_exit == AtExit::Kill {
            live.insert(child.id());
        }
        Ok(GroupChild {
            child,
            ended: false,
            status: None,
        })
    }

    /// The leader's pid (also the group's id).
    #[must_use]
    pub fn id(&self) -> u32 {
        self.child.id()
    }

    /// The leader's standard streams, for its caller to own.
    pub fn take_pipes(&mut self) -> (Option<ChildStdin>, Option<ChildStdout>, Option<ChildStderr>) {
        (
            self.child.stdin.take(),
            self.child.stdout.take(),
            self.child.stderr.take(),
        )
    }

    /// The leader's exit status once it has exited, `None` while it runs.
    /// An exit ends the group too: what the leader left behind goes with it.
    pub fn try_wait(&mut self) -> Option<ExitStatus> {
        if !self.ended && leader_exited(&mut self.child) {
            self.end();
        }
        self.status
    }

    /// Kills the whole group and reaps the leader.
    pub fn kill(&mut self) {
        if !self.ended {
            self.end();
        }
    }

    fn end(&mut self) {
        let id = self.child.id();
        {
            // Out of the set before the reap: `kill_all` holds the lock
            // while it signals, so it never reaches a reaped leader's id.
            let mut live = live();
            live.remove(&id);
            signal_group(id);
        }
        #[cfg(not(unix))]
        let _ = self.child.kill();
        self.ended = true;
        // An error here means it was reaped already: nothing is left to do.
        self.status = self.child.wait().ok();
    }
}

impl Drop for GroupChild {
    fn drop(&mut self) {
        // No group outlives its value, whatever path dropped it.
        self.kill();
    }
}

/// Kills every group spawned with [`AtExit::Kill`] that has not ended: for
/// a runner about to exit at once, when no destructor will run.
pub fn kill_all() {
    let live = live();
    for &id in live.iter() {
        signal_group(id);
    }
}

/// True once the leader has exited. On Linux it is left unreaped.
#[cfg(target_os = "linux")]
fn leader_exited(child: &mut Child) -> bool {
    use nix::sys::wait::{waitid, Id, WaitPidFlag, WaitStatus};
    let Ok(pid) = i32::try_from(child.id()) else {
        return child.try_wait().map_or(true, |s| s.is_some());
    };
    let flags = WaitPidFlag::WEXITED | WaitPidFlag::WNOHANG | WaitPidFlag::WNOWAIT;
    // An error (no such child) can only mean it was reaped already.
    !matches!(
        waitid(Id::Pid(nix::unistd::Pid::from_raw(pid)), flags),
        Ok(WaitStatus::StillAlive)
    )
}

/// True once the leader has exited, reaping it.
#[cfg(not(target_os = "linux"))]
fn leader_exited(child: &mut Child) -> bool {
    child.try_wait().map_or(true, |s| s.is_some())
}

/// SIGKILL to the group led by `leader`.
#[cfg(unix)]
fn signal_group(leader: u32) {
    use nix::sys::signal::{killpg, Signal};
    if let Ok(pid) = i32::try_from(leader) {
        // ESRCH means the group is already empty; EPERM, that its members
        // now run as another user. Neither leaves anything to do.
        let _ = killpg(nix::unistd::Pid::from_raw(pid), Signal::SIGKILL);
    }
}

#[cfg(not(unix))]
fn signal_group(_leader: u32) {}

// The tests read /proc to see that a process is gone.
#[cfg(all(test, target_os = "linux"))]
pub(crate) mod tests;
