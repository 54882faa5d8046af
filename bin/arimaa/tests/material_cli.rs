//! `arimaa material` end to end: each player's balance of pieces over a
//! match record's games, and clear errors for files it cannot use.

mod common;

use common::{arimaa, repo, scratch};

fn run(args: &[&str]) -> (bool, String, String) {
    let out = arimaa(args);
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The row of `player` in the balance table, split in columns.
fn row(out: &str, player: &str) -> Vec<String> {
    let line = out
        .lines()
        .find(|l| l.split_whitespace().next() == Some(player) && !l.contains("lost"))
        .unwrap_or_else(|| panic!("no row for {player}:\n{out}"));
    line.split_whitespace().map(str::to_string).collect()
}

#[test]
fn both_players_of_a_record_get_opposite_balances() {
    let record = repo().join("tuning/tests/data/match_sample.txt");
    let (ok, out, err) = run(&["material", "--games", record.to_str().unwrap(), "--at", "20,40"]);
    assert!(ok, "{err}");
    let (base, fit) = (row(&out, "base"), row(&out, "fit1"));
    // player, games, then "mean ± half" per asked turn.
    assert_eq!(base[1], fit[1], "{out}");
    for col in [2, 5] {
        let (b, f): (f64, f64) = (base[col].parse().unwrap(), fit[col].parse().unwrap());
        assert!(
            (b + f).abs() < 1e-9,
            "each game's capture counts once for each side: {out}"
        );
    }
    // The sample's games are played to the end: someone lost something.
    assert!(
        out.lines()
            .any(|l| l.contains(" lost ") && !l.contains("lost e0 m0 h0 d0 c0 r0")),
        "{out}"
    );
}

#[test]
fn files_it_cannot_use_are_clear_errors() {
    let dir = scratch("material-errors");
    let missing = dir.join("missing.txt");
    let (ok, _, err) = run(&["material", "--games", missing.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("cannot read") && err.contains("missing.txt"), "{err}");
    let junk = dir.join("junk.txt");
    std::fs::write(&junk, "[Event \"x\"]\n\n1g Ra1\n").unwrap();
    let (ok, _, err) = run(&["material", "--games", junk.to_str().unwrap()]);
    assert!(!ok);
    assert!(err.contains("not a match record"), "{err}");
    let record = repo().join("tuning/tests/data/match_sample.txt");
    let (ok, _, err) = run(&["material", "--games", record.to_str().unwrap(), "--at", "0"]);
    assert!(!ok);
    assert!(err.contains("--at"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
}
