//! Static evaluation, in centi-rabbits from the side to move's point of view.
//!
//! One Arimaa concept a file: material (HarLog), trap control, placement
//! (elephant, camel, rabbits), pieces in danger over the opponent's whole
//! turn (`danger`), rabbits' free distance to goal (`rabbits`), frames and
//! hostages (`binds`), the exact two-step captures of `crate::threats`, and
//! the mover's whole-turn captures of `crate::turn_captures`.
//!
//! Every term is a weight (a [`Weight`]) times a feature of the position, so
//! the same code, generic over [`Terms`], gives the score (weights applied)
//! and the [`Trace`] that fitting needs (each weight's feature, summed over
//! both sides). It is colour-symmetric by construction: every side term is
//! computed per colour with the board seen from that colour's side.

mod binds;
mod danger;
pub mod material;
mod placement;
mod rabbits;
mod traps;

pub use danger::capture_steps;
pub(crate) use danger::{NEAR_TRAPS, TRAPS_NEAR};
pub use rabbits::goal_distance;

use crate::params::weights::{Weight, Weights, COUNT};
use crate::threats::best_capture;
use crate::turn_captures::{best_turn_capture, turn_capture_bounds};
use arimaa_core::{Bitboard, Color, Kind, Pending, Position};
use material::{Counts, Material};

/// Rough value of each kind, for the positional terms that predate the
/// marginal HarLog values, indexed by `Kind::index()`.
const PIECE_VALUE: [i32; 6] = [100, 150, 200, 300, 500, 800];

/// `PIECE_VALUE` of `kind`: a rabbit counts as 100.
fn piece_value(kind: Kind) -> i32 {
    PIECE_VALUE[kind.index()]
}

/// Where the terms go: a score, or a trace of features.
pub trait Terms {
    /// Adds `value / div` times `weight`.
    fn add(&mut self, weight: Weight, value: i32, div: i32);
    /// Adds an amount no weight scales (material, fixed shares).
    fn fixed(&mut self, value: i32);
    /// False when `weight` cannot change the result (a zero weight), so its
    /// feature need not be computed.
    fn wants(&self, weight: Weight) -> bool;
}

/// The weighted sum: the evaluation the search uses.
#[derive(Debug)]
struct Score<'a> {
    weights: &'a [i32; COUNT],
    sum: i32,
}

impl Terms for Score<'_> {
    #[inline]
    fn add(&mut self, weight: Weight, value: i32, div: i32) {
        self.sum += self.weights[weight as usize] * value / div;
    }

    #[inline]
    fn fixed(&mut self, value: i32) {
        self.sum += value;
    }

    #[inline]
    fn wants(&self, weight: Weight) -> bool {
        self.weights[weight as usize] != 0
    }
}

/// Each weight's feature for one position (side to move's point of view):
/// the evaluation is `fixed + Σ weight × feature`, up to integer rounding.
#[derive(Clone, Debug)]
pub struct Trace {
    /// Feature of each [`Weight`], by its index.
    pub features: [f64; COUNT],
    /// The part no weight scales.
    pub fixed: f64,
}

impl Terms for Trace {
    fn add(&mut self, weight: Weight, value: i32, div: i32) {
        self.features[weight as usize] += f64::from(value) / f64::from(div);
    }

    fn fixed(&mut self, value: i32) {
        self.fixed += f64::from(value);
    }

    fn wants(&self, _: Weight) -> bool {
        true
    }
}

impl Trace {
    /// The evaluation this trace gives with `weights` (in floating point:
    /// no per-term rounding).
    #[must_use]
    pub fn score(&self, weights: &Weights) -> f64 {
        self.fixed
            + self
                .features
                .iter()
                .zip(weights.values())
                .map(|(f, &w)| f * f64::from(w))
                .sum::<f64>()
    }
}

/// The evaluation from the side to move's point of view, with `weights`.
#[must_use]
pub fn evaluate(pos: &Position, weights: &Weights) -> i32 {
    let mut score = Score {
        weights: weights.values(),
        sum: 0,
    };
    terms(pos, &mut score);
    score.sum
}

/// The evaluation with `weights` and every weight's feature, in one pass:
/// what a network reading the features as inputs needs beside the score.
#[must_use]
pub fn evaluate_and_trace(pos: &Position, weights: &Weights) -> (i32, Trace) {
    score_and_trace(pos, weights, false)
}

/// The index of the mover's whole-turn capture among the features: the one
/// whose search costs as much as all the others, so that the search may
/// leave it open (see [`evaluate_and_trace_deferred`]).
pub const TURN_CAPTURE: usize = Weight::capture_turn_16ths as usize;

