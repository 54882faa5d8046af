//! Fitting the evaluation to games and measuring it without playing: the
//! games ([`data`]), the Texel fit of the weights ([`texel`]) and move
//! agreement at a fixed depth ([`agree`]).

pub mod agree;
pub mod data;
pub mod positions;
pub mod texel;
