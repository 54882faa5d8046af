//! Time management for every AEI time control.
//!
//! The controller's deadline for a turn is `tcmove + reserve` after it sends
//! `go`, lowered to `tcturntime`; time already used on the turn (`moveused`)
//! comes off it. The engine aims at a target well inside that, stops starting
//! new iterations once a fraction of the target is gone, and never searches past
//! the deadline minus a safety margin that covers process and pipe latency.

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
        let mut deadline = tc.per_move + reserve;
        if tc.turn_time > 0.0 {
            deadline = deadline.min(tc.turn_time);
        }
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
