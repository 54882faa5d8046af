//! The first layer's sums, one row per view, kept up to date step by step.

use super::{feature, Network};
use arimaa_core::{Color, Piece, Square};

/// The first layer's output before clipping, for both views.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Accumulator {
    /// Gold's view, then silver's: `hidden` values each.
    values: Vec<i16>,
    hidden: usize,
}

impl Accumulator {
    /// The biases alone: an empty board.
    #[must_use]
    pub fn new(net: &Network) -> Accumulator {
        let mut values = net.input_bias.clone();
        values.extend_from_slice(&net.input_bias);
        Accumulator {
            values,
            hidden: net.hidden,
        }
    }

    /// The sums of `view`.
    #[must_use]
    pub fn view(&self, view: Color) -> &[i16] {
        let start = view.index() * self.hidden;
        &self.values[start..start + self.hidden]
    }

    pub(super) fn add(&mut self, net: &Network, view: Color, feature: usize) {
        let row = &net.input_weights[feature * self.hidden..(feature + 1) * self.hidden];
        let start = view.index() * self.hidden;
        for (v, w) in self.values[start..start + self.hidden].iter_mut().zip(row) {
            *v = v.wrapping_add(*w);
        }
    }

    fn sub(&mut self, net: &Network, view: Color, feature: usize) {
        let row = &net.input_weights[feature * self.hidden..(feature + 1) * self.hidden];
        let start = view.index() * self.hidden;
        for (v, w) in self.values[start..start + self.hidden].iter_mut().zip(row) {
            *v = v.wrapping_sub(*w);
        }
    }

    /// `piece` appears on `sq` (a step's arrival).
    pub fn put(&mut self, net: &Network, piece: Piece, sq: Square) {
        for view in Color::ALL {
            self.add(net, view, feature(view, piece, sq));
        }
    }

    /// `piece` leaves `sq` (a step's departure, or a capture).
    pub fn remove(&mut self, net: &Network, piece: Piece, sq: Square) {
        for view in Color::ALL {
            self.sub(net, view, feature(view, piece, sq));
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::EMBEDDED;
    use arimaa_core::{parse_position, Position, TurnGen};

    /// Every step of every turn of a few positions, applied to the
    /// accumulator piece by piece, gives the sums computed from scratch.
    #[test]
    fn updates_by_step_match_a_refresh() {
        let net = &*EMBEDDED;
        let start = parse_position("s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]").unwrap();
        let mut checked = 0;
        for turn in TurnGen::new().turns(&start).into_iter().take(300) {
            let mut pos: Position = start;
            let mut acc = net.refresh(&pos);
            for step in turn.steps.iter() {
                let before = pos;
                pos.make_step(step);
                for sq in before.occupied().iter() {
                    if pos.piece_at(sq) != before.piece_at(sq) {
                        acc.remove(net, before.piece_at(sq).unwrap(), sq);
                    }
                }
                for sq in pos.occupied().iter() {
                    if pos.piece_at(sq) != before.piece_at(sq) {
                        acc.put(net, pos.piece_at(sq).unwrap(), sq);
                    }
                }
                assert_eq!(acc, net.refresh(&pos));
                checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
    }
}
