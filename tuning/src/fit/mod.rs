//! Fitting the evaluation to games and measuring it without playing: the
//! games ([`data`]), the Texel fit of the weights ([`texel`]), its held-out
//! and cross-validated measure ([`measure`]), what each group of weights is
//! worth ([`ablate`]) and move agreement at a fixed depth ([`agree`]); and
//! positions for a teacher to label: of games and random turns away
//! ([`positions`]), and along the engine's own PV ([`pv_positions`]).

pub mod ablate;
pub mod agree;
pub mod data;
pub mod measure;
pub mod positions;
pub mod pv_positions;
pub mod texel;
