//! The first layer's sums, one row per view, kept up to date step by step.

use super::{feature, plane_piece, planes, Network, Planes, State};
use arimaa_core::{Color, Piece, Position, Square};

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

    /// `piece` in `state` appears on `sq` (a step's arrival, or a change
    /// of state).
    pub fn put(&mut self, net: &Network, piece: Piece, state: State, sq: Square) {
        for view in Color::ALL {
            self.add(net, view, feature(view, piece, state, sq));
        }
    }

    /// `piece` in `state` leaves `sq` (a step's departure, a capture, or a
    /// change of state).
    pub fn remove(&mut self, net: &Network, piece: Piece, state: State, sq: Square) {
        for view in Color::ALL {
            self.sub(net, view, feature(view, piece, state, sq));
        }
    }
}

/// An accumulator that follows the positions a search evaluates, in
/// whatever order they come: it keeps the [`Planes`] it last summed and
/// updates by the squares whose piece or state differs. Consecutive leaves
/// of a depth-first search are a few steps apart, so an update touches a
/// handful of rows where a refresh touches one per piece; and no make or
/// unmake of the tree needs to know about it.
#[derive(Clone, Debug)]
pub struct Tracker {
    planes: Option<Planes>,
    acc: Accumulator,
}

impl Tracker {
    /// A tracker that has summed nothing yet.
    #[must_use]
    pub fn new(net: &Network) -> Tracker {
        Tracker {
            planes: None,
            acc: Accumulator::new(net),
        }
    }

    /// The network's score of `pos`, side to move's view (see
    /// [`Network::evaluate`]), with the accumulator brought to `pos`.
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        self.sync(net, pos);
        net.output(&self.acc, pos.side())
    }

    /// The accumulator for `pos`.
    pub fn sync(&mut self, net: &Network, pos: &Position) -> &Accumulator {
        let new = planes(pos);
        let Some(old) = self.planes.filter(|old| changes(old, &new) <= pos.occupied().count()) else {
            self.acc = net.refresh_planes(&new);
            self.planes = Some(new);
            return &self.acc;
        };
        for (i, (&was, &now)) in old.iter().zip(&new).enumerate() {
            if was == now {
                continue;
            }
            let (piece, state) = plane_piece(i);
            for sq in was & !now {
                self.acc.remove(net, piece, state, sq);
            }
            for sq in now & !was {
                self.acc.put(net, piece, state, sq);
            }
        }
        self.planes = Some(new);
        &self.acc
    }
}

/// Rows an update from `from` to `to` would touch (per view).
fn changes(from: &Planes, to: &Planes) -> u32 {
    from.iter().zip(to).map(|(a, b)| (*a ^ *b).count()).sum()
}

#[cfg(test)]
mod tests {
    use super::super::{plane_piece, planes, EMBEDDED};
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
                let before = planes(&pos);
                pos.make_step(step);
                let after = planes(&pos);
                for (i, (&was, &now)) in before.iter().zip(&after).enumerate() {
                    let (piece, state) = plane_piece(i);
                    for sq in was & !now {
                        acc.remove(net, piece, state, sq);
                    }
                    for sq in now & !was {
                        acc.put(net, piece, state, sq);
                    }
                }
                assert_eq!(acc, net.refresh(&pos));
                checked += 1;
            }
        }
        assert!(checked > 300, "{checked}");
    }

    /// A tracker asked about positions in any order (near and far apart)
    /// scores each as a fresh evaluation does.
    #[test]
    fn a_tracker_scores_any_sequence_as_from_scratch() {
        let net = &*EMBEDDED;
        let start = parse_position("s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]").unwrap();
        let far = Position::standard();
        let mut tracker = super::Tracker::new(net);
        let mut checked = 0;
        for (i, turn) in TurnGen::new().turns(&start).into_iter().take(200).enumerate() {
            let mut pos: Position = start;
            for step in turn.steps.iter() {
                pos.make_step(step);
                assert_eq!(tracker.evaluate(net, &pos), net.evaluate(&pos));
                checked += 1;
            }
            if i % 17 == 0 {
                assert_eq!(tracker.evaluate(net, &far), net.evaluate(&far));
            }
        }
        assert!(checked > 200, "{checked}");
    }
}
