//! Games to fit and measure the evaluation with: the strong-games JSON lines
//! (one game a line: `moves`, `result`, optionally `eval` per move) and
//! `arimaa match --record` files, replayed by the rules core into positions.
//! A record's `MoveData` header gives each move the score its engine
//! printed, which serves as that move's `eval`.
//!
//! Games are split into training and held-out sets by game, never by
//! position: positions of one game are alike, and a held-out position from a
//! game the fit has seen would flatter it.

use crate::error::TuningError;
use arimaa_core::{Color, Game, Position};
use arimaa_search::WIN_BOUND;
use std::path::{Path, PathBuf};

/// Sharp's evaluations at or beyond this size are wins or losses it has
/// seen, not positional values: they are not used as soft targets.
pub(crate) const DECIDED_EVAL: f64 = 100_000.0;

/// One game: its moves (the two setups first) and how it ended.
#[derive(Clone, Debug)]
pub struct GameRecord {
    /// Moves in AEI notation, gold's setup first.
    pub moves: Vec<String>,
    /// The winner; `None` for a draw.
    pub winner: Option<Color>,
    /// The evaluation the player gave each move, from its point of view,
    /// where the source has one (the strong games' `eval`, a match record's
    /// `MoveData` scores).
    pub evals: Vec<Option<f64>>,
    /// Where it came from: file and line or game number.
    pub source: String,
    /// The players' names, gold's then silver's, where the source has them
    /// (a match record's headers): `arimaa judge` reports per player.
    pub players: Option<[String; 2]>,
}

/// A position of a game, from the side to move's point of view.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position before the move.
    pub pos: Position,
    /// 1 when the side to move went on to win, 0 when it lost, 0.5 a draw.
    pub result: f64,
    /// The player's evaluation of the move it played here (side to move's view).
    pub eval: Option<f64>,
    /// Index of the game in the list it came from.
    pub game: usize,
    /// Index of the move played here in the game's move list.
    pub index: usize,
}

/// Reads every game under `path`: a file, or a directory whose `*.jsonl`
/// files are strong-games lines and whose other files are match records.
pub fn load(path: &Path) -> Result<Vec<GameRecord>, TuningError> {
    let meta =
        std::fs::metadata(path).map_err(|e| TuningError::Data(format!("cannot read {}: {e}", path.display())))?;
    let files: Vec<PathBuf> = if meta.is_dir() {
        let mut files: Vec<PathBuf> = std::fs::read_dir(path)
            .map_err(|e| TuningError::Data(format!("cannot read {}: {e}", path.display())))?
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.is_file() && !p.file_name().is_some_and(|n| n.to_string_lossy().ends_with(".md")))
            .collect();
        files.sort();
        files
    } else {
        vec![path.to_path_buf()]
    };
    let mut games = Vec::new();
    for file in files {
        let text = std::fs::read_to_string(&file)
            .map_err(|e| TuningError::Data(format!("cannot read {}: {e}", file.display())))?;
        let name = file.display().to_string();
        if text.trim_start().starts_with('{') {
            games.extend(parse_jsonl(&text, &name)?);
        } else {
            games.extend(parse_records(&text, &name)?);
        }
    }
    if games.is_empty() {
        return Err(TuningError::Data(format!("no games in {}", path.display())));
    }
    Ok(games)
}

