//! Each player's moves judged by a teacher (`arimaa judge`): the score the
//! teacher gives the position before a move, less the score it gives the
//! position after it, from the mover's side. Chess players know it as the
//! average centipawn loss.
//!
//! A match against a much stronger engine is lost game after game, by every
//! build: 0 of 20 says nothing about which build plays better. The loss per
//! move does, from every move of those games. The teacher labels every game
//! position (`arimaa positions`, then `arimaa label`); a move's loss is
//! `score(before) + score(after)` (the second is the opponent's view, so its
//! sign turns), in rabbits. A teacher that searches deeper than its own
//! in-game choices also judges itself (its own loss is then near 0).
//!
//! Losses are clipped to ±[`CLIP`] rabbits: once a game is decided the
//! teacher's scores jump to its win value (sharp's is a million
//! millirabbits), and one such move would outweigh every other. The
//! opening is reported apart: later moves are made in positions already
//! lost, where every move loses and the teacher's scale stretches.

use serde_json::Value;
use std::collections::BTreeMap;

/// Losses beyond this many rabbits count as this many.
pub const CLIP: f64 = 3.0;

/// A move losing this many rabbits or more counts as a blunder.
pub const BLUNDER: f64 = 1.0;

/// A move's loss in rabbits: the teacher's score before it (the mover's
/// view) plus its score after it (the opponent's), `unit` teacher units to a
/// rabbit, clipped to ±[`CLIP`].
#[must_use]
pub fn move_loss(before: f64, after: f64, unit: f64) -> f64 {
    ((before + after) / unit).clamp(-CLIP, CLIP)
}

/// The mean of `x` and half its 95 % interval (normal approximation).
#[must_use]
pub fn mean_half(x: &[f64]) -> (f64, f64) {
    let n = x.len() as f64;
    let mean = x.iter().sum::<f64>() / n;
    let var = x.iter().map(|v| (v - mean).powi(2)).sum::<f64>() / (n - 1.0).max(1.0);
    (mean, 1.96 * (var / n).sqrt())
}

/// The median of `x` (sorted in place), `None` when empty.
#[must_use]
pub fn median(x: &mut [f64]) -> Option<f64> {
    x.sort_by(f64::total_cmp);
    let n = x.len();
    match n {
        0 => None,
        _ if n % 2 == 1 => Some(x[n / 2]),
        _ => Some((x[n / 2 - 1] + x[n / 2]) / 2.0),
    }
}

/// One labelled game position.
#[derive(Clone, Debug, PartialEq)]
pub struct Judged {
    /// The game it belongs to (`game` field).
    pub game: String,
    /// The index of the move played from it in the game's move list.
    pub ply: usize,
    /// The player to move (`player`, else "gold" or "silver").
    pub player: String,
    /// The teacher's score, side to move's view, in its units.
    pub score: f64,
}

/// Reads the game positions of label lines (`arimaa label` output): lines
/// of other origins (`random`), without a score, or not JSON are skipped.
/// Returns them and the number of lines skipped.
#[must_use]
pub fn parse_labels(text: &str) -> (Vec<Judged>, usize) {
    let mut out = Vec::new();
    let mut skipped = 0;
    for line in text.lines().filter(|l| !l.trim().is_empty()) {
        match parse_line(line) {
            Some(j) => out.push(j),
            None => skipped += 1,
        }
    }
    (out, skipped)
}

fn parse_line(line: &str) -> Option<Judged> {
    let v: Value = serde_json::from_str(line).ok()?;
    if v.get("origin").and_then(Value::as_str).is_some_and(|o| o != "game") {
        return None;
    }
    let side = match v["pos"].as_str()?.chars().next()? {
        'g' | 'w' => "gold",
        's' | 'b' => "silver",
        _ => return None,
    };
    Some(Judged {
        game: v["game"].as_str()?.to_string(),
        ply: usize::try_from(v["ply"].as_u64()?).ok()?,
        player: v["player"].as_str().unwrap_or(side).to_string(),
        score: v["score"].as_f64()?,
    })
}

/// Which part of the games a row covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Phase {
    /// The first moves of each side after the setups.
    Opening,
    /// The rest.
    Later,
    /// Every move.
    All,
}

impl std::fmt::Display for Phase {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Phase::Opening => "opening",
            Phase::Later => "later",
            Phase::All => "all",
        })
    }
}

