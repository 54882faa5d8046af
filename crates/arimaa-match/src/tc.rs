//! The clock the referee keeps, for time controls in the arimaa.com form
//! (the type itself, its form and its AEI options live in
//! `arimaa_core::timecontrol`, shared with the engine's budgets).

pub use arimaa_core::timecontrol::{aei_seconds, format_seconds, TimeControl};
use arimaa_core::Color;

/// Both sides' reserves during one game. A side without a time control
/// (a fixed-depth engine) has no limit.
#[derive(Clone, Debug)]
pub struct Clock {
    tc: [Option<TimeControl>; 2],
    reserve: [f64; 2],
}

impl Clock {
    /// A clock at the start of a game; each side may have its own control.
    #[must_use]
    pub fn new(gold: Option<TimeControl>, silver: Option<TimeControl>) -> Clock {
        let start = |tc: &Option<TimeControl>| tc.as_ref().map_or(0.0, |t| t.reserve);
        Clock {
            reserve: [start(&gold), start(&silver)],
            tc: [gold, silver],
        }
    }

    /// The reserve of `side` now.
    #[must_use]
    pub fn reserve(&self, side: Color) -> f64 {
        self.reserve[side.index()]
    }

    /// The time control of `side`, if it plays on the clock.
    #[must_use]
    pub fn control(&self, side: Color) -> Option<&TimeControl> {
        self.tc[side.index()].as_ref()
    }

    /// Seconds `side` may use on this turn, by its own clock and reserve
    /// ([`TimeControl::turn_limit`]). `None` without a time control.
    #[must_use]
    pub fn turn_limit(&self, side: Color) -> Option<f64> {
        Some(self.control(side)?.turn_limit(self.reserve(side)))
    }

    /// Seconds left of the game's total time (the smaller of the two sides'
    /// `total`), `None` when neither sets one.
    #[must_use]
    pub fn total_left(&self, game_elapsed: f64) -> Option<f64> {
        self.tc
            .iter()
            .flatten()
            .filter(|t| t.total > 0.0)
            .map(|t| (t.total - game_elapsed).max(0.0))
            .reduce(f64::min)
    }

    /// The smaller of the sides' turn-count limits (`Nt`), if any.
    #[must_use]
    pub fn turn_count_limit(&self) -> Option<u32> {
        self.tc.iter().flatten().map(|t| t.turns).filter(|&t| t > 0).min()
    }

    /// Books `used` seconds on `side`'s turn: unused move time goes to the
    /// reserve at `percent` and up to `max`; an overrun of the move time comes
    /// out of the reserve in full. Setups change nothing (as pyrimaa's game
    /// runner does), but must still fit within the limit.
    pub fn spend(&mut self, side: Color, used: f64, setup: bool) {
        let Some(tc) = &self.tc[side.index()] else {
            return;
        };
        if setup {
            return;
        }
        let r = &mut self.reserve[side.index()];
        let unused = tc.per_move - used;
        if unused > 0.0 {
            *r += unused * tc.percent / 100.0;
        } else {
            *r += unused;
        }
        if tc.max_reserve > 0.0 {
            *r = r.min(tc.max_reserve);
        }
        *r = r.max(0.0);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tc(s: &str) -> TimeControl {
        s.parse().unwrap_or_else(|e| panic!("{s}: {e}"))
    }

    #[test]
    fn reserve_grows_by_percent_and_stops_at_max() {
        let mut c = Clock::new(Some(tc("10s/20s/50/25s")), Some(tc("10s/20s")));
        assert_eq!(c.turn_limit(Color::Gold), Some(30.0));
        c.spend(Color::Gold, 4.0, false); // 6 s unused, half kept, capped at 25
        assert_eq!(c.reserve(Color::Gold), 23.0);
        c.spend(Color::Gold, 0.0, false);
        assert_eq!(c.reserve(Color::Gold), 25.0);
        c.spend(Color::Gold, 17.0, false); // 7 s over the move time: all from the reserve
        assert_eq!(c.reserve(Color::Gold), 18.0);
        c.spend(Color::Silver, 3.0, true); // setups leave the reserve alone
        assert_eq!(c.reserve(Color::Silver), 20.0);
        c.spend(Color::Silver, 100.0, false);
        assert_eq!(c.reserve(Color::Silver), 0.0);
    }

    #[test]
    fn limits_respect_turn_cap_total_and_turn_count() {
        let c = Clock::new(Some(tc("10s/1m/100/0/2m/15s")), Some(tc("10s/1m/100/0/90t")));
        assert_eq!(c.turn_limit(Color::Gold), Some(15.0));
        assert_eq!(c.turn_limit(Color::Silver), Some(70.0));
        assert_eq!(c.total_left(110.0), Some(10.0));
        assert_eq!(c.total_left(130.0), Some(0.0));
        assert_eq!(c.turn_count_limit(), Some(90));
        let depth = Clock::new(None, Some(tc("1s/1s")));
        assert_eq!(depth.turn_limit(Color::Gold), None);
        assert_eq!(depth.total_left(5.0), None);
        assert_eq!(depth.turn_count_limit(), None);
    }
}
