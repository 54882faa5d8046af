//! Labelled positions for training: each position's features from both
//! views, the teacher's score and the hand evaluation, and its game (the
//! split is by game, so held-out positions come from games never trained on).

use arimaa_core::{parse_position, Position, Square};
use arimaa_search::eval::trace;
use arimaa_search::nnue::features;
use arimaa_search::params::DEFAULT;
use rayon::prelude::*;
use std::path::Path;

/// One position.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position (the hand evaluation's terms are refitted from it).
    pub pos: Position,
    /// Features of the side to move's view, then of the other's.
    pub views: [Vec<u16>; 2],
    /// The teacher's score, side to move's view, in the teacher's units.
    pub label: f32,
    /// The hand-made evaluation (centi-rabbits, side to move's view).
    pub hand: f32,
    /// The hand evaluation's features (its [`trace`]), the network's dense
    /// inputs when it reads them.
    pub dense: Vec<f32>,
    /// A hash of the game it comes from.
    pub game: u64,
    /// A hash of the position whose search reached it (the line's `root`,
    /// else its `game` and `ply`; a line with neither is a root alone): a
    /// search compares the positions of one root with each other, so that
    /// is where an evaluation's errors cost moves ([`crate::nnue::measure::within_roots`]).
    pub root: u64,
    /// The game's result for the side to move (1 won, 0 lost, 0.5 drawn),
    /// when the line has one.
    pub result: Option<f32>,
}

/// A file that cannot be read as labels.
#[derive(Debug, thiserror::Error)]
pub enum DataError {
    /// Not readable.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: String,
        /// What the system said.
        source: std::io::Error,
    },
    /// No usable line at all.
    #[error("{0}: no labelled position (lines need \"pos\" and \"score\" or \"eval\")")]
    Empty(String),
}

/// Teacher scores at or beyond this are decided games (sharp's "seen win"
/// is near ±1,000,000 millirabbits); they are clipped so that one does not
/// outweigh a thousand ordinary positions.
pub const DECIDED: f32 = 30_000.0;

/// Reads labelled positions: JSON lines with `pos` (AEI `g [board]`), `game`,
/// and `score` (an `arimaa label` output) or else `eval` (a player's own
/// score in a game record). Lines without a score, or with a position that
/// does not parse, are counted and skipped. Returns the samples and the
/// number skipped.
pub fn read(path: &Path) -> Result<(Vec<Sample>, usize), DataError> {
    let name = path.display().to_string();
    let text = read_text(path).map_err(|source| DataError::Io {
        path: name.clone(),
        source,
    })?;
    let parsed: Vec<Option<Sample>> = text.par_lines().map(parse_line).collect();
    let total = parsed.len();
    let samples: Vec<Sample> = parsed.into_iter().flatten().collect();
    if samples.is_empty() {
        return Err(DataError::Empty(name));
    }
    let skipped = total - samples.len();
    Ok((samples, skipped))
}

/// A file's text, gunzipped when its name ends in `.gz` (how labels are
/// kept in the repository).
pub fn read_text(path: &Path) -> std::io::Result<String> {
    let bytes = std::fs::read(path)?;
    if path.extension().is_some_and(|e| e == "gz") {
        let mut text = String::new();
        std::io::Read::read_to_string(&mut flate2::read::MultiGzDecoder::new(&bytes[..]), &mut text)?;
        Ok(text)
    } else {
        String::from_utf8(bytes).map_err(|e| std::io::Error::new(std::io::ErrorKind::InvalidData, e))
    }
}

fn parse_line(line: &str) -> Option<Sample> {
    let v: serde_json::Value = serde_json::from_str(line).ok()?;
    let pos = parse_position(v.get("pos")?.as_str()?).ok()?;
    let label = v
        .get("score")
        .and_then(serde_json::Value::as_f64)
        .or_else(|| v.get("eval")?.as_f64())?;
    let game = v.get("game").map_or_else(|| line.to_string(), ToString::to_string);
    let mut s = sample(&pos, label as f32, hash(&game));
    s.result = v.get("result").and_then(serde_json::Value::as_f64).map(|r| r as f32);
    s.root = match (v.get("root"), v.get("ply")) {
        (Some(root), _) => hash(&format!("{game} root {root}")),
        (None, Some(ply)) => hash(&format!("{game} ply {ply}")),
        (None, None) => hash(line),
    };
    Some(s)
}

/// The sample of `pos` with `label`.
#[must_use]
pub fn sample(pos: &Position, label: f32, game: u64) -> Sample {
    let us = pos.side();
    Sample {
        pos: *pos,
        views: [us, us.opponent()].map(|c| features(pos, c).map(|f| f as u16).collect()),
        label: label.clamp(-DECIDED, DECIDED),
        hand: arimaa_search::eval::evaluate(pos, &DEFAULT.weights) as f32,
        dense: trace(pos).features.iter().map(|&f| f as f32).collect(),
        game,
        root: game,
        result: None,
    }
}

