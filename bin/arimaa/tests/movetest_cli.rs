//! `arimaa movetest` end to end, our own engine standing in for both the
//! candidates and the teacher (sharp stays outside the project's tests):
//! teacher-labelled positions, two candidates judged position by position,
//! the teacher's scores kept in the cache and reused, bad input refused.

mod common;

use common::{arimaa, bin, game_positions_file, repo, scratch, text};
use std::path::Path;

/// Eight positions of the committed match sample, labelled by our engine
/// at depth 2: the test set.
fn test_set(dir: &Path) -> std::path::PathBuf {
    let all = game_positions_file(dir, &repo().join("tuning/tests/data/match_sample.txt"));
    // Past the setups, eight turns apart.
    let some: String = std::fs::read_to_string(&all)
        .unwrap()
        .lines()
        .skip(4)
        .step_by(8)
        .take(8)
        .map(|l| format!("{l}\n"))
        .collect();
    let positions = dir.join("positions.jsonl");
    std::fs::write(&positions, some).unwrap();
    let labels = dir.join("labels.jsonl");
    let engine = format!("cmd={}", bin());
    let out = arimaa(&[
        "label",
        "--positions",
        positions.to_str().unwrap(),
        "--out",
        labels.to_str().unwrap(),
        "--quiet",
        "--engine",
        "name=teacher",
        &engine,
        "depth=2",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    labels
}

#[test]
fn two_candidates_are_judged_by_the_teacher_and_its_scores_are_kept() {
    let dir = scratch("movetest");
    let labels = test_set(&dir);
    let cache = dir.join("cache.jsonl");
    let out = dir.join("moves.jsonl");
    let engine = format!("cmd={}", bin());
    let run = || {
        arimaa(&[
            "movetest",
            "--positions",
            labels.to_str().unwrap(),
            "--quiet",
            "--concurrency",
            "2",
            "--unit",
            "100",
            "--engine",
            "name=a",
            &engine,
            "depth=3",
            "--engine",
            "name=b",
            &engine,
            "depth=3",
            "--teacher",
            "name=teacher",
            &engine,
            "depth=2",
            "--cache",
            cache.to_str().unwrap(),
            "--out",
            out.to_str().unwrap(),
        ])
    };
    let first = run();
    assert!(first.status.success(), "{}", text(&first));
    let stdout = String::from_utf8_lossy(&first.stdout).to_string();
    let row = |name: &str| {
        stdout
            .lines()
            .find(|l| l.starts_with(name))
            .unwrap_or_else(|| panic!("no row {name}: {}", text(&first)))
            .to_string()
    };
    assert!(row("a ").split_whitespace().nth(1) == Some("8"), "{}", text(&first));
    // The same engine twice plays the same moves: no difference at all.
    assert!(row("b ").ends_with("+0.000 R ± 0.000"), "{}", text(&first));
    // Each position's moves and losses, per candidate.
    let lines: Vec<serde_json::Value> = std::fs::read_to_string(&out)
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(lines.len(), 8);
    for l in &lines {
        assert!(l["best"].is_string() && l["score"].is_number(), "{l}");
        assert!(l["a"]["move"].is_string() && l["a"]["loss"].is_number(), "{l}");
        assert_eq!(l["a"], l["b"], "{l}");
    }
    let scored = std::fs::read_to_string(&cache).unwrap().lines().count();
    assert!((1..=8).contains(&scored), "{scored} cached scores");
    // A second run scores nothing again and says the same.
    let second = run();
    assert!(second.status.success(), "{}", text(&second));
    assert!(
        String::from_utf8_lossy(&second.stderr).contains("0 to score with the teacher"),
        "{}",
        text(&second)
    );
    assert_eq!(first.stdout, second.stdout);
    assert_eq!(std::fs::read_to_string(&cache).unwrap().lines().count(), scored);
}

/// A candidate on a clock is sent the clock (the `tc*` options, no depth)
/// and a new game before each position, and is judged like one at a depth.
#[cfg(unix)]
#[test]
fn a_candidate_on_a_clock_is_sent_the_clock_and_judged() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("movetest-clock");
    let labels = test_set(&dir);
    // The candidate's input, copied to a file on its way to the engine.
    let heard = dir.join("heard.txt");
    let script = dir.join("candidate.sh");
    std::fs::write(
        &script,
        format!("#!/bin/sh\ntee -a '{}' | '{}'\n", heard.display(), bin()),
    )
    .unwrap();
    std::fs::set_permissions(&script, std::fs::Permissions::from_mode(0o755)).unwrap();
    let out = arimaa(&[
        "movetest",
        "--positions",
        labels.to_str().unwrap(),
        "--quiet",
        "--unit",
        "100",
        "--limit",
        "3",
        "--engine",
        "name=clocked",
        &format!("cmd={}", script.display()),
        "tc=0.2s/1s/100",
        "--teacher",
        "name=teacher",
        &format!("cmd={}", bin()),
        "depth=2",
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let row = String::from_utf8_lossy(&out.stdout)
        .lines()
        .find(|l| l.starts_with("clocked "))
        .map(str::to_string);
    assert_eq!(
        row.as_deref().and_then(|r| r.split_whitespace().nth(1)),
        Some("3"),
        "{}",
        text(&out)
    );
    let heard = std::fs::read_to_string(&heard).unwrap();
    for line in ["setoption name tcmove value 0.2", "setoption name tcreserve value 1"] {
        assert!(heard.contains(line), "'{line}' not sent: {heard}");
    }
    assert!(!heard.contains("name depth"), "a depth sent: {heard}");
    assert_eq!(heard.matches("newgame").count(), 3, "{heard}");
    assert_eq!(heard.matches("\ngo\n").count(), 3, "{heard}");
}

#[test]
fn positions_without_a_teachers_score_are_refused() {
    let dir = scratch("movetest-bad");
    let plain = dir.join("plain.jsonl");
    std::fs::write(
        &plain,
        "{\"pos\": \"g [rrrrrrrr                                                RRRRRRRR]\"}\nnot json\n",
    )
    .unwrap();
    let engine = format!("cmd={}", bin());
    // The teacher's limit varies; the rest is the same each run.
    let movetest = |teacher_limit: &str| {
        arimaa(&[
            "movetest",
            "--positions",
            plain.to_str().unwrap(),
            "--engine",
            "name=a",
            &engine,
            "depth=2",
            "--teacher",
            "name=t",
            &engine,
            teacher_limit,
        ])
    };
    let out = movetest("depth=2");
    assert!(!out.status.success(), "{}", text(&out));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("no position with a teacher's `score`"), "{}", text(&out));
    assert!(err.contains("plain.jsonl:2: skipped"), "{}", text(&out));
    assert!(!err.contains("panicked"), "{}", text(&out));
    // A clock instead of a depth is refused for the teacher.
    let clocked = movetest("tc=1s/10s/100");
    assert!(!clocked.status.success());
    assert!(
        String::from_utf8_lossy(&clocked.stderr).contains("fixed depth"),
        "{}",
        text(&clocked)
    );
}

/// The `--engine` line of `arimaa COMMAND --help`.
fn engine_help(command: &str) -> String {
    let out = arimaa(&[command, "--help"]);
    assert!(out.status.success(), "{}", text(&out));
    let help = String::from_utf8_lossy(&out.stdout).into_owned();
    help.lines()
        .find(|l| l.trim_start().starts_with("--engine <"))
        .unwrap_or_default()
        .to_string()
}

#[test]
fn the_help_offers_candidates_a_depth_or_a_clock() {
    let engine = engine_help("movetest");
    assert!(engine.contains("(depth=N | tc=TC)"), "{engine}");
    assert!(engine_help("match").contains("tc=TC"));
}
