//! The engine's view of the AEI clock and the budget it gives a turn.
//!
//! The controller's deadline for a turn is the time control's turn limit
//! ([`TimeControl::turn_limit`]: `tcmove + reserve`, lowered to
//! `tcturntime`) after it sends `go`; time already used on the turn
//! (`moveused`) comes off it. The engine aims at a target well inside that,
//! stops starting new iterations once a fraction of the target is gone, and
//! never searches past the deadline minus a safety margin that covers process
//! and pipe latency.

use arimaa_core::timecontrol::TimeControl;
use arimaa_core::Color;
use std::time::Duration;

/// The engine's clock: the time control the controller announced (the
/// `tc*` options) and the clock state it sends before a `go`, in seconds.
/// Only what the budget reads is kept: the controller's `gused`, `sused` and
/// `lastmoveused` are accepted as options but change nothing here.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Clock {
    /// The settings (`tcmove`, `tcreserve`, `tcpercent`, `tcmax`, `tctotal`,
    /// `tcturns`, `tcturntime`).
    pub control: TimeControl,
    /// Current reserves, gold and silver (`greserve`, `sreserve`); `None` until sent.
    pub reserve: [Option<f64>; 2],
    /// Time already used on the current turn when `go` arrived (`moveused`).
    pub moveused: f64,
}

/// How long to think on one turn, measured from the arrival of `go`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Budget {
    /// Do not start a new iteration after this.
    pub soft: Duration,
    /// Stop the search at this, whatever it is doing, when the search is stable.
    pub hard: Duration,
    /// The most an unstable search (its best move changing, its score
    /// falling) may stretch `soft` and `hard` to: never past the deadline
    /// minus the margin.
    pub max: Duration,
}

/// How far an unstable search may stretch its target.
const MAX_STRETCH: f64 = 2.5;

/// Margin kept before the controller's deadline, at least.
const MIN_MARGIN: f64 = 0.25;
/// And as a fraction of the time left.
const MARGIN_FRACTION: f64 = 0.05;

impl Clock {
    /// True when any time limit is set.
    #[must_use]
    pub fn is_timed(&self) -> bool {
        let tc = &self.control;
        tc.per_move > 0.0 || tc.turn_time > 0.0 || self.reserve.iter().flatten().any(|&r| r > 0.0)
    }

    /// The reserve of `side` now: the last value the controller sent, else the starting reserve.
    #[must_use]
    pub fn reserve_of(&self, side: Color) -> f64 {
        self.reserve[side.index()].unwrap_or(self.control.reserve).max(0.0)
    }

    /// Resets the clock state for a new game (the settings stay).
    pub fn new_game(&mut self) {
        self.reserve = [None, None];
        self.moveused = 0.0;
    }

    /// The budget for `side`'s turn, or `None` without a time control.
    #[must_use]
    pub fn budget(&self, side: Color) -> Option<Budget> {
        if !self.is_timed() {
            return None;
        }
        let tc = &self.control;
        let reserve = self.reserve_of(side);
        let deadline = tc.turn_limit(reserve);
        let left = (deadline - self.moveused.max(0.0)).max(0.0);
        let margin = MIN_MARGIN.max(left * MARGIN_FRACTION);
        let hard = (left - margin).max(0.02);
        // Move time not spent is only partly kept (tcpercent), and not at all
        // beyond tcmax: spend what would be lost, plus a slice of the reserve.
        let kept = (tc.percent / 100.0).clamp(0.0, 1.0);
        let mut target = tc.per_move * (1.0 - 0.4 * kept) + reserve / 12.0;
        if tc.max_reserve > 0.0 {
            let overflow = reserve + tc.per_move * kept - tc.max_reserve;
            if overflow > 0.0 {
                target += overflow;
            }
        }
        let target = target.min(hard).max(0.02);
        Some(Budget {
            soft: Duration::from_secs_f64(target * 0.55),
            hard: Duration::from_secs_f64(target.min(hard)),
            max: Duration::from_secs_f64((target * MAX_STRETCH).min(hard).max(target)),
        })
    }