/// The same position with files a–h mirrored (Arimaa's rules are symmetric
/// left to right): a second sample for training at no labelling cost.
#[must_use]
pub fn mirror_files(s: &Sample) -> Sample {
    let mut pos = Position::empty(s.pos.side());
    for sq in s.pos.occupied().iter() {
        if let Some(piece) = s.pos.piece_at(sq) {
            pos.put(piece, Square::new(7 - sq.file(), sq.rank()));
        }
    }
    let mut mirrored = sample(&pos, s.label, s.game);
    mirrored.result = s.result;
    mirrored.root = s.root;
    mirrored
}

/// FNV-1a: a stable hash of a game's name (the split must not change
/// between runs or builds).
fn hash(text: &str) -> u64 {
    text.bytes().fold(0xcbf2_9ce4_8422_2325, |h, b| {
        (h ^ u64::from(b)).wrapping_mul(0x100_0000_01b3)
    })
}

/// Splits by game: a game is held out when its hash falls in one of
/// `every` buckets. Returns (training, held out).
#[must_use]
pub fn split(samples: Vec<Sample>, every: u64) -> (Vec<Sample>, Vec<Sample>) {
    samples
        .into_iter()
        .partition(|s| every == 0 || (s.game >> 7) % every != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_read_with_score_or_eval_and_mirrors_are_the_mirrored_board() {
        let board = "s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]";
        let a = parse_line(&format!(
            "{{\"pos\":\"{board}\",\"game\":\"x:1\",\"score\":-250,\"eval\":9}}"
        ))
        .unwrap();
        assert_eq!(a.label, -250.0, "score wins over eval");
        let b = parse_line(&format!("{{\"pos\":\"{board}\",\"game\":\"x:1\",\"eval\":9}}")).unwrap();
        assert_eq!((b.label, b.game), (9.0, a.game));
        assert!(parse_line(&format!("{{\"pos\":\"{board}\"}}")).is_none(), "no score");
        // Roots: the line's root, else its game and ply, else the line alone.
        let line = |extra: &str| {
            parse_line(&format!("{{\"pos\":\"{board}\",\"game\":\"x:1\",\"score\":1{extra}}}"))
                .unwrap()
                .root
        };
        assert_eq!(
            line(",\"ply\":3"),
            line(",\"ply\":3,\"n\":2"),
            "a game position and its random turns"
        );
        assert_ne!(line(",\"ply\":3"), line(",\"ply\":4"));
        assert_eq!(
            line(",\"root\":7,\"ply\":3"),
            line(",\"root\":7,\"ply\":9"),
            "root wins over ply"
        );
        assert_ne!(line(",\"root\":7"), line(",\"root\":8"));
        assert_ne!(line(""), line(",\"n\":2"), "without either, each line is its own root");
        assert_eq!(mirror_files(&a).root, a.root);
        assert!(parse_line("{\"pos\":\"g [x]\",\"score\":1}").is_none());
        let pos = parse_position(board).unwrap();
        assert_eq!(a.views[0].len(), pos.occupied().count() as usize);
        // The mirror's features are those of the board with its files flipped.
        let mut flipped = Position::empty(pos.side());
        for sq in pos.occupied().iter() {
            flipped.put(pos.piece_at(sq).unwrap(), Square::new(7 - sq.file(), sq.rank()));
        }
        let mut want = sample(&flipped, 0.0, 0).views;
        let mut got = mirror_files(&a).views;
        for v in want.iter_mut().chain(got.iter_mut()) {
            v.sort_unstable();
        }
        assert_eq!(got, want);
    }

    #[test]
    fn gzipped_files_read_as_plain_ones_and_unreadable_ones_are_named() {
        let board = "s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]";
        let text = format!("{{\"pos\":\"{board}\",\"game\":\"x:1\",\"score\":-250}}\nnot json\n");
        let dir = std::env::temp_dir().join(format!("arimaa-nnue-data-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let plain = dir.join("l.jsonl");
        std::fs::write(&plain, &text).unwrap();
        let gz = dir.join("l.jsonl.gz");
        let mut enc = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::default());
        std::io::Write::write_all(&mut enc, text.as_bytes()).unwrap();
        std::fs::write(&gz, enc.finish().unwrap()).unwrap();
        let (a, skipped_a) = read(&plain).unwrap();
        let (b, skipped_b) = read(&gz).unwrap();
        assert_eq!((a.len(), skipped_a, b.len(), skipped_b), (1, 1, 1, 1));
        assert_eq!(a[0].views, b[0].views);
        let missing = dir.join("missing.jsonl");
        assert!(read(&missing).unwrap_err().to_string().contains("missing.jsonl"));
        std::fs::write(&plain, "no labels here\n").unwrap();
        assert!(matches!(read(&plain), Err(DataError::Empty(_))));
    }
}
