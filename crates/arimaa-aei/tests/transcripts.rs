//! Scripted AEI sessions through the real protocol loop (Session + Capture).

use arimaa_aei::{Capture, Flow, Identity, Session};
use arimaa_core::notation::parse_setup;
use arimaa_core::{parse_move, Color, Game};
use std::time::{Duration, Instant};

const START: &str = "setposition g [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]";
const GOLD_SETUP: &str = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
const SILVER_SETUP: &str = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7";

/// `setposition` for a board given as piece tokens like `Ed4 rd5`.
fn setposition(side: char, pieces: &str) -> String {
    let mut p = arimaa_core::Position::empty(Color::from_letter(side).unwrap());
    for tok in pieces.split_whitespace() {
        let piece = arimaa_core::Piece::from_letter(tok.chars().next().unwrap()).unwrap();
        p.put(piece, arimaa_core::Square::parse(&tok[1..]).unwrap());
    }
    format!("setposition {}", arimaa_core::position_to_aei(&p))
}

struct Harness {
    session: Session,
    capture: Capture,
    read: usize,
}

impl Harness {
    fn new() -> Harness {
        let capture = Capture::default();
        let id = Identity {
            name: "test".into(),
            author: "tests".into(),
            version: "0".into(),
        };
        let session = Session::new(capture.output(), id, 7);
        Harness {
            session,
            capture,
            read: 0,
        }
    }

    fn opened() -> Harness {
        let mut h = Harness::new();
        h.send("aei");
        h.take();
        h
    }

    fn send(&mut self, line: &str) -> Flow {
        self.session.handle_line(line)
    }

    /// Lines written since the last call.
    fn take(&mut self) -> Vec<String> {
        let lines = self.capture.lines();
        let new = lines[self.read..].to_vec();
        self.read = lines.len();
        new
    }

