//! `arimaa judge` end to end: the players a match record names reach the
//! positions `arimaa positions` writes, and `judge` reports each player's
//! loss per move from labelled positions; an unreadable file is an error.

mod common;

use common::{arimaa, repo, scratch};
use std::path::{Path, PathBuf};

fn run(args: &[&str]) -> (bool, String, String) {
    let out = arimaa(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

fn temp(name: &str) -> PathBuf {
    // One folder per file: the tests run at once, and scratch empties its folder.
    scratch(&format!("judge-{name}")).join(name)
}

fn path(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn positions_of_a_match_record_name_the_player_to_move() {
    let record = repo().join("tuning/tests/data/match_sample.txt");
    let out = temp("positions.jsonl");
    let (ok, _, err) = run(&["positions", "--games", path(&record), "--out", path(&out)]);
    assert!(ok, "{err}");
    let text = std::fs::read_to_string(&out).unwrap();
    let _ = std::fs::remove_file(&out);
    let lines: Vec<serde_json::Value> = text.lines().map(|l| serde_json::from_str(l).unwrap()).collect();
    // The sample's first game: base is gold, fit1 silver.
    let first: Vec<_> = lines.iter().filter(|v| v["game"] == lines[0]["game"]).collect();
    assert!(first.len() > 10, "{text}");
    for v in first {
        let gold = v["pos"].as_str().unwrap().starts_with('g');
        assert_eq!(v["player"], if gold { "base" } else { "fit1" }, "{v}");
    }
}

#[test]
fn judge_reports_each_players_loss_per_move() {
    let line = |ply: usize, side: char, player: &str, score: i32| {
        format!(
            r#"{{"pos": "{side} [{}]", "game": "m game 1", "ply": {ply}, "origin": "game", "player": "{player}", "score": {score}}}"#,
            " ".repeat(64)
        )
    };
    // ours loses 0.5 R then 1.5 R; sharp loses 0.2 R.
    let text = [
        line(2, 'g', "ours", 100),
        line(3, 's', "sharp", 400),
        line(4, 'g', "ours", -200),
        line(5, 's', "sharp", 1_700),
    ]
    .join("\n");
    let labels = temp("labels.jsonl");
    std::fs::write(&labels, text).unwrap();
    let (ok, out, err) = run(&["judge", "--labels", path(&labels)]);
    let _ = std::fs::remove_file(&labels);
    assert!(ok, "{err}");
    let row = |player: &str| {
        out.lines()
            .find(|l| l.starts_with(player))
            .unwrap_or_else(|| panic!("no row for {player}:\n{out}"))
            .split_whitespace()
            .map(str::to_string)
            .collect::<Vec<_>>()
    };
    let ours = row("ours");
    // player, phase, moves, mean, "R", "±", half width, median, blunders, "%"
    assert_eq!(ours[1..4], ["opening", "2", "1.000"], "{out}");
    assert_eq!(ours[8], "50.0", "one of two moves lost 1 R or more:\n{out}");
    let sharp = row("sharp");
    assert_eq!(sharp[1..4], ["opening", "1", "0.200"], "{out}");
}

#[test]
fn an_unreadable_labels_file_is_a_clear_error() {
    let missing = temp("missing.jsonl");
    let (ok, _, err) = run(&["judge", "--labels", path(&missing)]);
    assert!(!ok);
    assert!(err.contains("cannot read") && err.contains("missing.jsonl"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