/// [`evaluate_and_trace`] with the whole-turn capture's feature left at 0,
/// for [`turn_capture_feature`] or its bounds to fill in; `None` when
/// `weights` give it a weight (the score would need it).
#[must_use]
pub fn evaluate_and_trace_deferred(pos: &Position, weights: &Weights) -> Option<(i32, Trace)> {
    (weights.values()[TURN_CAPTURE] == 0).then(|| score_and_trace(pos, weights, true))
}

/// The score and the trace, the whole-turn capture left out when `defer`.
fn score_and_trace(pos: &Position, weights: &Weights, defer: bool) -> (i32, Trace) {
    let mut both = Both {
        score: Score {
            weights: weights.values(),
            sum: 0,
        },
        trace: Trace {
            features: [0.0; COUNT],
            fixed: 0.0,
        },
        defer_turn_capture: defer,
    };
    terms(pos, &mut both);
    (both.score.sum, both.trace)
}

/// The whole-turn capture's feature, as [`trace`] gives it.
#[must_use]
pub fn turn_capture_feature(pos: &Position) -> f64 {
    let material = Counts::of(pos).material();
    let them = pos.side().opponent();
    let value = best_turn_capture(pos, |k| material.loss(them, k), |k| material.loss(pos.side(), k));
    f64::from(value) / 16.0
}

/// Bounds on [`turn_capture_feature`] without its search (see
/// [`turn_capture_bounds`]): equal when they are its value.
#[must_use]
pub fn turn_capture_feature_bounds(pos: &Position) -> (f64, f64) {
    let material = Counts::of(pos).material();
    let them = pos.side().opponent();
    let (low, high) = turn_capture_bounds(pos, |k| material.loss(them, k), |k| material.loss(pos.side(), k));
    (f64::from(low) / 16.0, f64::from(high) / 16.0)
}

/// A score and a trace at once: every feature is computed (the trace wants
/// them all, the whole-turn capture's unless deferred), each weighed as
/// [`evaluate`] weighs it.
struct Both<'a> {
    score: Score<'a>,
    trace: Trace,
    defer_turn_capture: bool,
}

impl Terms for Both<'_> {
    fn add(&mut self, weight: Weight, value: i32, div: i32) {
        self.score.add(weight, value, div);
        self.trace.add(weight, value, div);
    }

    fn fixed(&mut self, value: i32) {
        self.score.fixed(value);
        self.trace.fixed(value);
    }

    fn wants(&self, weight: Weight) -> bool {
        !(self.defer_turn_capture && weight == Weight::capture_turn_16ths)
    }
}

/// Every weight's feature in `pos`, for fitting.
#[must_use]
pub fn trace(pos: &Position) -> Trace {
    let mut t = Trace {
        features: [0.0; COUNT],
        fixed: 0.0,
    };
    terms(pos, &mut t);
    t
}

/// What several terms of one position share, computed once.
struct Shared {
    /// Each side's pieces next to a stronger enemy, and of those the frozen.
    threatened: [Bitboard; 2],
    frozen: [Bitboard; 2],
    /// HarLog balance and marginal values (the danger terms ask per victim).
    material: Material,
}

impl Shared {
    fn new(pos: &Position) -> Shared {
        let threatened = [pos.threatened(Color::Gold), pos.threatened(Color::Silver)];
        let frozen = [Color::Gold, Color::Silver].map(|c| {
            let own = pos.color_bb(c);
            threatened[c.index()] & !own.neighbors()
        });
        Shared {
            material: Counts::of(pos).material(),
            threatened,
            frozen,
        }
    }

    fn frozen(&self, color: Color) -> Bitboard {
        self.frozen[color.index()]
    }

    fn threatened(&self, color: Color) -> Bitboard {
        self.threatened[color.index()]
    }

    /// What losing a piece of `kind` costs `color` (see `Counts::loss`).
    fn loss(&self, color: Color, kind: Kind) -> i32 {
        self.material.loss(color, kind)
    }
}

