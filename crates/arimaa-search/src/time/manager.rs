//! The one owner of a search's time: when it started, its budget, how far it
//! may stretch, and the flag that stops it. The search threads read it at
//! every node; the main thread stretches it after an iteration; the protocol
//! thread stops it (`stop`) and re-times it (`moveused`) while it runs.

use super::clock::{Budget, Clock};
use crate::search::WIN_BOUND;
use arimaa_core::Color;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

/// Thinking time when no time control and no depth is set (e.g. pyrimaa's
/// `analyze`); a new iteration starts only in its first half.
pub const DEFAULT_MOVE_TIME: Duration = Duration::from_secs(3);

/// No limit, in milliseconds.
const NONE: u64 = u64::MAX;

/// The time of one search, shared by its threads and the thread that
/// started it. Serves one search: the search sets `stop` when it ends, so
/// that its helper threads end with it.
#[derive(Debug)]
pub struct TimeManager {
    start: Instant,
    /// Do not start a new iteration after this many milliseconds; read at
    /// every iteration.
    soft_ms: AtomicU64,
    /// Stop at this many milliseconds; read every few nodes.
    hard_ms: AtomicU64,
    stop: AtomicBool,
    /// What the two limits are computed from; changed only between iterations
    /// and on `moveused`, so a lock costs nothing at the nodes.
    plan: Mutex<Plan>,
}

/// The budget before stretching and the stretch in force.
#[derive(Clone, Copy, Debug)]
struct Plan {
    /// The limits as budgeted, in milliseconds.
    soft: u64,
    hard: u64,
    /// The most the limits may stretch to (`NONE`: they do not stretch).
    max: u64,
    /// Recent changes of the best move, decaying by half an iteration.
    instability: f64,
    /// The factor the budgeted limits are multiplied by now.
    factor: f64,
}

fn ms(d: Duration) -> u64 {
    d.as_millis() as u64
}

impl Plan {
    /// A budgeted limit stretched by the factor in force, never past the
    /// maximum (nor, when it already was past it, below it).
    fn scaled(&self, ms: u64) -> u64 {
        ((ms as f64 * self.factor) as u64).min(self.max).max(ms.min(self.max))
    }
}

impl TimeManager {
    fn with(soft: u64, hard: u64, max: u64) -> TimeManager {
        TimeManager {
            start: Instant::now(),
            soft_ms: AtomicU64::new(soft),
            hard_ms: AtomicU64::new(hard),
            stop: AtomicBool::new(false),
            plan: Mutex::new(Plan {
                soft,
                hard,
                max,
                instability: 0.0,
                factor: 1.0,
            }),
        }
    }

    /// No time limit, starting now: the search ends at its depth or on `stop`.
    #[must_use]
    pub fn unlimited() -> TimeManager {
        TimeManager::with(NONE, NONE, NONE)
    }

    /// Fixed limits, starting now: no new iteration after `soft`, a stop at
    /// `hard`, and no stretching.
    #[must_use]
    pub fn fixed(soft: Duration, hard: Duration) -> TimeManager {
        TimeManager::with(ms(soft), ms(hard), NONE)
    }

    /// The limits of `budget`, starting now, stretchable up to its `max`.
    #[must_use]
    pub fn budgeted(budget: Budget) -> TimeManager {
        TimeManager::with(ms(budget.soft), ms(budget.hard), ms(budget.max))
    }

    /// The time for `side`'s turn under `clock`, starting now: its budget;
    /// without a time control, none when the search has a depth limit, else
    /// [`DEFAULT_MOVE_TIME`].
    #[must_use]
    pub fn for_turn(clock: &Clock, side: Color, depth_limited: bool) -> TimeManager {
        match clock.budget(side) {
            Some(b) => TimeManager::budgeted(b),
            None if depth_limited => TimeManager::unlimited(),
            None => TimeManager::fixed(DEFAULT_MOVE_TIME / 2, DEFAULT_MOVE_TIME),
        }
    }

