//! What a subcommand could not do, by kind; each subcommand prints it as
//! `error: ...` and exits with failure. The messages are the libraries'.

use arimaa_core::error::{MissingMoveError, PositionError, RecordError};
use arimaa_core::DiagramError;
use arimaa_match::label::store::StoreError;
use arimaa_match::label::{LabelConfigError, LabelError};
use arimaa_match::MatchError;
use arimaa_search::params::ParamError;
use arimaa_tuning::error::TuningError;

/// A subcommand's failure.
#[derive(Debug, thiserror::Error)]
pub enum CliError {
    /// An argument's value that the argument parser does not check.
    #[error("{0}")]
    Usage(String),
    /// A file could not be read or written.
    #[error("{0}")]
    File(String),
    /// A parameter file (`--params`) has a bad line.
    #[error("{path}: {error}")]
    Params {
        /// The file, as given.
        path: String,
        /// Its first bad line.
        error: ParamError,
    },
    /// A board diagram file that cannot be read.
    #[error("{path}: {error}")]
    Diagram {
        /// The file, as given.
        path: String,
        /// What is wrong with it.
        error: DiagramError,
    },
    /// An AEI position (`--position`) that cannot be read.
    #[error("--position: {0}")]
    Position(#[from] PositionError),
    /// A game's move list that cannot be replayed.
    #[error("{path}: {error}")]
    Record {
        /// The file, as given.
        path: String,
        /// Its first bad line.
        error: RecordError,
    },
    /// A move label (`--move`) past the end of the game.
    #[error("--move: {0}")]
    MissingMove(#[from] MissingMoveError),
    /// A pair's spec or outcome could not be read or written as JSON.
    #[error("{0}")]
    Json(String),
    /// A match could not be set up or played.
    #[error(transparent)]
    Match(#[from] MatchError),
    /// Fitting or tuning failed.
    #[error(transparent)]
    Tuning(#[from] TuningError),
    /// The labelling is misconfigured.
    #[error(transparent)]
    LabelConfig(#[from] LabelConfigError),
    /// The labelling failed.
    #[error(transparent)]
    Label(#[from] LabelError),
    /// The positions or labels files failed.
    #[error(transparent)]
    Store(#[from] StoreError),
    /// A labelled-positions file for training could not be read.
    #[error(transparent)]
    LearnData(#[from] arimaa_tuning::nnue::data::DataError),
}

/// A subcommand's exit: success, or its error printed as `error: ...` and
/// failure (the one place the commands report a [`CliError`]).
pub fn exit_code(result: Result<(), CliError>) -> std::process::ExitCode {
    match result {
        Ok(()) => std::process::ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("error: {e}");
            std::process::ExitCode::FAILURE
        }
    }
}
