//! `arimaa rabbit-inputs` end to end: one line per scored rabbit with the
//! goal-threat model's inputs (its blocks one-hot where they should be), and
//! a clear error for a file it cannot use.

mod common;

use arimaa_search::eval::goal_threat::INPUTS;
use common::{arimaa, scratch};

#[test]
fn every_scored_rabbit_gets_a_line_of_inputs() {
    let dir = scratch("rabbit-inputs");
    let positions = dir.join("positions.jsonl");
    // Gold (to move) has rabbits on d6 (2 ranks from goal), a2 (6 ranks: not
    // scored) and h1; silver has one on e4 (3 ranks from its goal).
    std::fs::write(
        &positions,
        "{\"pos\": \"g [       e           R                r           R       E      R]\"}\n\
         {\"pos\": \"s [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]\"}\n",
    )
    .unwrap();
    let out = dir.join("inputs.tsv");
    let run = arimaa(&[
        "rabbit-inputs",
        "--positions",
        positions.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(run.status.success(), "{}", String::from_utf8_lossy(&run.stderr));
    let text = std::fs::read_to_string(&out).unwrap();
    let rows: Vec<Vec<f32>> = text
        .lines()
        .map(|l| l.split('\t').map(|v| v.parse().unwrap()).collect())
        .collect();
    // The start position's rabbits are all on their first two ranks.
    let owners: Vec<(f32, f32)> = rows.iter().map(|r| (r[0], r[1])).collect();
    assert_eq!(owners, [(0.0, 0.0), (0.0, 1.0)], "{text}");
    for r in &rows {
        assert_eq!(r.len(), 2 + INPUTS, "{text}");
        let ydist = &r[2..8];
        assert_eq!(ydist.iter().sum::<f32>(), 1.0, "one distance to goal: {text}");
        assert_eq!(r[2..][6..10].iter().sum::<f32>(), 1.0, "one file class: {text}");
    }
    // Gold's d6 rabbit is 2 ranks from goal, silver's e4 one 3.
    assert_eq!(rows[0][2 + 1], 1.0, "{text}");
    assert_eq!(rows[1][2 + 2], 1.0, "{text}");
}

#[test]
fn a_line_without_a_position_is_a_clear_error() {
    let dir = scratch("rabbit-inputs-bad");
    let positions = dir.join("bad.jsonl");
    std::fs::write(&positions, "{\"pos\": \"g [oops]\"}\n").unwrap();
    let out = dir.join("inputs.tsv");
    let run = arimaa(&[
        "rabbit-inputs",
        "--positions",
        positions.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    let err = String::from_utf8_lossy(&run.stderr);
    assert!(err.contains("bad.jsonl:1") && err.contains("no position"), "{err}");
    assert!(!err.contains("panicked"), "{err}");
    let missing = dir.join("missing.jsonl");
    let run = arimaa(&[
        "rabbit-inputs",
        "--positions",
        missing.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ]);
    assert!(!run.status.success());
    assert!(String::from_utf8_lossy(&run.stderr).contains("cannot read"));
}
