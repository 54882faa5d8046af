//! AEI conformance of the real `arimaa` binary, end to end over pipes: the
//! handshake, every option, setups for both colours, positions for both
//! colours answered with legal moves (judged by the rules core), `stop` and
//! `quit` latency, pondering, and malformed lines answered with one
//! `log Error` while the session carries on unchanged. The checks that need
//! the pyrimaa oracle are in `tools/aei_conformance.py` (run by
//! `oracle_tools.rs`).

mod common;

use arimaa_core::notation::parse_setup;
use arimaa_core::{parse_position, Color, Game, Position, TurnGen};
use common::aei::{assert_legal, errors, Engine};
use std::time::{Duration, Instant};

/// The time `stop` and `quit` may take. The engine answers in about a
/// millisecond; the margin is for a loaded two-core machine running the
/// other tests beside this one.
const STOP_LIMIT: Duration = Duration::from_secs(1);
const QUIT_LIMIT: Duration = Duration::from_secs(2);

/// Movegen positions from the repository's oracle data, with the record.
fn data_positions() -> Vec<(Position, serde_json::Value)> {
    let path = common::repo().join("crates/arimaa-core/tests/data/movegen.jsonl");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|l| {
            let rec: serde_json::Value = serde_json::from_str(l).expect("a JSON line");
            let set = rec["setposition"].as_str().expect("setposition");
            let pos = parse_position(set.trim_start_matches("setposition ")).expect("a position");
            (pos, rec)
        })
        .collect()
}

/// The tunables as `arimaa params` lists them: (name, default, min, max).
fn tunables() -> Vec<(String, i64, i64, i64)> {
    let out = std::process::Command::new(common::bin())
        .arg("params")
        .output()
        .expect("run arimaa params");
    let text = String::from_utf8_lossy(&out.stdout);
    let mut found = Vec::new();
    let mut range = None;
    for line in text.lines() {
        if let Some(comment) = line.strip_prefix('#') {
            // "... (default 12, 0..=80)"
            range = comment.rsplit_once("(default ").and_then(|(_, r)| {
                let (default, span) = r.trim_end_matches(')').split_once(", ")?;
                let (lo, hi) = span.split_once("..=")?;
                Some((default.parse().ok()?, lo.parse().ok()?, hi.parse().ok()?))
            });
        } else if let Some((name, _)) = line.split_once(" = ") {
            let (d, lo, hi) = range.take().unwrap_or_else(|| panic!("no range for {name}"));
            found.push((name.to_string(), d, lo, hi));
        }
    }
    found
}

#[test]
fn handshake_then_isready_and_every_option_accepted() {
    let mut e = Engine::start();
    e.send("aei");
    let (before, _, _) = e
        .until("aeiok", Duration::from_secs(5))
        .unwrap_or_else(|seen| panic!("no aeiok: {seen:?}"));
    assert_eq!(before.first().map(String::as_str), Some("protocol-version 1"));
    let ids: Vec<&str> = before[1..]
        .iter()
        .map(|l| {
            let mut words = l.split_whitespace();
            assert_eq!(words.next(), Some("id"), "only id lines before aeiok: {l}");
            words.next().unwrap_or("")
        })
        .collect();
    for key in ["name", "author"] {
        assert_eq!(
            ids.iter().filter(|k| **k == key).count(),
            1,
            "id {key} once: {before:?}"
        );
    }
    assert!(e.ready().is_empty());

    let standard = [
        ("tcmove", "30"),
        ("tcreserve", "60"),
        ("tcpercent", "100"),
        ("tcmax", "120"),
        ("tctotal", "0"),
        ("tcturns", "0"),
        ("tcturntime", "0"),
        ("greserve", "60"),
        ("sreserve", "60"),
        ("gused", "0"),
        ("sused", "0"),
        ("lastmoveused", "0"),
        ("moveused", "0"),
        ("opponent", "bot_Test"),
        ("opponent_rating", "1500"),
        ("rating", "1600"),
        ("rated", "0"),
        ("event", "conformance test event"),
        ("hash", "16"),
        ("depth", "0"),
        ("threads", "1"),
        // AEI v0 names.
        ("wreserve", "60"),
        ("breserve", "60"),
        ("tcmoveused", "0"),
    ];
    e.options(&standard);
    let params = tunables();
    assert!(params.len() >= 10, "arimaa params lists {} tunables", params.len());
    for (name, default, lo, hi) in &params {
        for v in [lo, hi, default] {
            e.send(&format!("setoption name {name} value {v}"));
        }
    }
    let said = e.ready();
    assert!(said.is_empty(), "valid options drew answers: {said:?}");

    // The same session refuses what is wrong, so the silence above means something.
    let (name, _, _, hi) = &params[0];
    e.send(&format!("setoption name {name} value {}", hi + 1));
    let said = e.ready();
    assert_eq!(errors(&said).len(), 1, "out of range {name}: {said:?}");
    e.send("setoption name no_such_option value 1");
    let said = e.ready();
    assert!(
        said.len() == 1 && said[0].starts_with("log Warning"),
        "unknown option: {said:?}"
    );
    e.send("quit");
    assert!(e.exit_within(QUIT_LIMIT).is_some_and(|s| s.success()));
}

