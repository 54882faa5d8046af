//! Arimaa search: evaluation, exact goal detection, iterative-deepening
//! alpha-beta over steps, time management and setup choice. Depends on the
//! rules core only; the protocol layer drives it.

#![warn(missing_docs)]

pub mod bench;
pub mod eval;
pub mod goal;
pub mod nnue;
pub mod params;
pub mod search;
pub mod setup;
pub mod smp;
pub mod threats;
pub mod time;
pub mod tt;
pub mod turn_captures;

pub use params::{Group, Params, SearchConfig, Setting, Weight, Weights};
pub use search::{static_score, Cuts, Progress, Report, SearchResult, Searcher, WIN, WIN_BOUND};
pub use time::{Budget, Clock, TimeManager};
pub use tt::TransTable;