    /// Time since the start.
    #[must_use]
    pub fn elapsed(&self) -> Duration {
        self.start.elapsed()
    }

    fn elapsed_ms(&self) -> u64 {
        ms(self.elapsed())
    }

    /// Tells the search to stop (from any thread).
    pub fn stop(&self) {
        self.stop.store(true, Ordering::Relaxed);
    }

    /// True once told to stop.
    #[must_use]
    pub fn stopped(&self) -> bool {
        self.stop.load(Ordering::Relaxed)
    }

    /// True past the hard limit: the search stops whatever it is doing.
    #[must_use]
    pub fn past_hard(&self) -> bool {
        self.elapsed_ms() >= self.hard_ms.load(Ordering::Relaxed)
    }

    /// True past the soft limit: no new iteration.
    #[must_use]
    pub fn past_soft(&self) -> bool {
        self.elapsed_ms() >= self.soft_ms.load(Ordering::Relaxed)
    }

    /// The soft and hard limits in force, in milliseconds (`u64::MAX`: none).
    #[must_use]
    pub fn limits_ms(&self) -> (u64, u64) {
        (
            self.soft_ms.load(Ordering::Relaxed),
            self.hard_ms.load(Ordering::Relaxed),
        )
    }

    fn plan(&self) -> std::sync::MutexGuard<'_, Plan> {
        self.plan.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn apply(&self, plan: &Plan) {
        self.soft_ms.store(plan.scaled(plan.soft), Ordering::Relaxed);
        self.hard_ms.store(plan.scaled(plan.hard), Ordering::Relaxed);
    }

    /// Stretches the limits after an iteration of the deciding thread (a
    /// budget with a maximum only): a best move that `changed` counts 1 and
    /// halves each iteration, a `fall` of the score counts from 20 to 170
    /// centi-rabbits; the budgeted limits grow by half the first and the whole
    /// second, up to the maximum.
    pub fn after_iteration(&self, changed: bool, fall: i32) {
        let mut plan = self.plan();
        if plan.max == NONE {
            return;
        }
        plan.instability = plan.instability * 0.5 + f64::from(u8::from(changed));
        let fall = if fall.abs() < WIN_BOUND {
            (f64::from(fall - 20) / 150.0).clamp(0.0, 1.0)
        } else {
            0.0
        };
        plan.factor = 1.0 + 0.5 * plan.instability + fall;
        self.apply(&plan);
    }

    /// Lets the running iteration go on to the most the budget may stretch
    /// to; the soft limit stays, so no iteration after it starts past that.
    /// False, and nothing changed, without a maximum or once past it.
    pub fn allow_max(&self) -> bool {
        let plan = self.plan();
        let room = plan.max != NONE && self.elapsed_ms() < plan.max;
        if room {
            self.hard_ms.store(plan.max, Ordering::Relaxed);
        }
        room
    }

