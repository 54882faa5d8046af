//! Parameter tuning: SPSA over the engine's declared parameters
//! (`arimaa_search::params`), each iteration a short match between the engine
//! with the parameters nudged up and the engine with them nudged down.
//!
//! - [`spsa`]: the algorithm, independent of games (tested on a synthetic
//!   objective);
//! - [`state`]: the resumable state file;
//! - [`plot`]: the parameters' paths as an SVG;
//! - [`run`]: the loop that plays the matches with `arimaa match`'s runner;
//! - [`fit`]: the evaluation fitted to game results and a stronger player's
//!   evaluations (Texel), and move agreement with its moves;
//! - [`judge`]: each player's loss per move as a teacher scores it.

#![warn(missing_docs)]

pub mod error;
pub mod fit;
pub mod judge;
pub mod material;
pub mod movetest;
pub mod nnue;
pub mod plot;
pub mod run;
pub mod spsa;
pub mod state;
