//! Process groups: what a wrapper started ends with it, killed or exited.
//! `kill_all` is left to the binary's Ctrl-C test: here it would reach the
//! groups of the tests running beside it.

use super::*;
use std::path::PathBuf;
use std::sync::atomic::{AtomicU32, Ordering};
use std::time::{Duration, Instant};

/// A file name of its own for each caller in this test process.
pub(crate) fn temp_file(what: &str) -> PathBuf {
    static NEXT: AtomicU32 = AtomicU32::new(0);
    let n = NEXT.fetch_add(1, Ordering::Relaxed);
    std::env::temp_dir().join(format!("arimaa-group-{}-{n}-{what}", std::process::id()))
}

/// Shell text that starts a grandchild sleeping for 5 minutes in the
/// background and writes its pid to `pid_file` (a wrapper's engine).
pub(crate) fn start_grandchild(pid_file: &std::path::Path) -> String {
    format!("sleep 300 & echo $! > '{}'", pid_file.display())
}

/// The grandchild's pid, once the wrapper has written it.
pub(crate) fn read_pid(pid_file: &std::path::Path) -> u32 {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        let text = std::fs::read_to_string(pid_file).unwrap_or_default();
        if let Ok(pid) = text.trim().parse() {
            let _ = std::fs::remove_file(pid_file);
            return pid;
        }
        assert!(Instant::now() < deadline, "no pid in {}", pid_file.display());
        std::thread::sleep(Duration::from_millis(10));
    }
}

/// True while `pid` runs. A zombie counts as gone: it is dead, and waits
/// only for whichever ancestor reaps orphans (which in a container may be
/// slow to, or never do).
pub(crate) fn running(pid: u32) -> bool {
    let Ok(stat) = std::fs::read_to_string(format!("/proc/{pid}/stat")) else {
        return false;
    };
    // The state follows the command name, which is in parentheses.
    let state = stat.rsplit_once(") ").and_then(|(_, rest)| rest.chars().next());
    !matches!(state, Some('Z' | 'X') | None)
}

/// Waits up to 5 s for `pid` to be gone.
pub(crate) fn gone_soon(pid: u32) -> bool {
    let deadline = Instant::now() + Duration::from_secs(5);
    while running(pid) {
        if Instant::now() >= deadline {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10));
    }
    true
}

fn wrapper(script: &str) -> GroupChild {
    GroupChild::spawn(Command::new("sh").args(["-c", script]), AtExit::Kill).expect("run sh")
}

#[test]
fn a_killed_leader_takes_its_grandchild_with_it() {
    let pid_file = temp_file("killed");
    let mut leader = wrapper(&format!("{}; wait", start_grandchild(&pid_file)));
    let grandchild = read_pid(&pid_file);
    assert!(running(grandchild));
    leader.kill();
    assert!(gone_soon(grandchild), "grandchild {grandchild} survived the kill");
    assert!(leader.try_wait().is_some());
}

#[test]
fn a_leader_that_exits_takes_its_grandchild_with_it() {
    let pid_file = temp_file("exited");
    let mut leader = wrapper(&format!("{}; exit 3", start_grandchild(&pid_file)));
    let grandchild = read_pid(&pid_file);
    let deadline = Instant::now() + Duration::from_secs(5);
    let status = loop {
        if let Some(status) = leader.try_wait() {
            break status;
        }
        assert!(Instant::now() < deadline, "the wrapper did not exit");
        std::thread::sleep(Duration::from_millis(10));
    };
    assert_eq!(status.code(), Some(3));
    assert!(gone_soon(grandchild), "grandchild {grandchild} outlived its wrapper");
}

#[test]
fn a_dropped_leader_takes_its_grandchild_with_it() {
    let pid_file = temp_file("dropped");
    let leader = wrapper(&format!("{}; wait", start_grandchild(&pid_file)));
    let grandchild = read_pid(&pid_file);
    drop(leader);
    assert!(gone_soon(grandchild), "grandchild {grandchild} survived the drop");
}
