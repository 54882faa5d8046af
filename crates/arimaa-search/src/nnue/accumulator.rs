//! The first layer's sums, one row per view, kept up to date step by step.

use super::{feature, pieces, Block, Network};
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

    /// `piece` on `sq` enters `block` (arrives, or becomes threatened or
    /// frozen).
    pub fn put(&mut self, net: &Network, block: Block, piece: Piece, sq: Square) {
        for view in Color::ALL {
            self.add(net, view, feature(block, view, piece, sq));
        }
    }

    /// `piece` on `sq` leaves `block` (departs or is captured, or is no
    /// longer threatened or frozen).
    pub fn remove(&mut self, net: &Network, block: Block, piece: Piece, sq: Square) {
        for view in Color::ALL {
            self.sub(net, view, feature(block, view, piece, sq));
        }
    }
}

/// An accumulator that follows the positions a search evaluates, in
/// whatever order they come: it keeps the board it last summed and updates
/// by the features that differ. Consecutive leaves of a depth-first search
/// are a few steps apart, so an update touches a handful of rows where a
/// refresh touches one per feature; and no make or unmake of the tree needs
/// to know about it (a step also freezes or frees pieces it never moved,
/// which a diff of the two boards' features sees and a step's squares
/// would not).
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
    /// [`Network::evaluate`]), with the accumulator brought to `pos`.
    pub fn evaluate(&mut self, net: &Network, pos: &Position) -> i32 {
        self.sync(net, pos);
        net.output(&self.acc, pos.side())
    }

    /// The accumulator for `pos`.
    pub fn sync(&mut self, net: &Network, pos: &Position) -> &Accumulator {
        let Some(board) = self.board.filter(|b| changes(b, pos) <= pos.occupied().count()) else {
            self.acc = net.refresh(pos);
            self.board = Some(*pos);
            return &self.acc;
        };
        for block in Block::ALL {
            for piece in pieces() {
                let (old, new) = (block.squares(&board, piece), block.squares(pos, piece));
                for sq in old & !new {
                    self.acc.remove(net, block, piece, sq);
                }
                for sq in new & !old {
                    self.acc.put(net, block, piece, sq);
                }
            }
        }
        self.board = Some(*pos);
        &self.acc
    }
}

/// Squares whose piece differs between `from` and `to`: what an update
/// would touch, about (a piece that moves may also change its blocks).
fn changes(from: &Position, to: &Position) -> u32 {
    pieces()
        .map(|piece| (from.bitboard(piece) ^ to.bitboard(piece)).count())
        .sum()
}

#[cfg(test)]
mod tests {
    use super::super::EMBEDDED;
    use arimaa_core::{parse_position, Position, TurnGen};

    /// Every step of every turn of a few positions: the tracker's
    /// accumulator, updated from the position before, is the one summed
    /// from scratch (captures, pushes and pulls, freezing and unfreezing).
    #[test]
    fn updates_by_step_match_a_refresh() {
        let net = &*EMBEDDED;
        let start = parse_position("s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]").unwrap();
        let mut checked = 0;
        for turn in TurnGen::new().turns(&start).into_iter().take(300) {
            let mut pos: Position = start;
            let mut tracker = super::Tracker::new(net);
            tracker.sync(net, &pos);
            for step in turn.steps.iter() {
                pos.make_step(step);
                assert_eq!(*tracker.sync(net, &pos), net.refresh(&pos));
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
