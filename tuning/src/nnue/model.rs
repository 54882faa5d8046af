//! The network in floating point: forward, gradients, Adam, quantisation.
//!
//! `out = b2 + w2 · [clip(b1 + Σ W1[f] over the mover's features),
//! clip(b1 + Σ W1[f] over the other's)]`, in rabbits, clip to 0..1 (what the
//! engine's quantised form computes). The score in centi-rabbits is
//! `100 × out`, plus the hand evaluation when the network is trained on top
//! of it. The loss is the squared error between `σ(score / K)` and the
//! teacher's `σ(label / K_teacher)`: an error in win probability, so a
//! decided position costs no more than an even one.

use super::data::Sample;
use arimaa_search::nnue::{Base, Network, INPUTS, OUTPUT_SCALE, QA, QB};
use rayon::prelude::*;

/// How to train.
#[derive(Clone, Debug)]
pub struct TrainConfig {
    /// First-layer width per view.
    pub hidden: usize,
    /// Alone, or a correction added to the hand evaluation.
    pub base: Base,
    /// Passes over the training positions.
    pub epochs: usize,
    /// Positions per gradient step.
    pub batch: usize,
    /// Adam's step size at the start (it falls linearly to a tenth).
    pub rate: f32,
    /// Weight decay on the output weights, per step at the first step
    /// size (it falls with the step size, as in AdamW).
    pub decay: f32,
    /// Scale of our scores in the win probability `σ(score / k)`.
    pub k: f32,
    /// Scale of the teacher's labels, `σ(label / k_teacher)`.
    pub k_teacher: f32,
    /// Seed of the initial weights and the shuffles.
    pub seed: u64,
}

/// The float network.
#[derive(Clone, Debug)]
pub struct Model {
    hidden: usize,
    base: Base,
    /// Dense inputs (the hand evaluation's features), 0 when unused.
    dense: usize,
    /// Each dense input's divisor (its spread over the training set).
    dscale: Vec<f32>,
    /// How many of the first units the dense inputs feed.
    dense_width: usize,
    /// The dense inputs' first-layer weights: `dense` rows of `dense_width`
    /// for the side to move's view, then as many for the other's.
    wd: Vec<f32>,
    w1: Vec<f32>,
    b1: Vec<f32>,
    w2: Vec<f32>,
    b2: f32,
}

fn sigmoid(x: f32) -> f32 {
    1.0 / (1.0 + (-x).exp())
}

/// A small xorshift generator: reproducible without a dependency.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    fn uniform(&mut self) -> f32 {
        (self.next() >> 40) as f32 / (1u64 << 24) as f32
    }
}

impl Model {
    /// Small random first-layer weights, biases that put every unit in its
    /// linear range, and a zero output (so a network on the hand evaluation
    /// starts as the hand evaluation).
    #[must_use]
    pub fn new(hidden: usize, base: Base, seed: u64) -> Model {
        let mut rng = Rng(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1);
        let w1 = (0..INPUTS * hidden).map(|_| (rng.uniform() - 0.5) * 0.2).collect();
        Model {
            hidden,
            base,
            dense: 0,
            dscale: Vec::new(),
            dense_width: 0,
            wd: Vec::new(),
            w1,
            b1: vec![0.5; hidden],
            w2: vec![0.0; 2 * hidden],
            b2: 0.0,
        }
    }

    /// Makes the network read the samples' dense inputs too, into its first
    /// `width` units (at most the layer's), each input divided by its spread
    /// over `samples` (small weights: it starts about as before).
    pub fn with_dense(mut self, samples: &[Sample], width: usize, seed: u64) -> Model {
        let width = width.clamp(1, self.hidden);
        let n = samples.first().map_or(0, |s| s.dense.len());
        let count = samples.len().max(1) as f64;
        self.dscale = (0..n)
            .map(|i| {
                let mean = samples.iter().map(|s| f64::from(s.dense[i])).sum::<f64>() / count;
                let var = samples
                    .iter()
                    .map(|s| (f64::from(s.dense[i]) - mean).powi(2))
                    .sum::<f64>()
                    / count;
                if var > 1e-12 {
                    var.sqrt() as f32
                } else {
                    1.0
                }
            })
            .collect();
        // An input that is the same everywhere can learn nothing: its rows
        // start and stay at zero, which tells the engine not to compute it.
        let live: Vec<bool> = (0..n)
            .map(|i| samples.iter().any(|s| s.dense[i] != samples[0].dense[i]))
            .collect();
        let mut rng = Rng(seed.wrapping_mul(0x2545_f491_4f6c_dd1d) | 1);
        self.wd = (0..2 * n * width)
            .map(|j| {
                let r = (rng.uniform() - 0.5) * 0.02;
                if live[(j / width) % n] {
                    r
                } else {
                    0.0
                }
            })
            .collect();
        self.dense = n;
        self.dense_width = width;
        self
    }

