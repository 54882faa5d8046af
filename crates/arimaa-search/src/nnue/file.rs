//! The network's bytes: what `arimaa learn` writes and the engine embeds.
//!
//! Little-endian: `ARNN`, format version (u32), hidden width (u32), base
//! (u8: 0 alone, 1 on the hand evaluation), three zero bytes, then the
//! input weights (i16, `INPUTS` rows of `hidden`), the input biases (i16 ×
//! hidden), the output weights (i16 × 2 hidden: side to move's view, then
//! the other's) and the output bias (i32). Version 3, a network that reads
//! the hand evaluation's features, goes on: their number (u32, [`DENSE`]),
//! the width of the first-layer slice they feed (u32, 1..=`hidden`) and
//! their weights (f32, 2 × `DENSE` rows of that width: side to move's view,
//! then the other's). Version 2 is version 3 without the width field, the
//! slice being the whole layer; it is read, not written. A network without
//! dense inputs is written as version 1.

use super::{Base, Network, DENSE, INPUTS};

const MAGIC: &[u8; 4] = b"ARNN";
const VERSION: u32 = 1;
/// Dense inputs feeding the whole first layer (read, not written).
const VERSION_DENSE_FULL: u32 = 2;
const VERSION_DENSE: u32 = 3;
const HEADER: usize = 16;

/// Bytes that are not a network this engine can run.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NetError {
    /// Not a network file.
    #[error("not a network file (it does not start with ARNN)")]
    Magic,
    /// A format this build does not read.
    #[error(
        "network format version {0}; this build reads versions {VERSION}, {VERSION_DENSE_FULL} and {VERSION_DENSE}"
    )]
    Version(u32),
    /// Dense inputs other than this build's hand-evaluation features.
    #[error("{0} dense inputs; this build's hand evaluation has {DENSE} features")]
    Dense(u32),
    /// A width outside 1..=1024.
    #[error("hidden width {0}: expected 1 to 1024")]
    Width(u32),
    /// A dense slice wider than the layer, or empty.
    #[error("dense inputs feed {got} units of a layer of {hidden}: expected 1 to {hidden}")]
    DenseWidth {
        /// The slice's width.
        got: u32,
        /// The layer's.
        hidden: usize,
    },
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

/// Bytes before any dense inputs.
fn plain_len(hidden: usize) -> usize {
    HEADER + 2 * (INPUTS * hidden + hidden + 2 * hidden) + 4
}

