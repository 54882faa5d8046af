//! `arimaa fit` and `arimaa agree` on the small game samples committed in
//! the repository: a strong-games sample (JSON lines with the player's
//! evaluations) and an `arimaa match --record` file.

use std::path::PathBuf;
use std::process::Command;

fn data(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../tuning/tests/data")
        .join(name)
}

fn run(args: &[&str]) -> (bool, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_arimaa"))
        .args(args)
        .output()
        .expect("run arimaa");
    (
        out.status.success(),
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// The number after `label` on the line that starts with it.
fn figures(out: &str, label: &str) -> Vec<f64> {
    out.lines()
        .find(|l| l.starts_with(label))
        .unwrap_or_else(|| panic!("no '{label}' line in:\n{out}"))
        .split_whitespace()
        .skip(1)
        .filter_map(|w| w.parse().ok())
        .collect()
}

#[test]
fn fit_improves_the_training_loss_and_writes_a_params_file() {
    let out_file = std::env::temp_dir().join(format!("arimaa-fit-{}.params", std::process::id()));
    let sample = data("strong_sample.jsonl");
    let (ok, out, err) = run(&[
        "fit",
        "--data",
        sample.to_str().unwrap(),
        "--holdout",
        "5",
        "--out",
        out_file.to_str().unwrap(),
    ]);
    assert!(ok, "{err}");
    assert!(out.starts_with("10 games: 8 fitted"), "{out}");
    let start = figures(&out, "start");
    let fitted = figures(&out, "fitted");
    // K, train result loss, held-out result loss, held-out eval loss.
    assert_eq!(start.len(), 4, "{out}");
    assert!(fitted[1] <= start[1] + 1e-9, "the fit lowers its own loss:\n{out}");
    assert!(out.contains("player"), "the sample carries the player's evaluations");
    let text = std::fs::read_to_string(&out_file).expect("params written");
    let _ = std::fs::remove_file(&out_file);
    // The file reads back as parameters (the engine's own check).
    let (ok, _, err) = run(&["--params", out_file.to_str().unwrap(), "params"]);
    assert!(!ok && err.contains("cannot read"), "removed file: {err}");
    std::fs::write(&out_file, &text).unwrap();
    let (ok, printed, err) = run(&["--params", out_file.to_str().unwrap(), "params"]);
    let _ = std::fs::remove_file(&out_file);
    assert!(ok, "{err}");
    assert_eq!(printed, text);
}

#[test]
fn fit_and_agree_read_match_records_and_say_what_is_wrong() {
    let records = data("match_sample.txt");
    let (ok, out, err) = run(&["fit", "--data", records.to_str().unwrap(), "--holdout", "2"]);
    assert!(ok, "{err}");
    assert!(out.starts_with("4 games: 2 fitted"), "{out}");
    assert!(!out.contains("player"), "records carry no evaluations");
    let (ok, out, err) = run(&[
        "agree",
        "--data",
        records.to_str().unwrap(),
        "--holdout",
        "2",
        "--depth",
        "4",
        "--every",
        "10",
    ]);
    assert!(ok, "{err}");
    let n: Vec<usize> = out.split_whitespace().filter_map(|w| w.parse().ok()).take(2).collect();
    assert!(out.starts_with("agreement "), "{out}");
    assert!(n[1] > 5 && n[0] <= n[1], "{out}");
    // Errors: a missing path, an unreadable line, a bad split.
    let (ok, _, err) = run(&["fit", "--data", "/nonexistent/games"]);
    assert!(!ok && err.contains("cannot read /nonexistent/games"), "{err}");
    let bad = std::env::temp_dir().join(format!("arimaa-fit-bad-{}.jsonl", std::process::id()));
    std::fs::write(&bad, "{\"moves\": [\"Ra1\"], \"result\": \"g\"}\n{oops\n").unwrap();
    let (ok, _, err) = run(&["fit", "--data", bad.to_str().unwrap()]);
    let _ = std::fs::remove_file(&bad);
    assert!(!ok && err.contains(":2: not JSON"), "{err}");
    let (ok, _, err) = run(&[
        "agree",
        "--data",
        records.to_str().unwrap(),
        "--holdout",
        "2",
        "--holdout-offset",
        "2",
    ]);
    assert!(!ok && err.contains("--holdout-offset"), "{err}");
}
