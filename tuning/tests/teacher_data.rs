//! The teacher labels kept in the repository (`tuning/data/teacher`) read
//! whole: the evaluation labels as `arimaa learn` reads them, and sharp's
//! rabbit scores line by line; every file gzipped, with the positions its
//! README counts and no line that fails to parse.

use arimaa_tuning::nnue::data::{read, read_text};
use std::path::PathBuf;

fn file(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("data/teacher")
        .join(name)
}

#[test]
fn the_committed_labels_read_whole() {
    // (file, positions at least, lines without a label at most): the game
    // positions of sharp's games lack a score where sharp had seen the end.
    for (name, at_least, unlabelled) in [
        ("sharp_games.jsonl.gz", 57_000, 3_000),
        ("random_sharp_games.jsonl.gz", 10_000, 0),
        ("ours_vs_sharp.jsonl.gz", 29_000, 0),
        ("sharp_static.jsonl.gz", 911_000, 0),
        ("static_round1.jsonl.gz", 139_000, 0),
        ("static_round1_pv.jsonl.gz", 4_000, 0),
        ("static_round2.jsonl.gz", 30_000, 0),
        ("static_round3.jsonl.gz", 85_000, 0),
        ("static_round4.jsonl.gz", 129_000, 0),
        ("static_round5.jsonl.gz", 30_000, 0),
        ("movetest_r4.jsonl.gz", 478, 0),
        ("movetest_r4_after.jsonl.gz", 2_100, 0),
        ("searched_leaves.jsonl.gz", 10_700, 0),
    ] {
        let (samples, skipped) = read(&file(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(samples.len() >= at_least, "{name}: {} positions", samples.len());
        assert!(skipped <= unlabelled, "{name}: {skipped} lines skipped");
        assert!(samples.iter().all(|s| s.label.is_finite()), "{name}");
    }
}

#[test]
fn the_goal_threat_model_follows_sharps_rabbit_scores() {
    use arimaa_search::eval::goal_threat::threat;
    let name = "goal_threat.jsonl.gz";
    let text = read_text(&file(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut lines = 0;
    let (mut ours, mut sharp) = (Vec::new(), Vec::new());
    for (n, line) in text.lines().enumerate() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}:{n}: {e}"));
        let pos = arimaa_core::parse_position(v["pos"].as_str().expect("pos")).expect("a position");
        let (mover, waiting) = (
            v["mover"].as_i64().expect("mover"),
            v["waiting"].as_i64().expect("waiting"),
        );
        assert!(mover >= 0 && waiting >= 0 && v["game"].is_string(), "{name}:{n}");
        lines += 1;
        // Every tenth position: the embedded model (centi-rabbits) against
        // sharp's scores (millirabbits), as the difference between the sides.
        if n % 10 == 0 {
            ours.push(f64::from(threat(&pos, pos.side()) - threat(&pos, pos.side().opponent())) * 10.0);
            sharp.push((mover - waiting) as f64);
        }
    }
    assert_eq!(lines, 60_000, "{name}");
    let mean = sharp.iter().sum::<f64>() / sharp.len() as f64;
    let variance: f64 = sharp.iter().map(|s| (s - mean).powi(2)).sum();
    let residual: f64 = ours.iter().zip(&sharp).map(|(o, s)| (o - s).powi(2)).sum();
    let r2 = 1.0 - residual / variance;
    // 0.85 when fitted (held out); features changed without a refit fall far below.
    assert!(
        r2 > 0.8,
        "R² of the goal-threat model against sharp's rabbit scores: {r2:.3}"
    );
}
