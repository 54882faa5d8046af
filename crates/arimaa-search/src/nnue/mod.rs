//! A learned evaluation (NNUE): piece-square inputs seen from each side, a
//! first layer kept as an accumulator per side, one quantised output layer.
//!
//! Inputs: for the side whose view it is, each piece as its state × (own or
//! enemy) × kind × square, the board flipped for silver so that every view
//! sees its own goal at the top: 2,304 features, of which a position sets
//! one per piece. The state ([`State`]) is what the piece's neighbours make
//! of it: free, next to a stronger enemy with a friend beside it, or
//! frozen. A sum of piece-square weights cannot tell a frozen horse from a
//! free one, and sharp's evaluation weighs that difference most (fitted to
//! sharp's static scores, the states cut the held-out error on game
//! positions by a fifth: docs/results.md). The first layer's sum for a view
//! is the [`Accumulator`]; a step changes a few features (its own piece's
//! and its neighbours' states), so the search can update it instead of
//! summing again. The output layer reads the side to move's accumulator and
//! the other's (clipped to 0..1) and gives centi-rabbits from the side to
//! move's point of view.
//!
//! The layout and the quantisation are declared here once: the trainer
//! (`arimaa-tuning`'s `nnue`) computes the same features in floating point
//! and writes the [`Network`] bytes this module reads.

mod accumulator;
mod file;

pub use accumulator::{Accumulator, Tracker};
pub use file::NetError;

use arimaa_core::{Bitboard, Color, Kind, Piece, Position, Square};
use std::sync::LazyLock;

/// What its neighbours make of a piece.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum State {
    /// No stronger enemy next to it.
    Free = 0,
    /// Next to a stronger enemy, with a friend beside it (so it can move).
    Threatened = 1,
    /// Next to a stronger enemy and to no friend: it cannot move.
    Frozen = 2,
}

impl State {
    /// Every state, in index order.
    pub const ALL: [State; 3] = [State::Free, State::Threatened, State::Frozen];
}

/// Features per view: 3 states × 2 owners × 6 kinds × 64 squares.
pub const INPUTS: usize = State::ALL.len() * 768;

/// The squares of each piece in each state, by [`plane`]: what the
/// features of a position are made of, and what an update compares.
pub type Planes = [Bitboard; PLANES];

/// States × colours × kinds.
pub const PLANES: usize = State::ALL.len() * 12;

/// The index in [`Planes`] of `piece` in `state`.
#[inline]
#[must_use]
pub fn plane(piece: Piece, state: State) -> usize {
    (state as usize * 2 + piece.color.index()) * 6 + piece.kind.index()
}

/// The squares of every piece of `pos` in each state.
pub fn planes(pos: &Position) -> Planes {
    let mut out = [Bitboard::EMPTY; PLANES];
    for color in Color::ALL {
        let threatened = pos.threatened(color);
        let frozen = pos.frozen(color);
        let by_state = [!threatened, threatened & !frozen, frozen];
        for kind in Kind::ALL {
            let piece = Piece::new(color, kind);
            for state in State::ALL {
                out[plane(piece, state)] = pos.bitboard(piece) & by_state[state as usize];
            }
        }
    }
    out
}

/// Quantisation of the first layer: a float weight `w` is stored as
/// `round(w × QA)`, and the clipped activation 1.0 is `QA`.
pub const QA: i32 = 255;

/// Quantisation of the output layer's weights.
pub const QB: i32 = 64;

/// Centi-rabbits per unit of the float network's output: the network is
/// trained in rabbits, the search counts in centi-rabbits.
pub const OUTPUT_SCALE: i32 = 100;

/// The input feature of `piece` on `sq` in `state`, in `view`'s accumulator.
#[inline]
#[must_use]
pub fn feature(view: Color, piece: Piece, state: State, sq: Square) -> usize {
    let owner = usize::from(piece.color != view);
    let sq = match view {
        Color::Gold => sq,
        Color::Silver => sq.flip_rank(),
    };
    ((state as usize * 2 + owner) * 6 + piece.kind.index()) * 64 + sq.index()
}

/// Each plane's piece and state, by its index (the inverse of [`plane`]).
pub(crate) fn plane_piece(index: usize) -> (Piece, State) {
    let color = Color::ALL[index / 6 % 2];
    (Piece::new(color, Kind::ALL[index % 6]), State::ALL[index / 12])
}

/// The features of `planes` in `view`'s accumulator.
fn plane_features(planes: &Planes, view: Color) -> impl Iterator<Item = usize> + '_ {
    planes.iter().enumerate().flat_map(move |(i, bb)| {
        let (piece, state) = plane_piece(i);
        bb.iter().map(move |sq| feature(view, piece, state, sq))
    })
}

/// The features a position sets in `view`'s accumulator.
pub fn features(pos: &Position, view: Color) -> impl Iterator<Item = usize> {
    let planes = planes(pos);
    let list: Vec<usize> = plane_features(&planes, view).collect();
    list.into_iter()
}

/// What the network's score is added to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Base {
    /// The network is the whole evaluation.
    Alone,
    /// The network corrects the hand-made evaluation: the score is the hand
    /// evaluation plus the network's output.
    OnHand,
}

/// A quantised network.
#[derive(Clone)]
pub struct Network {
    hidden: usize,
    base: Base,
    /// `INPUTS` rows of `hidden` weights.
    input_weights: Vec<i16>,
    input_bias: Vec<i16>,
    /// The side to move's `hidden` weights, then the other side's.
    output_weights: Vec<i16>,
    /// In units of `QA × QB`.
    output_bias: i32,
}