#[test]
fn setups_for_both_colours_then_a_legal_first_move() {
    let mut e = Engine::opened();
    e.send("newgame");
    e.quick_clock("1");
    let mut game = Game::new();
    for color in [Color::Gold, Color::Silver] {
        let (setup, before) = e.go(Duration::from_secs(5));
        assert!(errors(&before).is_empty(), "{before:?}");
        parse_setup(color, &setup).unwrap_or_else(|err| panic!("{color:?} setup '{setup}': {err}"));
        game.play_text(&setup).expect("the setup fits the board");
        e.send(&format!("makemove {setup}"));
    }
    assert!(!game.in_setup());
    let (mv, _) = e.go(Duration::from_secs(5));
    assert_legal(game.position(), &mv);
    e.send("quit");
    assert!(e.exit_within(QUIT_LIMIT).is_some());
}

#[test]
fn set_positions_of_both_colours_get_legal_moves() {
    let all = data_positions();
    let mut chosen: Vec<&(Position, serde_json::Value)> = Vec::new();
    // Three of each colour, then one of each special kind: goal in reach, few pieces, trap.
    for color in [Color::Gold, Color::Silver] {
        chosen.extend(
            all.iter()
                .filter(|(p, r)| p.side() == color && r["moves"].as_u64() > Some(0))
                .take(3),
        );
    }
    for tag in ["goal_race", "sparse", "trap"] {
        let has = |r: &serde_json::Value| r["tags"].as_array().is_some_and(|t| t.iter().any(|x| x == tag));
        chosen.extend(
            all.iter()
                .filter(|(_, r)| has(r) && r["moves"].as_u64() > Some(0))
                .find(|c| !chosen.iter().any(|d| std::ptr::eq(*d, *c))),
        );
    }
    assert!(chosen.len() >= 8, "{} positions", chosen.len());
    let mut e = Engine::opened();
    e.quick_clock("0.5");
    for (pos, rec) in chosen {
        e.send("newgame");
        e.send(rec["setposition"].as_str().expect("setposition"));
        let (mv, before) = e.go(Duration::from_secs(5));
        assert!(errors(&before).is_empty(), "{}: {before:?}", rec["id"]);
        let after = assert_legal(pos, &mv);
        if rec["moves_goal"].as_u64() > Some(0) {
            let us = pos.side();
            let rabbits = after.bitboard(arimaa_core::Piece::new(us, arimaa_core::Kind::Rabbit));
            assert!(
                (rabbits & arimaa_core::rules::goal_rank(us)).any(),
                "{}: goal in one missed with {mv}",
                rec["id"]
            );
        }
    }
}

/// The position with the most turns: the widest root, the slowest to stop.
fn busiest() -> (Position, String) {
    let all = data_positions();
    let (pos, rec) = all
        .iter()
        .filter(|(_, r)| r["moves_goal"] == 0)
        .max_by_key(|(_, r)| r["moves"].as_u64())
        .expect("positions");
    (*pos, rec["setposition"].as_str().unwrap_or_default().to_string())
}

#[test]
fn stop_ends_a_long_search_at_once_with_one_legal_move() {
    let (pos, setposition) = busiest();
    let mut e = Engine::opened();
    e.options(&[
        ("tcmove", "600"),
        ("tcreserve", "600"),
        ("greserve", "600"),
        ("sreserve", "600"),
    ]);
    e.send(&setposition);
    e.ready();
    e.send("go");
    let early = e.quiet_for(Duration::from_millis(400));
    assert!(!early.iter().any(|l| l.starts_with("bestmove")), "answered before stop");
    let sent = Instant::now();
    e.send("stop");
    let (_, line, at) = e
        .until("bestmove", Duration::from_secs(10))
        .unwrap_or_else(|seen| panic!("no bestmove after stop: {seen:?}"));
    let took = at.saturating_duration_since(sent);
    assert!(took < STOP_LIMIT, "stop to bestmove took {took:?}");
    assert_legal(&pos, line["bestmove ".len()..].trim());
    let more = e.quiet_for(Duration::from_millis(300));
    assert!(
        !more.iter().any(|l| l.starts_with("bestmove")),
        "a second bestmove: {more:?}"
    );
    assert!(e.ready().is_empty());
}

