//! The first layer's sums, one row per view, kept up to date step by step.

use super::{feature, Network, DENSE};
use arimaa_core::{Color, Kind, Piece, Position, Square};

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

/// An accumulator that follows the positions a search evaluates, in
/// whatever order they come: it keeps the board it last summed and updates
/// by the squares whose piece differs. Consecutive leaves of a depth-first
/// search are a few steps apart, so an update touches a handful of rows
/// where a refresh touches one per piece; and no make or unmake of the tree
/// needs to know about it.
#[derive(Clone, Debug)]
pub struct Tracker {
    board: Option<Position>,
    acc: Accumulator,
}

impl Tracker {
    /// A tracker that has summed nothing yet.
    #[must_use]
    pub fn new(net: &Network) -> Tracker {
        Tracker {
            board: None,
            acc: Accumulator::new(net),
        }
    }

    /// The network's score of `pos`, side to move's view (see
    /// [`Network::evaluate`]), with the accumulator brought to `pos`;
    /// `dense` as [`Network::output`] takes it.
    pub fn evaluate(&mut self, net: &Network, pos: &Position, dense: &[f64; DENSE]) -> i32 {
        self.sync(net, pos);
        net.output(&self.acc, pos.side(), dense)
    }

    /// The accumulator for `pos`.
    pub fn sync(&mut self, net: &Network, pos: &Position) -> &Accumulator {
        let Some(board) = self.board.filter(|b| changes(b, pos) <= pos.occupied().count()) else {
            self.acc = net.refresh(pos);
            self.board = Some(*pos);
            return &self.acc;
        };
        for color in Color::ALL {
            for kind in Kind::ALL {
                let piece = Piece::new(color, kind);
                let (old, new) = (board.bitboard(piece), pos.bitboard(piece));
                for sq in old & !new {
                    self.acc.remove(net, piece, sq);
                }
                for sq in new & !old {
                    self.acc.put(net, piece, sq);
                }
            }
        }
        self.board = Some(*pos);
        &self.acc
    }
}

/// Rows an update from `from` to `to` would touch (per view).
fn changes(from: &Position, to: &Position) -> u32 {
    let mut n = 0;
    for color in Color::ALL {
        for kind in Kind::ALL {
            let piece = Piece::new(color, kind);
            n += (from.bitboard(piece) ^ to.bitboard(piece)).count();
        }
    }
    n
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
                assert_eq!(tracker.evaluate(net, &pos, &net.dense_of(&pos)), net.evaluate(&pos));
                checked += 1;
            }
            if i % 17 == 0 {
                assert_eq!(tracker.evaluate(net, &far, &net.dense_of(&far)), net.evaluate(&far));
            }
        }
        assert!(checked > 200, "{checked}");
    }
}
