//! Perft: counts that pin the move generator down against an oracle.

use crate::position::Position;
use crate::step::StepList;
use crate::turns::TurnGen;

/// The two counts the oracle fixtures record for a position at a turn start.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct TurnCounts {
    /// Distinct legal end-of-turn boards (the fixtures' `moves`).
    pub turns: usize,
    /// Legal first steps, push first halves included (the fixtures' `steps_from_here`).
    pub first_steps: usize,
}

/// Counts distinct turns and first steps from `pos`.
pub fn turn_counts(pos: &Position, gen: &mut TurnGen) -> TurnCounts {
    TurnCounts {
        turns: gen.count(pos),
        first_steps: pos.legal_step_list().len(),
    }
}

/// Counts action paths of length `depth`, where an action is one legal step or
/// the end of the turn (allowed once the board has changed and no push is half
/// done; forced after the fourth step). Game ends are not detected: this is a
/// generator check, not a game-tree count.
#[must_use]
pub fn step_perft(pos: &Position, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut nodes = 0;
    let mut pos = *pos;
    if pos.can_end_turn() {
        let undo = pos.end_turn();
        nodes += step_perft(&pos, depth - 1);
        pos.unmake_end_turn(undo);
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    for &step in list.as_slice() {
        let undo = pos.make_step(step);
        nodes += if depth == 1 { 1 } else { step_perft(&pos, depth - 1) };
        pos.unmake_step(undo);
    }
    nodes
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_opening() {
        let pos = Position::standard();
        let mut gen = TurnGen::new();
        assert_eq!(
            turn_counts(&pos, &mut gen),
            TurnCounts {
                turns: 3353,
                first_steps: 8
            }
        );
        assert_eq!(step_perft(&pos, 1), 8);
    }
}