#[test]
fn a_ponder_ends_silently_at_makemove_and_go_answers_the_new_position() {
    let all = data_positions();
    let (pos, rec) = all
        .iter()
        .find(|(_, r)| r["moves"].as_u64() > Some(1000))
        .expect("a busy position");
    let mut e = Engine::opened();
    e.send(rec["setposition"].as_str().expect("setposition"));
    e.send("go ponder");
    let pondering = e.quiet_for(Duration::from_millis(300));
    assert!(!pondering.iter().any(|l| l.starts_with("bestmove")), "{pondering:?}");
    // The opponent's real move arrives with no stop before it, as gameroom
    // sends it; a move that ends the game would leave nothing to answer.
    let mut game = Game::from_position(*pos);
    let turn = TurnGen::new()
        .turns(pos)
        .into_iter()
        .find(|t| game.clone().play(&t.steps).is_ok_and(|end| end.is_none()))
        .expect("a turn that does not end the game");
    game.play(&turn.steps).expect("legal");
    e.send(&format!("makemove {}", arimaa_core::format_move(pos, &turn.steps)));
    let after = *game.position();
    let said = e.ready();
    assert!(
        !said
            .iter()
            .any(|l| l.starts_with("bestmove") || l.starts_with("log Error")),
        "{said:?}"
    );
    e.quick_clock("0.5");
    let (mv, _) = e.go(Duration::from_secs(5));
    assert_legal(&after, &mv);
}

#[test]
fn quit_ends_the_process_at_once_while_searching_pondering_or_idle() {
    let (_, setposition) = busiest();
    for how in ["go", "go ponder", ""] {
        let mut e = Engine::opened();
        e.options(&[("tcmove", "600"), ("tcreserve", "600")]);
        e.send(&setposition);
        if !how.is_empty() {
            e.send(how);
            e.quiet_for(Duration::from_millis(300));
        }
        let sent = Instant::now();
        e.send("quit");
        let status = e.exit_within(QUIT_LIMIT);
        assert!(
            status.is_some_and(|s| s.success()),
            "'{how}' then quit: {status:?} after {:?}",
            sent.elapsed()
        );
    }
    // A controller that goes away without quit ends the engine too.
    let mut e = Engine::opened();
    e.close_input();
    assert!(e.exit_within(QUIT_LIMIT).is_some());
}

#[test]
fn malformed_lines_get_one_log_error_and_change_nothing() {
    let all = data_positions();
    let (pos, rec) = all
        .iter()
        .find(|(p, r)| p.side() == Color::Silver && r["moves"].as_u64() > Some(100) && r["moves_goal"] == 0)
        .expect("a silver position");
    let mut e = Engine::opened();
    e.send(rec["setposition"].as_str().expect("setposition"));
    e.options(&[("depth", "5")]);
    assert!(e.ready().is_empty());
    let gold_move = "Ed2n Ed3n Ed4n Ed5n";
    let bad_letter = arimaa_core::position_to_aei(&Position::standard()).replacen("  ", " Z", 1);
    for bad in [
        "fly to the moon",
        "go sideways",
        "isready now",
        "setposition",
        "setposition x [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]",
        "setposition g [rrrr]",
        &format!("setposition {bad_letter}"),
        "makemove",
        "makemove Zz9q",
        gold_move,
        &format!("makemove {gold_move}"),
        "setoption name depth value deep",
        "setoption name hash value 0",
        "setoption name threads value -2",
        "setoption value 3",
    ] {
        e.send(bad);
        let said = e.ready();
        assert_eq!(errors(&said).len(), 1, "'{bad}' answered {said:?}");
        assert_eq!(said.len(), 1, "'{bad}' answered {said:?}");
    }
    // Still the same position, still depth 5: the move is legal there and
    // the deepest iteration reported is the fifth.
    let (mv, before) = e.go(Duration::from_secs(60));
    assert_legal(pos, &mv);
    let deepest = before
        .iter()
        .filter_map(|l| l.strip_prefix("info depth ")?.trim().parse::<u32>().ok())
        .max();
    assert_eq!(deepest, Some(5), "{before:?}");
    e.send("quit");
    assert!(e.exit_within(QUIT_LIMIT).is_some());
}

/// `id version` names the build: the package version and, built from a git
/// checkout, the commit (`0.1.0+1a2b3c4`); from a tarball the version alone.
/// `--version` says the same.
#[test]
fn id_version_names_the_commit_it_was_built_from() {
    let git = std::process::Command::new("git")
        .arg("-C")
        .arg(env!("CARGO_MANIFEST_DIR"))
        .args(["rev-parse", "--short", "HEAD"])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_string());
    let expected = match git {
        Some(hash) => format!("{}+{hash}", env!("CARGO_PKG_VERSION")),
        None => env!("CARGO_PKG_VERSION").to_string(),
    };
    let mut e = Engine::start();
    e.send("aei");
    let (before, _, _) = e
        .until("aeiok", Duration::from_secs(5))
        .unwrap_or_else(|seen| panic!("no aeiok: {seen:?}"));
    let version = before.iter().find_map(|l| l.strip_prefix("id version "));
    assert_eq!(version, Some(expected.as_str()), "{before:?}");
    let out = std::process::Command::new(common::bin())
        .arg("--version")
        .output()
        .expect("run arimaa --version");
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        format!("arimaa {expected}")
    );
}
