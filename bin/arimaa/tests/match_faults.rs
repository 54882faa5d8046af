//! `arimaa match` against a deliberately broken engine: every fault is a loss
//! for that engine with the right reason, in both colours, and the match
//! finishes with a valid record.

mod common;

use arimaa_core::Color;
use arimaa_match::Termination;
use common::{bin, broken_engine, ok_stdout, python, records, run_match, scratch};

/// Two games, colours swapped, of our engine at a small fixed depth against
/// the broken engine in `mode`, with the `extra` arguments.
fn broken_match(mode: &str, extra: &[&str]) -> std::process::Output {
    let broken = format!("cmd={} {} {mode}", python(), broken_engine().display());
    let ours = format!("cmd={}", bin());
    let mut args = vec![
        "--quiet",
        "--engine",
        "name=arimaa",
        &ours,
        "depth=3",
        "--engine",
        "name=broken",
        &broken,
        "tc=0.5s/0.5s",
        "--games",
        "2",
    ];
    args.extend_from_slice(extra);
    if !extra.contains(&"--concurrency") {
        args.extend_from_slice(&["--concurrency", "2"]);
    }
    run_match(&args)
}

/// `broken_match` with a record file; returns the record's games.
fn against_broken(mode: &str, extra: &[&str]) -> Vec<arimaa_match::record::RecordedGame> {
    let dir = scratch(mode);
    let record = dir.join("games.txt");
    let record_arg = record.display().to_string();
    let mut args = vec!["--record", &record_arg];
    args.extend_from_slice(extra);
    let stdout = ok_stdout(&broken_match(mode, &args));
    assert!(stdout.contains("2 of 2 games finished"), "{stdout}");
    let games = records(&record);
    assert_eq!(games.len(), 2, "{stdout}");
    let mut colours = Vec::new();
    for g in &games {
        let broken_side = if g.header("Gold") == Some("broken") {
            Color::Gold
        } else {
            Color::Silver
        };
        colours.push(broken_side);
        assert_eq!(g.winner(), Some(Some(broken_side.opponent())), "{:?}", g.headers);
    }
    assert!(colours.contains(&Color::Gold) && colours.contains(&Color::Silver));
    games
}

fn assert_reason(games: &[arimaa_match::record::RecordedGame], t: Termination, words: &str) {
    for g in games {
        assert_eq!(g.termination(), Some(t), "{:?}", g.headers);
        let detail = g.header("Termination").unwrap_or("");
        assert!(detail.contains(words), "{detail}");
    }
}

#[test]
fn an_illegal_move_loses() {
    let games = against_broken("illegal", &[]);
    assert_reason(&games, Termination::Illegal, "names the wrong piece");
    // The illegal move is not in the record; the setups are.
    assert!(games.iter().all(|g| g.game.record().len() >= 2));
}

#[test]
fn a_hung_engine_is_killed_and_loses() {
    let games = against_broken("hang", &["--hang-timeout", "0.5"]);
    assert_reason(&games, Termination::Hang, "killed");
}

#[test]
fn a_late_move_loses_on_time() {
    // The broken engine answers 2 s after `go`: past the 1 s limit, but
    // within the hang timeout.
    let games = against_broken("slow", &["--hang-timeout", "3"]);
    assert_reason(&games, Termination::Time, "lost on time");
}

#[test]
fn an_engine_that_exits_loses_by_crash_and_is_restarted() {
    // The crash in the first game must not keep the second from starting.
    let games = against_broken("exit", &["--concurrency", "1"]);
    assert_reason(&games, Termination::Crash, "crashed");
}

#[test]
fn resign_loses() {
    let games = against_broken("resign", &["--fail-on-fault"]);
    assert_reason(&games, Termination::Resign, "resigned");
}

#[test]
fn fail_on_fault_exits_3_and_names_the_faults() {
    let out = broken_match("illegal", &["--fail-on-fault"]);
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(3), "{stdout}");
    assert!(stdout.contains("Faults: 2 illegal move"), "{stdout}");
}

#[test]
fn a_third_repetition_is_an_illegal_move() {
    // Gold shuttles its camel d2-d3, silver d7-d6: silver's fourth move
    // would bring the start position back for the third time.
    let dir = scratch("repetition");
    let record = dir.join("games.txt");
    let script = broken_engine().display().to_string();
    let gold = format!("cmd={} {script} play Md2n Md3s", python());
    let silver = format!("cmd={} {script} play md7s md6n", python());
    let record_arg = record.display().to_string();
    let out = run_match(&[
        "--quiet",
        "--engine",
        "name=g",
        &gold,
        "--engine",
        "name=s",
        &silver,
        "--tc",
        "1s/1s",
        "--games",
        "1",
        "--record",
        &record_arg,
    ]);
    ok_stdout(&out);
    let games = records(&record);
    assert_eq!(games[0].winner(), Some(Some(Color::Gold)));
    assert_eq!(games[0].termination(), Some(Termination::Illegal));
    assert!(games[0].header("Termination").unwrap_or("").contains("third time"));
    assert_eq!(games[0].game.record().len(), 2 + 7);
}

#[test]
fn broken_inputs_are_errors_not_panics() {
    let script = broken_engine().display().to_string();
    let nostart = format!("cmd={} {script} nostart", python());
    let fine = format!("cmd={}", bin());
    let cases: [(Vec<&str>, &str); 7] = [
        (
            vec![
                "--engine", "name=a", &nostart, "--engine", "name=b", &fine, "--tc", "1s/1s",
            ],
            "no 'aeiok'",
        ),
        (
            vec![
                "--engine",
                "name=a",
                "cmd=/nonexistent/engine",
                "--engine",
                "name=b",
                &fine,
                "--tc",
                "1s/1s",
            ],
            "cannot run",
        ),
        (
            vec!["--engine", "name=a", &fine, "--engine", "name=b", &fine, "--tc", "1s"],
            "time control",
        ),
        (
            vec![
                "--engine", "name=a", &fine, "--engine", "name=a", &fine, "--tc", "1s/1s",
            ],
            "names must differ",
        ),
        (
            vec![
                "--engine", "name=a", &fine, "--engine", "name=b", &fine, "depth=x", "--tc", "1s/1s",
            ],
            "depth",
        ),
        (
            vec![
                "--engine",
                "name=a",
                &fine,
                "--engine",
                "name=b",
                &fine,
                "--tc",
                "1s/1s",
                "--setups",
                "/nonexistent",
            ],
            "setup file",
        ),
        (
            vec![
                "--engine",
                "name=a",
                &fine,
                "--engine",
                "name=b",
                &fine,
                "--tc",
                "1s/1s",
                "--plot",
                "/nonexistent/elo.svg",
            ],
            "--plot /nonexistent/elo.svg",
        ),
    ];
    for (args, needle) in cases {
        let out = run_match(&args);
        let stderr = String::from_utf8_lossy(&out.stderr);
        assert_eq!(out.status.code(), Some(1), "{args:?}: {stderr}");
        assert!(
            stderr.contains(needle) && !stderr.contains("panicked"),
            "{args:?}: {stderr}"
        );
    }
}
