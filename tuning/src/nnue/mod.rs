//! Training the learned evaluation (`arimaa_search::nnue`) on teacher labels.
//!
//! - [`data`]: labelled positions (`arimaa label` output, or positions with
//!   the player's own evaluation) read into the network's sparse features,
//!   split by game;
//! - [`model`]: the network in floating point, trained by Adam on the mean
//!   squared error in win probability, and quantised into the engine's form;
//! - [`measure`]: held-out rank correlation and win-probability error, the
//!   same for the hand-made evaluation and the network.
//!
//! The trainer is Rust, in the workspace, for one reason above the others:
//! it computes its inputs with the engine's own feature function, so the
//! network cannot be trained on one encoding and run on another. The model
//! is small (one sparse layer and one output), so hand-written gradients are
//! short and a CPU trains it in minutes.

pub mod data;
pub mod measure;
pub mod model;
