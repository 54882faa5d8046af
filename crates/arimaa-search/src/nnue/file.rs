//! The network's bytes: what `arimaa learn` writes and the engine embeds.
//!
//! Little-endian: `ARNN`, format version (u32), hidden width (u32), base
//! (u8: 0 alone, 1 on the hand evaluation), three zero bytes, then the
//! input weights (i16, `INPUTS` rows of `hidden`), the input biases (i16 ×
//! hidden), the output weights (i16 × 2 hidden: side to move's view, then
//! the other's) and the output bias (i32). Version 2, a network that reads
//! the hand evaluation's features, goes on: their number (u32, [`DENSE`])
//! and their weights (f32, 2 × `DENSE` rows of `hidden`: side to move's
//! view, then the other's). A network without them is written as version 1.

use super::{Base, Network, DENSE, INPUTS};

const MAGIC: &[u8; 4] = b"ARNN";
const VERSION: u32 = 1;
const VERSION_DENSE: u32 = 2;
const HEADER: usize = 16;

/// Bytes that are not a network this engine can run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a network file.
    #[error("not a network file (it does not start with ARNN)")]
    Magic,
    /// A format this build does not read.
    #[error("network format version {0}; this build reads versions {VERSION} and {VERSION_DENSE}")]
    Version(u32),
    /// Dense inputs other than this build's hand-evaluation features.
    #[error("{0} dense inputs; this build's hand evaluation has {DENSE} features")]
    Dense(u32),
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

fn len_for(hidden: usize, dense: bool) -> usize {
    let base = HEADER + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4;
    if dense {
        base + 4 + 4 * 2 * DENSE * hidden
    } else {
        base
    }
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
        if version != VERSION && version != VERSION_DENSE {
            return Err(NetError::Version(version));
        }
        let dense = version == VERSION_DENSE;
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
        let plain = len_for(hidden, false);
        if dense && bytes.len() >= plain + 4 && u32_at(bytes, plain) as usize != DENSE {
            return Err(NetError::Dense(u32_at(bytes, plain)));
        }
        if bytes.len() != len_for(hidden, dense) {
            return Err(NetError::Length {
                hidden,
                want: len_for(hidden, dense),
                got: bytes.len(),
            });
        }
        // The length is checked: a dense network's weights follow its count.
        let dense_weights = if dense {
            bytes[plain + 4..]
                .chunks_exact(4)
                .map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect()
        } else {
            Vec::new()
        };
        let mut words = bytes[HEADER..plain - 4]
            .chunks_exact(2)
            .map(|c| i16::from_le_bytes([c[0], c[1]]));
        let mut take = |n: usize| -> Vec<i16> { words.by_ref().take(n).collect() };
        let input_weights = take(INPUTS * hidden);
        let input_bias = take(hidden);
        let output_weights = take(2 * hidden);
        let output_bias = u32_at(bytes, plain - 4) as i32;
        Ok(Network::from_parts(
            base,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
            dense_weights,
        ))
    }

    /// A network from its quantised parts (the trainer's export;
    /// `dense_weights` empty for a network without dense inputs). Panics if
    /// the lengths do not fit `hidden`: that is the caller's bug, not input.
    #[must_use]
    pub fn from_parts(
        base: Base,
        input_weights: Vec<i16>,
        input_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
        dense_weights: Vec<f32>,
    ) -> Network {
        let hidden = input_bias.len();
        assert!(input_weights.len() == INPUTS * hidden && output_weights.len() == 2 * hidden);
        assert!(dense_weights.is_empty() || dense_weights.len() == 2 * DENSE * hidden);
        Network {
            hidden,
            base,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
            dense_weights,
        }
    }

    /// The bytes [`Network::from_bytes`] reads.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let dense = self.reads_dense();
        let mut out = Vec::with_capacity(len_for(self.hidden, dense));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&if dense { VERSION_DENSE } else { VERSION }.to_le_bytes());
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
        if dense {
            out.extend_from_slice(&(DENSE as u32).to_le_bytes());
            for w in &self.dense_weights {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
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

    /// A small network that reads the dense inputs, its weights varied.
    fn dense_network(hidden: usize) -> Network {
        let w = |n: usize, m: i32| (0..n).map(|i| ((i as i32 * 37) % m - m / 2) as i16).collect();
        let dense = (0..2 * DENSE * hidden)
            .map(|i| ((i * 13) % 7) as f32 / 50.0 - 0.06)
            .collect();
        Network::from_parts(
            Base::OnHand,
            w(INPUTS * hidden, 61),
            w(hidden, 200),
            w(2 * hidden, 90),
            1234,
            dense,
        )
    }

    #[test]
    fn a_network_with_dense_inputs_round_trips_as_version_2_and_damage_is_refused() {
        let net = dense_network(4);
        let bytes = net.to_bytes();
        assert_eq!(u32_at(&bytes, 4), VERSION_DENSE);
        let again = Network::from_bytes(&bytes).unwrap();
        assert!(again.reads_dense());
        assert_eq!(again.to_bytes(), bytes);
        // The embedded network without them stays version 1.
        assert_eq!(u32_at(&EMBEDDED.to_bytes(), 4), VERSION);
        let plain = len_for(4, false);
        let mut bad = bytes.clone();
        bad[plain..plain + 4].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&bad).unwrap_err(), NetError::Dense(7));
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err(),
            NetError::Length {
                hidden: 4,
                want: bytes.len(),
                got: bytes.len() - 2
            }
        );
        // A version-1 header on version-2 bytes is refused by its length.
        let mut bad = bytes.clone();
        bad[4..8].copy_from_slice(&VERSION.to_le_bytes());
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Length { .. })));
    }

    /// The dense inputs move the score, a tracker scores as from scratch
    /// with them, and the score of a mirrored board is the same.
    #[test]
    fn dense_inputs_change_the_score_and_a_tracker_agrees() {
        use arimaa_core::parse_position;
        let net = dense_network(8);
        let pos = parse_position("s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]").unwrap();
        let dense = net.dense_of(&pos);
        assert!(dense.iter().any(|&x| x != 0.0));
        let acc = net.refresh(&pos);
        assert_ne!(
            net.output(&acc, pos.side(), &dense),
            net.output(&acc, pos.side(), &super::super::NO_DENSE)
        );
        let mut tracker = super::super::Tracker::new(&net);
        assert_eq!(tracker.evaluate(&net, &pos, &dense), net.evaluate(&pos));
        assert_eq!(net.evaluate(&pos), net.evaluate(&pos.mirror()));
    }
}
