//! `arimaa match` and `arimaa tune` through Ray (`--cluster ray:local`: a
//! private Ray instance started by the bridge on this machine): the games
//! are played by Ray tasks running this binary, and come back recorded once
//! each, also when a worker is killed in the middle of a pair.

mod common;

use common::{bin, ok_stdout, ray_python, records, scratch, OPENING};
use std::collections::BTreeMap;
use std::path::PathBuf;
use std::process::{Command, Output};
use std::sync::Mutex;

/// One Ray instance at a time: each takes most of the machine to start.
static RAY: Mutex<()> = Mutex::new(());

/// A short folder for Ray's session files (its socket paths must stay
/// under 108 bytes).
fn ray_dir(tag: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("ar{}{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("ray temp dir");
    dir
}

/// Runs `arimaa SUBCOMMAND args` with Ray's files in a private folder and
/// the extra environment `env`.
fn run_on_ray(python: &str, subcommand: &str, args: &[&str], env: &[(&str, String)], tag: &str) -> Output {
    let dir = ray_dir(tag);
    let mut cmd = Command::new(bin());
    cmd.arg(subcommand)
        .args(args)
        .env("ARIMAA_PYTHON", python)
        .env("ARIMAA_RAY_TEMP_DIR", &dir);
    for (k, v) in env {
        cmd.env(k, v);
    }
    let out = cmd.output().expect("run arimaa");
    let _ = std::fs::remove_dir_all(&dir);
    out
}

/// Two copies of this binary at depth 1, `games` games, short games.
fn match_args(games: &str, record: &str, setups: &str) -> Vec<String> {
    let ours = format!("cmd={}", bin());
    [
        "--engine",
        "name=one",
        &ours,
        "depth=1",
        "option.hash=16",
        "--engine",
        "name=two",
        &ours,
        "depth=1",
        "option.hash=16",
        "--games",
        games,
        "--concurrency",
        "2",
        "--max-turns",
        "6",
        "--cluster",
        "ray:local",
        "--record",
        record,
        "--setups",
        setups,
    ]
    .iter()
    .map(|s| s.to_string())
    .collect()
}

/// Game numbers in the record, each with how often it appears; asserts
/// that the two games of each pair swapped colours.
fn game_counts(record: &std::path::Path) -> BTreeMap<u32, u32> {
    let games = records(record);
    let mut counts = BTreeMap::new();
    let mut gold_of = BTreeMap::new();
    for g in &games {
        let n: u32 = g.header("Game").expect("Game header").parse().expect("game number");
        *counts.entry(n).or_insert(0) += 1;
        gold_of.insert(n, g.header("Gold").expect("Gold header").to_string());
        assert!(
            g.header("Setup").is_some_and(|s| s.contains("setups.txt")),
            "{:?}",
            g.headers
        );
    }
    for (n, gold) in &gold_of {
        if n % 2 == 0 {
            assert_ne!(Some(gold), gold_of.get(&(n - 1)), "game {n} and {} swap colours", n - 1);
        }
    }
    counts
}

#[test]
fn a_match_through_ray_records_every_game_once() {
    let Some(python) = ray_python("a_match_through_ray_records_every_game_once") else {
        return;
    };
    let _one = RAY.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("ray-match");
    let (record, setups) = (dir.join("games.txt"), dir.join("setups.txt"));
    std::fs::write(&setups, OPENING).unwrap();
    let args = match_args("6", &record.display().to_string(), &setups.display().to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_on_ray(&python, "match", &args, &[], "m");
    let stdout = ok_stdout(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("6 of 6 games finished"), "{stdout}");
    assert!(stdout.contains("Score of one vs two"), "{stdout}");
    assert!(stderr.contains("Ray cluster: 1 nodes"), "{stderr}");
    let counts = game_counts(&record);
    assert_eq!(counts, (1..=6).map(|n| (n, 1)).collect(), "{stdout}");
}

#[test]
fn a_worker_killed_mid_pair_is_played_again_and_counted_once() {
    let Some(python) = ray_python("a_worker_killed_mid_pair_is_played_again_and_counted_once") else {
        return;
    };
    let _one = RAY.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("ray-kill");
    let (record, setups, marker) = (dir.join("games.txt"), dir.join("setups.txt"), dir.join("killed"));
    std::fs::write(&setups, OPENING).unwrap();
    let args = match_args("40", &record.display().to_string(), &setups.display().to_string());
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    // Pair 4 (index 3): its first worker dies half a second into the pair.
    let kill = ("ARIMAA_RAY_TEST_KILL", format!("3:{}", marker.display()));
    let out = run_on_ray(&python, "match", &args, &[kill], "k");
    let stdout = ok_stdout(&out);
    assert!(marker.exists(), "the worker of pair 4 was not killed");
    assert!(stdout.contains("40 of 40 games finished"), "{stdout}");
    let counts = game_counts(&record);
    assert_eq!(counts, (1..=40).map(|n| (n, 1)).collect(), "20 pairs, every game once");
}

#[test]
fn an_engine_that_cannot_start_on_a_worker_is_an_error_naming_the_node() {
    let Some(python) = ray_python("an_engine_that_cannot_start_on_a_worker_is_an_error_naming_the_node") else {
        return;
    };
    let _one = RAY.lock().unwrap_or_else(|e| e.into_inner());
    let ours = format!("cmd={}", bin());
    let args = [
        "--engine",
        "name=one",
        &ours,
        "depth=1",
        "--engine",
        "name=ghost",
        "cmd=/nonexistent/engine",
        "depth=1",
        "--games",
        "4",
        "--cluster",
        "ray:local",
        "--quiet",
    ];
    let out = run_on_ray(&python, "match", &args, &[], "f");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "{stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(stderr.contains("failed on node "), "{stderr}");
    assert!(
        stderr.contains("ghost") && stderr.contains("/nonexistent/engine"),
        "{stderr}"
    );
}

#[test]
fn a_tuning_iteration_through_ray() {
    let Some(python) = ray_python("a_tuning_iteration_through_ray") else {
        return;
    };
    let _one = RAY.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("ray-tune");
    let run = dir.join("run").display().to_string();
    let args = [
        "--engine",
        bin(),
        "--tune",
        "mobility",
        "--iterations",
        "1",
        "--games",
        "2",
        "--tc",
        "0.1s/1s",
        "--cluster",
        "ray:local",
        "--dir",
        &run,
    ];
    let out = run_on_ray(&python, "tune", &args, &[], "t");
    let stdout = ok_stdout(&out);
    assert!(stdout.starts_with("1 iterations, 2 games"), "{stdout}");
    let state = std::fs::read_to_string(dir.join("run/state.txt")).unwrap();
    assert!(state.lines().any(|l| l == "iteration = 1"), "{state}");
}

#[cfg(unix)]
#[test]
fn ctrl_c_cancels_the_pairs_in_flight_and_prints_the_summary() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let Some(python) = ray_python("ctrl_c_cancels_the_pairs_in_flight_and_prints_the_summary") else {
        return;
    };
    let _one = RAY.lock().unwrap_or_else(|e| e.into_inner());
    let dir = scratch("ray-interrupt");
    let record = dir.join("games.txt");
    let ray = ray_dir("i");
    let ours = format!("cmd={}", bin());
    let child = Command::new(bin())
        .args([
            "match", "--engine", "name=a", &ours, "depth=3", "--engine", "name=b", &ours, "depth=3",
        ])
        .args([
            "--games",
            "200",
            "--concurrency",
            "2",
            "--cluster",
            "ray:local",
            "--record",
        ])
        .arg(&record)
        .env("ARIMAA_PYTHON", &python)
        .env("ARIMAA_RAY_TEMP_DIR", &ray)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the match");
    let start = Instant::now();
    while std::fs::read_to_string(&record).map_or(true, |t| !t.contains("[Event")) {
        assert!(start.elapsed() < Duration::from_secs(180), "no game finished");
        std::thread::sleep(Duration::from_millis(100));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(sent.success());
    let stopped = Instant::now();
    let out = child.wait_with_output().expect("wait");
    let _ = std::fs::remove_dir_all(&ray);
    // Cancelling, and stopping the private Ray, take a few seconds.
    assert!(
        stopped.elapsed() < Duration::from_secs(60),
        "took {:?}",
        stopped.elapsed()
    );
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(stdout.contains("Score of a vs b"), "{stdout}");
    let games = records(&record);
    let line = format!("Interrupted: {} of 200 games finished", games.len());
    assert!(stdout.contains(&line), "{line}\n{stdout}");
    assert!(!games.is_empty() && games.len() < 200);
}
