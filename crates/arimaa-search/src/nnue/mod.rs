//! A learned evaluation (NNUE): piece-square inputs seen from each side, a
//! first layer kept as an accumulator per side, one quantised output layer.
//!
//! Inputs: for the side whose view it is, each piece as (own or enemy) ×
//! kind × square, the board flipped for silver so that every view sees its
//! own goal at the top: 768 features, of which a position sets one per
//! piece. The first layer's sum for a view is the [`Accumulator`]; a step
//! changes two or three features, so the search can update it instead of
//! summing again. The output layer reads the side to move's accumulator and
//! the other's (clipped to 0..1) and gives centi-rabbits from the side to
//! move's point of view.
//!
//! A network may also read the hand evaluation's features (its
//! [`crate::eval::Trace`], [`DENSE`] numbers) as dense inputs: each adds its
//! value times a row of weights to the first `dense_width` first-layer sums
//! of both views before the clip. They are not kept in the accumulator (they
//! change with the whole board, not by squares): the output adds them, in
//! floating point, when it is asked for. A slice of the layer rather than
//! all of it because they are paid at every leaf: at 256 units the dense
//! rows took a third of the search's time.
//!
//! The layout and the quantisation are declared here once: the trainer
//! (`arimaa-tuning`'s `nnue`) computes the same features in floating point
//! and writes the [`Network`] bytes this module reads.

mod accumulator;
mod file;

pub use accumulator::{Accumulator, Tracker};
pub use file::NetError;

use crate::eval::trace;
use crate::params::weights::COUNT;
use arimaa_core::{Color, Piece, Position, Square};
use std::sync::LazyLock;

/// Features per view: 2 owners × 6 kinds × 64 squares.
pub const INPUTS: usize = 768;

/// Dense inputs of a network that reads them: one per hand-evaluation
/// weight, its feature as [`crate::eval::trace`] gives it.
pub const DENSE: usize = COUNT;

/// The dense inputs given to a network that does not read them.
pub const NO_DENSE: [f64; DENSE] = [0.0; DENSE];

/// Quantisation of the first layer: a float weight `w` is stored as
/// `round(w × QA)`, and the clipped activation 1.0 is `QA`.
pub const QA: i32 = 255;

/// Quantisation of the output layer's weights.
pub const QB: i32 = 64;

/// Centi-rabbits per unit of the float network's output: the network is
/// trained in rabbits, the search counts in centi-rabbits.
pub const OUTPUT_SCALE: i32 = 100;

/// The input feature of `piece` on `sq` in `view`'s accumulator.
#[inline]
#[must_use]
pub fn feature(view: Color, piece: Piece, sq: Square) -> usize {
    let owner = usize::from(piece.color != view);
    let sq = match view {
        Color::Gold => sq,
        Color::Silver => sq.flip_rank(),
    };
    (owner * 6 + piece.kind.index()) * 64 + sq.index()
}

