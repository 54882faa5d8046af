//! The principal variation: kept per ply in the triangular table, and
//! printed as whole turns.

use super::Searcher;
use arimaa_core::{Color, Move, Position, Step};

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

/// The PV as turns: the root turn, then the steps below it grouped by turn.
pub(super) fn format_pv(root: &Position, first: Move, rest: &[PvItem]) -> Vec<(Color, String)> {
    let mut out = vec![(root.side(), arimaa_core::format_move(root, &first))];
    let mut pos = *root;
    for s in first.iter() {
        pos.make_step(s);
    }
    pos.end_turn();
    let mut turn_start = pos;
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
                out.push((turn_start.side(), arimaa_core::format_move(&turn_start, &current)));
                pos.end_turn();
                turn_start = pos;
                current = Move::new();
            }
        }
        match item {
            PvItem::Step(_) | PvItem::Push(..) => {}
            PvItem::Pass => {
                if !current.is_empty() {
                    out.push((turn_start.side(), arimaa_core::format_move(&turn_start, &current)));
                }
                pos.end_turn();
                turn_start = pos;
                current = Move::new();
            }
        }
    }
    if !current.is_empty() {
        out.push((turn_start.side(), arimaa_core::format_move(&turn_start, &current)));
    }
    out
}
