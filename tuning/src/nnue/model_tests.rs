//! Tests of the float network: learning, shrinkage, quantisation.

use super::*;
use crate::nnue::data::sample;
use arimaa_core::{parse_position, Position};

/// A camel up (labelled +3 R) and a camel down (-3 R), 32 samples of
/// each, and the two positions.
fn camel_data() -> (Vec<Sample>, Position, Position) {
    let full = "g [rrrrrrrrhdcemcdh                                HDCMECDHRRRRRRRR]";
    let up = parse_position(&full.replace('m', " ")).unwrap();
    let down = parse_position(&full.replace('M', " ")).unwrap();
    let data = (0..64)
        .map(|i| {
            if i % 2 == 0 {
                sample(&up, 3000.0, i)
            } else {
                sample(&down, -3000.0, i)
            }
        })
        .collect();
    (data, up, down)
}

/// How both tests train on [`camel_data`]: eight units, 60 epochs of
/// four steps, with the given decay.
fn camel_config(decay: f32) -> TrainConfig {
    TrainConfig {
        hidden: 8,
        base: Base::Alone,
        epochs: 60,
        batch: 16,
        rate: 0.01,
        decay,
        k: 200.0,
        k_teacher: 2000.0,
        seed: 3,
    }
}

/// With the output weights' shrinkage on, the training error does not
/// climb back over the last epochs as the step size falls: the
/// shrinkage falls with it. (At a fixed shrinkage the error ended at
/// 1.8 times its best on this data.)
#[test]
fn weight_decay_falls_with_the_step_size() {
    let (data, _, _) = camel_data();
    let config = camel_config(0.01);
    let mut model = Model::new(8, Base::Alone, 1);
    let mut losses = Vec::new();
    model.train(&data, &config, |_, m| losses.push(m.loss(&data, &config)));
    let best = losses.iter().copied().fold(f64::INFINITY, f64::min);
    let last = *losses.last().unwrap();
    assert!(last <= best * 1.1, "best {best}, last {last}: {losses:?}");
}

/// Trained to tell "a camel up" from "a camel down", the network learns
/// it, and its quantised form scores as the float one does.
#[test]
fn learns_a_material_difference_and_quantises_faithfully() {
    let (data, up, down) = camel_data();
    let config = camel_config(0.0);
    let mut model = Model::new(8, Base::Alone, 1);
    let before = model.loss(&data, &config);
    model.train(&data, &config, |_, _| {});
    let after = model.loss(&data, &config);
    assert!(after < before / 10.0, "{before} -> {after}");
    assert!(model.score(&data[0]) > 150.0 && model.score(&data[1]) < -150.0);
    let net = model.quantise();
    for (s, pos) in [(&data[0], &up), (&data[1], &down)] {
        let float = model.score(s);
        let int = net.evaluate(pos) as f32;
        assert!((float - int).abs() < 3.0, "float {float} quantised {int}");
    }
}

/// With the hand evaluation's features as dense inputs the network
/// learns the same, its dense weights move, and the engine's form of it
/// (raw features, rows divided by their scale) scores as the float one.
#[test]
fn dense_inputs_train_and_quantise_faithfully() {
    let (data, up, down) = camel_data();
    let config = camel_config(0.0);
    let mut model = Model::new(8, Base::Alone, 1).with_dense(&data, 3, 1);
    assert_eq!(model.dense, arimaa_search::nnue::DENSE);
    let start = model.wd.clone();
    model.train(&data, &config, |_, _| {});
    assert!(
        model.wd.iter().zip(&start).any(|(a, b)| a != b),
        "dense weights trained"
    );
    let net = model.quantise();
    assert!(net.reads_dense());
    for (s, pos) in [(&data[0], &up), (&data[1], &down)] {
        let float = model.score(s);
        let int = net.evaluate(pos) as f32;
        assert!((float - int).abs() < 3.0, "float {float} quantised {int}");
    }
}
