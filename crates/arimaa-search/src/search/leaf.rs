//! The evaluation at the search's leaves: the hand-made terms, the learned
//! network on them when `nnue` is on, and, for a network that reads the
//! mover's whole-turn capture, that input's search only where the score's
//! side of the window depends on it.

use crate::eval::{
    evaluate, evaluate_and_trace, evaluate_and_trace_deferred, turn_capture_feature, turn_capture_feature_bounds,
    TURN_CAPTURE,
};
use crate::nnue::{Base, Network, Tracker, DENSE, EMBEDDED, NO_DENSE};
use crate::params::Params;
use arimaa_core::Position;

/// The static evaluation of `pos` as the search scores its horizon, side to
/// move's view: the hand-made terms `params` weigh, with the learned network
/// when `nnue` is on. `net` keeps the network's accumulator between calls
/// (made on the first), so that nearby positions update it.
pub fn static_score(pos: &Position, params: &Params, net: &mut Option<Box<Tracker>>) -> i32 {
    score_with(&EMBEDDED, pos, params, net)
}

/// The hand score and the dense inputs `network` reads, the whole-turn
/// capture's left at 0 for the caller to fill in; `None` when `network`
/// reads no dense inputs or `params` weigh the capture in the hand score
/// (then it cannot be left open).
fn deferred(network: &Network, pos: &Position, params: &Params) -> Option<(i32, [f64; DENSE])> {
    if !params.search.nnue || !network.reads_dense() || params.weights.values()[TURN_CAPTURE] != 0 {
        return None;
    }
    if network.reads_only(TURN_CAPTURE) {
        // The plain evaluation skips the zero-weighted capture, and no
        // other feature need be traced.
        return Some((evaluate(pos, &params.weights), NO_DENSE));
    }
    evaluate_and_trace_deferred(pos, &params.weights).map(|(hand, trace)| (hand, trace.features))
}

/// The score from the hand score, the network's output and its base.
fn combine(network: &Network, hand: i32, learned: i32) -> i32 {
    match network.base() {
        Base::OnHand => hand + learned,
        Base::Alone => learned,
    }
}

/// The network's output for `pos` with the whole-turn capture input in
/// `range` ([`Network::output_range`]: the bounds and the exact score the
/// leaves compare are summed alike).
fn learned(
    network: &Network,
    net: &mut Option<Box<Tracker>>,
    pos: &Position,
    dense: &[f64; DENSE],
    range: (f64, f64),
) -> (i32, i32) {
    let tracker = net.get_or_insert_with(|| Box::new(Tracker::new(network)));
    let acc = tracker.sync(network, pos);
    network.output_range(acc, pos.side(), dense, TURN_CAPTURE, range)
}

/// [`static_score`] with `network` for ordering the root's moves before the
/// first iteration: the whole-turn capture input (where a network reads it)
/// at its cheap lower bound, the pushes and pulls at hand. The exact search
/// at each of a root's thousands of moves took a quarter of the bench's
/// time.
pub(super) fn static_estimate(
    network: &Network,
    pos: &Position,
    params: &Params,
    net: &mut Option<Box<Tracker>>,
) -> i32 {
    let Some((hand, dense)) = deferred(network, pos, params) else {
        return score_with(network, pos, params, net);
    };
    let low = turn_capture_feature_bounds(pos).0;
    combine(network, hand, learned(network, net, pos, &dense, (low, low)).0)
}

/// [`static_score`] with `network` (for which `net` was made).
fn score_with(network: &Network, pos: &Position, params: &Params, net: &mut Option<Box<Tracker>>) -> i32 {
    if !params.search.nnue {
        return evaluate(pos, &params.weights);
    }
    if let Some((hand, dense)) = deferred(network, pos, params) {
        let x = turn_capture_feature(pos);
        return combine(network, hand, learned(network, net, pos, &dense, (x, x)).0);
    }
    let tracker = net.get_or_insert_with(|| Box::new(Tracker::new(network)));
    if network.reads_dense() {
        // One pass gives the hand score and the features the network reads.
        let (hand, trace) = evaluate_and_trace(pos, &params.weights);
        return combine(network, hand, tracker.evaluate(network, pos, &trace.features));
    }
    combine(
        network,
        evaluate(pos, &params.weights),
        tracker.evaluate(network, pos, &NO_DENSE),
    )
}

