//! `arimaa analyze` end to end: a position from a diagram file, an AEI
//! string or a game record at a move, searched with one line per finished
//! iteration and the best turn last; malformed input refused with a clear
//! message and a failing exit status, never a panic.

mod common;

use arimaa_core::{parse_move, parse_position, Position, Square};
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

const BOARD: &str = " +-----------------+
8| . r . . r . . r |
7| . . r h . . r c |
6| . . x r . x R d |
5| . . e . . . . . |
4| E . . . . . C . |
3| . . x R . x . D |
2| r H M . . . . R |
1| . . R . . R R . |
 +-----------------+
   a b c d e f g h
";

const GOLD_SETUP: &str = "1g Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2";
const SILVER_SETUP: &str = "1s ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7";

fn analyze(args: &[&str]) -> Output {
    Command::new(common::bin())
        .arg("analyze")
        .args(args)
        .output()
        .expect("run arimaa analyze")
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let path = dir.join(name);
    std::fs::write(&path, text).expect("write a scratch file");
    path
}

/// Checks a successful analysis: the position line first (its label, if
/// any, and the AEI string), an iteration line per depth from 4 to `depth`
/// whose line starts with a legal turn, and a legal best turn last.
/// Returns the position line's label and the position.
fn check_analysis(out: &Output, depth: u32) -> (Option<String>, Position) {
    let stdout = common::ok_stdout(out);
    let lines: Vec<&str> = stdout.lines().collect();
    // `12g  g [...]`, or the AEI string alone (its board has spaces too).
    let (label, aei) = match lines[0].split_once("  ") {
        Some((label, aei)) if !label.contains('[') => (Some(label.to_string()), aei),
        _ => (None, lines[0]),
    };
    let root = parse_position(aei).unwrap_or_else(|e| panic!("{e}: {stdout}"));
    let header = lines
        .iter()
        .position(|l| l.trim_start().starts_with("depth"))
        .expect("a header");
    let iterations = &lines[header + 1..lines.len() - 1];
    let depths: Vec<u32> = iterations
        .iter()
        .map(|l| {
            let words: Vec<&str> = l.split_whitespace().collect();
            assert!(words.len() >= 6, "depth score nodes time nps pv: {l}");
            let first_turn: Vec<&str> = words[5..].iter().take_while(|w| w.len() > 1).copied().collect();
            parse_move(&root, &first_turn.join(" ")).unwrap_or_else(|e| panic!("{e}: {l}"));
            words[0].parse().expect("a depth")
        })
        .collect();
    assert_eq!(depths, (4..=depth).collect::<Vec<_>>(), "{stdout}");
    let best = lines[lines.len() - 1]
        .strip_prefix("best ")
        .expect("the best turn last");
    let best = best.split("    (").next().unwrap_or_default();
    parse_move(&root, best).unwrap_or_else(|e| panic!("best '{best}': {e}"));
    (label, root)
}

#[test]
fn a_diagram_file_is_searched_iteration_by_iteration() {
    let dir = common::scratch("analyze-diagram");
    let labelled = write(&dir, "labelled.txt", &format!("12s\n{BOARD}"));
    let (label, root) = check_analysis(&analyze(&[labelled.to_str().unwrap(), "--depth", "6"]), 6);
    assert_eq!(label.as_deref(), Some("12s"));
    assert_eq!(root.side(), arimaa_core::Color::Silver);
    assert_eq!(
        root.piece_at(Square::parse("a4").unwrap()).map(|p| p.letter()),
        Some('E')
    );

    let bare = write(&dir, "bare.txt", BOARD);
    let (label, root) = check_analysis(&analyze(&[bare.to_str().unwrap(), "--side", "g", "--depth", "5"]), 5);
    assert_eq!((label, root.side()), (None, arimaa_core::Color::Gold));
    // The engine's own example reads too.
    let example = common::repo().join("bin/arimaa/aei/example_board.txt");
    check_analysis(
        &analyze(&[example.to_str().unwrap(), "--depth", "5", "--threads", "2"]),
        5,
    );
}

#[test]
fn an_aei_position_and_a_time_limit() {
    let start = "g [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]";
    let out = analyze(&["--position", start, "--time", "1", "--hash", "16"]);
    let stdout = common::ok_stdout(&out);
    assert!(stdout.starts_with(start), "{stdout}");
    assert!(stdout.lines().any(|l| l.trim_start().starts_with("4 ")), "{stdout}");
    assert!(
        stdout.lines().last().is_some_and(|l| l.starts_with("best ")),
        "{stdout}"
    );
}