/// Games from JSON lines: `moves` (strings), `result` (`g`, `s` or `d`) and
/// optionally `eval` (numbers or null, one per move).
pub fn parse_jsonl(text: &str, name: &str) -> Result<Vec<GameRecord>, TuningError> {
    let mut games = Vec::new();
    for (i, line) in text.lines().enumerate() {
        if line.trim().is_empty() {
            continue;
        }
        let at = format!("{name}:{}", i + 1);
        let value: serde_json::Value =
            serde_json::from_str(line).map_err(|e| TuningError::Data(format!("{at}: not JSON: {e}")))?;
        let moves: Vec<String> = value["moves"]
            .as_array()
            .ok_or_else(|| TuningError::Data(format!("{at}: no 'moves' list")))?
            .iter()
            .map(|m| {
                m.as_str()
                    .map(str::to_string)
                    .ok_or_else(|| TuningError::Data(format!("{at}: a move is not a string")))
            })
            .collect::<Result<_, _>>()?;
        let winner = match value["result"].as_str() {
            Some("g") => Some(Color::Gold),
            Some("s") => Some(Color::Silver),
            Some("d") => None,
            _ => {
                return Err(TuningError::Data(format!(
                    "{at}: 'result' must be \"g\", \"s\" or \"d\""
                )))
            }
        };
        let evals = match value["eval"].as_array() {
            Some(list) => list.iter().map(serde_json::Value::as_f64).collect(),
            None => Vec::new(),
        };
        games.push(GameRecord {
            moves,
            winner,
            evals,
            source: at,
            players: None,
        });
    }
    Ok(games)
}

/// Games from an `arimaa match --record` file; games without a result
/// (none is written, but a file may be edited) are skipped. A move's
/// `MoveData` score is its eval, unless it is a proven win or loss (our
/// engine's [`WIN_BOUND`] or beyond): that is no positional value.
pub fn parse_records(text: &str, name: &str) -> Result<Vec<GameRecord>, TuningError> {
    let games = arimaa_match::record::read_records(text).map_err(|e| TuningError::Data(format!("{name}: {e}")))?;
    Ok(games
        .into_iter()
        .enumerate()
        .filter_map(|(i, g)| {
            let winner = g.winner()?;
            Some(GameRecord {
                moves: g.game.record().iter().map(|m| m.text.clone()).collect(),
                winner,
                evals: g
                    .move_info
                    .iter()
                    .map(|m| {
                        m.score
                            .filter(|s| (1 - i64::from(WIN_BOUND)..i64::from(WIN_BOUND)).contains(s))
                            .map(|s| s as f64)
                    })
                    .collect(),
                source: format!("{name} game {}", i + 1),
                players: g
                    .header("Gold")
                    .zip(g.header("Silver"))
                    .map(|(gold, silver)| [gold.to_string(), silver.to_string()]),
            })
        })
        .collect())
}

/// Replays `game` and calls `f` with the game before each move after the
/// setups and that move's index.
pub fn replay(game: &GameRecord, mut f: impl FnMut(&Game, usize)) -> Result<(), TuningError> {
    let mut g = Game::new();
    for (i, text) in game.moves.iter().enumerate() {
        if !g.in_setup() {
            f(&g, i);
        }
        g.play_text(text)
            .map_err(|e| TuningError::Data(format!("{}: move {} '{text}': {e}", game.source, i + 1)))?;
    }
    Ok(())
}

