//! The search's typed answers as AEI text: the `info` lines of a completed
//! iteration, the progress line in between, the `log summary` line and the
//! `bestmove` line. The search hands out turns as steps; their notation
//! (capture tokens included) is written here, from the position each turn is
//! played in.

use crate::output::Output;
use arimaa_core::{format_move, Move, Position};
use arimaa_search::search::{Progress, Report};
use arimaa_search::SearchResult;
use std::time::Duration;

/// Writes the `info` lines of one completed iteration of a search from `root`.
pub fn write_info(out: &Output, root: &Position, r: &Report) {
    out.line(&format!("info depth {}", r.depth));
    out.line(&format!("info score {}", r.score));
    out.line(&format!("info nodes {}", r.nodes));
    out.line(&format!("info time {}", r.elapsed.as_secs_f64().round() as u64));
    out.line(&format!("info nps {}", nps(r.nodes, r.elapsed)));
    out.line(&format!("info pv {}", pv_text(root, &r.pv)));
}

/// The line that shows a search alive inside a long iteration, as a chess
/// engine's `currdepth`: `info progress depth 9+ score S nodes N time T nps X
/// pv ...`, the depth under way marked `+` and the best turn so far first in
/// the line. One line of its own type, so that a controller keeping the last
/// `info depth` and `info score` (as `arimaa match` does for its records)
/// keeps the last completed iteration's, and one that reacts to a line
/// starting `time` (pyrimaa's gameroom) is not set off.
#[must_use]
pub fn progress_line(root: &Position, p: &Progress) -> String {
    format!(
        "info progress depth {}+ score {} nodes {} time {} nps {} pv {}",
        p.depth,
        p.score,
        p.nodes,
        p.elapsed.as_secs_f64().round() as u64,
        nps(p.nodes, p.elapsed),
        pv_text(root, &p.pv)
    )
}

/// The `log` line written just before `bestmove`, for the logs a controller
/// keeps (pyrimaa's gameroom keeps every `log` line): what the search
/// settled on, how deep and how fast. `elapsed` is the whole search's time,
/// in seconds with two decimals.
#[must_use]
pub fn summary_line(root: &Position, r: &SearchResult, elapsed: Duration) -> String {
    format!(
        "log summary depth {} score {} nodes {} time {:.2} nps {} pv {}",
        r.depth,
        r.score,
        r.nodes,
        elapsed.as_secs_f64(),
        nps(r.nodes, elapsed),
        pv_text(root, &r.pv)
    )
}

/// Nodes per second, with a floor on the time so that a search that took
/// no measurable time does not divide by zero.
fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

/// The `bestmove` line for the turn `best` played from `root`.
#[must_use]
pub fn bestmove(root: &Position, best: &Move) -> String {
    format!("bestmove {}", format_move(root, best))
}

/// Turns played one after another from `root`, as text: each turn's steps
/// and captures, and before every turn after the first the letter of the side
/// that plays it (`Ed2n Ed3n s rd7s rd6s g Ee2n`).
#[must_use]
pub fn pv_text(root: &Position, turns: &[Move]) -> String {
    let mut text = String::new();
    let mut pos = *root;
    for (i, turn) in turns.iter().enumerate() {
        if i > 0 {
            text.push(' ');
            text.push(pos.side().letter());
            text.push(' ');
        }
        text.push_str(&format_move(&pos, turn));
        pos = pos.after_turn(turn);
    }
    text
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_core::notation::parse_move;
    use arimaa_core::{Color, Piece, Square};

    #[test]
    fn a_pv_names_the_side_of_every_later_turn_and_its_captures() -> Result<(), Box<dyn std::error::Error>> {
        // Gold's elephant on e3 pushes the silver cat on d3 into trap c3.
        let mut root = Position::empty(Color::Gold);
        for (piece, square) in [('E', "e3"), ('c', "d3"), ('r', "a8"), ('R', "a1")] {
            let piece = Piece::from_letter(piece).ok_or("a piece letter")?;
            root.put(piece, Square::parse(square).ok_or("a square name")?);
        }
        let mut turns = Vec::new();
        let mut pos = root;
        for text in ["cd3w Ee3w", "ra8e", "Ed3n"] {
            let (turn, after) = parse_move(&pos, text)?;
            turns.push(turn);
            pos = after;
            pos.end_turn();
        }
        assert_eq!(pv_text(&root, &turns), "cd3w cc3x Ee3w s ra8e g Ed3n");
        assert_eq!(pv_text(&root, &turns[..1]), "cd3w cc3x Ee3w");
        assert_eq!(pv_text(&root, &[]), "");
        assert_eq!(bestmove(&root, &turns[0]), "bestmove cd3w cc3x Ee3w");

        let progress = Progress {
            depth: 9,
            score: 35,
            nodes: 3_000,
            elapsed: Duration::from_millis(2_400),
            pv: turns[..2].to_vec(),
        };
        assert_eq!(
            progress_line(&root, &progress),
            "info progress depth 9+ score 35 nodes 3000 time 2 nps 1250 pv cd3w cc3x Ee3w s ra8e"
        );
        let result = SearchResult {
            best: turns[0],
            score: -12,
            depth: 11,
            nodes: 5_000,
            pv: turns.clone(),
            cuts: Default::default(),
        };
        assert_eq!(
            summary_line(&root, &result, Duration::from_millis(1_250)),
            "log summary depth 11 score -12 nodes 5000 time 1.25 nps 4000 pv cd3w cc3x Ee3w s ra8e g Ed3n"
        );
        Ok(())
    }
}
