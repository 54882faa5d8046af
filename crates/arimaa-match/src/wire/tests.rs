//! The pair spec and outcome: round trips and the errors of bad ones.

use super::*;
use crate::schedule::{pairs, schedule};
use arimaa_core::Color;

fn config() -> MatchConfig {
    let spec = |own: &[&str]| EngineSpec::parse(own, &[], None).unwrap();
    MatchConfig {
        engines: vec![
            spec(&["name=a", "cmd=/bin/a --x", "tc=1s/2s/50", "option.threads=2"]),
            spec(&["name=b", "cmd=b", "depth=3", "option.hash=16"]),
            spec(&["name=c", "cmd=c", "depth=2"]),
        ],
        games: 2,
        concurrency: 1,
        grace: Duration::from_millis(100),
        hang_timeout: Duration::from_secs(2),
        move_timeout: Duration::from_secs(9),
        max_turns: Some(40),
        setups: None,
        record: None,
        pgn: None,
        sprt: None,
        stats: None,
        log: None,
        event: String::new(),
        resume: false,
    }
}

#[test]
fn a_spec_survives_json_and_becomes_the_same_two_engine_match() {
    let config = config();
    let all = pairs(schedule(3, 2));
    // The pair of engines b and c: numbered 0 and 1 on the worker.
    let pair = &all[2];
    let spec = PairSpec::new(&config, pair, None).unwrap();
    let text = serde_json::to_string(&spec).unwrap();
    let back: PairSpec = serde_json::from_str(&text).unwrap();
    assert_eq!(back, spec);
    let (m, job) = back.to_match(Path::new("/own")).unwrap();
    assert_eq!(m.engines, [config.engines[1].clone(), config.engines[2].clone()]);
    assert_eq!((m.max_turns, m.move_timeout), (Some(40), Duration::from_secs(9)));
    let numbers: Vec<u32> = job.games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, pair.games.iter().map(|g| g.number).collect::<Vec<_>>());
    assert_eq!((job.games[0].gold, job.games[1].gold), (0, 1));
    let first = PairSpec::new(&config, &all[0], None).unwrap();
    assert_eq!(first.threads(), Ok(2), "the larger of the two engines' threads");
    assert_eq!(back.threads(), Ok(1));
}

#[test]
fn the_driver_binary_is_replaced_by_the_workers_own() {
    let mut config = config();
    let exe = std::env::current_exe().unwrap();
    config.engines[0].command = vec![exe.display().to_string(), "--params".into(), "p".into()];
    let spec = PairSpec::new(&config, &pairs(schedule(3, 2))[0], Some(&exe)).unwrap();
    assert!(spec.engines[0].self_binary && !spec.engines[1].self_binary);
    let (m, _) = spec.to_match(Path::new("/worker/arimaa")).unwrap();
    assert_eq!(m.engines[0].command, ["/worker/arimaa", "--params", "p"]);
    assert_eq!(m.engines[1].command, ["b"]);
}

#[test]
fn an_outcome_must_hold_each_game_of_its_pair_once() {
    let pair = pairs(schedule(2, 2)).remove(0);
    let game = |number: u32| WireResult {
        number,
        date: "2026-01-01 00:00:00".into(),
        result: 'g',
        reason: 'g',
        detail: "goal".into(),
        moves: String::new(),
        turns: 3,
        move_info: Vec::new(),
    };
    let ok = PairOutcome {
        index: 0,
        games: vec![game(2), game(1)],
    };
    let games = ok.into_games(&pair).unwrap();
    assert_eq!(games.iter().map(|g| g.job).collect::<Vec<_>>(), pair.games);
    assert_eq!(games[0].result.winner, Some(Color::Gold));
    for (bad, words) in [
        (vec![game(1), game(1)], "exactly once"),
        (vec![game(1)], "has 1 games"),
        (vec![game(1), game(3)], "exactly once"),
        (vec![game(1), WireResult { reason: 'z', ..game(2) }], "reason 'z'"),
    ] {
        let e = PairOutcome { index: 0, games: bad }.into_games(&pair).unwrap_err();
        assert!(e.to_string().contains(words), "{e}");
    }
    let e = PairOutcome {
        index: 5,
        games: vec![game(1), game(2)],
    }
    .into_games(&pair)
    .unwrap_err();
    assert!(e.to_string().contains("is for pair 5"), "{e}");
}

#[test]
fn a_bad_spec_is_an_error() {
    let config = config();
    let mut spec = PairSpec::new(&config, &pairs(schedule(3, 2))[0], None).unwrap();
    spec.games[0].silver = spec.games[0].gold;
    assert!(spec
        .to_match(Path::new("x"))
        .unwrap_err()
        .to_string()
        .contains("one each side"));
    let text = r#"{"index": 0, "engines": [], "games": [], "opening": null, "limits": {}}"#;
    assert!(serde_json::from_str::<PairSpec>(text).is_err());
    let mut spec = PairSpec::new(&config, &pairs(schedule(3, 2))[0], None).unwrap();
    spec.limits.grace = -1.0;
    assert!(spec.to_match(Path::new("x")).unwrap_err().to_string().contains("grace"));
    spec.limits.grace = 0.1;
    spec.engines[1].options.push(("threads".into(), "many".into()));
    assert!(spec.threads().unwrap_err().to_string().contains("option.threads=many"));
}
