//! `arimaa match --resume`: a stopped match carried on from its record file,
//! counted as one match; a record of another match is refused untouched.

mod common;

use common::{bin, ok_stdout, records, run_match, scratch, OPENING};
use std::path::{Path, PathBuf};

/// A fixed-depth match of the engine against itself (fast, no clock) that
/// records to `record`, with `extra` arguments; the engines are named `a`, `b`.
fn depth_match(names: [&str; 2], setups: &Path, record: &Path, games: u32, extra: &[&str]) -> std::process::Output {
    let cmd = format!("cmd={}", bin());
    let (a, b) = (format!("name={}", names[0]), format!("name={}", names[1]));
    let games = games.to_string();
    let (setups, record) = (setups.display().to_string(), record.display().to_string());
    let mut args = vec![
        "--engine",
        &a,
        &cmd,
        "depth=1",
        "--engine",
        &b,
        &cmd,
        "depth=1",
        "--each",
        "option.hash=16",
        "--games",
        &games,
        "--concurrency",
        "2",
        "--max-turns",
        "10",
        "--setups",
        &setups,
        "--record",
        &record,
    ];
    args.extend_from_slice(extra);
    run_match(&args)
}

/// A scratch directory `name` with the two-line setup file written in it:
/// the setup file and the record's path.
fn setups_and_record(name: &str) -> (PathBuf, PathBuf) {
    let dir = scratch(name);
    let setups = dir.join("setups.txt");
    std::fs::write(&setups, OPENING).expect("write setups");
    (setups, dir.join("games.txt"))
}

fn game_numbers(record: &Path) -> Vec<u32> {
    let mut n: Vec<u32> = records(record)
        .iter()
        .map(|g| g.header("Game").and_then(|n| n.parse().ok()).expect("a game number"))
        .collect();
    n.sort_unstable();
    n
}

#[test]
fn a_stopped_match_carries_on_from_its_record() {
    let (setups, record) = setups_and_record("resume");
    let first = depth_match(["a", "b"], &setups, &record, 4, &[]);
    assert!(ok_stdout(&first).contains("4 of 4 games finished"));
    assert_eq!(game_numbers(&record), [1, 2, 3, 4]);

    // Carried on to 8: only games 5..8 are played, the summary counts all 8.
    let more = depth_match(["a", "b"], &setups, &record, 8, &["--resume"]);
    let stdout = ok_stdout(&more);
    let stderr = String::from_utf8_lossy(&more.stderr);
    assert!(stderr.contains("Resumed 4 recorded games; 4 to play"), "{stderr}");
    assert!(stdout.contains("8 of 8 games finished"), "{stdout}");
    assert_eq!(game_numbers(&record), [1, 2, 3, 4, 5, 6, 7, 8]);
    for g in records(&record) {
        // The schedule's opening for each pair: lines 1, 2, 1, 2 of the file.
        let n: u32 = g.header("Game").and_then(|n| n.parse().ok()).expect("number");
        let line = ((n - 1) / 2) % 2 + 1;
        let want = format!("{}:{line}", setups.display());
        assert_eq!(g.header("Setup"), Some(want.as_str()), "game {n}");
    }

    // A match whose record is complete plays nothing more.
    let again = depth_match(["a", "b"], &setups, &record, 8, &["--resume"]);
    assert!(ok_stdout(&again).contains("8 of 8 games finished"));
    assert!(String::from_utf8_lossy(&again.stderr).contains("Resumed 8 recorded games; 0 to play"));
    assert_eq!(game_numbers(&record).len(), 8);
}

#[test]
fn the_missing_half_of_a_pair_is_played() {
    let (setups, record) = setups_and_record("resume-half");
    ok_stdout(&depth_match(["a", "b"], &setups, &record, 4, &[]));
    // Drop game 3, as if the match had stopped while it was being played.
    let text = std::fs::read_to_string(&record).expect("record");
    let kept: Vec<&str> = text
        .split("[Event ")
        .filter(|g| !g.is_empty() && !g.contains("[Game \"3\"]"))
        .collect();
    std::fs::write(&record, format!("[Event {}", kept.join("[Event "))).expect("rewrite");
    assert_eq!(game_numbers(&record), [1, 2, 4]);
    let out = depth_match(["a", "b"], &setups, &record, 4, &["--resume"]);
    assert!(String::from_utf8_lossy(&out.stderr).contains("Resumed 3 recorded games; 1 to play"));
    assert!(ok_stdout(&out).contains("4 of 4 games finished"));
    assert_eq!(game_numbers(&record), [1, 2, 3, 4]);
    let third = records(&record)
        .into_iter()
        .find(|g| g.header("Game") == Some("3"))
        .expect("game 3");
    // Game 3 opens pair 2: `a` has gold, with the second line's setups.
    assert_eq!(third.header("Gold"), Some("a"));
    let want = format!("{}:2", setups.display());
    assert_eq!(third.header("Setup"), Some(want.as_str()));
}

#[test]
fn another_match_or_a_broken_record_is_refused_untouched() {
    let (setups, record) = setups_and_record("resume-refused");
    ok_stdout(&depth_match(["a", "b"], &setups, &record, 2, &[]));
    let before = std::fs::read(&record).expect("record");

    let renamed = depth_match(["a", "c"], &setups, &record, 4, &["--resume"]);
    assert!(!renamed.status.success());
    let err = String::from_utf8_lossy(&renamed.stderr);
    assert!(
        err.contains("cannot resume from") && err.contains("Resume with the same engines"),
        "{err}"
    );
    let fewer = depth_match(["a", "b"], &setups, &record, 1, &["--resume"]);
    assert!(!fewer.status.success());
    assert!(String::from_utf8_lossy(&fewer.stderr).contains("beyond this match's 1 games"));
    assert_eq!(
        std::fs::read(&record).expect("record"),
        before,
        "the record is untouched"
    );

    let broken = record.with_file_name("broken.txt");
    std::fs::write(&broken, "[Event \"x\"]\n[Game \"1\"]\n\n1g Ra1 Rb1\n\n").expect("write");
    let out = depth_match(["a", "b"], &setups, &broken, 2, &["--resume"]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("cannot resume from"));

    // --resume without a record is a usage error.
    let cmd = format!("cmd={}", bin());
    let out = run_match(&[
        "--engine", "name=a", &cmd, "depth=1", "--engine", "name=b", &cmd, "depth=1", "--resume",
    ]);
    assert!(!out.status.success());
    assert!(String::from_utf8_lossy(&out.stderr).contains("--record"));
}
