//! Held-out measures of an evaluation against the teacher's labels.

/// Spearman's rank correlation (ties get their mean rank).
#[must_use]
pub fn spearman(a: &[f64], b: &[f64]) -> f64 {
    pearson(&ranks(a), &ranks(b))
}

fn ranks(x: &[f64]) -> Vec<f64> {
    let mut idx: Vec<usize> = (0..x.len()).collect();
    idx.sort_by(|&i, &j| x[i].total_cmp(&x[j]));
    let mut r = vec![0.0; x.len()];
    let mut i = 0;
    while i < idx.len() {
        let mut j = i;
        while j + 1 < idx.len() && x[idx[j + 1]] == x[idx[i]] {
            j += 1;
        }
        let mean = (i + j) as f64 / 2.0;
        for &k in &idx[i..=j] {
            r[k] = mean;
        }
        i = j + 1;
    }
    r
}

/// Pearson's correlation.
#[must_use]
pub fn pearson(a: &[f64], b: &[f64]) -> f64 {
    let n = a.len() as f64;
    let (ma, mb) = (a.iter().sum::<f64>() / n, b.iter().sum::<f64>() / n);
    let (mut sab, mut saa, mut sbb) = (0.0, 0.0, 0.0);
    for (x, y) in a.iter().zip(b) {
        sab += (x - ma) * (y - mb);
        saa += (x - ma) * (x - ma);
        sbb += (y - mb) * (y - mb);
    }
    sab / (saa * sbb).sqrt()
}

fn sigmoid(x: f64) -> f64 {
    1.0 / (1.0 + (-x).exp())
}

/// Mean squared error between `σ(score / k)` and `σ(label / k_teacher)`.
#[must_use]
pub fn prob_mse(scores: &[f64], labels: &[f64], k: f64, k_teacher: f64) -> f64 {
    scores
        .iter()
        .zip(labels)
        .map(|(s, l)| (sigmoid(s / k) - sigmoid(l / k_teacher)).powi(2))
        .sum::<f64>()
        / scores.len().max(1) as f64
}

/// The `k` that minimises [`prob_mse`] (golden section over `ln k`): an
/// evaluation is not blamed for counting in other units than the teacher.
#[must_use]
pub fn best_k(scores: &[f64], labels: &[f64], k_teacher: f64) -> f64 {
    let f = |lnk: f64| prob_mse(scores, labels, lnk.exp(), k_teacher);
    let (mut a, mut b) = (1f64.ln(), 1e5f64.ln());
    let g = (5f64.sqrt() - 1.0) / 2.0;
    for _ in 0..60 {
        let (c, d) = (b - g * (b - a), a + g * (b - a));
        if f(c) < f(d) {
            b = d;
        } else {
            a = c;
        }
    }
    ((a + b) / 2.0).exp()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_cases() {
        let a = [1.0, 2.0, 3.0, 4.0];
        assert!((spearman(&a, &[10.0, 20.0, 30.0, 40.0]) - 1.0).abs() < 1e-12);
        assert!((spearman(&a, &[4.0, 3.0, 2.0, 1.0]) + 1.0).abs() < 1e-12);
        // Ranks 1,2,3,4 against 1,3,2,4: 1 - 6·2/(4·15) = 0.8.
        assert!((spearman(&a, &[1.0, 3.0, 2.0, 4.0]) - 0.8).abs() < 1e-12);
        assert_eq!(ranks(&[5.0, 1.0, 5.0]), vec![1.5, 0.0, 1.5]);
        assert_eq!(prob_mse(&[0.0], &[0.0], 1.0, 1.0), 0.0);
        // σ(0) = 0.5 against σ(∞) = 1: 0.25.
        assert!((prob_mse(&[0.0], &[1e9], 1.0, 1.0) - 0.25).abs() < 1e-12);
        // Scores that are the labels halved are best read with k halved.
        let labels: Vec<f64> = (-50..50).map(|i| f64::from(i) * 40.0).collect();
        let half: Vec<f64> = labels.iter().map(|l| l / 2.0).collect();
        assert!((best_k(&half, &labels, 1000.0) - 500.0).abs() < 1.0);
    }
}
