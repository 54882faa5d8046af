//! `arimaa bench`: the node-count signature and nodes per second.

use arimaa_core::format_move;
use arimaa_search::{bench, Params};
use clap::Args;
use std::process::ExitCode;

#[derive(Args, Debug)]
pub struct BenchArgs {
    /// Search depth in steps (the root turn counts 4).
    #[arg(long, default_value_t = bench::DEFAULT_DEPTH, value_parser = clap::value_parser!(u32).range(4..=40))]
    depth: u32,
    /// Search threads (lazy SMP); node counts are a signature only with 1.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
}

pub fn run(args: &BenchArgs, params: &Params) -> ExitCode {
    let lines = bench::run(args.depth, args.threads as usize, params, |l| {
        say!(
            "{:>10} nodes {:>8.1} ms  score {:>6}  {}  {}",
            l.nodes,
            l.elapsed.as_secs_f64() * 1e3,
            l.score,
            l.best.map_or_else(|| "-".to_string(), |m| format_move(&l.root, &m)),
            l.position
        );
    });
    let nodes: u64 = lines.iter().map(|l| l.nodes).sum();
    let secs: f64 = lines.iter().map(|l| l.elapsed.as_secs_f64()).sum();
    let (cuts, first) = lines
        .iter()
        .fold((0, 0), |(c, f), l| (c + l.cuts.total, f + l.cuts.first));
    // Before the signature line, which stays last for scripts and the test.
    say!(
        "first-move cut-offs {:.1} % of {cuts}",
        100.0 * first as f64 / cuts.max(1) as f64
    );
    say!("{nodes} nodes {} nps", (nodes as f64 / secs.max(1e-9)) as u64);
    ExitCode::SUCCESS
}
