//! Zobrist keys, generated at compile time so that hashes are the same in every
//! build and on every machine (the bench signature and stored tables rely on it).

/// splitmix64: a tiny, well-mixed generator usable in `const` context.
const fn splitmix(state: u64) -> (u64, u64) {
    let s = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (s, z ^ (z >> 31))
}

const fn table<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, v) = splitmix(state);
        state = s;
        out[i] = v;
        i += 1;
    }
    out
}

/// One key per (piece index 0..12, square): `PIECE[piece * 64 + square]`.
pub const PIECE: [u64; 12 * 64] = table(0x4172_696D_6161_0001);
/// Xored in when silver is to move.
pub const SIDE: u64 = table::<1>(0x4172_696D_6161_0002)[0];
/// One key per number of steps left in the turn (0..=4).
pub const STEPS: [u64; 5] = table(0x4172_696D_6161_0003);
/// Pending pull source: `PULL[kind * 64 + square]` (the puller's kind and vacated square).
pub const PULL: [u64; 6 * 64] = table(0x4172_696D_6161_0004);
/// Pending push: `PUSH[kind * 64 + square]` (the pushed kind and the square to fill).
pub const PUSH: [u64; 6 * 64] = table(0x4172_696D_6161_0005);

/// The key of a piece (index 0..12) on a square (0..64).
#[inline]
#[must_use]
pub const fn piece(piece_index: usize, square: usize) -> u64 {
    PIECE[piece_index * 64 + square]
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_distinct() {
        let mut all: Vec<u64> = PIECE.iter().chain(&STEPS).chain(&PULL).chain(&PUSH).copied().collect();
        all.push(SIDE);
        let n = all.len();
        all.sort_unstable();
        all.dedup();
        assert_eq!(all.len(), n);
        assert!(all.iter().all(|&k| k != 0));
    }
}