#[test]
fn a_game_record_at_a_move_and_a_game_of_a_match_record() {
    let dir = common::scratch("analyze-record");
    let moves = format!("{GOLD_SETUP}\n{SILVER_SETUP}\n2g Ee2n Ee3n\n2s ee7s ee6s\n3g Ee4w\n");
    let list = write(&dir, "game.txt", &moves);
    let list = list.to_str().unwrap();
    let (label, root) = check_analysis(&analyze(&["--game-file", list, "--move", "2s", "--depth", "5"]), 5);
    assert_eq!(label.as_deref(), Some("2s"));
    assert_eq!(
        root.piece_at(Square::parse("e4").unwrap()).map(|p| p.letter()),
        Some('E')
    );
    // Without --move: after the last move.
    let (label, _) = check_analysis(&analyze(&["--game-file", list, "--depth", "4"]), 4);
    assert_eq!(label.as_deref(), Some("3s"));

    let game = |n: u32, result: &str, reason: &str, turns: &str| {
        format!(
            "[Game \"{n}\"]\n[Result \"{result}\"]\n[Reason \"{reason}\"]\n\n{GOLD_SETUP}\n{SILVER_SETUP}\n{turns}\n"
        )
    };
    let record = format!(
        "{}\n{}",
        game(7, "g", "r", "2g Ee2n Ee3n"),
        game(8, "s", "t", "2g Md2n\n2s ee7s")
    );
    let record = write(&dir, "match.txt", &record);
    let record = record.to_str().unwrap();
    let (label, root) = check_analysis(
        &analyze(&["--game-file", record, "--game", "8", "--move", "2s", "--depth", "4"]),
        4,
    );
    assert_eq!(label.as_deref(), Some("2s"));
    assert_eq!(
        root.piece_at(Square::parse("d3").unwrap()).map(|p| p.letter()),
        Some('M')
    );

    for (args, message) in [
        (vec!["--game-file", list, "--move", "4g"], "the game has no move 4g"),
        (vec!["--game-file", list, "--move", "1s"], "move 1s is a setup"),
        (
            vec!["--game-file", list, "--move", "x"],
            "not a move number and side like '12g'",
        ),
        (vec!["--game-file", record], "holds 2 games: pick one with --game N"),
        (
            vec!["--game-file", record, "--game", "3"],
            "has no game with [Game \"3\"]",
        ),
        (vec!["--game-file", list, "--game", "2"], "is one game's move list"),
    ] {
        refused(&analyze(&args), message);
    }
}

/// A failing exit status and `message` on stderr, no panic, nothing searched.
fn refused(out: &Output, message: &str) {
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(!out.status.success(), "accepted; stderr: {stderr}");
    assert!(stderr.contains(message), "expected '{message}' in: {stderr}");
    assert!(!stderr.contains("panicked"), "{stderr}");
    assert!(!String::from_utf8_lossy(&out.stdout).contains("best "));
}

#[test]
fn malformed_diagrams_and_positions_are_refused_with_a_clear_message() {
    let dir = common::scratch("analyze-malformed");
    let rows: Vec<&str> = BOARD.lines().collect();
    let without_rank_5 = format!("3g\n{}\n{}\n", rows[..4].join("\n"), rows[5..].join("\n"));
    let cases = [
        (
            "rows.txt",
            without_rank_5,
            "the board has 7 rows between its borders, not 8",
        ),
        (
            "piece.txt",
            format!("3g\n{}", BOARD.replace("5| . . e", "5| . . q")),
            "line 6: 'q' on c5 is not a piece letter",
        ),
        (
            "rank.txt",
            format!("3g\n{}", BOARD.replace("4| E", "9| E")),
            "line 7: the row of rank 4 must start with '4|', found '9|'",
        ),
        ("side.txt", BOARD.to_string(), "no side to move"),
        (
            "label.txt",
            format!("three\n{BOARD}"),
            "line 1: 'three' is neither a move number",
        ),
        ("empty.txt", String::new(), "the diagram is empty"),
    ];
    for (name, text, message) in cases {
        let path = write(&dir, name, &text);
        let out = analyze(&[path.to_str().unwrap(), "--depth", "4"]);
        refused(&out, message);
        assert!(
            String::from_utf8_lossy(&out.stderr).contains(name),
            "the message names the file"
        );
    }
    let missing = dir.join("missing.txt");
    refused(&analyze(&[missing.to_str().unwrap()]), "cannot read");
    refused(
        &analyze(&["--position", "g [rrr]"]),
        "--position: the board has 3 characters",
    );
    refused(&analyze(&["--depth", "4"]), "required");
}
