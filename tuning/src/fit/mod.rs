//! Fitting the evaluation to games and measuring it without playing: the
//! games ([`data`]), the Texel fit of the weights ([`texel`]), its held-out
//! and cross-validated measure ([`measure`]), what each group of weights is
//! worth ([`ablate`]) and move agreement at a fixed depth ([`agree`]).

pub mod ablate;
pub mod agree;
pub mod data;
pub mod measure;
pub mod positions;
pub mod texel;