/// [`static_score`] with `network` where only its side of `alpha..beta`
/// matters: `(low, high)`, equal when exact (always inside the window),
/// else `low >= beta` or `high <= alpha`. The whole-turn capture's search
/// cost as much as the rest of such a network's evaluation, and most
/// leaves only ask whether the score reaches a bound: the network is asked first with
/// that input's cheap bounds (two-step captures below, the search's sound
/// first bound above), and the search runs only when they leave the score
/// on both sides of the window (one leaf in a hundred on the bench).
pub(super) fn static_bounds(
    network: &Network,
    pos: &Position,
    params: &Params,
    net: &mut Option<Box<Tracker>>,
    alpha: i32,
    beta: i32,
) -> (i32, i32) {
    let Some((hand, dense)) = deferred(network, pos, params) else {
        let score = score_with(network, pos, params, net);
        return (score, score);
    };
    let base = combine(network, hand, 0);
    let (low, high) = turn_capture_feature_bounds(pos);
    if low != high {
        let (lo, hi) = learned(network, net, pos, &dense, (low, high));
        if base + lo >= beta || base + hi <= alpha {
            return (base + lo, base + hi);
        }
    }
    let x = if low == high { low } else { turn_capture_feature(pos) };
    let score = base + learned(network, net, pos, &dense, (x, x)).0;
    (score, score)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::nnue::tests::dense_network;
    use crate::params::DEFAULT;

    /// Turn starts and the states after each step of a game's turns.
    fn states() -> Vec<Position> {
        crate::turn_captures::tests::sample_states()
    }

    /// `network` with the rows of every dense input but the whole-turn
    /// capture set to zero.
    fn capture_only(network: &Network) -> Network {
        let mut bytes = network.to_bytes();
        let rows = Network::from_bytes(&bytes).unwrap();
        let width = rows.dense_width();
        let start = bytes.len() - 2 * DENSE * width * 4;
        for view in 0..2 {
            for i in (0..DENSE).filter(|&i| i != TURN_CAPTURE) {
                let at = start + ((view * DENSE + i) * width) * 4;
                bytes[at..at + width * 4].fill(0);
            }
        }
        Network::from_bytes(&bytes).unwrap()
    }

    /// The score as the whole trace gives it, independently of the leaf
    /// code's paths.
    fn reference(network: &Network, pos: &Position) -> i32 {
        let (hand, trace) = evaluate_and_trace(pos, &DEFAULT.weights);
        combine(network, hand, network.evaluate_with(pos, &trace.features))
    }

    /// Against the exact score, for windows around it, below and above: the
    /// bounds always hold it, are exact inside the window, and settle some
    /// leaves without it where the capture is open; the estimate is exact
    /// where the capture is settled. For a network reading every hand
    /// feature and for one reading only the capture.
    #[test]
    fn bounds_hold_the_exact_score_and_settle_outside_the_window() {
        let all = dense_network(8, 4);
        let only = capture_only(&all);
        assert!(!all.reads_only(TURN_CAPTURE) && only.reads_only(TURN_CAPTURE));
        for network in [&all, &only] {
            let (mut exact_net, mut bound_net) = (None, None);
            let (mut open, mut settled, mut estimates_off) = (0, 0, 0);
            for pos in states().into_iter().step_by(7).take(400) {
                let exact = score_with(network, &pos, &DEFAULT, &mut exact_net);
                // The plain output sums the dense inputs in another order.
                assert!((exact - reference(network, &pos)).abs() <= 1, "{exact}");
                let (low, high) = turn_capture_feature_bounds(&pos);
                open += usize::from(low != high);
                let estimate = static_estimate(network, &pos, &DEFAULT, &mut bound_net);
                if low == high {
                    assert_eq!(estimate, exact, "a settled capture estimates exactly");
                } else {
                    estimates_off += usize::from(estimate != exact);
                }
                for (alpha, beta) in [
                    (-30_000, 30_000),
                    (exact - 1, exact),
                    (exact - 400, exact - 399),
                    (exact + 399, exact + 400),
                ] {
                    let (lo, hi) = static_bounds(network, &pos, &DEFAULT, &mut bound_net, alpha, beta);
                    assert!(lo <= exact && exact <= hi, "{lo} {exact} {hi} in {alpha}..{beta}");
                    if lo != hi {
                        assert!(lo >= beta || hi <= alpha, "{lo} {hi} open inside {alpha}..{beta}");
                        settled += 1;
                    } else {
                        assert_eq!(lo, exact);
                    }
                }
            }
            eprintln!("{open} leaves with the capture open, {settled} windows settled by bounds, {estimates_off} estimates off");
            assert!(
                open >= 20 && settled >= 10 && estimates_off > 0,
                "{open} {settled} {estimates_off}"
            );
        }
    }
}
