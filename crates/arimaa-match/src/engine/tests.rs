//! Engine processes: bounded lines, start-up failures, the traffic log.

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
