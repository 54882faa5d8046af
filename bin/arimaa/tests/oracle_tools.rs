//! The project's Python tools with pyrimaa as the rules oracle, run against
//! the real binary: the AEI conformance checks that need the oracle, the
//! tactics scorer, and the recount of the committed oracle data. They need
//! Python with pyrimaa (PyPI `aei`): `common::pyrimaa_python` finds one or
//! provisions a venv under the target folder.

mod common;

use common::{bin, broken_engine, pyrimaa_python, repo, scratch};
use std::process::{Command, Output};

/// Runs a tool from `tools/` with the pyrimaa Python.
fn tool(script: &str, args: &[&str]) -> Output {
    Command::new(pyrimaa_python())
        .arg(repo().join("tools").join(script))
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("run {script}: {e}"))
}

fn text(out: &Output) -> (String, String) {
    (
        String::from_utf8_lossy(&out.stdout).into_owned(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

#[test]
fn aei_conformance_with_pyrimaa_as_judge() {
    let out = tool(
        "aei_conformance.py",
        &[
            "--engine",
            bin(),
            "--positions",
            "8",
            "--turns",
            "6",
            "--movetime",
            "0.3",
        ],
    );
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    let last = stdout.lines().last().unwrap_or_default();
    let passed: u32 = last
        .strip_suffix(" passed, 0 failed")
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("last line '{last}'\n{stdout}"));
    // Both setups, the self-play turns, eight positions, the refusals, quit.
    assert!(passed >= 30, "only {passed} checks ran:\n{stdout}");
    for what in [
        "pyrimaa controller",
        "setup for silver",
        "refused (wrong piece letter",
        "refused (push left unfinished",
    ] {
        assert!(stdout.contains(&format!("PASS {what}")), "no '{what}' check:\n{stdout}");
    }
}

#[test]
fn tactics_scorer_scores_the_engine_and_fails_a_bad_one() {
    let args = [
        "--depth",
        "4",
        "--per-kind",
        "3",
        "--min-score",
        "goal1=3",
        "--min-score",
        "defend=3",
    ];
    let out = tool("score_tactics.py", &[&["--engine", bin()], &args[..]].concat());
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(
        stdout.contains("score at depth 4: goal1 3/3, defend 3/3, capture "),
        "{stdout}"
    );

    // An engine that resigns everywhere scores nothing, and the tool says so.
    let resigner = format!("{} {} resign", common::python(), broken_engine().display());
    let out = tool("score_tactics.py", &[&["--engine", &resigner], &args[..]].concat());
    let (stdout, stderr) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}\n{stderr}");
    assert!(stdout.contains("goal1 0/3, defend 0/3, capture 0/3"), "{stdout}");
}

/// The judge compares a declined capture with every capture of the puzzle:
/// a player that declines is judged (sound or not, the summary adds it up),
/// one that captures is not judged at all.
#[test]
fn tactics_scorer_judges_declined_captures_only() {
    // capture-00: silver can take a rabbit on f6 (six capturing turns).
    let run = |moves: &str| {
        let player = format!("{} {} play '{moves}'", common::python(), broken_engine().display());
        let args = [
            "--kinds",
            "capture",
            "--per-kind",
            "1",
            "--depth",
            "4",
            "--judge",
            bin(),
            "--judge-depth",
            "3",
        ];
        let out = tool("score_tactics.py", &[&["--engine", &player], &args[..]].concat());
        let (stdout, stderr) = text(&out);
        assert!(out.status.success(), "{stdout}\n{stderr}");
        stdout
    };
    let declined = run("rb6s cc6w hg3e hh3s");
    let line = declined
        .lines()
        .find(|l| l.starts_with("MISS capture-00"))
        .unwrap_or_else(|| panic!("no miss for capture-00:\n{declined}"));
    let sound = if line.contains("no capture; judged sound: ") {
        1
    } else {
        assert!(line.contains("no capture; judged unsound: "), "{line}");
        0
    };
    let verdict = if sound == 1 {
        "judged sound: "
    } else {
        "judged unsound: "
    };
    let after = |what: &str| -> i32 {
        let rest = &line[line.find(what).unwrap_or_else(|| panic!("{what}: {line}")) + what.len()..];
        let end = rest.find(' ').unwrap_or(rest.len());
        rest[..end].parse().unwrap_or_else(|_| panic!("score in {line}"))
    };
    // The verdict follows the two scores it prints.
    let (mine, best) = (after(verdict), after("after it, "));
    assert_eq!(sound == 1, mine >= best, "{line}");
    assert!(
        declined.contains(&format!("capture judged {sound}/1: 0 captures, {sound} declines")),
        "{declined}"
    );

    let captured = run("Re5e de6s ef6w Rf5n Rf6x");
    assert!(captured.contains("ok   capture-00"), "{captured}");
    assert!(
        !captured.contains("judged sound") && !captured.contains("judged unsound"),
        "{captured}"
    );
    assert!(
        captured.contains("capture judged 1/1: 1 captures, 0 declines"),
        "{captured}"
    );
}

#[test]
fn committed_oracle_data_recounts_the_same_and_a_changed_count_is_caught() {
    let data = repo().join("crates/arimaa-core/tests/data/movegen.jsonl");
    let data = data.display().to_string();
    let out = tool("oracle/generate.py", &["check", &data, "--limit", "8"]);
    let (stdout, stderr) = text(&out);
    assert!(out.status.success(), "{stdout}\n{stderr}");
    assert!(stdout.contains("8 positions recounted, 8 agree"), "{stdout}");

    let text_in = std::fs::read_to_string(&data).expect("movegen data");
    let first = text_in.lines().next().expect("a record");
    let mut rec: serde_json::Value = serde_json::from_str(first).expect("JSON");
    let moves = rec["moves"].as_u64().expect("moves");
    rec["moves"] = serde_json::json!(moves + 1);
    let dir = scratch("oracle-check");
    let changed = dir.join("changed.jsonl");
    std::fs::write(&changed, format!("{rec}\n")).expect("write");
    let out = tool("oracle/generate.py", &["check", &changed.display().to_string()]);
    let (stdout, _) = text(&out);
    assert_eq!(out.status.code(), Some(1), "{stdout}");
    assert!(
        stdout.contains(&format!("moves {}, pyrimaa {moves}", moves + 1)),
        "{stdout}"
    );
}