    fn accumulate(&self, features: &[u16], dense: &[f32], view: usize) -> Vec<f32> {
        let mut acc = self.b1.clone();
        for &f in features {
            let row = &self.w1[usize::from(f) * self.hidden..][..self.hidden];
            acc.iter_mut().zip(row).for_each(|(a, w)| *a += w);
        }
        for (i, (&x, &scale)) in dense.iter().zip(&self.dscale).enumerate() {
            let x = x / scale;
            if x != 0.0 {
                let row = &self.wd[(view * self.dense + i) * self.dense_width..][..self.dense_width];
                acc.iter_mut().zip(row).for_each(|(a, w)| *a += w * x);
            }
        }
        acc
    }

    /// The score in centi-rabbits, and the pre-activations of both views.
    fn forward(&self, s: &Sample) -> (f32, [Vec<f32>; 2]) {
        let accs = [
            self.accumulate(&s.views[0], &s.dense, 0),
            self.accumulate(&s.views[1], &s.dense, 1),
        ];
        let mut out = self.b2;
        for (acc, w) in accs.iter().zip(self.w2.chunks(self.hidden)) {
            out += acc.iter().zip(w).map(|(a, w)| a.clamp(0.0, 1.0) * w).sum::<f32>();
        }
        (self.base_of(s) + OUTPUT_SCALE as f32 * out, accs)
    }

    fn base_of(&self, s: &Sample) -> f32 {
        match self.base {
            Base::Alone => 0.0,
            Base::OnHand => s.hand,
        }
    }

    /// The score of one sample in centi-rabbits.
    #[must_use]
    pub fn score(&self, s: &Sample) -> f32 {
        self.forward(s).0
    }

    /// Mean squared error in win probability over `samples`.
    #[must_use]
    pub fn loss(&self, samples: &[Sample], config: &TrainConfig) -> f64 {
        let sum: f64 = samples
            .par_iter()
            .map(|s| {
                let d = sigmoid(self.score(s) / config.k) - sigmoid(s.label / config.k_teacher);
                f64::from(d * d)
            })
            .sum();
        sum / samples.len().max(1) as f64
    }

    /// Trains on `train`, calling `report(epoch, model)` after each pass.
    pub fn train(&mut self, train: &[Sample], config: &TrainConfig, mut report: impl FnMut(usize, &Model)) {
        let mut order: Vec<usize> = (0..train.len()).collect();
        let mut rng = Rng(config.seed | 1);
        let mut adam = Adam::new(self);
        // One gradient buffer per thread for the whole run: allocating them
        // per step (each is as large as the first layer) spent more time in
        // the kernel mapping and unmapping memory than in the arithmetic.
        let mut grads: Vec<Model> = (0..rayon::current_num_threads().max(1)).map(|_| self.zeros()).collect();
        let steps = (config.epochs * train.len().div_ceil(config.batch)).max(1);
        let mut step = 0;
        for epoch in 0..config.epochs {
            for i in (1..order.len()).rev() {
                order.swap(i, (rng.next() % (i as u64 + 1)) as usize);
            }
            for batch in order.chunks(config.batch) {
                self.gradient(train, batch, config, &mut grads);
                let share = 1.0 - 0.9 * step as f32 / steps as f32;
                // The shrinkage falls with the step size: held fixed, it
                // outpaced Adam's shrinking steps late in a run and pulled
                // the output weights down (the training error rose over the
                // last epochs).
                adam.step(self, &grads[0], config.rate * share, config.decay * share);
                step += 1;
            }
            report(epoch + 1, self);
        }
    }

    /// The gradient of the batch's mean loss into `grads[0]`, each buffer
    /// summing a share of the batch on its own thread.
    fn gradient(&self, train: &[Sample], batch: &[usize], config: &TrainConfig, grads: &mut [Model]) {
        let chunk = batch.len().div_ceil(grads.len()).max(1);
        grads.par_iter_mut().enumerate().for_each(|(i, g)| {
            g.clear();
            for &s in batch.iter().skip(i * chunk).take(chunk) {
                self.backward(&train[s], config, g);
            }
        });
        if let Some((first, rest)) = grads.split_first_mut() {
            for other in rest.iter() {
                first.add(other);
            }
            first.scale(1.0 / batch.len() as f32);
        }
    }

