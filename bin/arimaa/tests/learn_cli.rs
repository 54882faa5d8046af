//! `arimaa learn` end to end: a network trained on positions of the
//! committed game sample (labelled by the players' own scores in it), read
//! back by the engine; a network measured without training; bad files
//! refused by name.

mod common;

use common::{arimaa, game_positions_file, json_lines, sample, scratch, text};

#[test]
fn learn_trains_on_labelled_positions_and_writes_a_network_the_engine_reads() {
    let dir = scratch("learn");
    let positions = game_positions_file(&dir, &sample());
    let net = dir.join("net.bin");
    let refit = dir.join("refit.params");
    let out = arimaa(&[
        "learn",
        "--labels",
        positions.to_str().unwrap(),
        "--holdout",
        "2",
        "--hidden",
        "8",
        "--epochs",
        "3",
        "--on-hand",
        "--out",
        net.to_str().unwrap(),
        "--refit-hand",
        refit.to_str().unwrap(),
    ]);
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    for line in ["epoch  train-mse", "hand ", "network ", "refitted ", "network written"] {
        assert!(all.contains(line), "'{line}' missing: {all}");
    }
    let bytes = std::fs::read(&net).unwrap();
    let network = arimaa_search::nnue::Network::from_bytes(&bytes).expect("a readable network");
    assert_eq!(network.hidden(), 8);
    assert_eq!(network.base(), arimaa_search::nnue::Base::OnHand);

    // The refitted weights are a parameter file the engine reads.
    let out = arimaa(&["--params", refit.to_str().unwrap(), "params"]);
    assert!(out.status.success(), "{}", text(&out));
    assert!(
        String::from_utf8_lossy(&out.stdout).contains("advance_pct"),
        "{}",
        text(&out)
    );

    // A file without labels is refused with its name.
    let empty = dir.join("empty.jsonl");
    std::fs::write(&empty, "{\"pos\": \"g [x]\"}\n").unwrap();
    let out = arimaa(&["learn", "--labels", empty.to_str().unwrap()]);
    assert!(!out.status.success());
    assert!(text(&out).contains("no labelled position"), "{}", text(&out));
}

/// A network reading the hand terms (into a slice of its first layer) is
/// trained and written as such; `--net`
/// measures it without training, and each position's dumped score is what
/// the engine computes for it (hand terms plus the network, the dense
/// inputs included), so trainer and engine read the same features.
#[test]
fn learn_with_dense_inputs_and_a_network_measured_alone() {
    let dir = scratch("learn-dense");
    let positions = game_positions_file(&dir, &sample());
    let net = dir.join("dense.bin");
    let pos_arg = positions.to_str().unwrap();
    let out = arimaa(&[
        "learn",
        "--labels",
        pos_arg,
        "--holdout",
        "2",
        "--hidden",
        "8",
        "--epochs",
        "2",
        "--on-hand",
        "--dense",
        "--dense-width",
        "3",
        "--out",
        net.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let network = arimaa_search::nnue::Network::from_bytes(&std::fs::read(&net).unwrap()).expect("readable");
    assert!(network.reads_dense());
    assert_eq!(network.dense_width(), 3);

    let scores = dir.join("scores.jsonl");
    let out = arimaa(&[
        "learn",
        "--net",
        net.to_str().unwrap(),
        "--test",
        pos_arg,
        "--scores",
        scores.to_str().unwrap(),
    ]);
    let all = text(&out);
    assert!(out.status.success(), "{all}");
    for line in ["mean error", "hand ", "network ", "scores written"] {
        assert!(all.contains(line), "'{line}' missing: {all}");
    }
    assert!(!all.contains("epoch"), "nothing trained: {all}");
    assert!(
        !all.contains("within"),
        "each game position is a root of its own: {all}"
    );
    // Grouped into roots of 12 (as the leaves of one search would be), the
    // agreement within them is reported for the hand terms and the network.
    let grouped = dir.join("grouped.jsonl");
    let body: String = json_lines(&positions)
        .into_iter()
        .enumerate()
        .map(|(i, mut v)| {
            v["root"] = serde_json::json!(i / 12);
            format!("{v}\n")
        })
        .collect();
    std::fs::write(&grouped, body).unwrap();
    let out = arimaa(&[
        "learn",
        "--net",
        net.to_str().unwrap(),
        "--test",
        grouped.to_str().unwrap(),
    ]);
    let within = text(&out);
    assert!(out.status.success(), "{within}");
    for line in ["hand        within ", "network     within "] {
        assert!(
            within.contains(line) && within.contains("roots of 10+"),
            "'{line}' missing: {within}"
        );
    }
    let lines = json_lines(&scores);
    // One line for each position with a label (the sample's end positions have none).
    let labelled = json_lines(&positions)
        .iter()
        .filter(|v| v.get("eval").is_some_and(|e| e.is_number()))
        .count();
    assert!(labelled > 100);
    assert_eq!(lines.len(), labelled);
    for v in lines.iter().take(50) {
        let pos = arimaa_core::parse_position(v["pos"].as_str().unwrap()).unwrap();
        let hand = arimaa_search::eval::evaluate(&pos, &arimaa_search::params::DEFAULT.weights);
        assert_eq!(v["hand"].as_f64().unwrap(), f64::from(hand));
        assert_eq!(
            v["network"].as_f64().unwrap(),
            f64::from(hand + network.evaluate(&pos)),
            "{v}"
        );
    }

    // Only the inputs named: the others' rows stay zero, so the engine
    // knows it reads one (mobility varies on every board of the sample).
    let one = dir.join("one.bin");
    let out = arimaa(&[
        "learn",
        "--labels",
        pos_arg,
        "--holdout",
        "2",
        "--hidden",
        "8",
        "--epochs",
        "1",
        "--on-hand",
        "--dense",
        "--dense-inputs",
        "mobility",
        "--out",
        one.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let network = arimaa_search::nnue::Network::from_bytes(&std::fs::read(&one).unwrap()).expect("readable");
    let mobility = arimaa_search::params::weights::Weight::mobility as usize;
    assert!(network.reads_dense() && network.reads_only(mobility));
    let out = arimaa(&[
        "learn",
        "--labels",
        pos_arg,
        "--dense",
        "--dense-inputs",
        "mobility,agility",
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("\"agility\""), "{}", text(&out));

    // A slice wider than the layer is refused before anything is read.
    let out = arimaa(&[
        "learn",
        "--labels",
        pos_arg,
        "--hidden",
        "8",
        "--dense",
        "--dense-width",
        "9",
    ]);
    assert!(!out.status.success());
    assert!(text(&out).contains("--dense-width 9"), "{}", text(&out));

    // A file that is not a network is refused with its name.
    let out = arimaa(&["learn", "--net", pos_arg, "--test", pos_arg]);
    assert!(!out.status.success());
    assert!(
        text(&out).contains("all.jsonl") && text(&out).contains("ARNN"),
        "{}",
        text(&out)
    );
}