fn terms<T: Terms>(pos: &Position, acc: &mut T) {
    let us = pos.side();
    let them = us.opponent();
    let steps = pos.steps_left();
    let shared = Shared::new(pos);
    acc.fixed(shared.material.balance(us));
    // The mover's steps are worth something: a quarter of the tempo each,
    // so that positions at a horizon inside a turn compare fairly with
    // turn starts (where the mover has all four).
    acc.add(Weight::tempo, i32::from(steps), 4);
    for (color, sign) in [(us, 1), (them, -1)] {
        traps::side(pos, color, sign, acc);
        placement::side(pos, color, &shared, sign, acc);
        binds::side(pos, color, shared.frozen(color), sign, acc);
    }
    let shared_ref = &shared;
    let loss = |c: Color| move |k: Kind| shared_ref.loss(c, k);
    // The mover needs two steps for a push or pull, and none may be half done.
    let mid_push = matches!(pos.pending(), Pending::Push { .. });
    if steps >= 2 && !mid_push && acc.wants(Weight::threat_mover_16ths) {
        acc.add(Weight::threat_mover_16ths, best_capture(pos, us, loss(them)), 16);
    }
    // The fewer steps the mover has left to defend, the more a threat weighs.
    let waiting = best_capture(pos, them, loss(us));
    acc.add(Weight::threat_waiting_16ths, -waiting, 16);
    acc.fixed(-waiting * [5, 3, 1, 0, 0][usize::from(steps).min(4)] / 16);
    // The same over all the steps left (approach, guard removal, two pushes).
    // The waiting side's next whole turn, measured the same way, made the
    // learned evaluation worse (docs/results.md, session 57).
    if acc.wants(Weight::capture_turn_16ths) {
        acc.add(
            Weight::capture_turn_16ths,
            best_turn_capture(pos, loss(them), loss(us)),
            16,
        );
    }
    danger::terms(pos, &shared, acc);
    rabbits::terms(pos, &shared, acc);
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use crate::params::weights::{DEFAULT, SPECS};
    use arimaa_core::parse_position;

    /// A board from eight rank strings, rank 8 first ('.' or ' ' empty).
    pub(crate) fn board(ranks: [&str; 8], side: char) -> Position {
        let text: String = ranks.concat().replace('.', " ");
        parse_position(&format!("{side} [{text}]")).expect("test board")
    }

    /// Every weight at a nonzero value, so that every term is computed.
    pub(crate) fn all_on() -> Weights {
        let mut p = DEFAULT;
        for (i, s) in SPECS.iter().enumerate() {
            if p.values()[i] == 0 {
                p = p.with(Weight::ALL[i], if s.max > 0 { s.step.max(1) } else { s.min });
            }
        }
        p
    }

    #[test]
    fn standard_position_is_even_and_the_mirror_scores_the_same_for_its_mover() {
        let p = Position::standard();
        assert_eq!(evaluate(&p, &DEFAULT), DEFAULT[Weight::tempo]);
        let mut q = p;
        q.clear_square(arimaa_core::Square::parse("d7").unwrap());
        assert!(evaluate(&q, &DEFAULT) > 0, "gold is a camel up");
        // Colours swapped and board flipped: the same score for the (swapped) side
        // to move, so the negation from gold's fixed point of view.
        let m = q.mirror();
        assert_eq!(m.side(), Color::Silver);
        assert_eq!(evaluate(&m, &DEFAULT), evaluate(&q, &DEFAULT));
    }

    #[test]
    fn the_trace_gives_the_score_up_to_rounding_and_is_colour_symmetric() {
        let params = all_on();
        let pos = board(
            [
                "r.r.rr.r", "..d.hm.r", "..c.E...", "R...r...", "...eR.d.", ".H.cD...", "R..RMRR.", "..RC..RH",
            ],
            'g',
        );
        for pos in [pos, pos.mirror()] {
            let t = trace(&pos);
            let exact = t.score(&params);
            let score = f64::from(evaluate(&pos, &params));
            // Each term rounds towards zero once: at most one unit per weight.
            assert!((exact - score).abs() <= COUNT as f64, "{exact} vs {score}");
            let nonzero = t.features.iter().filter(|f| **f != 0.0).count();
            assert!(nonzero >= 12, "a busy board lights many features: {nonzero}");
        }
        let (a, b) = (trace(&pos), trace(&pos.mirror()));
        assert_eq!(a.features, b.features);
        assert_eq!(a.fixed, b.fixed);
    }

    /// The one-pass score and trace are exactly [`evaluate`]'s score (with
    /// zero weights too, whose features `evaluate` skips) and [`trace`]'s
    /// features, after every step of many turns.
    #[test]
    fn score_and_trace_in_one_pass_are_the_two_apart() {
        let start = board(
            [
                "r.r.rr.r", "..d.hm.r", "..c.E...", "R...r...", "...eR.d.", ".H.cD...", "R..RMRR.", "..RC..RH",
            ],
            's',
        );
        let mut checked = 0;
        for turn in arimaa_core::TurnGen::new().turns(&start).into_iter().take(150) {
            let mut pos = start;
            for step in turn.steps.iter() {
                pos.make_step(step);
                for weights in [&DEFAULT, &all_on()] {
                    let (score, t) = evaluate_and_trace(&pos, weights);
                    assert_eq!(score, evaluate(&pos, weights));
                    assert_eq!(t.features, trace(&pos).features);
                    assert_eq!(t.fixed, trace(&pos).fixed);
                }
                checked += 1;
            }
        }
        assert!(checked > 150, "{checked}");
    }
}