    /// Waits for a bestmove line; returns the move text and everything written.
    fn wait_bestmove(&mut self, limit: Duration) -> (Option<String>, Vec<String>) {
        let start = Instant::now();
        let mut seen = Vec::new();
        loop {
            let new = self.take();
            seen.extend(new);
            if let Some(b) = seen.iter().find_map(|l| l.strip_prefix("bestmove ")) {
                return (Some(b.to_string()), seen);
            }
            if start.elapsed() > limit {
                return (None, seen);
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    fn errors(lines: &[String]) -> Vec<&String> {
        lines.iter().filter(|l| l.starts_with("log Error")).collect()
    }
}

#[test]
fn nothing_before_aei_then_the_handshake() {
    let mut h = Harness::new();
    h.send("isready");
    h.send("bogus");
    assert!(h.take().is_empty(), "no output before aei");
    h.send("aei");
    let lines = h.take();
    assert_eq!(lines[0], "protocol-version 1");
    assert!(lines.iter().any(|l| l == "id name test"));
    assert!(lines.iter().any(|l| l == "id author tests"));
    assert_eq!(lines.last().map(String::as_str), Some("aeiok"));
    h.send("isready");
    assert_eq!(h.take(), ["readyok"]);
}

#[test]
fn plays_both_setups_and_a_first_move() {
    let mut h = Harness::opened();
    h.send("newgame");
    h.send("go");
    let (gold, _) = h.wait_bestmove(Duration::from_secs(5));
    let gold = gold.expect("gold setup");
    parse_setup(Color::Gold, &gold).expect("legal gold setup");
    h.send(&format!("makemove {gold}"));
    h.send("go");
    let (silver, _) = h.wait_bestmove(Duration::from_secs(5));
    let silver = silver.expect("silver setup");
    parse_setup(Color::Silver, &silver).expect("legal silver setup");
    h.send(&format!("makemove {silver}"));
    h.send("setoption name depth value 5");
    h.send("go");
    let (mv, lines) = h.wait_bestmove(Duration::from_secs(60));
    let mv = mv.expect("a move");
    let mut game = Game::new();
    game.play_text(&gold).unwrap();
    game.play_text(&silver).unwrap();
    parse_move(game.position(), &mv).expect("legal first move");
    assert!(Harness::errors(&lines).is_empty(), "{lines:?}");
    for kind in ["info depth", "info score", "info nodes", "info time", "info pv"] {
        assert!(lines.iter().any(|l| l.starts_with(kind)), "missing {kind}: {lines:?}");
    }
    assert!(lines.iter().all(|l| !l.trim().is_empty()));
}

/// Every bad-input class gets exactly one `log Error` line and changes nothing.
#[test]
fn bad_input_is_refused_and_changes_nothing() {
    let mut h = Harness::opened();
    h.send("newgame");
    h.send(&format!("makemove {GOLD_SETUP}"));
    h.send(&format!("makemove {SILVER_SETUP}"));
    h.take();
    let before_hash = h.session.game().position().hash();
    let before_options = h.session.options().clone();
    let bad = [
        "fly to the moon",
        "go fast",
        "setposition g [too short]",
        "setposition x [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]",
        "setposition g rrrrrrrr",
        "makemove Ed2n",                     // the square holds a camel
        "makemove Ee2n Ee3n Ee4n Ee5n Ee6n", // five steps
        "makemove Ra1n",                     // blocked
        "makemove Ee2n Ee3s",                // no change
        "makemove Ee2q",                     // bad token
        "makemove ra8 rb8",                  // a setup after the setup phase
        "setoption name tcmove value fast",
        "setoption name hash value -5",
        "setoption tcmove 5",
        "makemove",
        "isready now",
    ];
    for line in bad {
        h.send(line);
        let out = h.take();
        assert_eq!(Harness::errors(&out).len(), 1, "{line}: {out:?}");
        assert_eq!(out.len(), 1, "{line}: {out:?}");
    }
    assert_eq!(h.session.game().position().hash(), before_hash);
    assert_eq!(*h.session.options(), before_options);
    // A half-finished push: set up a position where it is possible.
    h.send(&setposition('g', "Ed4 rd5 Rh1 ra8"));
    let hash = h.session.game().position().hash();
    h.send("makemove rd5n");
    let out = h.take();
    assert!(out.len() == 1 && out[0].contains("half-way"), "{out:?}");
    assert_eq!(h.session.game().position().hash(), hash);
    // A wrong setup in the setup phase.
    h.send("newgame");
    h.send("makemove Ra1 Rb1");
    assert_eq!(Harness::errors(&h.take()).len(), 1);
    assert!(h.session.game().in_setup());
    // Unknown options only warn.
    h.send("setoption name checkmoves value 1");
    let out = h.take();
    assert!(out.len() == 1 && out[0].starts_with("log Warning"), "{out:?}");
    h.send("isready");
    assert_eq!(h.take(), ["readyok"]);
}

#[test]
fn capture_tokens_and_the_engines_own_move_echoed_back() {
    let mut h = Harness::opened();
    h.send("newgame");
    // Gold's elephant pushes away the cat guarding silver's rabbit on c3: a capture.
    h.send(&setposition('g', "Ed4 cc4 rc3 Rh1 rh8"));
    h.send("makemove cc4n rc3x Ed4w");
    let out = h.take();
    assert!(Harness::errors(&out).is_empty(), "{out:?}");
    assert_eq!(h.session.game().side_to_move(), Color::Silver);
}

#[test]
fn stop_gives_one_bestmove_quickly() {
    let mut h = Harness::opened();
    h.send("newgame");
    h.send("setoption name tcmove value 600");
    h.send(START);
    h.send("go");
    std::thread::sleep(Duration::from_millis(300));
    let t = Instant::now();
    h.send("stop");
    let (mv, _) = h.wait_bestmove(Duration::from_secs(5));
    let elapsed = t.elapsed();
    let mv = mv.expect("bestmove after stop");
    assert!(elapsed < Duration::from_secs(1), "{elapsed:?}");
    let mut game = Game::new();
    game.play_text(GOLD_SETUP).unwrap();
    game.play_text(SILVER_SETUP).unwrap();
    parse_move(game.position(), &mv).expect("legal");
    // No second bestmove: stop again, wait a little.
    h.send("stop");
    std::thread::sleep(Duration::from_millis(100));
    assert!(!h.take().iter().any(|l| l.starts_with("bestmove")));
    // A second go while one runs is refused with an error, not a second search.
    h.send("go");
    h.send("go");
    assert_eq!(Harness::errors(&h.take()).len(), 1);
    h.send("stop");
    let (mv, lines) = h.wait_bestmove(Duration::from_secs(5));
    assert!(mv.is_some());
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

#[test]
fn ponder_interrupted_by_makemove_ends_silently() {
    let mut h = Harness::opened();
    h.send("newgame");
    h.send(START);
    h.send("makemove Ee2n");
    h.send("go ponder");
    std::thread::sleep(Duration::from_millis(200));
    h.send("makemove ee7s");
    std::thread::sleep(Duration::from_millis(100));
    let out = h.take();
    assert!(!out.iter().any(|l| l.starts_with("bestmove")), "{out:?}");
    assert!(!h.session.searching());
    h.send("setoption name depth value 4");
    h.send("go");
    let (mv, lines) = h.wait_bestmove(Duration::from_secs(30));
    assert!(mv.is_some());
    assert_eq!(lines.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
}

#[test]
fn moveused_during_a_search_is_accepted_and_quit_is_prompt() {
    let mut h = Harness::opened();
    h.send("newgame");
    h.send("setoption name tcmove value 600");
    h.send(START);
    h.send("go");
    h.send("setoption name moveused value 599");
    // The budget shrank to almost nothing: the search ends by itself.
    let (mv, lines) = h.wait_bestmove(Duration::from_secs(5));
    assert!(mv.is_some(), "{lines:?}");
    h.send("setoption name moveused value 0");
    h.send("go");
    let t = Instant::now();
    assert_eq!(h.send("quit"), Flow::Quit);
    assert!(t.elapsed() < Duration::from_secs(1));
}

#[test]
fn game_over_and_no_legal_move_get_resign_not_an_empty_move() {
    let mut h = Harness::opened();
    h.send("newgame");
    // Silver's lone rabbit is frozen and silver is to move: immobilized.
    h.send(&setposition('s', "ra7 Cb7 Ra2 Eh2"));
    h.send("go");
    let (mv, _) = h.wait_bestmove(Duration::from_secs(5));
    assert_eq!(mv.as_deref(), Some("resign"));
}

/// A search of about 1.5 s shows itself alive before its bestmove: a
/// progress line with the depth under way and the best turn so far.
#[test]
fn a_long_search_writes_progress_before_its_bestmove() {
    let mut h = Harness::opened();
    h.send("newgame");
    h.send("setoption name tcmove value 600");
    h.send(START);
    h.send("go");
    std::thread::sleep(Duration::from_millis(1500));
    h.send("stop");
    let (mv, lines) = h.wait_bestmove(Duration::from_secs(5));
    assert!(mv.is_some(), "{lines:?}");
    let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix));
    let progress = at("info progress ").unwrap_or_else(|| panic!("no progress line: {lines:?}"));
    assert!(progress < at("bestmove ").unwrap());
    let words: Vec<&str> = lines[progress].split_whitespace().collect();
    let keys: Vec<&str> = words[2..12].iter().step_by(2).copied().collect();
    assert_eq!(keys, ["depth", "score", "nodes", "time", "nps"], "{}", lines[progress]);
    assert!(words[3].ends_with('+') && words[3].trim_end_matches('+').parse::<u32>().is_ok());
    assert_eq!(words[12], "pv");
    let game = arimaa_core::record::parse_record(&format!("1g {GOLD_SETUP}\n1s {SILVER_SETUP}\n")).unwrap();
    let first_turn: Vec<&str> = words[13..].iter().take_while(|w| **w != "s").copied().collect();
    parse_move(game.position(), &first_turn.join(" ")).expect("the best turn so far is legal");
}

/// Just before the bestmove, a `log summary` line a gameroom log keeps: the
/// depth, score, nodes, time and speed, and a line that starts with the move.
#[test]
fn the_bestmove_follows_a_log_summary() {
    let mut h = Harness::opened();
    h.send("newgame");
    h.send(START);
    h.send("setoption name depth value 5");
    h.send("go");
    let (mv, lines) = h.wait_bestmove(Duration::from_secs(60));
    let mv = mv.expect("a move");
    let summary = &lines[lines.len() - 2];
    let rest = summary
        .strip_prefix("log summary depth 5 score ")
        .unwrap_or_else(|| panic!("{lines:?}"));
    let words: Vec<&str> = rest.split_whitespace().collect();
    assert!(words[0].parse::<i32>().is_ok(), "{summary}");
    assert_eq!((words[1], words[3], words[5], words[7]), ("nodes", "time", "nps", "pv"));
    assert!(words[2].parse::<u64>().unwrap() > 0);
    assert!(words[4].parse::<f64>().is_ok());
    let pv = words[8..].join(" ");
    assert!(pv.starts_with(&mv), "pv '{pv}' does not start with '{mv}'");
    // A ponder ends without a bestmove, so without a summary too.
    h.send("go ponder");
    std::thread::sleep(Duration::from_millis(200));
    h.send("stop");
    std::thread::sleep(Duration::from_millis(200));
    assert!(!h
        .take()
        .iter()
        .any(|l| l.starts_with("log summary") || l.starts_with("bestmove")));
}