/// Every position after the setups of `games`, with its result and eval.
pub fn samples(games: &[GameRecord], which: &[usize]) -> Result<Vec<Sample>, TuningError> {
    let mut out = Vec::new();
    for &gi in which {
        let game = &games[gi];
        replay(game, |g, i| {
            let side = g.side_to_move();
            let result = match game.winner {
                Some(w) if w == side => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
            let eval = game.evals.get(i).copied().flatten().filter(|e| e.abs() < DECIDED_EVAL);
            out.push(Sample {
                pos: *g.position(),
                result,
                eval,
                game: gi,
                index: i,
            });
        })?;
    }
    Ok(out)
}

/// Game indices split into (training, held out): every `every`-th game
/// (counting from `offset`) is held out.
#[must_use]
pub fn split(count: usize, every: usize, offset: usize) -> (Vec<usize>, Vec<usize>) {
    let every = every.max(2);
    (0..count).partition(|i| !(i + every - offset % every).is_multiple_of(every))
}

/// Games and which of them are fitted and which held out.
#[derive(Clone, Debug)]
pub struct Split {
    /// Every game read.
    pub games: Vec<GameRecord>,
    /// Indices of the fitted games.
    pub train: Vec<usize>,
    /// Indices of the held-out games.
    pub held: Vec<usize>,
}

/// The games at `path`, every `every`-th (from `offset`) held out; an error
/// when either side of the split would be empty.
pub fn load_split(path: &Path, every: usize, offset: usize) -> Result<Split, TuningError> {
    let games = load(path)?;
    let (train, held) = split(games.len(), every, offset);
    if train.is_empty() || held.is_empty() {
        return Err(TuningError::Data(format!("{} games are too few to split", games.len())));
    }
    Ok(Split { games, train, held })
}

#[cfg(test)]
mod tests {
    use super::*;

    const SETUPS: [&str; 2] = [
        "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2",
        "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7",
    ];

    fn line(moves: &[&str], result: &str) -> String {
        let list: Vec<String> = moves.iter().map(|m| format!("\"{m}\"")).collect();
        format!(
            "{{\"moves\": [{}], \"result\": \"{result}\", \"eval\": [null, null, 120, -130, 999996]}}",
            list.join(", ")
        )
    }

    #[test]
    fn json_lines_replay_into_positions_with_results_and_evals() {
        let moves = [SETUPS[0], SETUPS[1], "Ee2n Ee3n", "ee7s ee6s", "Md2n Md3n"];
        let text = line(&moves, "s");
        let games = parse_jsonl(&text, "t").unwrap();
        assert_eq!(games.len(), 1);
        let s = samples(&games, &[0]).unwrap();
        assert_eq!(s.len(), 3, "three moves after the setups");
        assert_eq!(s[0].pos.side(), Color::Gold);
        assert_eq!((s[0].result, s[1].result), (0.0, 1.0), "silver won");
        assert_eq!(s[0].eval, Some(120.0));
        assert_eq!(s[2].eval, None, "a seen win is no positional value");
        assert_eq!(s[1].index, 3);
    }

    #[test]
    fn match_records_give_their_move_scores_as_evals() {
        let moves = format!("1g {}\n1s {}\n2g Ee2n Ee3n\n2s ee7s ee6s\n", SETUPS[0], SETUPS[1]);
        let head = "[Result \"d\"]\n[Reason \"s\"]\n";
        let data = "[MoveData \"1g:-/-/- 1s:-/-/0.010 2g:35/6/0.4 2s:-29500/7/0.5\"]\n";
        let text = format!("{head}{data}\n{moves}\n{head}\n{moves}\n");
        let games = parse_records(&text, "r").unwrap();
        assert_eq!(
            games[0].evals,
            vec![None, None, Some(35.0), None],
            "a proven loss is dropped"
        );
        assert!(games[1].evals.is_empty(), "a record without MoveData still reads");
        let s = samples(&games, &[0]).unwrap();
        assert_eq!(s[0].eval, Some(35.0));
        assert_eq!(s[1].eval, None);
    }

    #[test]
    fn bad_lines_say_where() {
        let e = parse_jsonl("{\"moves\": [], \"result\": \"x\"}", "f").unwrap_err();
        assert!(e.to_string().contains("f:1") && e.to_string().contains("result"), "{e}");
        assert!(parse_jsonl("not json", "f")
            .unwrap_err()
            .to_string()
            .contains("not JSON"));
        let bad = line(&[SETUPS[0], SETUPS[1], "Ee2n Ee9n"], "g");
        let games = parse_jsonl(&bad, "f").unwrap();
        let e = samples(&games, &[0]).unwrap_err();
        assert!(e.to_string().contains("move 3"), "{e}");
    }

    #[test]
    fn split_holds_out_whole_games() {
        let (train, held) = split(10, 5, 0);
        assert_eq!(held, vec![0, 5]);
        assert_eq!(train.len(), 8);
        let (_, other) = split(10, 5, 1);
        assert_eq!(other, vec![1, 6]);
    }
}
