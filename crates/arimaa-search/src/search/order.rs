//! Step ordering: the table's step, captures of enemy pieces, killers, then
//! by history; own losses last.

use super::Searcher;
use arimaa_core::{Position, Step, StepList};

impl Searcher<'_> {
    /// Steps in search order: the table's step, captures of enemy pieces,
    /// killers, then by history; own losses last.
    pub(super) fn order(&self, pos: &Position, list: StepList, ply: usize, tt_step: Option<Step>) -> Ordered {
        let us = pos.side();
        let mut out = Ordered {
            items: [0; StepList::CAPACITY],
            len: list.len(),
            steps: list,
            next: 0,
        };
        for (i, (slot, &s)) in out.items.iter_mut().zip(out.steps.as_slice()).enumerate() {
            let mut key = self.history[history_index(s)].min(1 << 20);
            if Some(s) == tt_step {
                key += 1 << 30;
            } else if let Some((victim, _)) = pos.capture_of(s) {
                key += if victim.color == us { -(1 << 24) } else { 1 << 28 };
            } else if self.killers[ply].contains(&Some(s)) {
                key += 1 << 26;
            }
            // Equal keys keep generation order: the lower index packs larger.
            *slot = (i64::from(key) << 16) | (0xFFFF - i as i64);
        }
        out
    }

    pub(super) fn add_killer(&mut self, ply: usize, step: Step) {
        let k = &mut self.killers[ply];
        if k[0] != Some(step) {
            k[1] = k[0];
            k[0] = Some(step);
        }
    }
}

/// Steps with their order keys packed above their indices, handed out best first
/// by selection: most nodes cut off after a step or two, so sorting the whole
/// list would be wasted.
pub(super) struct Ordered {
    items: [i64; StepList::CAPACITY],
    steps: StepList,
    len: usize,
    next: usize,
}

impl Iterator for Ordered {
    type Item = Step;

    fn next(&mut self) -> Option<Step> {
        let rest = &mut self.items[self.next..self.len];
        let (best, _) = rest.iter().enumerate().max_by_key(|&(_, v)| *v)?;
        rest.swap(0, best);
        let item = rest[0];
        self.next += 1;
        Some(self.steps.as_slice()[0xFFFF - (item & 0xFFFF) as usize])
    }
}

/// History slot of a step: the piece and the arrival square.
pub(super) fn history_index(step: Step) -> usize {
    step.piece().index() * 64 + step.to().index()
}
