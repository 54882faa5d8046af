//! Evaluation, goal detection and a fixed-depth search on the bench positions.

use arimaa_core::{parse_position, Game, Position};
use arimaa_search::bench::POSITIONS;
use arimaa_search::eval::evaluate;
use arimaa_search::goal::can_goal;
use arimaa_search::threats::best_capture;
use arimaa_search::turn_captures::best_turn_capture;
use arimaa_search::{Searcher, TimeManager, TransTable, Weights};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn positions() -> Vec<Position> {
    POSITIONS.iter().filter_map(|p| parse_position(p).ok()).collect()
}

/// `f` summed over every position and the same board with the other side
/// to move (at the start of its turn).
fn over_both_sides<T: std::iter::Sum>(positions: &[Position], f: impl Fn(&Position) -> T) -> T {
    positions
        .iter()
        .flat_map(|p| {
            let mut q = *p;
            q.end_turn();
            [*p, q]
        })
        .map(|p| f(black_box(&p)))
        .sum()
}

fn bench(c: &mut Criterion) {
    let positions = positions();
    c.bench_function("eval/bench_positions", |b| {
        b.iter(|| {
            positions
                .iter()
                .map(|p| evaluate(black_box(p), &Weights::default()))
                .sum::<i32>()
        })
    });
    c.bench_function("goal/bench_positions_both_sides", |b| {
        b.iter(|| over_both_sides(&positions, |p| usize::from(can_goal(p))))
    });
    // The two-step patterns are the reference for the whole-turn search,
    // which asks them at every position it reaches.
    let value = |k: arimaa_core::Kind| k.index() as i32 * 100 + 100;
    c.bench_function("captures/two_step_bench_positions_both_sides", |b| {
        b.iter(|| over_both_sides(&positions, |p| best_capture(p, p.side(), value)))
    });
    c.bench_function("captures/whole_turn_bench_positions_both_sides", |b| {
        b.iter(|| over_both_sides(&positions, |p| best_turn_capture(p, value, value)))
    });
    let game = Game::from_position(positions[0]);
    let tt = TransTable::new(16);
    c.bench_function("search/standard_depth6", |b| {
        b.iter(|| {
            tt.clear();
            let time = TimeManager::unlimited();
            Searcher::new(black_box(&game), &time, &tt)
                .depth(6)
                .run(&mut |_| {})
                .map(|r| r.nodes)
        })
    });
}

criterion_group! {
    name = benches;
    config = Criterion::default().sample_size(10);
    targets = bench
}
criterion_main!(benches);