/// The features a position sets in `view`'s accumulator.
pub fn features(pos: &Position, view: Color) -> impl Iterator<Item = usize> + '_ {
    pos.occupied()
        .iter()
        .filter_map(move |sq| pos.piece_at(sq).map(|p| feature(view, p, sq)))
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
    /// Empty, or the dense inputs' first-layer weights in activation units
    /// (1.0 is the clip's top): [`DENSE`] rows of `dense_width` for the side
    /// to move's view, then as many for the other's.
    dense_weights: Vec<f32>,
    /// How many of the first units the dense inputs feed (0 without them).
    dense_width: usize,
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

    /// Whether the network reads the hand evaluation's features: then
    /// [`Network::output`] must be given them.
    #[must_use]
    pub fn reads_dense(&self) -> bool {
        !self.dense_weights.is_empty()
    }

    /// How many of the first units the dense inputs feed (0 without them).
    #[must_use]
    pub fn dense_width(&self) -> usize {
        self.dense_width
    }

    /// The first layer's sums for `pos`, both views, from scratch.
    #[must_use]
    pub fn refresh(&self, pos: &Position) -> Accumulator {
        let mut acc = Accumulator::new(self);
        for view in Color::ALL {
            for f in features(pos, view) {
                acc.add(self, view, f);
            }
        }
        acc
    }

    /// The output for `acc` with `side` to move, in centi-rabbits; `dense`
    /// is the position's hand-evaluation features when the network
    /// [reads them](Network::reads_dense), else ignored.
    #[must_use]
    pub fn output(&self, acc: &Accumulator, side: Color, dense: &[f64; DENSE]) -> i32 {
        let (own, other) = self.output_weights.split_at(self.hidden);
        if self.reads_dense() {
            let sum = self.dot_dense(acc.view(side), own, dense, 0)
                + self.dot_dense(acc.view(side.opponent()), other, dense, 1);
            let out = sum + self.output_bias as f32 / (QA * QB) as f32;
            return (out * OUTPUT_SCALE as f32).round() as i32;
        }
        let sum = dot_clipped(acc.view(side), own) + dot_clipped(acc.view(side.opponent()), other);
        (sum + self.output_bias) * OUTPUT_SCALE / (QA * QB)
    }

    /// One view's share of the output with the dense inputs added to its
    /// first `dense_width` sums, in rabbits: those units in floating point,
    /// the rest as without dense inputs.
    fn dot_dense(&self, acc: &[i16], weights: &[i16], dense: &[f64; DENSE], view: usize) -> f32 {
        /// Units summed at once: a small buffer on the stack (this runs at
        /// every leaf; zeroing one as wide as the widest layer cost more
        /// than the sums at a 32-unit slice).
        const CHUNK: usize = 32;
        let width = self.dense_width;
        let rows = &self.dense_weights[view * DENSE * width..][..DENSE * width];
        let mut sliced = 0.0f32;
        for start in (0..width).step_by(CHUNK) {
            let len = CHUNK.min(width - start);
            let mut pre = [0.0f32; CHUNK];
            let pre = &mut pre[..len];
            pre.iter_mut()
                .zip(&acc[start..])
                .for_each(|(p, &a)| *p = f32::from(a) / QA as f32);
            for (&x, row) in dense.iter().zip(rows.chunks_exact(width)) {
                if x != 0.0 {
                    let x = x as f32;
                    pre.iter_mut().zip(&row[start..]).for_each(|(p, w)| *p += w * x);
                }
            }
            sliced += pre
                .iter()
                .zip(&weights[start..])
                .map(|(p, &w)| p.clamp(0.0, 1.0) * f32::from(w))
                .sum::<f32>();
        }
        let rest = dot_clipped(&acc[width..], &weights[width..]);
        sliced / QB as f32 + rest as f32 / (QA * QB) as f32
    }

    /// The output for the features of the side to move's view and of the
    /// other's, given as lists (the trainer measures the engine's integer
    /// network on its samples this way).
    #[must_use]
    pub fn output_of_features(&self, mover: &[u16], other: &[u16], dense: &[f64; DENSE]) -> i32 {
        let mut acc = Accumulator::new(self);
        for (view, list) in [(Color::Gold, mover), (Color::Silver, other)] {
            for &f in list {
                acc.add(self, view, usize::from(f));
            }
        }
        self.output(&acc, Color::Gold, dense)
    }

    /// The network's score of `pos` from the side to move's point of view,
    /// as at the start of its turn (the caller accounts for steps used).
    #[must_use]
    pub fn evaluate(&self, pos: &Position) -> i32 {
        self.output(&self.refresh(pos), pos.side(), &self.dense_of(pos))
    }

    /// The dense inputs of `pos` when the network reads them (zeros else:
    /// the trace costs as much as the hand evaluation).
    #[must_use]
    pub fn dense_of(&self, pos: &Position) -> [f64; DENSE] {
        if self.reads_dense() {
            trace(pos).features
        } else {
            NO_DENSE
        }
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
        assert_eq!(feature(Color::Gold, g, a2), feature(Color::Silver, s, a7));
        assert_ne!(feature(Color::Gold, g, a2), feature(Color::Gold, s, a7));
        let pos = parse_position("g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]").unwrap();
        let mut seen: Vec<usize> = features(&pos, Color::Gold).collect();
        assert_eq!(seen.len(), 32);
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), 32);
        assert!(seen.iter().all(|&f| f < INPUTS));
    }

    #[test]
    fn the_embedded_network_scores_mirrored_positions_alike() {
        let net = &*EMBEDDED;
        let pos = parse_position("s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]").unwrap();
        let m = pos.mirror();
        assert_eq!(net.evaluate(&pos), net.evaluate(&m));
    }
}