    fn backward(&self, s: &Sample, config: &TrainConfig, g: &mut Model) {
        let (score, accs) = self.forward(s);
        let p = sigmoid(score / config.k);
        let t = sigmoid(s.label / config.k_teacher);
        // d loss / d out, where score = base + 100 out.
        let d_out = 2.0 * (p - t) * p * (1.0 - p) / config.k * OUTPUT_SCALE as f32;
        g.b2 += d_out;
        for (view, acc) in accs.iter().enumerate() {
            let w2 = &self.w2[view * self.hidden..][..self.hidden];
            let g2 = &mut g.w2[view * self.hidden..][..self.hidden];
            let mut d_acc = vec![0.0f32; self.hidden];
            for j in 0..self.hidden {
                let a = acc[j];
                g2[j] += d_out * a.clamp(0.0, 1.0);
                if a > 0.0 && a < 1.0 {
                    d_acc[j] = d_out * w2[j];
                }
            }
            g.b1.iter_mut().zip(&d_acc).for_each(|(b, d)| *b += d);
            for &f in &s.views[view] {
                let row = &mut g.w1[usize::from(f) * self.hidden..][..self.hidden];
                row.iter_mut().zip(&d_acc).for_each(|(w, d)| *w += d);
            }
            for (i, (&x, &scale)) in s.dense.iter().zip(&self.dscale).enumerate() {
                let x = x / scale;
                if x != 0.0 {
                    let row = &mut g.wd[(view * self.dense + i) * self.dense_width..][..self.dense_width];
                    row.iter_mut().zip(&d_acc).for_each(|(w, d)| *w += d * x);
                }
            }
        }
    }

    fn zeros(&self) -> Model {
        Model {
            hidden: self.hidden,
            base: self.base,
            dense: self.dense,
            dscale: self.dscale.clone(),
            dense_width: self.dense_width,
            wd: vec![0.0; self.wd.len()],
            w1: vec![0.0; self.w1.len()],
            b1: vec![0.0; self.hidden],
            w2: vec![0.0; 2 * self.hidden],
            b2: 0.0,
        }
    }

    fn clear(&mut self) {
        for a in self.params_mut() {
            a.fill(0.0);
        }
        self.b2 = 0.0;
    }

    fn add(&mut self, other: &Model) {
        for (a, b) in self.params_mut().into_iter().zip(other.params()) {
            a.iter_mut().zip(b).for_each(|(x, y)| *x += y);
        }
        self.b2 += other.b2;
    }

    fn scale(&mut self, by: f32) {
        for a in self.params_mut() {
            a.iter_mut().for_each(|x| *x *= by);
        }
        self.b2 *= by;
    }

    fn params(&self) -> [&[f32]; 4] {
        [&self.w1, &self.b1, &self.w2, &self.wd]
    }

    fn params_mut(&mut self) -> [&mut [f32]; 4] {
        [&mut self.w1, &mut self.b1, &mut self.w2, &mut self.wd]
    }

    /// The engine's quantised network.
    #[must_use]
    pub fn quantise(&self) -> Network {
        let q = |x: f32, by: i32| (x * by as f32).round().clamp(-32767.0, 32767.0) as i16;
        Network::from_parts(
            self.base,
            self.w1.iter().map(|&w| q(w, QA)).collect(),
            self.b1.iter().map(|&b| q(b, QA)).collect(),
            self.w2.iter().map(|&w| q(w, QB)).collect(),
            (self.b2 * (QA * QB) as f32).round() as i32,
            // The engine feeds raw features: each row divided by its scale.
            self.wd
                .chunks(self.dense_width.max(1))
                .enumerate()
                .flat_map(|(row, w)| {
                    let scale = self.dscale[row % self.dense.max(1)];
                    w.iter().map(move |&w| w / scale)
                })
                .collect(),
            self.dense_width,
        )
    }
}

/// Adam's moment estimates.
struct Adam {
    m: Model,
    v: Model,
    t: i32,
}

impl Adam {
    fn new(model: &Model) -> Adam {
        Adam {
            m: model.zeros(),
            v: model.zeros(),
            t: 0,
        }
    }

    fn step(&mut self, model: &mut Model, grad: &Model, rate: f32, decay: f32) {
        const B1: f32 = 0.9;
        const B2: f32 = 0.999;
        self.t += 1;
        let c1 = 1.0 - B1.powi(self.t);
        let c2 = 1.0 - B2.powi(self.t);
        let update = |w: &mut f32, g: f32, m: &mut f32, v: &mut f32| {
            *m = B1 * *m + (1.0 - B1) * g;
            *v = B2 * *v + (1.0 - B2) * g * g;
            *w -= rate * (*m / c1) / ((*v / c2).sqrt() + 1e-8);
        };
        let ms = self.m.params_mut();
        let vs = self.v.params_mut();
        for (((w, g), m), v) in model.params_mut().into_iter().zip(grad.params()).zip(ms).zip(vs) {
            for i in 0..w.len() {
                update(&mut w[i], g[i], &mut m[i], &mut v[i]);
            }
        }
        update(&mut model.b2, grad.b2, &mut self.m.b2, &mut self.v.b2);
        // The output weights shrink a little each step: with few labels a
        // correction should stay small unless the data insists.
        model.w2.iter_mut().for_each(|w| *w *= 1.0 - decay);
    }
}

#[cfg(test)]
#[path = "model_tests.rs"]
mod tests;
