//! The tuning crate's errors, by what went wrong: the games to fit, the
//! names to tune, a run's files, or its matches. Each carries the message
//! the user sees.

use arimaa_match::MatchError;
use arimaa_search::params::ParamError;

/// Why fitting or tuning could not go on.
#[derive(Debug, PartialEq, thiserror::Error)]
pub enum TuningError {
    /// The games could not be read, parsed or replayed, or are too few.
    #[error("{0}")]
    Data(String),
    /// A name to tune is not an evaluation weight, or none was given.
    #[error("{0}")]
    Names(String),
    /// A value outside its weight's declared range.
    #[error(transparent)]
    Param(#[from] ParamError),
    /// The run's state file cannot be read, or tunes other weights.
    #[error("{0}")]
    State(String),
    /// A file of the run could not be written.
    #[error("{0}")]
    File(String),
    /// The plot could not be drawn.
    #[error("{0}")]
    Plot(String),
    /// An iteration's games could not be played.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// An iteration finished no game.
    #[error("an iteration finished no game")]
    NoGames,
}