/// Bytes of a network of `version` whose dense inputs feed `width` units.
fn len_for(version: u32, hidden: usize, width: usize) -> usize {
    match version {
        VERSION_DENSE_FULL => plain_len(hidden) + 4 + 4 * 2 * DENSE * hidden,
        VERSION_DENSE => plain_len(hidden) + 8 + 4 * 2 * DENSE * width,
        _ => plain_len(hidden),
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
        if ![VERSION, VERSION_DENSE_FULL, VERSION_DENSE].contains(&version) {
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
        let plain = plain_len(hidden);
        let dense = version != VERSION;
        if dense && bytes.len() >= plain + 4 && u32_at(bytes, plain) as usize != DENSE {
            return Err(NetError::Dense(u32_at(bytes, plain)));
        }
        let (dense_width, weights_at) = match version {
            VERSION_DENSE_FULL => (hidden, plain + 4),
            VERSION_DENSE if bytes.len() >= plain + 8 => {
                let got = u32_at(bytes, plain + 4);
                if got == 0 || got as usize > hidden {
                    return Err(NetError::DenseWidth { got, hidden });
                }
                (got as usize, plain + 8)
            }
            _ => (0, plain),
        };
        let want = len_for(version, hidden, dense_width);
        if bytes.len() != want {
            return Err(NetError::Length {
                hidden,
                want,
                got: bytes.len(),
            });
        }
        // The length is checked: a dense network's weights follow its count.
        let dense_weights = if dense {
            bytes[weights_at..]
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
            dense_width,
        ))
    }

    /// A network from its quantised parts (the trainer's export;
    /// `dense_weights` empty and `dense_width` 0 for a network without dense
    /// inputs, else `2 × DENSE` rows of `dense_width`). Panics if the lengths
    /// do not fit `hidden`: that is the caller's bug, not input.
    #[must_use]
    pub fn from_parts(
        base: Base,
        input_weights: Vec<i16>,
        input_bias: Vec<i16>,
        output_weights: Vec<i16>,
        output_bias: i32,
        dense_weights: Vec<f32>,
        dense_width: usize,
    ) -> Network {
        let hidden = input_bias.len();
        assert!(input_weights.len() == INPUTS * hidden && output_weights.len() == 2 * hidden);
        assert!(dense_width <= hidden && dense_weights.len() == 2 * DENSE * dense_width);
        assert_eq!(dense_width == 0, dense_weights.is_empty());
        let live_dense = (0..DENSE)
            .filter(|&i| {
                (0..2).any(|view| {
                    dense_weights[(view * DENSE + i) * dense_width..][..dense_width]
                        .iter()
                        .any(|&w| w != 0.0)
                })
            })
            .collect();
        Network {
            live_dense,
            hidden,
            base,
            input_weights,
            input_bias,
            output_weights,
            output_bias,
            dense_weights,
            dense_width,
        }
    }

    /// The bytes [`Network::from_bytes`] reads.
    #[must_use]
    pub fn to_bytes(&self) -> Vec<u8> {
        let dense = self.reads_dense();
        let version = if dense { VERSION_DENSE } else { VERSION };
        let mut out = Vec::with_capacity(len_for(version, self.hidden, self.dense_width));
        out.extend_from_slice(MAGIC);
        out.extend_from_slice(&version.to_le_bytes());
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
            out.extend_from_slice(&(self.dense_width as u32).to_le_bytes());
            for w in &self.dense_weights {
                out.extend_from_slice(&w.to_le_bytes());
            }
        }
        out
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::dense_network;
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

    #[test]
    fn a_network_with_dense_inputs_round_trips_as_version_3_and_damage_is_refused() {
        let net = dense_network(4, 2);
        let bytes = net.to_bytes();
        assert_eq!(u32_at(&bytes, 4), VERSION_DENSE);
        let again = Network::from_bytes(&bytes).unwrap();
        assert!(again.reads_dense());
        assert_eq!(again.dense_width(), 2);
        assert_eq!(again.to_bytes(), bytes);
        // A network without them stays version 1; the embedded one reads them.
        assert_eq!(u32_at(&dense_network(4, 0).to_bytes(), 4), VERSION);
        assert_eq!(u32_at(&EMBEDDED.to_bytes(), 4), VERSION_DENSE);
        let plain = plain_len(4);
        let mut bad = bytes.clone();
        bad[plain..plain + 4].copy_from_slice(&7u32.to_le_bytes());
        assert_eq!(Network::from_bytes(&bad).unwrap_err(), NetError::Dense(7));
        for got in [0u32, 5] {
            let mut bad = bytes.clone();
            bad[plain + 4..plain + 8].copy_from_slice(&got.to_le_bytes());
            assert_eq!(
                Network::from_bytes(&bad).unwrap_err(),
                NetError::DenseWidth { got, hidden: 4 }
            );
        }
        assert_eq!(
            Network::from_bytes(&bytes[..bytes.len() - 2]).unwrap_err(),
            NetError::Length {
                hidden: 4,
                want: bytes.len(),
                got: bytes.len() - 2
            }
        );
        // A version-1 header on version-3 bytes is refused by its length.
        let mut bad = bytes.clone();
        bad[4..8].copy_from_slice(&VERSION.to_le_bytes());
        assert!(matches!(Network::from_bytes(&bad), Err(NetError::Length { .. })));
    }

    /// Version 2 (no width field, the dense inputs feed every unit) reads
    /// as the same network written as version 3 with the full width.
    #[test]
    fn a_version_2_network_reads_as_a_full_width_slice() {
        let net = dense_network(4, 4);
        let v3 = net.to_bytes();
        let plain = plain_len(4);
        let mut v2 = v3[..plain + 4].to_vec();
        v2[4..8].copy_from_slice(&VERSION_DENSE_FULL.to_le_bytes());
        v2.extend_from_slice(&v3[plain + 8..]);
        let read = Network::from_bytes(&v2).unwrap();
        assert_eq!(read.dense_width(), 4);
        assert_eq!(read.to_bytes(), v3);
    }

    /// The units past the dense slice score as a network without dense
    /// inputs: zero dense inputs give the integer path's score at every
    /// slice width, to the rounding of the float path.
    #[test]
    fn units_past_the_slice_score_as_without_dense_inputs() {
        use arimaa_core::parse_position;
        let pos = parse_position("s [r r  r r DhrrdcrCd E mh    c    r e    RRM DH CH  RR R    R R  R]").unwrap();
        let plain = dense_network(8, 1);
        let plain = Network::from_parts(
            Base::OnHand,
            plain.input_weights.clone(),
            plain.input_bias.clone(),
            plain.output_weights.clone(),
            plain.output_bias,
            Vec::new(),
            0,
        );
        let acc = plain.refresh(&pos);
        let want = plain.output(&acc, pos.side(), &super::super::NO_DENSE);
        for width in 1..=8 {
            let net = dense_network(8, width);
            let got = net.output(&acc, pos.side(), &super::super::NO_DENSE);
            assert!((got - want).abs() <= 1, "width {width}: {got} against {want}");
        }
    }

    /// The dense inputs move the score, a tracker scores as from scratch
    /// with them, and the score of a mirrored board is the same.
    #[test]
    fn dense_inputs_change_the_score_and_a_tracker_agrees() {
        use arimaa_core::parse_position;
        let net = dense_network(8, 3);
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
