//! Protocol abuse through the real Session: thousands of random, truncated and
//! out-of-order lines (`go` before `newgame`, `makemove` during `go`, `stop`
//! with nothing running, double `go`, long lines, control characters). The
//! session must never panic, write at most one `log Error` per line, and still
//! play a legal move at the end.

use arimaa_aei::{Capture, Flow, Identity, Session};
use arimaa_core::{parse_move, Game};
use std::time::{Duration, Instant};

const GOLD_SETUP: &str = "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
const SILVER_SETUP: &str = "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7";

/// Commands and fragments the random lines are built from.
const WORDS: &[&str] = &[
    "aei",
    "isready",
    "newgame",
    "go",
    "go ponder",
    "stop",
    "makemove",
    "setposition",
    "setoption",
    "name",
    "value",
    "depth",
    "hash",
    "threads",
    "tcmove",
    "greserve",
    "mobility",
    "g",
    "s",
    "[rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]",
    "Ed2n",
    "Ed2n Ed3n",
    "ee7s",
    "rc3x",
    "Ra1",
    GOLD_SETUP,
    SILVER_SETUP,
    "-1",
    "4",
    "99999999999999999999",
    "nan",
    "\u{0}",
    "\u{7f}",
    "é",
];

use arimaa_core::rng::XorShift as Rng;

fn random_line(rng: &mut Rng) -> String {
    match rng.below(10) {
        // Long lines.
        0 => "x".repeat(1 + rng.below(100_000)),
        // A valid-looking command cut anywhere.
        1 => {
            let w = WORDS[rng.below(WORDS.len())];
            let cut = rng.below(w.len() + 1);
            w.get(..cut).unwrap_or(w).to_string()
        }
        // Words in random order.
        _ => {
            let n = 1 + rng.below(6);
            (0..n)
                .map(|_| WORDS[rng.below(WORDS.len())])
                .collect::<Vec<_>>()
                .join(" ")
        }
    }
}

fn session() -> (Session, Capture) {
    let capture = Capture::default();
    let id = Identity {
        name: "abuse".into(),
        author: "tests".into(),
        version: "0".into(),
    };
    (Session::new(capture.output(), id, 3), capture)
}

fn wait_for(capture: &Capture, from: usize, prefix: &str, limit: Duration) -> Option<String> {
    let start = Instant::now();
    while start.elapsed() < limit {
        if let Some(l) = capture.lines()[from..].iter().find(|l| l.starts_with(prefix)) {
            return Some(l.clone());
        }
        std::thread::sleep(Duration::from_millis(2));
    }
    None
}

#[test]
fn thousands_of_random_lines_then_a_legal_move() {
    let (mut s, capture) = session();
    let mut rng = Rng(0xABCD_EF01);
    // Quick searches, so that the many `go`s finish or are stopped fast.
    s.handle_line("aei");
    s.handle_line("setoption name depth value 4");
    let mut sent = 2;
    for _ in 0..5_000 {
        let line = random_line(&mut rng);
        if line.trim() == "quit" {
            continue;
        }
        sent += 1;
        assert_ne!(s.handle_line(&line), Flow::Quit, "{line:?}");
    }
    s.handle_line("stop");
    let errors = capture.lines().iter().filter(|l| l.starts_with("log Error")).count();
    assert!(errors <= sent, "{errors} errors for {sent} lines");
    assert!(errors > 100, "the garbage is refused: {errors} errors");
    // Still a working engine: a fresh game, setups, and a legal first move.
    for line in [
        "setoption name depth value 5",
        "newgame",
        &format!("makemove {GOLD_SETUP}"),
        &format!("makemove {SILVER_SETUP}"),
        "isready",
    ] {
        s.handle_line(line);
    }
    let from = capture.lines().len().saturating_sub(1);
    assert!(wait_for(&capture, from, "readyok", Duration::from_secs(10)).is_some());
    let from = capture.lines().len();
    s.handle_line("go");
    let best = wait_for(&capture, from, "bestmove ", Duration::from_secs(60)).expect("a bestmove");
    let mut game = Game::new();
    game.play_text(GOLD_SETUP).expect("gold setup");
    game.play_text(SILVER_SETUP).expect("silver setup");
    let text = best.trim_start_matches("bestmove ");
    parse_move(game.position(), text).expect("a legal move after the abuse");
    assert_eq!(s.handle_line("quit"), Flow::Quit);
}

#[test]
fn commands_out_of_order_are_answered_or_refused() {
    let (mut s, capture) = session();
    // Before the handshake nothing is answered.
    s.handle_line("go");
    s.handle_line("stop");
    assert!(capture.lines().is_empty());
    s.handle_line("aei");
    // Stop with nothing running; then a long search, a second go (refused)
    // and a legal makemove while it runs (it ends the search, whose one
    // bestmove is sent, and is played); then stop twice with nothing running.
    s.handle_line("stop");
    for line in [
        "newgame",
        &format!("makemove {GOLD_SETUP}"),
        &format!("makemove {SILVER_SETUP}"),
    ] {
        s.handle_line(line);
    }
    s.handle_line("setoption name depth value 60");
    let from = capture.lines().len();
    s.handle_line("go");
    s.handle_line("go");
    s.handle_line("makemove Ee2n");
    std::thread::sleep(Duration::from_millis(50));
    s.handle_line("stop");
    s.handle_line("stop");
    s.handle_line("isready");
    assert!(wait_for(&capture, from, "readyok", Duration::from_secs(10)).is_some());
    let lines = capture.lines()[from..].to_vec();
    let bestmoves = lines.iter().filter(|l| l.starts_with("bestmove")).count();
    assert_eq!(bestmoves, 1, "one search, one bestmove: {lines:?}");
    let errors = lines.iter().filter(|l| l.starts_with("log Error")).count();
    assert_eq!(errors, 1, "only the second go is refused: {lines:?}");
    let mut game = Game::new();
    game.play_text(GOLD_SETUP).expect("gold setup");
    game.play_text(SILVER_SETUP).expect("silver setup");
    game.play_text("Ee2n").expect("legal");
    assert_eq!(
        s.game().position().hash(),
        game.position().hash(),
        "the makemove was played"
    );
}

/// `isready` right after a bestmove resizes the table. (Over a pipe the
/// search thread could still be exiting then, and the resize used to be
/// skipped; `benches/memory_check.py` caught that. In-process the thread
/// usually exits first, so this checks the resize itself, every round.)
#[test]
fn isready_after_a_bestmove_applies_a_new_hash_size() {
    let (mut s, capture) = session();
    for line in [
        "aei",
        "setoption name depth value 4",
        "newgame",
        &format!("makemove {GOLD_SETUP}"),
        &format!("makemove {SILVER_SETUP}"),
    ] {
        s.handle_line(line);
    }
    for i in 0..40 {
        let mb = if i % 2 == 0 { 2 } else { 4 };
        let from = capture.lines().len();
        s.handle_line("go");
        // Spin, not sleep: answer the bestmove as fast as a controller can.
        let start = Instant::now();
        while !capture.lines()[from..].iter().any(|l| l.starts_with("bestmove")) {
            assert!(start.elapsed() < Duration::from_secs(30), "no bestmove");
            std::hint::spin_loop();
        }
        s.handle_line(&format!("setoption name hash value {mb}"));
        s.handle_line("isready");
        assert_eq!(s.table_bytes(), mb * 1024 * 1024, "round {i}");
    }
}