impl std::fmt::Debug for Network {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Network")
            .field("hidden", &self.hidden)
            .field("base", &self.base)
            .finish_non_exhaustive()
    }
}

/// The network built into the engine (`net.bin`, written by `arimaa learn`).
pub static EMBEDDED: LazyLock<Network> =
    LazyLock::new(|| Network::from_bytes(include_bytes!("net.bin")).expect("the embedded network is valid"));

impl Network {
    /// Width of the first layer (per view).
    #[must_use]
    pub fn hidden(&self) -> usize {
        self.hidden
    }

    /// What the score is added to.
    #[must_use]
    pub fn base(&self) -> Base {
        self.base
    }

    /// The first layer's sums for `pos`, both views, from scratch.
    #[must_use]
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        self.refresh_planes(&planes(pos))
    }

    /// The first layer's sums for a position's [`planes`].
    pub(crate) fn refresh_planes(&self, planes: &Planes) -> Accumulator {
        let mut acc = Accumulator::new(self);
        for view in Color::ALL {
            for f in plane_features(planes, view) {
                acc.add(self, view, f);
            }
        }
        acc
    }

    /// The output for `acc` with `side` to move, in centi-rabbits.
    #[must_use]
    pub fn output(&self, acc: &Accumulator, side: Color) -> i32 {
        let (own, other) = self.output_weights.split_at(self.hidden);
        let sum = dot_clipped(acc.view(side), own) + dot_clipped(acc.view(side.opponent()), other);
        (sum + self.output_bias) * OUTPUT_SCALE / (QA * QB)
    }

    /// The output for the features of the side to move's view and of the
    /// other's, given as lists (the trainer measures the engine's integer
    /// network on its samples this way).
    #[must_use]
    pub fn output_of_features(&self, mover: &[u16], other: &[u16]) -> i32 {
        let mut acc = Accumulator::new(self);
        for (view, list) in [(Color::Gold, mover), (Color::Silver, other)] {
            for &f in list {
                acc.add(self, view, usize::from(f));
            }
        }
        self.output(&acc, Color::Gold)
    }

    /// The network's score of `pos` from the side to move's point of view,
    /// as at the start of its turn (the caller accounts for steps used).
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos.side())
    }
}

/// Σ clamp(a, 0, QA) × w, in i32 (at most 2 × 1024 × 255 × 32767 fits for
/// the widths used: the trainer keeps |w| × QB well below that).
#[inline]
fn dot_clipped(acc: &[i16], weights: &[i16]) -> i32 {
    acc.iter()
        .zip(weights)
        .map(|(&a, &w)| i32::from(a.clamp(0, QA as i16)) * i32::from(w))
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_core::{parse_position, Kind};

    #[test]
    fn features_are_distinct_and_colour_symmetric() {
        let g = Piece::new(Color::Gold, Kind::Rabbit);
        let s = Piece::new(Color::Silver, Kind::Rabbit);
        let a2 = Square::parse("a2").unwrap();
        let a7 = Square::parse("a7").unwrap();
        // Gold's rabbit on a2 seen by gold is silver's rabbit on a7 seen by silver.
        for state in State::ALL {
            assert_eq!(feature(Color::Gold, g, state, a2), feature(Color::Silver, s, state, a7));
            assert_ne!(feature(Color::Gold, g, state, a2), feature(Color::Gold, s, state, a7));
        }
        assert_ne!(
            feature(Color::Gold, g, State::Free, a2),
            feature(Color::Gold, g, State::Frozen, a2)
        );
        let pos = parse_position("g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]").unwrap();
        let mut seen: Vec<usize> = features(&pos, Color::Gold).collect();
        assert_eq!(seen.len(), 32);
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 32);
        assert!(seen.iter().all(|&f| f < INPUTS));
    }

    #[test]
    fn each_piece_is_in_the_state_its_neighbours_make() {
        // Gold's rabbit on b2 is frozen by silver's dog on b3 (no friend
        // beside it); gold's cat on e2 is next to silver's horse on e3 with
        // a friend (the rabbit on d2) beside it; the rest are free.
        let board = [" ".repeat(40), " d  h   ".into(), " R RC   ".into(), "       E".into()].concat();
        let pos = parse_position(&format!("g [{board}]")).unwrap();
        let at = |s: &str| Square::parse(s).unwrap();
        let planes = planes(&pos);
        let state_of = |sq: Square| {
            let piece = pos.piece_at(sq).unwrap();
            State::ALL
                .into_iter()
                .find(|&st| planes[plane(piece, st)].has(sq))
                .unwrap()
        };
        assert_eq!(state_of(at("b2")), State::Frozen);
        assert_eq!(state_of(at("e2")), State::Threatened);
        assert_eq!(state_of(at("d2")), State::Free);
        assert_eq!(state_of(at("b3")), State::Free);
        assert_eq!(state_of(at("e3")), State::Free);
        assert_eq!(state_of(at("h1")), State::Free);
        // Every piece in exactly one plane, and each plane's inverse names it.
        let total: u32 = planes.iter().map(|b| b.count()).sum();
        assert_eq!(total, pos.occupied().count());
        for (i, bb) in planes.iter().enumerate() {
            let (piece, state) = plane_piece(i);
            assert_eq!(plane(piece, state), i);
            assert!(bb.iter().all(|sq| pos.piece_at(sq) == Some(piece)));
        }
    }

    #[test]
    fn the_embedded_network_scores_mirrored_positions_alike() {
        let net = &*EMBEDDED;
        let pos = parse_position("s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]").unwrap();
        let m = pos.mirror();
        assert_eq!(net.evaluate(&pos), net.evaluate(&m));
    }
}