    /// `moveused` arrived during the search: the budget is recomputed from
    /// `clock` with the time used before the start, and the stretch in force
    /// applies to it.
    pub fn retime(&self, clock: &Clock, side: Color) {
        let Some(b) = clock.budget_during(side, self.elapsed()) else {
            return;
        };
        let mut plan = self.plan();
        (plan.soft, plan.hard, plan.max) = (ms(b.soft), ms(b.hard), ms(b.max));
        self.apply(&plan);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_core::timecontrol::TimeControl;

    fn budget(soft: u64, hard: u64, max: u64) -> TimeManager {
        TimeManager::budgeted(Budget {
            soft: Duration::from_millis(soft),
            hard: Duration::from_millis(hard),
            max: Duration::from_millis(max),
        })
    }

    #[test]
    fn an_unstable_search_stretches_its_time_up_to_the_maximum() {
        let t = budget(100, 200, 450);
        t.after_iteration(false, 0);
        assert_eq!(t.limits_ms(), (100, 200), "stable: the budget");
        t.after_iteration(true, 0);
        assert_eq!(t.limits_ms(), (150, 300), "a new best move: half as long again");
        t.after_iteration(false, 0);
        assert_eq!(t.limits_ms(), (125, 250), "and the change fades");
        t.after_iteration(false, 95);
        assert_eq!(t.limits_ms(), (162, 325), "a fall of 95 counts half");
        t.after_iteration(true, 500);
        assert_eq!(t.limits_ms(), (256, 450), "never past the maximum");
        for _ in 0..20 {
            t.after_iteration(true, 10_000);
            let (soft, hard) = t.limits_ms();
            assert!(soft <= 450 && hard <= 450, "bounded: {soft} {hard}");
        }
        t.after_iteration(true, WIN_BOUND + 5);
        assert!(t.limits_ms().1 <= 450, "a lost score does not stretch past it either");

        // Fixed and unlimited time does not stretch.
        let fixed = TimeManager::fixed(Duration::from_millis(100), Duration::from_millis(200));
        fixed.after_iteration(true, 500);
        assert_eq!(fixed.limits_ms(), (100, 200));
        let none = TimeManager::unlimited();
        none.after_iteration(true, 500);
        assert_eq!(none.limits_ms(), (u64::MAX, u64::MAX));
    }

    #[test]
    fn the_time_of_a_turn_is_its_budget_else_the_default() {
        let clock = Clock {
            control: TimeControl {
                per_move: 2.0,
                ..TimeControl::default()
            },
            ..Clock::default()
        };
        // 2 s a move: soft 0.66 s, hard 1.2 s (see the clock's tests).
        assert_eq!(
            TimeManager::for_turn(&clock, Color::Gold, false).limits_ms(),
            (660, 1200)
        );
        assert_eq!(
            TimeManager::for_turn(&clock, Color::Gold, true).limits_ms(),
            (660, 1200)
        );
        let none = Clock::default();
        assert_eq!(
            TimeManager::for_turn(&none, Color::Gold, false).limits_ms(),
            (1500, 3000)
        );
        assert_eq!(
            TimeManager::for_turn(&none, Color::Gold, true).limits_ms(),
            (u64::MAX, u64::MAX)
        );
    }

    #[test]
    fn moveused_during_the_search_shortens_the_budget() {
        let mut clock = Clock {
            control: TimeControl {
                per_move: 10.0,
                reserve: 60.0,
                ..TimeControl::default()
            },
            ..Clock::default()
        };
        let t = TimeManager::for_turn(&clock, Color::Gold, false);
        // 10 s + 60 s: target 6 + 5 = 11 s.
        assert_eq!(t.limits_ms(), (6050, 11_000));
        // 50 s used before `go` (less the few microseconds since): 20 s left,
        // margin 1 s, a ceiling of 19 s that the 11 s target fits under.
        clock.moveused = 50.0;
        t.retime(&clock, Color::Gold);
        let (soft, hard) = t.limits_ms();
        assert!(
            (6049..=6050).contains(&soft) && (10_999..=11_000).contains(&hard),
            "{soft} {hard}"
        );
        clock.moveused = 65.0;
        t.retime(&clock, Color::Gold);
        // 5 s left, margin 0.25: 4.75 s.
        let (soft, hard) = t.limits_ms();
        assert!(
            (2611..=2612).contains(&soft) && (4749..=4750).contains(&hard),
            "{soft} {hard}"
        );
        // A stretch in force applies to the new budget, within its maximum.
        t.after_iteration(true, 0);
        assert!(t.limits_ms().1 <= 4750);
    }

    #[test]
    fn stop_is_seen_from_every_thread() {
        let t = TimeManager::unlimited();
        assert!(!t.stopped() && !t.past_hard() && !t.past_soft());
        std::thread::scope(|s| {
            s.spawn(|| t.stop());
        });
        assert!(t.stopped());
        let zero = TimeManager::fixed(Duration::ZERO, Duration::ZERO);
        assert!(zero.past_hard() && zero.past_soft());
    }
}
