//! A move test (`arimaa movetest`): a fixed set of positions that a teacher
//! has scored, each candidate engine's move in each, and the teacher's score
//! of the position that move leads to. A move's loss is the teacher's score
//! before it plus its score after it (the opponent's view), as in
//! [`crate::judge`]; here every candidate answers the same positions, so two
//! builds are compared position by position, and the paired difference has
//! a far narrower interval than two matches lost 0–20 each.

use arimaa_core::notation::parse_move;
use arimaa_core::rules::goal_or_elimination;
use arimaa_core::Position;

use crate::judge::{mean_half, move_loss, BLUNDER, CLIP};

/// Where a candidate's move leads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum After {
    /// The move wins on the spot (goal, elimination, or the opponent left
    /// without a legal step).
    Won,
    /// The move loses on the spot (the mover's last rabbit gone, or the
    /// opponent's rabbit pushed or pulled into its goal).
    Lost,
    /// The game goes on from here, the opponent to move.
    Position(Position),
}

/// Plays `text` (a move as an engine writes it) in `pos`.
///
/// # Errors
/// The move's error when it is not a legal turn in `pos`.
pub fn play(pos: &Position, text: &str) -> Result<After, String> {
    let (steps, _) = parse_move(pos, text).map_err(|e| e.to_string())?;
    let after = pos.after_turn(&steps);
    let mover = pos.side();
    if let Some(outcome) = goal_or_elimination(&after) {
        return Ok(if outcome.winner == mover {
            After::Won
        } else {
            After::Lost
        });
    }
    if after.legal_step_list().is_empty() {
        return Ok(After::Won);
    }
    Ok(After::Position(after))
}

/// A move's loss in rabbits: the teacher's score `before` (the mover's
/// view) plus its score `after` (the opponent's), `unit` teacher units to a
/// rabbit, clipped to ±[`CLIP`]. A winning move loses nothing and a losing
/// one the most.
#[must_use]
pub fn loss(before: f64, after: Option<f64>, reached: &After, unit: f64) -> Option<f64> {
    match reached {
        After::Won => Some(0.0),
        After::Lost => Some(CLIP),
        After::Position(_) => after.map(|a| move_loss(before, a, unit)),
    }
}

/// One candidate's results over the test.
#[derive(Clone, Debug, PartialEq)]
pub struct Summary {
    /// The candidate.
    pub name: String,
    /// Positions with a judged move.
    pub moves: usize,
    /// Mean loss per move, in rabbits.
    pub mean: f64,
    /// Half the 95 % interval of the mean.
    pub half_width: f64,
    /// Share of moves losing [`BLUNDER`] rabbits or more.
    pub blunders: f64,
    /// Share of moves reaching the same position as the teacher's own move.
    pub teachers_move: f64,
    /// Against the first candidate, on the positions both were judged in:
    /// the mean of (this loss − the first's) and half its 95 % interval.
    pub versus_first: Option<(f64, f64)>,
}

/// Summarises `losses[c][p]` (candidate `c`'s loss in position `p`, `None`
/// where unjudged) and `same[c][p]` (its move reached the teacher's
/// position). Candidates without a judged move are left out.
#[must_use]
pub fn summarize(names: &[String], losses: &[Vec<Option<f64>>], same: &[Vec<bool>]) -> Vec<Summary> {
    let mut out = Vec::new();
    for (c, name) in names.iter().enumerate() {
        let judged: Vec<f64> = losses[c].iter().flatten().copied().collect();
        if judged.is_empty() {
            continue;
        }
        let (mean, half_width) = mean_half(&judged);
        let diffs: Vec<f64> = losses[c]
            .iter()
            .zip(&losses[0])
            .filter_map(|(a, b)| Some((*a)? - (*b)?))
            .collect();
        let n = judged.len() as f64;
        out.push(Summary {
            name: name.clone(),
            moves: judged.len(),
            mean,
            half_width,
            blunders: judged.iter().filter(|&&l| l >= BLUNDER).count() as f64 / n,
            teachers_move: same[c].iter().filter(|&&s| s).count() as f64 / same[c].len().max(1) as f64,
            versus_first: (c > 0 && !diffs.is_empty()).then(|| mean_half(&diffs)),
        });
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_core::notation::parse_position;

    #[test]
    fn a_move_leads_to_a_position_a_win_or_an_error() {
        // Gold: rabbit c7 (one step from goal), elephant d5; silver: rabbit
        // h2, elephant e4.
        let mut board = [' '; 64];
        board[8 + 2] = 'R'; // c7 (the board string runs from a8)
        board[55] = 'r'; // h2
        board[27] = 'E'; // d5
        board[36] = 'e'; // e4
        let text = format!("g [{}]", board.iter().collect::<String>());
        let pos = parse_position(&text).unwrap();
        assert_eq!(play(&pos, "Rc7n").unwrap(), After::Won);
        let After::Position(after) = play(&pos, "Ed5n Ed6n").unwrap() else {
            panic!("a quiet move goes on");
        };
        assert_eq!(after.side(), pos.side().opponent());
        assert!(play(&pos, "Rc7s").is_err(), "rabbits do not step back");
        assert!(play(&pos, "").is_err(), "a pass is not a turn");
    }

    #[test]
    fn losses_are_clipped_and_a_win_loses_nothing() {
        let goes_on = After::Position(Position::empty(arimaa_core::Color::Gold));
        assert_eq!(loss(500.0, Some(-200.0), &goes_on, 1000.0), Some(0.3));
        assert_eq!(loss(500.0, Some(1_000_000.0), &goes_on, 1000.0), Some(CLIP));
        assert_eq!(loss(500.0, None, &goes_on, 1000.0), None);
        assert_eq!(loss(500.0, None, &After::Won, 1000.0), Some(0.0));
        assert_eq!(loss(500.0, None, &After::Lost, 1000.0), Some(CLIP));
    }

    #[test]
    fn the_second_candidate_is_compared_position_by_position() {
        let names = vec!["base".to_string(), "new".to_string()];
        let losses = vec![
            vec![Some(0.5), Some(1.0), Some(0.0), None],
            vec![Some(0.3), Some(0.6), None, Some(2.0)],
        ];
        let same = vec![vec![false, false, true, false], vec![true, false, false, false]];
        let s = summarize(&names, &losses, &same);
        assert_eq!(s.len(), 2);
        assert_eq!((s[0].moves, s[0].mean, s[0].versus_first), (3, 0.5, None));
        assert!((s[0].blunders - 1.0 / 3.0).abs() < 1e-12);
        assert_eq!(s[0].teachers_move, 0.25);
        // new: 0.3, 0.6, 2.0; against base on the two shared positions:
        // −0.2 and −0.4, mean −0.3, sd 0.1414, half 1.96 × 0.1414 / √2.
        assert_eq!(s[1].moves, 3);
        assert!((s[1].mean - 2.9 / 3.0).abs() < 1e-12);
        let (d, h) = s[1].versus_first.unwrap();
        assert!((d + 0.3).abs() < 1e-12 && (h - 0.196).abs() < 1e-9, "{d} {h}");
    }
}
