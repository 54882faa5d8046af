//! Turn and step generation on the oracle data's positions (`crates/arimaa-core/tests/data`).

use arimaa_core::{parse_position, Position, StepList, TurnGen};
use criterion::{criterion_group, criterion_main, Criterion};
use std::hint::black_box;

fn fixture_positions() -> Vec<Position> {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../crates/arimaa-core/tests/data/movegen.jsonl"
    );
    // A missing file is a broken checkout: timing the standard position alone
    // instead would report a figure that means something else.
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("cannot read {path}: {e}"));
    text.lines()
        .map(|l| {
            let rec: serde_json::Value =
                serde_json::from_str(l).unwrap_or_else(|e| panic!("{path}: not JSON ({e}): {l}"));
            let line = rec["setposition"]
                .as_str()
                .unwrap_or_else(|| panic!("{path}: no setposition in {l}"));
            let board = line.strip_prefix("setposition ").unwrap_or(line);
            parse_position(board).unwrap_or_else(|e| panic!("{path}: {e}: {board}"))
        })
        .collect()
}

fn bench(c: &mut Criterion) {
    let positions = fixture_positions();
    let mut gen = TurnGen::new();
    c.bench_function("turns/standard", |b| {
        b.iter(|| gen.count(black_box(&Position::standard())))
    });
    c.bench_function("turns/fixtures_all", |b| {
        b.iter(|| positions.iter().map(|p| gen.count(black_box(p))).sum::<usize>())
    });
    c.bench_function("steps/fixtures_all", |b| {
        let mut list = StepList::new();
        b.iter(|| {
            positions
                .iter()
                .map(|p| {
                    list.clear();
                    black_box(p).legal_steps(&mut list);
                    list.len()
                })
                .sum::<usize>()
        })
    });
}

criterion_group!(benches, bench);
criterion_main!(benches);
