//! The match runner's errors, by what went wrong, so that a caller can tell
//! a bad configuration from an engine that does not start, a bad record
//! or a cluster that fails. Each carries the message the user sees.

use crate::engine::Failure;

/// Why a match (or a part of one) could not be run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum MatchError {
    /// The match is misconfigured: an engine spec, a time control, the
    /// SPRT, the cluster, or settings that do not go together.
    #[error("{0}")]
    Config(String),
    /// An engine did not start or failed its handshake.
    #[error("cannot start engine '{name}': {failure}")]
    EngineStart {
        /// The engine's name in the match.
        name: String,
        /// What it did instead.
        failure: Failure,
    },
    /// A setup file could not be read or has a bad line.
    #[error("{0}")]
    Setups(String),
    /// A record file could not be read, written or parsed.
    #[error("{0}")]
    Record(String),
    /// The record does not fit the match being resumed.
    #[error("{0}")]
    Resume(String),
    /// The traffic log could not be opened.
    #[error("{0}")]
    Log(String),
    /// A pair's spec or outcome, as sent between runner and worker, is bad.
    #[error("{0}")]
    Wire(String),
    /// The Ray bridge or a cluster worker failed.
    #[error("{0}")]
    Cluster(String),
    /// The plot could not be drawn.
    #[error("{0}")]
    Plot(String),
    /// The thread playing the games panicked.
    #[error("the executor's thread panicked")]
    ExecutorPanicked,
}
