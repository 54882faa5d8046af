//! `arimaa positions` and `arimaa label` end to end: positions drawn from the
//! committed game sample, labelled by our own engine at a small depth (the
//! teacher in the project's tests; sharp stays outside them), resumed after
//! a cut, and refused or skipped with a reason when input or engine is bad.

mod common;

use common::{arimaa, bin, broken_engine, game_positions_file, json_lines, python, sample, scratch, text};
use std::path::Path;

/// The first `n` lines of `from`, written to `to`.
fn head(from: &Path, to: &Path, n: usize) {
    let text: String = std::fs::read_to_string(from)
        .unwrap()
        .lines()
        .take(n)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(to, text).unwrap();
}

/// `arimaa label --positions POSITIONS --out OUT` and the words of `rest`.
fn label(positions: &Path, out: &Path, rest: &[&str]) -> std::process::Output {
    let mut args = vec![
        "label",
        "--positions",
        positions.to_str().unwrap(),
        "--out",
        out.to_str().unwrap(),
    ];
    args.extend_from_slice(rest);
    arimaa(&args)
}

#[test]
fn positions_then_labels_then_a_resumed_run_labels_each_position_once() {
    let dir = scratch("label-resume");
    let all = dir.join("all.jsonl");
    let out = arimaa(&[
        "positions",
        "--games",
        sample().to_str().unwrap(),
        "--random",
        "1",
        "--seed",
        "7",
        "--out",
        all.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    let lines = json_lines(&all);
    let random = lines.iter().filter(|l| l["origin"] == "random").count();
    assert!(
        random > 0 && random < lines.len(),
        "game and random positions: {lines:?}"
    );
    // Six positions keep the engine's work small.
    let positions = dir.join("six.jsonl");
    head(&all, &positions, 6);
    let labels = dir.join("labels.jsonl");
    let engine = format!("cmd={}", bin());
    let label = |extra: &[&str]| {
        let mut rest = vec![
            "--quiet",
            "--concurrency",
            "2",
            "--engine",
            "name=ours",
            &engine,
            "depth=2",
        ];
        rest.extend_from_slice(extra);
        label(&positions, &labels, &rest)
    };
    let first = label(&[]);
    assert!(first.status.success(), "{}", text(&first));
    let written = json_lines(&labels);
    assert_eq!(written.len(), 6, "{}", text(&first));
    for l in &written {
        assert!(
            l["score"].is_i64() && l["best"].as_str().is_some_and(|b| !b.is_empty()),
            "{l}"
        );
        assert_eq!(l["teacher"], "ours");
        assert_eq!(l["depth"], 2);
    }

    // An existing output is not overwritten without --resume.
    let again = label(&[]);
    assert!(!again.status.success(), "{}", text(&again));
    assert!(text(&again).contains("--resume"), "{}", text(&again));
    assert_eq!(json_lines(&labels).len(), 6);

    // Cut after two labels and half a line, as a killed run leaves it: the
    // resumed run keeps the two, drops the torn line, labels the other four.
    let kept: String = std::fs::read_to_string(&labels)
        .unwrap()
        .lines()
        .take(2)
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::write(&labels, format!("{kept}{{\"n\": 5, \"pos")).unwrap();
    let resumed = label(&["--resume"]);
    assert!(resumed.status.success(), "{}", text(&resumed));
    let mut ns: Vec<u64> = json_lines(&labels).iter().map(|l| l["n"].as_u64().unwrap()).collect();
    ns.sort_unstable();
    assert_eq!(ns, vec![0, 1, 2, 3, 4, 5], "{}", text(&resumed));
    assert!(text(&resumed).contains("2 labelled before"), "{}", text(&resumed));
}

#[test]
fn bad_positions_are_named_and_a_dying_engine_is_skipped_not_fatal_to_the_file() {
    let dir = scratch("label-faults");
    let positions = dir.join("mixed.txt");
    let board = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";
    std::fs::write(&positions, format!("{board}\nnot a position\n{board}\n")).unwrap();
    let labels = dir.join("labels.jsonl");
    let script = broken_engine().display().to_string();
    let engine = format!("cmd={} {script} exit", python());
    let out = label(
        &positions,
        &labels,
        &["--quiet", "--engine", "name=dies", &engine, "depth=4"],
    );
    let all = text(&out);
    assert!(!all.contains("panicked"), "{all}");
    assert!(all.contains(":2: skipped"), "the bad line is named: {all}");
    assert!(all.contains("0 labelled, 2 skipped"), "{all}");
    assert!(all.contains("engine restarted"), "{all}");
    // Nothing was labelled, and what exists is still valid JSON lines.
    assert!(json_lines(&labels).is_empty());

    // A clock instead of a depth is refused before any engine starts.
    let clocked = label(
        &positions,
        &dir.join("other.jsonl"),
        &["--engine", "name=ours", &format!("cmd={}", bin()), "tc=1s/10s/100/20s"],
    );
    assert!(!clocked.status.success());
    assert!(text(&clocked).contains("fixed depth"), "{}", text(&clocked));
}

#[test]
fn a_static_evaluation_labels_each_position_without_a_search_or_a_depth() {
    let dir = scratch("label-static");
    let positions = dir.join("three.txt");
    // Gold a camel up with gold to move, the same board with silver to
    // move, and the full setup: 100 per piece of balance, side to move's view.
    let camel_up = "[rrrrrrrrhdce cdh                                HDCMECDHRRRRRRRR]";
    let even = "[rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";
    std::fs::write(&positions, format!("g {camel_up}\ns {camel_up}\ng {even}\n")).unwrap();
    let labels = dir.join("labels.jsonl");
    let script = broken_engine().display().to_string();
    // The engine would fail any search (`go` gets an illegal move): only
    // `eval` is asked, and no depth is given.
    let engine = format!("cmd={} {script} illegal", python());
    let out = label(
        &positions,
        &labels,
        &[
            "--quiet",
            "--concurrency",
            "2",
            "--engine",
            "name=static",
            &engine,
            "--ask",
            "eval",
            "--score",
            "log:Final Score:",
            "--minus",
            "log:NumStepsScore:",
        ],
    );
    assert!(out.status.success(), "{}", text(&out));
    assert!(text(&out).contains("3 labelled, 0 skipped"), "{}", text(&out));
    let mut got: Vec<(u64, i64, u64)> = json_lines(&labels)
        .iter()
        .map(|v| {
            assert!(v.get("best").is_none(), "no move: {v}");
            (
                v["n"].as_u64().unwrap(),
                v["score"].as_i64().unwrap(),
                v["depth"].as_u64().unwrap(),
            )
        })
        .collect();
    got.sort_unstable();
    assert_eq!(got, vec![(0, 100, 0), (1, -100, 0), (2, 0, 0)]);

    // --minus means nothing without --ask, and --ask needs a command.
    for bad in [&["--minus", "log:NumStepsScore:"][..], &["--ask", " "][..]] {
        let mut rest = vec!["--engine", "name=static", &engine, "depth=1"];
        rest.extend_from_slice(bad);
        let refused = label(&positions, &dir.join("bad.jsonl"), &rest);
        assert!(!refused.status.success(), "{bad:?}: {}", text(&refused));
        assert!(!text(&refused).contains("panicked"), "{}", text(&refused));
    }
}

#[test]
fn positions_two_turns_away_and_refused_turns() {
    let dir = scratch("positions-turns");
    let games = sample();
    let games = games.to_str().unwrap();
    // Two random positions after each game position, `turns` turns away.
    let draw = |name: &str, turns: &str| {
        let path = dir.join(name);
        let out = arimaa(&[
            "positions",
            "--games",
            games,
            "--random",
            "2",
            "--turns",
            turns,
            "--random-only",
            "--out",
            path.to_str().unwrap(),
        ]);
        assert!(out.status.success(), "{}", text(&out));
        path
    };
    let two = draw("two.jsonl", "2");
    let one = draw("one.jsonl", "1");
    // The side to move of a game position is `ply`'s parity (gold moves at
    // even plies after the setups): two random turns keep it, one turns it.
    let side_kept = |path: &Path| {
        let lines = json_lines(path);
        assert!(!lines.is_empty());
        assert!(lines.iter().all(|l| l["origin"] == "random"));
        lines
            .iter()
            .map(|l| {
                let gold = l["pos"].as_str().unwrap().starts_with('g');
                gold == (l["ply"].as_u64().unwrap() % 2 == 0)
            })
            .collect::<Vec<bool>>()
    };
    assert!(side_kept(&two).iter().all(|&k| k), "two turns keep the mover");
    assert!(side_kept(&one).iter().all(|&k| !k), "one turn hands it over");
    for bad in [&["--random", "1", "--turns", "5"][..], &["--turns", "2"][..]] {
        let mut args = vec!["positions", "--games", games];
        args.extend_from_slice(bad);
        let out = arimaa(&args);
        assert!(!out.status.success(), "{bad:?} accepted: {}", text(&out));
        assert!(
            text(&out).contains("--turns") || text(&out).contains("--random"),
            "{}",
            text(&out)
        );
    }
}

#[test]
fn positions_along_the_engines_own_pv_and_refused_pv_settings() {
    let dir = scratch("positions-pv");
    let games = sample();
    let games = games.to_str().unwrap();
    let lines = own_positions(&dir, games, "--pv", "4");
    assert!(lines.len() >= 2, "{} lines", lines.len());
    for l in &lines {
        assert_eq!(l["origin"], "pv");
        // A one-turn PV: the engine's chosen turn played, the opponent to
        // move (gold moves at even plies after the setups).
        let gold = l["pos"].as_str().unwrap().starts_with('g');
        assert_eq!(gold, l["ply"].as_u64().unwrap() % 2 == 1, "{l}");
    }
    let plies: Vec<u64> = lines.iter().map(|l| l["ply"].as_u64().unwrap()).collect();
    let all = game_positions(&dir, games);
    // One position per fortieth game position, less those whose chosen turn
    // ends the game.
    let roots = all.len().div_ceil(40);
    assert!(
        lines.len() <= roots && 2 * lines.len() >= roots,
        "{} of {roots}",
        lines.len()
    );
    assert!(plies.iter().all(|&p| p >= 2));
    for bad in [
        &["--pv", "2"][..],
        &["--pv", "8", "--random", "1"][..],
        &["--every", "3"][..],
    ] {
        refused(games, bad, &["--pv", "--every"]);
    }
}

#[test]
fn positions_after_the_engines_top_turns_and_refused_top_settings() {
    let dir = scratch("positions-top");
    let games = sample();
    let games = games.to_str().unwrap();
    let lines = own_positions(&dir, games, "--top", "3");
    let all = game_positions(&dir, games);
    // Three positions from each fortieth game position (fewer only where
    // turns end the game or a position came up before).
    let roots = all.len().div_ceil(40);
    assert!(
        lines.len() <= 3 * roots && lines.len() >= 2 * roots,
        "{} of {roots}",
        lines.len()
    );
    let mut seen = std::collections::HashSet::new();
    for l in &lines {
        assert_eq!(l["origin"], "top");
        // The opponent to move after the turn (gold moves at even plies).
        let gold = l["pos"].as_str().unwrap().starts_with('g');
        assert_eq!(gold, l["ply"].as_u64().unwrap() % 2 == 1, "{l}");
        assert!(seen.insert(l["pos"].as_str().unwrap().to_owned()), "{l} twice");
    }
    for bad in [
        &["--top", "0"][..],
        &["--top", "3", "--pv", "4"][..],
        &["--top", "3", "--random", "1"][..],
    ] {
        refused(games, bad, &["--top"]);
    }
}

/// `arimaa positions --games games MODE N` from every fortieth game
/// position, two at once (`--pv` or `--top`).
fn own_positions(dir: &Path, games: &str, mode: &str, n: &str) -> Vec<serde_json::Value> {
    let path = dir.join("own.jsonl");
    let out = arimaa(&[
        "positions",
        "--games",
        games,
        mode,
        n,
        "--every",
        "40",
        "--threads",
        "2",
        "--out",
        path.to_str().unwrap(),
    ]);
    assert!(out.status.success(), "{}", text(&out));
    json_lines(&path)
}

/// Every game position of `games` (`arimaa positions` without options).
fn game_positions(dir: &Path, games: &str) -> Vec<serde_json::Value> {
    json_lines(&game_positions_file(dir, Path::new(games)))
}

/// `arimaa positions --games games` with `bad` fails, naming one of `names`.
fn refused(games: &str, bad: &[&str], names: &[&str]) {
    let mut args = vec!["positions", "--games", games];
    args.extend_from_slice(bad);
    let out = arimaa(&args);
    assert!(!out.status.success(), "{bad:?} accepted: {}", text(&out));
    assert!(names.iter().any(|n| text(&out).contains(n)), "{}", text(&out));
}
