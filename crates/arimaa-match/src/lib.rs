//! A match runner for AEI engines: the `arimaa match` subcommand's library.
//!
//! Engines are child processes spoken to over AEI ([`engine`]); the runner is
//! the referee ([`referee`]): it checks every move with the rules core, keeps
//! the clocks ([`tc`]) and scores every fault with a reason. Games run on
//! worker threads ([`runner`]); each finished game is appended to a record
//! file ([`record`]) and counted in the statistics ([`stats`]).
//!
//! Nothing here panics on input: bad options, engine specs, time controls and
//! setup files are errors with a message, and an engine that misbehaves loses
//! the game instead of stopping the match.

pub mod cluster;
pub mod config;
pub mod engine;
pub mod error;
pub mod executor;
pub mod label;
pub mod outcome;
pub mod pentanomial;
pub mod pgn;
pub mod plot;
pub mod process_group;
pub mod progress;
pub mod ray;
pub mod record;
pub mod referee;
pub mod resume;
pub mod runner;
pub mod schedule;
pub mod setups;
pub mod stats;
pub mod summary;
pub mod tc;
mod timestamp;
pub mod wire;

pub use config::{EngineSpec, MatchConfig};
pub use error::MatchError;
pub use outcome::{GameResult, Termination};
pub use runner::{run_match, MatchReport};
pub use stats::{Sprt, Wdl};
pub use tc::TimeControl;
