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
    /// The dense inputs with a nonzero weight (the trainer leaves the rows
    /// of inputs it was not given at zero), the only ones summed.
    live_dense: Vec<usize>,
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

    /// Whether `index` is the only dense input the network reads (none of
    /// the others has a nonzero weight): the hand evaluation's other
    /// features need not be traced.
    #[must_use]
    pub fn reads_only(&self, index: usize) -> bool {
        self.live_dense == [index]
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
        if self.reads_dense() {
            return self.dense_output(acc, side, dense, None).0;
        }
        let (own, other) = self.output_weights.split_at(self.hidden);
        let sum = dot_clipped(acc.view(side), own) + dot_clipped(acc.view(side.opponent()), other);
        (sum + self.output_bias) * OUTPUT_SCALE / (QA * QB)
    }

    /// Bounds on [`Network::output`] when dense input `index` is only known
    /// to lie in `low..=high` (`dense[index]` is ignored): `(low, high)` in
    /// centi-rabbits. Each first-layer unit is monotone in one input, so its
    /// share of the output is bounded by its values at the two ends. With
    /// `low == high` both are the output at that value, summed in an order
    /// of its own (the open input last): a caller comparing bounds with an
    /// exact score takes both from here.
    #[must_use]
    pub fn output_range(
        &self,
        acc: &Accumulator,
        side: Color,
        dense: &[f64; DENSE],
        index: usize,
        range: (f64, f64),
    ) -> (i32, i32) {
        if !self.reads_dense() {
            let out = self.output(acc, side, dense);
            return (out, out);
        }
        self.dense_output(acc, side, dense, Some((index, range)))
    }

    /// [`Network::output`] or [`Network::output_range`] of a network with
    /// dense inputs.
    fn dense_output(
        &self,
        acc: &Accumulator,
        side: Color,
        dense: &[f64; DENSE],
        open: Option<(usize, (f64, f64))>,
    ) -> (i32, i32) {
        let (own, other) = self.output_weights.split_at(self.hidden);
        let bias = self.output_bias as f32 / QA as f32;
        let (mut low, mut high) = (bias, bias);
        for (view, color, weights) in [(0, side, own), (1, side.opponent(), other)] {
            let (lo, hi) = self.dense_share(acc.view(color), weights, dense, view, open);
            low += lo;
            high += hi;
        }
        let scale = OUTPUT_SCALE as f32 / QB as f32;
        ((low * scale).floor() as i32, (high * scale).floor() as i32)
    }

    /// One view's share of the output, in output-weight units (an activation
    /// of 1 times a weight of 1; `QB` of them a rabbit), with the dense inputs added to its
    /// first `dense_width` sums in floating point; the rest of the units as
    /// without dense inputs. With `open = (index, (low, high))`, the least
    /// and the most it can be with input `index` in `low..=high`: every
    /// operation on a unit's sum is monotone, so its two ends bound it, and
    /// the sums run in a fixed order, so that a point range gives the same
    /// score whatever the range's callers compare it with.
    fn dense_share(
        &self,
        acc: &[i16],
        weights: &[i16],
        dense: &[f64; DENSE],
        view: usize,
        open: Option<(usize, (f64, f64))>,
    ) -> (f32, f32) {
        /// Units summed at once, in fixed-size arrays on the stack (zero
        /// past the slice) that the compiler turns into vector operations.
        const CHUNK: usize = 32;
        let width = self.dense_width;
        let rows = &self.dense_weights[view * DENSE * width..][..DENSE * width];
        let (mut low, mut high) = ([0.0f32; 8], [0.0f32; 8]);
        for start in (0..width).step_by(CHUNK) {
            let len = CHUNK.min(width - start);
            let (mut pre, mut out, mut column) = ([0.0f32; CHUNK], [0.0f32; CHUNK], [0.0f32; CHUNK]);
            for u in 0..len {
                pre[u] = f32::from(acc[start + u]) * (QA as f32).recip();
                out[u] = f32::from(weights[start + u]);
            }
            for &i in &self.live_dense {
                let x = dense[i];
                if x != 0.0 && open.is_none_or(|(index, _)| i != index) {
                    let x = x as f32;
                    let row = &rows[i * width + start..][..len];
                    pre.iter_mut().zip(row).for_each(|(p, w)| *p += w * x);
                }
            }
            // Groups of eight into eight running sums, with selects rather
            // than `f32::max` (whose NaN rule keeps them scalar).
            let clip = |v: f32| {
                let v = if v > 0.0 { v } else { 0.0 };
                if v < 1.0 {
                    v
                } else {
                    1.0
                }
            };
            match open {
                None => {
                    for (p8, w8) in pre.chunks_exact(8).zip(out.chunks_exact(8)) {
                        for ((sum, &p), &w) in low.iter_mut().zip(p8).zip(w8) {
                            *sum += clip(p) * w;
                        }
                    }
                }
                Some((index, (from, to))) => {
                    column[..len].copy_from_slice(&rows[index * width + start..][..len]);
                    let (from, to) = (from as f32, to as f32);
                    let groups = pre.chunks_exact(8).zip(out.chunks_exact(8)).zip(column.chunks_exact(8));
                    for ((p8, w8), c8) in groups {
                        for (l, ((&p, &w), &c)) in p8.iter().zip(w8).zip(c8).enumerate() {
                            let a = clip(p + c * from) * w;
                            let b = clip(p + c * to) * w;
                            low[l] += if a < b { a } else { b };
                            high[l] += if a < b { b } else { a };
                        }
                    }
                }
            }
        }
        if open.is_none() {
            high = low;
        }
        let rest = dot_clipped(&acc[width..], &weights[width..]) as f32 / QA as f32;
        (low.iter().sum::<f32>() + rest, high.iter().sum::<f32>() + rest)
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
        self.evaluate_with(pos, &self.dense_of(pos))
    }

    /// [`Network::evaluate`] with the dense inputs `dense`.
    #[must_use]
    pub fn evaluate_with(&self, pos: &Position, dense: &[f64; DENSE]) -> i32 {
        self.output(&self.refresh(pos), pos.side(), dense)
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
pub(crate) mod tests {
    use super::*;
    use arimaa_core::{parse_position, Kind};

    /// A small network whose dense inputs feed its first `width` units,
    /// its weights varied.
    pub(crate) fn dense_network(hidden: usize, width: usize) -> Network {
        let w = |n: usize, m: i32| (0..n).map(|i| ((i as i32 * 37) % m - m / 2) as i16).collect();
        let dense = (0..2 * DENSE * width)
            .map(|i| ((i * 13) % 7) as f32 / 50.0 - 0.06)
            .collect();
        Network::from_parts(
            Base::OnHand,
            w(INPUTS * hidden, 61),
            w(hidden, 200),
            w(2 * hidden, 90),
            1234,
            dense,
            width,
        )
    }

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

    /// With one dense input known only to lie in a range, the output at any
    /// value of it lies within `output_range`, which is exact for a point.
    #[test]
    fn an_open_dense_input_is_bounded_by_the_range_ends() {
        let net = dense_network(8, 4);
        let pos = parse_position("s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]").unwrap();
        let acc = net.refresh(&pos);
        let mut dense = net.dense_of(&pos);
        let index = 5;
        let (lo, hi) = net.output_range(&acc, pos.side(), &dense, index, (-3.0, 12.0));
        let mut seen = Vec::new();
        for i in 0..=60 {
            dense[index] = -3.0 + f64::from(i) * 0.25;
            let (a, b) = net.output_range(&acc, pos.side(), &dense, index, (dense[index], dense[index]));
            assert_eq!(a, b, "a point is exact");
            assert!(lo <= a && a <= hi, "{lo} {a} {hi} at {}", dense[index]);
            // The plain output sums the same inputs in another order.
            let out = net.output(&acc, pos.side(), &dense);
            assert!((out - a).abs() <= 1, "{out} against {a}");
            seen.push(a);
        }
        assert!(seen.iter().min() < seen.iter().max(), "the input moves the output");
    }

    #[test]
    fn the_embedded_network_scores_mirrored_positions_alike() {
        let net = &*EMBEDDED;
        let pos = parse_position("s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]").unwrap();
        let m = pos.mirror();
        assert_eq!(net.evaluate(&pos), net.evaluate(&m));
    }
}