/// One player's judged moves in one phase.
#[derive(Clone, Debug, PartialEq)]
pub struct Row {
    /// The player.
    pub player: String,
    /// The phase.
    pub phase: Phase,
    /// Moves judged.
    pub moves: usize,
    /// Mean loss per move, in rabbits.
    pub mean: f64,
    /// Half the width of the mean's 95 % interval (normal approximation).
    pub half_width: f64,
    /// Median loss.
    pub median: f64,
    /// Share of moves losing [`BLUNDER`] rabbits or more.
    pub blunders: f64,
}

/// The loss of every move whose position before and after are both
/// labelled, per player and phase, with `unit` teacher units to a rabbit
/// and the first `opening` moves of each side as the opening.
#[must_use]
pub fn judge(labels: &[Judged], unit: f64, opening: usize) -> Vec<Row> {
    let mut by_game: BTreeMap<&str, BTreeMap<usize, &Judged>> = BTreeMap::new();
    for j in labels {
        by_game.entry(&j.game).or_default().insert(j.ply, j);
    }
    let mut losses: BTreeMap<(String, Phase), Vec<f64>> = BTreeMap::new();
    for plies in by_game.values() {
        for (&ply, before) in plies {
            let Some(after) = plies.get(&(ply + 1)) else {
                continue;
            };
            let loss = move_loss(before.score, after.score, unit);
            // Plies 0 and 1 are the setups; a side's k-th move is ply 2k or 2k+1.
            let phase = if ply < 2 * (opening + 1) {
                Phase::Opening
            } else {
                Phase::Later
            };
            for p in [phase, Phase::All] {
                losses.entry((before.player.clone(), p)).or_default().push(loss);
            }
        }
    }
    losses
        .into_iter()
        .map(|((player, phase), mut l)| {
            let n = l.len() as f64;
            let (mean, half_width) = mean_half(&l);
            let median = median(&mut l).unwrap_or(0.0);
            Row {
                player,
                phase,
                moves: l.len(),
                mean,
                half_width,
                median,
                blunders: l.iter().filter(|&&x| x >= BLUNDER).count() as f64 / n,
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn line(game: &str, ply: usize, side: char, player: Option<&str>, score: f64) -> String {
        let mut v = serde_json::json!({
            "pos": format!("{side} [{}]", " ".repeat(64)),
            "game": game, "ply": ply, "origin": "game", "score": score,
        });
        if let Some(p) = player {
            v["player"] = serde_json::json!(p);
        }
        v.to_string()
    }

    #[test]
    fn a_move_loses_the_teacher_score_before_plus_the_one_after() {
        // Game a: ours (gold) at plies 2 and 4, sharp (silver) at 3.
        let text = [
            line("a", 2, 'g', Some("ours"), 100.0),
            line("a", 3, 's', Some("sharp"), 400.0),   // ours lost 0.5 R
            line("a", 4, 'g', Some("ours"), -300.0),   // sharp lost 0.1 R
            line("a", 5, 's', Some("sharp"), 2_500.0), // ours lost 2.2 R
            // A random position, and a line without a score: skipped.
            r#"{"pos": "g [ ]", "game": "a", "ply": 2, "origin": "random", "score": 5}"#.to_string(),
            r#"{"pos": "g [ ]", "game": "a", "ply": 9}"#.to_string(),
            // Game b: the side names the player; a decided score is clipped.
            line("b", 6, 's', None, 0.0),
            line("b", 7, 'g', None, 1_000_000.0),
        ]
        .join("\n");
        let (labels, skipped) = parse_labels(&text);
        assert_eq!((labels.len(), skipped), (6, 2));
        let rows = judge(&labels, 1000.0, 1);
        let row = |p: &str, phase| rows.iter().find(|r| r.player == p && r.phase == phase).unwrap();
        let ours = row("ours", Phase::All);
        assert_eq!(ours.moves, 2);
        assert!((ours.mean - 1.35).abs() < 1e-9, "{}", ours.mean);
        assert!((ours.median - 1.35).abs() < 1e-9);
        assert!((ours.blunders - 0.5).abs() < 1e-9);
        // sd of (0.5, 2.2) is 1.2021; 1.96 * 1.2021 / sqrt 2 = 1.666.
        assert!((ours.half_width - 1.666).abs() < 1e-3, "{}", ours.half_width);
        // The opening is each side's first move (plies 2 and 3).
        assert_eq!(row("ours", Phase::Opening).moves, 1);
        assert!((row("ours", Phase::Later).mean - 2.2).abs() < 1e-9);
        assert!((row("sharp", Phase::All).mean - 0.1).abs() < 1e-9);
        assert_eq!(row("silver", Phase::All).mean, CLIP);
        assert_eq!(rows.len(), 7, "ours 3 phases, sharp and silver 2 each");
    }
}
