//! `arimaa match` playing real games: the engine against itself on the clock
//! with a setup file, against pyrimaa's `simple_engine` (with an SPRT), and
//! a match stopped by Ctrl-C, or by two that leave no engine behind.

mod common;

use arimaa_match::Termination;
use common::{bin, ok_stdout, pyrimaa_python, records, run_match, scratch, OPENING};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

#[test]
fn self_play_on_the_clock_with_a_setup_file() {
    let dir = scratch("selfplay");
    let setups = dir.join("setups.txt");
    std::fs::write(&setups, OPENING).expect("write setups");
    let record = dir.join("games.txt");
    let plot = dir.join("elo.svg");
    let cmd = format!("cmd={}", bin());
    let (setups_arg, record_arg) = (setups.display().to_string(), record.display().to_string());
    let plot_arg = plot.display().to_string();
    let out = run_match(&[
        "--engine",
        "name=a",
        &cmd,
        "--engine",
        "name=b",
        &cmd,
        "--each",
        "option.hash=16",
        "--tc",
        "0.5s/2s/100",
        // Tests run side by side on two cores: allow for scheduling delays.
        "--grace",
        "0.5",
        "--games",
        "4",
        "--concurrency",
        "2",
        "--max-turns",
        "12",
        "--setups",
        &setups_arg,
        "--record",
        &record_arg,
        "--plot",
        &plot_arg,
    ]);
    let stdout = ok_stdout(&out);
    let svg = std::fs::read_to_string(&plot).expect("the plot is written");
    assert!(
        svg.starts_with("<svg") && svg.contains("\na vs b: Elo after each game\n"),
        "{svg}"
    );
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("Score of a vs b: "), "{stdout}");
    assert!(
        stdout.contains("a playing gold: ") && stdout.contains("Elo difference: "),
        "{stdout}"
    );
    assert!(stdout.contains("4 of 4 games finished"), "{stdout}");
    assert!(stderr.contains("Finished game 4"), "{stderr}");
    let games = records(&record);
    assert_eq!(games.len(), 4);
    for pair in 0..2 {
        // Games are written as they finish; find both games of each pair.
        let of_pair: Vec<_> = games
            .iter()
            .filter(|g| {
                let n: u32 = g.header("Game").and_then(|n| n.parse().ok()).unwrap_or(0);
                (n - 1) / 2 == pair
            })
            .collect();
        assert_eq!(of_pair.len(), 2, "pair {pair}");
        // Colours swapped, the same setups from line `pair + 1` of the file.
        assert_ne!(of_pair[0].header("Gold"), of_pair[1].header("Gold"));
        let source = format!("{setups_arg}:{}", pair + 1);
        for g in &of_pair {
            assert_eq!(g.header("Setup"), Some(source.as_str()));
            assert_eq!(g.header("GoldLimit"), Some("0.5s/2s"));
            let first_two: Vec<&str> = g.moves.lines().take(2).collect();
            let expect: Vec<String> = OPENING
                .lines()
                .nth(pair as usize)
                .map(|l| {
                    let b = arimaa_match::setups::SetupBook::parse(l, "x").expect("opening");
                    let o = b.for_pair(0);
                    vec![format!("1g {}", o.gold), format!("1s {}", o.silver)]
                })
                .unwrap_or_default();
            assert_eq!(first_two, expect);
        }
    }
    for g in &games {
        // Healthy engines on a fair clock: no faults, games end by the rules
        // or by the turn limit.
        let t = g.termination().expect("reason");
        assert!(!t.is_fault() && t != Termination::Resign, "{:?}", g.headers);
        if t == Termination::Adjudicated {
            assert_eq!(g.winner(), Some(None));
            assert_eq!(g.game.move_number(), 13, "{:?}", g.headers);
        }
    }
}