    /// The budget for `side`'s turn when `moveused` arrives `since_go` after
    /// the search started: of `moveused`, only what is older than `go` was
    /// used before the search began.
    #[must_use]
    pub fn budget_during(&self, side: Color, since_go: Duration) -> Option<Budget> {
        let mut clock = self.clone();
        clock.moveused = (clock.moveused - since_go.as_secs_f64()).max(0.0);
        clock.budget(side)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(per_move: f64, reserve: f64) -> Clock {
        Clock {
            control: TimeControl {
                per_move,
                reserve,
                ..TimeControl::default()
            },
            ..Clock::default()
        }
    }

    #[test]
    fn no_time_control_no_budget() {
        assert_eq!(Clock::default().budget(Color::Gold), None);
    }

    #[test]
    fn never_past_the_deadline_minus_margin() {
        for (m, r) in [(1.0, 0.0), (2.0, 0.0), (15.0, 60.0), (0.2, 0.0), (30.0, 300.0)] {
            let b = tc(m, r).budget(Color::Gold).unwrap();
            let deadline = m + r;
            assert!(b.hard.as_secs_f64() <= deadline - MIN_MARGIN.min(deadline) + 1e-9 || b.hard.as_secs_f64() <= 0.02);
            assert!(b.soft <= b.hard);
            assert!(b.hard <= b.max);
            assert!(b.max.as_secs_f64() <= deadline - MIN_MARGIN.min(deadline) + 1e-9 || b.max.as_secs_f64() <= 0.02);
        }
    }

    #[test]
    fn turn_time_and_moveused_lower_the_deadline() {
        let mut t = tc(30.0, 300.0);
        t.control.turn_time = 10.0;
        assert!(t.budget(Color::Silver).unwrap().hard.as_secs_f64() <= 10.0 - MIN_MARGIN);
        t.moveused = 9.0;
        assert!(t.budget(Color::Silver).unwrap().hard.as_secs_f64() <= 1.0);
    }

    #[test]
    fn reserve_is_per_side_and_used_in_part() {
        let mut t = tc(10.0, 0.0);
        t.reserve = [Some(120.0), Some(0.0)];
        let g = t.budget(Color::Gold).unwrap();
        let s = t.budget(Color::Silver).unwrap();
        assert!(g.hard > s.hard);
        assert!(
            g.hard.as_secs_f64() < 10.0 + 120.0 / 2.0,
            "does not burn the reserve at once"
        );
    }

    #[test]
    fn lost_time_is_spent() {
        let mut keep = tc(10.0, 0.0);
        keep.control.percent = 100.0;
        let mut lose = keep.clone();
        lose.control.percent = 0.0;
        assert!(lose.budget(Color::Gold).unwrap().hard > keep.budget(Color::Gold).unwrap().hard);
    }

    /// `b` is (soft, hard, max) in seconds, to the microsecond.
    fn assert_budget(b: Budget, soft: f64, hard: f64, max: f64) {
        for (got, want, name) in [(b.soft, soft, "soft"), (b.hard, hard, "hard"), (b.max, max, "max")] {
            assert!(
                (got.as_secs_f64() - want).abs() < 1e-6,
                "{name}: {got:?}, expected {want} s"
            );
        }
    }

    /// Worked by hand from the formula: deadline, margin (0.25 s or 5 % of
    /// what is left), target, then soft = 0.55 target, max = 2.5 target.
    #[test]
    fn budgets_of_hand_computed_clocks() {
        // 2 s a move, no reserve, all unused time kept: deadline 2, margin
        // 0.25, ceiling 1.75; target 2 x 0.6 = 1.2.
        assert_budget(tc(2.0, 0.0).budget(Color::Gold).unwrap(), 0.66, 1.2, 1.75);
        // 1 s a move kept at 0 %: the whole second would be lost, so the
        // target is 1 s, lowered to the ceiling 0.75.
        let mut lose = tc(1.0, 0.0);
        lose.control.percent = 0.0;
        assert_budget(lose.budget(Color::Gold).unwrap(), 0.4125, 0.75, 0.75);
        // 10 s + 60 s reserve, 4 s already used: 66 s left, margin 3.3,
        // ceiling 62.7; target 6 + 60 / 12 = 11, stretchable to 27.5.
        let mut used = tc(10.0, 60.0);
        used.moveused = 4.0;
        assert_budget(used.budget(Color::Silver).unwrap(), 6.05, 11.0, 27.5);
        // The same clock when `moveused` 4 arrives 3 s into the search: 1 s
        // was used before `go`, so 69 s are left from `go`.
        let b = used.budget_during(Color::Silver, Duration::from_secs(3)).unwrap();
        assert_budget(b, 6.05, 11.0, 27.5);
        let mut one = tc(10.0, 60.0);
        one.moveused = 1.0;
        assert_eq!(Some(b), one.budget(Color::Silver));
        // 30 s + gold's 120 s reserve, capped at 10 s a turn: margin 0.5,
        // ceiling 9.5, which the target (18 + 10) is cut to.
        let mut capped = tc(30.0, 300.0);
        capped.control.turn_time = 10.0;
        capped.reserve = [Some(120.0), None];
        assert_budget(capped.budget(Color::Gold).unwrap(), 5.225, 9.5, 9.5);
    }

    #[test]
    fn budgets_are_those_of_the_former_engine_time_control() {
        // Figures from before the time control was shared (same formula):
        // 10 s a move, 60 s reserve, 50 %, max 40 s.
        let mut t = tc(10.0, 60.0);
        t.control.percent = 50.0;
        t.control.max_reserve = 40.0;
        let b = t.budget(Color::Gold).unwrap();
        let target: f64 = 10.0 * (1.0 - 0.4 * 0.5) + 60.0 / 12.0 + (60.0 + 5.0 - 40.0);
        let hard = 70.0 - 70.0 * 0.05;
        assert_eq!(b.hard, Duration::from_secs_f64(target.min(hard)));
        assert_eq!(b.soft, Duration::from_secs_f64(target.min(hard) * 0.55));
    }
}
