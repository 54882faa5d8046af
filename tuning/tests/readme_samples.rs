//! The README's sample plots, drawn from synthetic data (no engine runs):
//! `cargo test --release -p arimaa-tuning --test readme_samples -- --ignored`
//! rewrites `docs/tune-paths.svg` and `docs/match-elo.svg`.

use arimaa_core::rng::XorShift;
use arimaa_match::stats::{Sprt, SprtDecision, Wdl};
use arimaa_tuning::run::tunables;
use arimaa_tuning::spsa::{trial, update, Gains, Signs};
use std::path::PathBuf;

fn docs(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../docs").join(name)
}

/// A result in [-1, 1] for plus against minus when strength peaks at `best`
/// and falls by one unit `scale` away from it.
fn play(plus: &[f64], minus: &[f64], best: &[f64], scale: &[f64], games: u32, rng: &mut XorShift) -> f64 {
    let strength = |v: &[f64]| -> f64 {
        -v.iter()
            .zip(best)
            .zip(scale)
            .map(|((x, b), s)| ((x - b) / s).powi(2))
            .sum::<f64>()
    };
    let p = 1.0 / (1.0 + (-(strength(plus) - strength(minus))).exp());
    let wins = (0..games)
        .filter(|_| (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p)
        .count() as f64;
    (2.0 * wins - f64::from(games)) / f64::from(games)
}

#[test]
#[ignore = "writes the README's sample plots under docs/"]
fn write_readme_samples() {
    let names: Vec<String> = ["mobility", "trap_strongest", "advance_pct", "open_lane_pct"]
        .iter()
        .map(|s| s.to_string())
        .collect();
    let (tunables, mut values) = tunables(&names).unwrap();
    let best = [4.0, 30.0, 220.0, 80.0];
    let scale: Vec<f64> = tunables.iter().map(|t| t.step * 4.0).collect();
    let gains = Gains::default();
    let (mut signs, mut rng) = (Signs(1), XorShift(7));
    let mut path = vec![(0, values.clone())];
    for k in 0..300 {
        let t = trial(&tunables, &values, &gains, k, &mut signs);
        let r = play(&t.plus, &t.minus, &best, &scale, 8, &mut rng);
        update(&tunables, &mut values, &gains, k, &t, r);
        path.push((k + 1, values.clone()));
    }
    let svg = arimaa_tuning::plot::svg(&tunables, &path).unwrap();
    std::fs::write(docs("tune-paths.svg"), svg).unwrap();

    // Engines 40 Elo apart under an SPRT [0, 10], until it decides.
    let sprt = Sprt::parse(&["elo0=0", "elo1=10"]).unwrap();
    let p = 1.0 / (1.0 + 10f64.powf(-40.0 / 400.0));
    let mut w = Wdl::default();
    let mut history = Vec::new();
    while history.len() < 2000 {
        if (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 <= p {
            w.wins += 1;
        } else {
            w.losses += 1;
        }
        history.push(w);
        if sprt.decide(&w) != SprtDecision::Continue {
            break;
        }
    }
    let svg = arimaa_match::plot::svg(["new", "old"], &history, Some(&sprt)).unwrap();
    std::fs::write(docs("match-elo.svg"), svg).unwrap();
}
