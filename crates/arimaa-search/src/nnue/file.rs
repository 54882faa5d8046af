//! The network's bytes: what `arimaa learn` writes and the engine embeds.
//!
//! Little-endian: `ARNN`, format version (u32), hidden width (u32), base
//! (u8: 0 alone, 1 on the hand evaluation), three zero bytes, then the
//! input weights (i16, `INPUTS` rows of `hidden`), the input biases (i16 ×
//! hidden), the output weights (i16 × 2 hidden: side to move's view, then
//! the other's) and the output bias (i32).

use super::{Base, Network, INPUTS};

const MAGIC: &[u8; 4] = b"ARNN";
const VERSION: u32 = 1;
const HEADER: usize = 16;

/// Bytes that are not a network this engine can run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a network file.
    #[error("not a network file (it does not start with ARNN)")]
    Magic,
    /// A format this build does not read.
    #[error("network format version {0}; this build reads version {VERSION}")]
    Version(u32),
    /// A width outside 1..=1024.
    #[error("hidden width {0}: expected 1 to 1024")]
    Width(u32),
    /// An unknown base byte.
    #[error("base {0}: expected 0 (alone) or 1 (on the hand evaluation)")]
    Base(u8),
    /// Too short or too long for its width.
    #[error("{got} bytes; a network of width {hidden} has {want}")]
    Length {
        /// Its width.
        hidden: usize,
        /// Bytes expected.
        want: usize,
        /// Bytes found.
        got: usize,
    },
}

fn len_for(hidden: usize) -> usize {
    HEADER + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

fn u32_at(bytes: &[u8], at: usize) -> u32 {
    u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

impl Network {
    /// Reads a network, checking every field.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, NetError> {
        if bytes.len() < HEADER || &bytes[..4] != MAGIC {
            return Err(NetError::Magic);
        }
        let version = u32_at(bytes, 4);
        if version != VERSION {
            return Err(NetError::Version(version));
        }
        let width = u32_at(bytes, 8);
        if !(1..=1024).contains(&width) {
            return Err(NetError::Width(width));
        }
        let hidden = width as usize;
        let base = match bytes[12] {
            0 => Base::Alone,
            1 => Base::OnHand,
            b => return Err(NetError::Base(b)),
        };
        if bytes.len() != len_for(hidden) {
            return Err(NetError::Length {
                hidden,
                want: len_for(hidden),
                got: bytes.len(),
            });
        }
        let mut words = bytes[HEADER..bytes.len() - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
        let input_weights = take(INPUTS * hidden);
        let input_bias = take(hidden);
        let output_weights = take(2 * hidden);
        let output_bias = u32_at(bytes, bytes.len() - 4) as i32;
        Ok(Network::from_parts(
            base,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
        ))
    }

    /// A network from its quantised parts (the trainer's export). Panics if
    /// the lengths do not fit `hidden`: that is the caller's bug, not input.
    #[must_use]
    pub fn from_parts(
        base: Base,
        input_weights: Vec<i16>,
        input_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
    ) -> Network {
        let hidden = input_bias.len();
        assert!(input_weights.len() == INPUTS * hidden && output_weights.len() == 2 * hidden);
        Network {
            hidden,
            base,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
        }
    }

    /// The bytes [`Network::from_bytes`] reads.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let mut out = Vec::with_capacity(len_for(self.hidden));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&VERSION.to_le_bytes());
        out.extend_from_slice(&(self.hidden as u32).to_le_bytes());
        out.extend_from_slice(&[u8::from(self.base == Base::OnHand), 0, 0, 0]);
        for w in self
            .input_weights
            .iter()
            .chain(&self.input_bias)
            .chain(&self.output_weights)
        {
            out.extend_from_slice(&w.to_le_bytes());
        }
        out.extend_from_slice(&self.output_bias.to_le_bytes());
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::EMBEDDED;
    use super::*;

    #[test]
    fn bytes_round_trip_and_damage_is_refused() {
        let bytes = EMBEDDED.to_bytes();
        let again = Network::from_bytes(&bytes).unwrap();
        assert_eq!(again.to_bytes(), bytes);
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 1]).unwrap_err(),
            NetError::Length {
                hidden: EMBEDDED.hidden(),
                want: bytes.len(),
                got: bytes.len() - 1
            }
        );
        let mut bad = bytes.clone();
        bad[0] = b'X';
        assert_eq!(Network::from_bytes(&bad).unwrap_err(), NetError::Magic);
        let mut bad = bytes.clone();
        bad[4] = 9;
        assert_eq!(Network::from_bytes(&bad).unwrap_err(), NetError::Version(9));
        let mut bad = bytes.clone();
        bad[12] = 7;
        assert_eq!(Network::from_bytes(&bad).unwrap_err(), NetError::Base(7));
        assert_eq!(Network::from_bytes(b"AR").unwrap_err(), NetError::Magic);
    }
}
