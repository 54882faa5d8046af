//! The principal variation: kept per ply in the triangular table, and
//! handed out as whole turns.

use super::Searcher;
use arimaa_core::{Move, Position, Step};

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum PvItem {
    Step(Step),
    /// A push: the enemy piece's step and the pusher's, one unit in the tree.
    Push(Step, Step),
    Pass,
}

impl Searcher<'_> {
    pub(super) fn set_pv(&mut self, ply: usize, item: PvItem) {
        self.pv[ply][ply] = item;
        let (head, tail) = self.pv.split_at_mut(ply + 1);
        let next_len = self.pv_len[ply + 1].max(ply + 1);
        head[ply][ply + 1..next_len].copy_from_slice(&tail[0][ply + 1..next_len]);
        self.pv_len[ply] = next_len;
    }
}

/// The PV as whole turns from the root: the root turn, then the steps below
/// it grouped by turn (a turn ends at its fourth step or where it passes; the
/// last may be cut short by the horizon). A pass always follows a step of its
/// turn, since a turn must change the board, so no turn is empty.
pub(super) fn pv_turns(root: &Position, first: Move, rest: &[PvItem]) -> Vec<Move> {
    let mut out = vec![first];
    let mut pos = root.after_turn(&first);
    let mut current = Move::new();
    for item in rest {
        let steps = match *item {
            PvItem::Step(s) => [Some(s), None],
            PvItem::Push(a, b) => [Some(a), Some(b)],
            PvItem::Pass => [None, None],
        };
        for s in steps.into_iter().flatten() {
            pos.make_step(s);
            current.push(s);
            if pos.steps_left() == 0 {
                out.push(current);
                pos.end_turn();
                current = Move::new();
            }
        }
        if *item == PvItem::Pass {
            if !current.is_empty() {
                out.push(current);
            }
            pos.end_turn();
            current = Move::new();
        }
    }
    if !current.is_empty() {
        out.push(current);
    }
    out
}
