//! `arimaa match --pgn` and the record's `MoveData`: a three-engine match
//! writes a PGN file that a strict PGN reader (the PGN standard's tag pairs
//! and movetext, as bayeselo and ordo read them) takes back, game for game
//! in agreement with the `--record` file, and the record carries each
//! move's score, depth and time.

mod common;

use common::{bin, broken_engine, ok_stdout, python, records, run_match, scratch};

/// One game of a PGN file.
struct PgnGame {
    tags: Vec<(String, String)>,
    /// Movetext tokens, the result token last.
    movetext: Vec<String>,
}

impl PgnGame {
    fn tag(&self, name: &str) -> &str {
        self.tags
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
            .unwrap_or_else(|| panic!("no {name} tag in {:?}", self.tags))
    }
}

/// A tag pair, `[Name "value"]`, by the PGN standard (section 8.1): a
/// symbol of letters, digits and `_`, one string with `\"` and `\\` escapes.
fn tag_pair(line: &str) -> (String, String) {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .unwrap_or_else(|| panic!("not a tag pair: {line}"));
    let (name, value) = inner.split_once(' ').unwrap_or_else(|| panic!("no value: {line}"));
    assert!(
        !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_'),
        "bad tag name: {line}"
    );
    let quoted = value
        .strip_prefix('"')
        .and_then(|v| v.strip_suffix('"'))
        .unwrap_or_else(|| panic!("value not one string: {line}"));
    let mut out = String::new();
    let mut chars = quoted.chars();
    while let Some(c) = chars.next() {
        match c {
            '\\' => out.push(chars.next().unwrap_or_else(|| panic!("dangling escape: {line}"))),
            '"' => panic!("unescaped quote: {line}"),
            c => out.push(c),
        }
    }
    (name.to_string(), out)
}

/// Reads a PGN file strictly: each game is tag pairs, one blank line, and
/// movetext ending with a game termination marker equal to its `Result`.
fn read_pgn(text: &str) -> Vec<PgnGame> {
    const MARKERS: [&str; 4] = ["1-0", "0-1", "1/2-1/2", "*"];
    let mut games = Vec::new();
    let mut lines = text.lines().peekable();
    loop {
        while lines.peek().is_some_and(|l| l.trim().is_empty()) {
            lines.next();
        }
        if lines.peek().is_none() {
            break;
        }
        let mut tags = Vec::new();
        while let Some(line) = lines.next_if(|l| l.starts_with('[')) {
            tags.push(tag_pair(line));
        }
        assert!(!tags.is_empty(), "a game without tags");
        assert_eq!(lines.next().map(str::trim), Some(""), "no blank line after the tags");
        let mut movetext = Vec::new();
        for line in lines.by_ref() {
            assert!(!line.trim().is_empty(), "a blank line before the result token");
            movetext.extend(line.split_whitespace().map(str::to_string));
            if movetext.last().is_some_and(|t| MARKERS.contains(&t.as_str())) {
                break;
            }
        }
        let game = PgnGame { tags, movetext };
        assert_eq!(
            game.movetext.last().map(String::as_str),
            Some(game.tag("Result")),
            "the movetext must end with the Result"
        );
        games.push(game);
    }
    games
}

#[test]
fn pgn_agrees_with_the_record_and_the_record_has_move_data() {
    let dir = scratch("pgn");
    let (record, pgn) = (dir.join("games.txt"), dir.join("games.pgn"));
    let (record_arg, pgn_arg) = (record.display().to_string(), pgn.display().to_string());
    let ours = format!("cmd={}", bin());
    let resigns = format!("cmd={} {} resign", python(), broken_engine().display());
    let out = run_match(&[
        "--quiet",
        "--engine",
        "name=d1",
        &ours,
        "depth=1",
        "--engine",
        "name=d2",
        &ours,
        "depth=2",
        "--engine",
        "name=quitter",
        &resigns,
        "depth=1",
        "--each",
        "option.hash=16",
        "--games",
        "2",
        "--max-turns",
        "8",
        "--record",
        &record_arg,
        "--pgn",
        &pgn_arg,
    ]);
    let stdout = ok_stdout(&out);
    assert!(stdout.contains("6 of 6 games finished"), "{stdout}");
    let recorded = records(&record);
    let text = std::fs::read_to_string(&pgn).expect("the PGN file is written");
    let games = read_pgn(&text);
    assert_eq!(games.len(), 6, "{text}");
    let mut results = Vec::new();
    for g in &games {
        let r = recorded
            .iter()
            .find(|r| r.header("Game") == Some(g.tag("Round")))
            .unwrap_or_else(|| panic!("game {} is not in the record", g.tag("Round")));
        assert_eq!(g.tag("White"), r.header("Gold").unwrap());
        assert_eq!(g.tag("Black"), r.header("Silver").unwrap());
        let result = match r.header("Result").unwrap() {
            "g" => "1-0",
            "s" => "0-1",
            _ => "1/2-1/2",
        };
        assert_eq!(g.tag("Result"), result);
        assert_eq!(g.tag("ResultCode"), r.header("Reason").unwrap());
        let plies = r.game.record().len();
        assert_eq!(g.tag("PlyCount"), plies.to_string());
        // The movetext is the record's move list, as roundrobin writes it.
        let moves: Vec<&str> = r.moves.split_whitespace().collect();
        assert_eq!(g.movetext[..g.movetext.len() - 1], moves[..]);
        results.push(result);
    }
    assert!(results.contains(&"1-0") && results.contains(&"0-1"), "{results:?}");

    // MoveData: one entry a move; our engine's moves after the setups carry
    // its score and depth, every move the time it took.
    for r in &recorded {
        assert_eq!(r.move_info.len(), r.game.record().len(), "{:?}", r.headers);
        for (i, m) in r.move_info.iter().enumerate() {
            let mover = if i.is_multiple_of(2) { "Gold" } else { "Silver" };
            assert!(m.seconds.is_some_and(|s| s >= 0.0), "{:?}", r.headers);
            let ours = r.header(mover) != Some("quitter");
            if ours && i >= 2 {
                assert!(m.score.is_some() && m.depth.is_some(), "move {i}: {:?}", r.headers);
            }
            if !ours {
                assert_eq!((m.score, m.depth), (None, None));
            }
        }
    }
    assert!(
        recorded
            .iter()
            .any(|r| r.move_info.iter().any(|m| m.depth.is_some_and(|d| d > 0))),
        "the engines' depths are read"
    );
}