#[test]
fn beats_simple_engine_and_the_sprt_stops_the_match() {
    let python = pyrimaa_python();
    let dir = scratch("simple");
    let record = dir.join("games.txt");
    let ours = format!("cmd={}", bin());
    let simple = format!("cmd={python} -m pyrimaa.simple_engine");
    let record_arg = record.display().to_string();
    // elo1 = 150 makes a sweep accept H1 after a handful of games; --games
    // leaves room for many more, so the stop must come from the SPRT.
    let out = run_match(&[
        "--engine",
        "name=arimaa",
        &ours,
        "--engine",
        "name=simple",
        &simple,
        "--tc",
        "0.3s/2s",
        "--games",
        "40",
        "--concurrency",
        "2",
        "--record",
        &record_arg,
        "--sprt",
        "elo0=0",
        "elo1=150",
    ]);
    let stdout = ok_stdout(&out);
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(stdout.contains("SPRT: H1 accepted after"), "{stdout}");
    assert!(stderr.contains("LLR "), "{stderr}");
    let games = records(&record);
    assert!((2..40).contains(&games.len()), "{} games", games.len());
    for g in &games {
        let ours_gold = g.header("Gold") == Some("arimaa");
        let winner = g.winner().flatten().expect("a winner");
        assert_eq!(ours_gold, winner == arimaa_core::Color::Gold, "{:?}", g.headers);
        assert!(!g.termination().expect("reason").is_fault(), "{:?}", g.headers);
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_cleanly_with_a_valid_record_and_a_summary() {
    let dir = scratch("interrupt");
    let record = dir.join("games.txt");
    let cmd = format!("cmd={}", bin());
    let child = Command::new(bin())
        .args([
            "match", "--engine", "name=a", &cmd, "depth=3", "--engine", "name=b", &cmd, "depth=3",
        ])
        .args(["--games", "200", "--concurrency", "2", "--record"])
        .arg(&record)
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the match");
    // Wait for the first recorded game, then interrupt.
    let start = Instant::now();
    while std::fs::read_to_string(&record).map_or(true, |t| !t.contains("[Event")) {
        assert!(start.elapsed() < Duration::from_secs(120), "no game finished");
        std::thread::sleep(Duration::from_millis(100));
    }
    let sent = Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .expect("kill");
    assert!(sent.success());
    let stopped = Instant::now();
    let out = child.wait_with_output().expect("wait");
    assert!(
        stopped.elapsed() < Duration::from_secs(10),
        "took {:?}",
        stopped.elapsed()
    );
    assert_eq!(out.status.code(), Some(130));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("Interrupted: ") && stdout.contains("Score of a vs b"),
        "{stdout}"
    );
    let games = records(&record);
    assert!(!games.is_empty() && games.len() < 200);
}

/// True while `pid` runs; a zombie is dead, waiting only to be reaped.
#[cfg(target_os = "linux")]
fn running(pid: &str) -> bool {
    std::fs::read_to_string(format!("/proc/{pid}/stat")).is_ok_and(|stat| {
        let state = stat.rsplit_once(") ").and_then(|(_, rest)| rest.chars().next());
        !matches!(state, Some('Z' | 'X') | None)
    })
}

#[cfg(target_os = "linux")]
#[test]
fn a_second_ctrl_c_kills_what_the_engines_started() {
    let dir = scratch("interrupt-twice");
    let pids = dir.join("pids.txt");
    // A wrapper that starts a grandchild, then never moves and outlives
    // `quit` and the end of its input: only a kill ends it, and only a
    // group kill its grandchild.
    let engine = format!(
        "cmd=sh -c 'sleep 300 & echo $! >> {}; while read -r l; do case $l in \
         aei) echo aeiok;; isready) echo readyok;; esac; done; sleep 300'",
        pids.display()
    );
    let child = Command::new(bin())
        .args(["match", "--engine", "name=a", &engine, "--engine", "name=b", &engine])
        .args(["--tc", "60s/60s", "--games", "2", "--concurrency", "1", "--quiet"])
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("start the match");
    // Two starts for the check (each killed after `quit`), two for the game.
    let start = Instant::now();
    while std::fs::read_to_string(&pids).map_or(0, |t| t.lines().count()) < 4 {
        assert!(start.elapsed() < Duration::from_secs(60), "the game did not start");
        std::thread::sleep(Duration::from_millis(50));
    }
    std::thread::sleep(Duration::from_millis(300));
    // The second comes while the runner still waits for the engines to quit.
    for _ in 0..2 {
        let sent = Command::new("kill")
            .args(["-INT", &child.id().to_string()])
            .status()
            .expect("kill");
        assert!(sent.success());
        std::thread::sleep(Duration::from_millis(300));
    }
    let out = child.wait_with_output().expect("wait");
    assert_eq!(out.status.code(), Some(130));
    let text = std::fs::read_to_string(&pids).expect("pids");
    let deadline = Instant::now() + Duration::from_secs(5);
    for pid in text.lines() {
        while running(pid) {
            assert!(Instant::now() < deadline, "grandchild {pid} outlived the runner");
            std::thread::sleep(Duration::from_millis(20));
        }
    }
}
