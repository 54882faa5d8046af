//! `bench`: fixed positions searched to a fixed depth with one thread and a
//! fixed table size. The total node count is a signature of the search: it is
//! the same on every run and machine, and changes only when the search does.

use crate::params::Params;
use crate::search::Searcher;
use crate::time::TimeManager;
use crate::tt::TransTable;
use arimaa_core::{parse_position, Game, Move, Position};
use std::time::{Duration, Instant};

/// The bench positions (AEI form): the standard opening and positions from
/// random and constructed games of every phase.
pub const POSITIONS: [&str; 10] = [
    "g [rrrrrrrrhdcmecdh                                HDCMECDHRRRRRRRR]",
    "g [rrcrcrdrdrhrrmhe                                RRCRRDRRMHRCRDHE]",
    "g [e d rrmrr chcrd r h r  r                C       R HRR RRR  M CED]",
    "s [     cm dr rr d Mr     h DR R H       r R      H R R     RC  EC ]",
    "g [ hh r  d C     rr    er   r r RmRrRcDd cR  R  H                H]",
    "s [rrcrrd  d r  c r       e       R r      R R D E RHC   R MRCR  H ]",
    "s [   rhh   c  r  mr     r      Rer r rCr        M H   EDRR C   R  ]",
    "g [rrcrrd  dr  c  r      he r     R        R   D E RHCR   RMR CRH  ]",
    "s [  e   c R d    r       r  R   r dC rR RmH    RCD  E R     H     ]",
    "g [       h      cM   d         r h   rC RRR     R Er rR      H   C]",
];

/// Default bench depth in steps (the root turn counts 4).
pub const DEFAULT_DEPTH: u32 = 7;
/// The total node count of `arimaa bench` (default depth, one thread, default
/// parameters): the search's signature, checked by a test of the binary.
/// A change of search or evaluation behaviour changes it; then update it
/// here, on purpose, in the commit that makes the change, whose message says
/// `Bench: <N>`.
pub const SIGNATURE: u64 = 788_095;
/// Table size for the bench, in MB.
pub const HASH_MB: usize = 16;

/// One position's result.
#[derive(Clone, Debug)]
pub struct BenchLine {
    /// The position searched, as given.
    pub position: &'static str,
    /// The same, parsed: the move found is played from it.
    pub root: Position,
    /// Nodes searched.
    pub nodes: u64,
    /// The move found (`None`: no legal move).
    pub best: Option<Move>,
    /// Its score.
    pub score: i32,
    /// Time taken.
    pub elapsed: Duration,
    /// Cut-offs of the deciding thread.
    pub cuts: crate::search::Cuts,
}

/// Searches every bench position to `depth` with `threads` threads and the
/// weights `params`; `each` sees each result as it comes. With one thread and
/// the default parameters the node counts are the search's signature; with
/// more threads they vary from run to run.
pub fn run(depth: u32, threads: usize, params: &Params, mut each: impl FnMut(&BenchLine)) -> Vec<BenchLine> {
    let tt = TransTable::new(HASH_MB);
    let mut out = Vec::new();
    for position in POSITIONS {
        let Ok(pos) = parse_position(position) else { continue };
        tt.clear();
        let game = Game::from_position(pos);
        let time = TimeManager::unlimited();
        let start = Instant::now();
        let result = if threads > 1 {
            crate::smp::search(
                &game,
                &time,
                &tt,
                threads,
                Some(depth),
                params,
                crate::smp::Watch::iterations(&mut |_| {}),
            )
        } else {
            Searcher::new(&game, &time, &tt)
                .params(params)
                .depth(depth)
                .run(&mut |_| {})
        };
        let line = BenchLine {
            position,
            root: pos,
            nodes: result.as_ref().map_or(0, |r| r.nodes),
            best: result.as_ref().map(|r| r.best),
            score: result.as_ref().map_or(0, |r| r.score),
            elapsed: start.elapsed(),
            cuts: result.as_ref().map_or_else(Default::default, |r| r.cuts),
        };
        each(&line);
        out.push(line);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn positions_parse_and_the_signature_repeats() {
        for p in POSITIONS {
            parse_position(p).unwrap();
        }
        let a: Vec<u64> = run(5, 1, &crate::params::DEFAULT, |_| {})
            .iter()
            .map(|l| l.nodes)
            .collect();
        let b: Vec<u64> = run(5, 1, &crate::params::DEFAULT, |_| {})
            .iter()
            .map(|l| l.nodes)
            .collect();
        assert_eq!(a.len(), POSITIONS.len());
        assert_eq!(a, b);
        assert!(
            a.iter().all(|&n| n > 0),
            "no bench position is decided before searching"
        );
    }
}
