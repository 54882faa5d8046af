//! Engine processes: bounded lines, start-up failures, a wrapped engine
//! ended whole.

use super::*;

#[test]
fn bounded_lines_strip_endings_and_cut_long_lines() {
    let long = "x".repeat(MAX_LINE + 10);
    let text = format!("a\r\nb\n{long}\nc");
    let mut r = BufReader::new(text.as_bytes());
    assert_eq!(read_bounded_line(&mut r).as_deref(), Some("a"));
    assert_eq!(read_bounded_line(&mut r).as_deref(), Some("b"));
    assert_eq!(read_bounded_line(&mut r).map(|l| l.len()), Some(MAX_LINE));
    assert_eq!(read_bounded_line(&mut r).as_deref(), Some("c"));
    assert_eq!(read_bounded_line(&mut r), None);
}

fn spec(cmd: &[&str]) -> EngineSpec {
    EngineSpec {
        name: "t".into(),
        command: cmd.iter().map(|s| s.to_string()).collect(),
        dir: None,
        options: vec![],
        limit: crate::config::Limit::Depth(1),
    }
}

#[test]
fn a_missing_program_is_a_start_error() {
    let stop = AtomicBool::new(false);
    let e = Engine::start(&spec(&["/nonexistent/engine"]), None, &stop).unwrap_err();
    assert!(matches!(&e, Failure::Crash(m) if m.contains("cannot run")), "{e:?}");
}

#[cfg(unix)]
#[test]
fn an_engine_that_exits_at_once_is_a_crash() {
    let stop = AtomicBool::new(false);
    let e = Engine::start(&spec(&["sh", "-c", "echo broken >&2; exit 3"]), None, &stop).unwrap_err();
    // Depending on the race, 'aei' cannot be written or no 'aeiok' comes.
    let Failure::Crash(m) = &e else {
        panic!("not a crash: {e:?}")
    };
    assert!(m.starts_with("engine 't': ") && m.contains("aei"), "{e:?}");
}

/// A wrapper script's engine: it starts a grandchild (its pid written to
/// `pid_file`) and answers AEI until `quit`, as `sh` running the real engine
/// without `exec` would.
#[cfg(target_os = "linux")]
fn wrapped_engine(pid_file: &std::path::Path) -> Vec<String> {
    let script = format!(
        "{}; while read -r line; do case \"$line\" in \
         aei) echo aeiok;; isready) echo readyok;; quit) exit 0;; esac; done",
        crate::process_group::tests::start_grandchild(pid_file)
    );
    vec!["sh".into(), "-c".into(), script]
}

#[cfg(target_os = "linux")]
#[test]
fn a_killed_or_quit_engine_takes_its_wrappers_children_with_it() {
    use crate::process_group::tests::{gone_soon, read_pid, running, temp_file};
    let stop = AtomicBool::new(false);
    for how in ["kill", "quit", "drop"] {
        let pid_file = temp_file(how);
        let command = wrapped_engine(&pid_file);
        let mut spec = spec(&[]);
        spec.command = command;
        let mut engine = Engine::start(&spec, None, &stop).expect("the wrapped engine starts");
        let grandchild = read_pid(&pid_file);
        assert!(running(grandchild), "{how}");
        match how {
            "kill" => engine.kill(),
            "quit" => engine.quit(),
            _ => drop(engine),
        }
        assert!(gone_soon(grandchild), "{how}: grandchild {grandchild} survived");
    }
}
