//! Time management for every AEI time control: the budget a clock gives a
//! turn (`clock.rs`) and the one owner of a running search's time
//! (`manager.rs`): its start, limits, stretch and stop.

mod clock;
mod manager;

pub use clock::{Budget, Clock};
pub use manager::{TimeManager, DEFAULT_MOVE_TIME};
