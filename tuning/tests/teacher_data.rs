//! The teacher labels kept in the repository (`tuning/data/teacher`) read
//! whole: the evaluation labels as `arimaa learn` reads them, and sharp's
//! rabbit scores line by line; every file gzipped, with the positions its
//! README counts and no line that fails to parse; and the stored network
//! reads as the engine reads networks and scores as it did when trained.

use arimaa_search::nnue::{Base, Network};
use arimaa_tuning::nnue::data::{read, read_text};
use arimaa_tuning::nnue::measure::spearman;
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
        ("static_top_dense.jsonl.gz", 146_000, 0),
        ("movetest_r4.jsonl.gz", 478, 0),
        ("movetest_r4_after.jsonl.gz", 7_800, 0),
        ("movetest_preloss.jsonl.gz", 300, 0),
        ("movetest_firstloss.jsonl.gz", 240, 0),
        ("movetest_firstloss_rest.jsonl.gz", 230, 0),
        ("searched_leaves.jsonl.gz", 10_700, 0),
    ] {
        let (samples, skipped) = read(&file(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
        assert!(samples.len() >= at_least, "{name}: {} positions", samples.len());
        assert!(skipped <= unlabelled, "{name}: {skipped} lines skipped");
        assert!(samples.iter().all(|s| s.label.is_finite()), "{name}");
    }
}

/// `networks/big2d.bin` (session 62, not embedded: tuning/data/teacher/README.md)
/// ranks the searched leaves' labels (sharp's depth-4 scores) as it did
/// when trained (Spearman 0.934, the hand evaluation 0.844): it reads as a
/// network, and today's hand features are the dense inputs it learned on.
#[test]
fn the_stored_network_ranks_the_searched_leaves_as_when_trained() {
    let bytes = std::fs::read(file("networks/big2d.bin")).unwrap();
    let net = Network::from_bytes(&bytes).unwrap();
    assert!(net.reads_dense() && net.base() == Base::OnHand);
    let (samples, _) = read(&file("searched_leaves.jsonl.gz")).unwrap();
    let labels: Vec<f64> = samples.iter().map(|s| f64::from(s.label)).collect();
    let hand: Vec<f64> = samples.iter().map(|s| f64::from(s.hand)).collect();
    let ours: Vec<f64> = samples
        .iter()
        .map(|s| f64::from(s.hand) + f64::from(net.evaluate(&s.pos)))
        .collect();
    let (hand, ours) = (spearman(&hand, &labels), spearman(&ours, &labels));
    assert!(ours >= 0.93 && hand < 0.85, "network {ours:.4}, hand {hand:.4}");
}

/// Every line of the gzipped JSON-lines file `name`, parsed: a line that
/// does not parse fails the test with its number.
fn json_lines(name: &str) -> Vec<serde_json::Value> {
    let text = read_text(&file(name)).unwrap_or_else(|e| panic!("{name}: {e}"));
    text.lines()
        .enumerate()
        .map(|(n, line)| serde_json::from_str(line).unwrap_or_else(|e| panic!("{name}:{n}: {e}")))
        .collect()
}

/// True when `v[key]` is a position AEI's `setposition` takes.
fn has_position(v: &serde_json::Value, key: &str) -> bool {
    arimaa_core::parse_position(v[key].as_str().unwrap_or_default()).is_ok()
}

#[test]
fn sharps_rabbit_scores_read_whole() {
    let name = "goal_threat.jsonl.gz";
    let rows = json_lines(name);
    for (n, v) in rows.iter().enumerate() {
        assert!(has_position(v, "pos"), "{name}:{n}: no position");
        let (mover, waiting) = (v["mover"].as_i64(), v["waiting"].as_i64());
        assert!(
            mover.is_some_and(|m| m >= 0) && waiting.is_some_and(|w| w >= 0) && v["game"].is_string(),
            "{name}:{n}: a rabbit score is a count of millirabbits, never negative"
        );
    }
    assert_eq!(rows.len(), 60_000, "{name}");
}

#[test]
fn sharps_terms_around_our_moves_read_whole() {
    let name = "movetest_r4_terms.jsonl.gz";
    let rows = json_lines(name);
    for (n, v) in rows.iter().enumerate() {
        for key in ["pos", "after"] {
            assert!(has_position(v, key), "{name}:{n}: no {key} position");
        }
        assert!(
            v["move"].is_string() && v["reply"].is_string() && v["loss"].is_f64(),
            "{name}:{n}"
        );
        // Both term sets are sharp's full printout: its final score among them.
        for key in ["p", "b"] {
            assert!(v[key]["Final Score"].is_i64(), "{name}:{n}: no {key} terms");
        }
    }
    assert_eq!(rows.len(), 478, "{name}");
}
