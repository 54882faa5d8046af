//! The search's typed answers as AEI text: the `info` lines of a completed
//! iteration and the `bestmove` line. The search hands out turns as steps;
//! their notation (capture tokens included) is written here, from the
//! position each turn is played in.

use crate::output::Output;
use arimaa_core::{format_move, Move, Position};
use arimaa_search::search::Report;

/// Writes the `info` lines of one completed iteration of a search from `root`.
pub fn write_info(out: &Output, root: &Position, r: &Report) {
    let secs = r.elapsed.as_secs_f64();
    out.line(&format!("info depth {}", r.depth));
    out.line(&format!("info score {}", r.score));
    out.line(&format!("info nodes {}", r.nodes));
    out.line(&format!("info time {}", secs.round() as u64));
    out.line(&format!("info nps {}", (r.nodes as f64 / secs.max(1e-3)) as u64));
    out.line(&format!("info pv {}", pv_text(root, &r.pv)));
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
    fn a_pv_names_the_side_of_every_later_turn_and_its_captures() {
        // Gold's elephant on e3 pushes the silver cat on d3 into trap c3.
        let mut root = Position::empty(Color::Gold);
        for (piece, square) in [('E', "e3"), ('c', "d3"), ('r', "a8"), ('R', "a1")] {
            root.put(Piece::from_letter(piece).unwrap(), Square::parse(square).unwrap());
        }
        let mut turns = Vec::new();
        let mut pos = root;
        for text in ["cd3w Ee3w", "ra8e", "Ed3n"] {
            let (turn, after) = parse_move(&pos, text).unwrap();
            turns.push(turn);
            pos = after;
            pos.end_turn();
        }
        assert_eq!(pv_text(&root, &turns), "cd3w cc3x Ee3w s ra8e g Ed3n");
        assert_eq!(pv_text(&root, &turns[..1]), "cd3w cc3x Ee3w");
        assert_eq!(pv_text(&root, &[]), "");
        assert_eq!(bestmove(&root, &turns[0]), "bestmove cd3w cc3x Ee3w");
    }
}
