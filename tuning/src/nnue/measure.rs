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

/// Positions of one root below this are not measured within it: a rank
/// correlation of a handful says nothing.
pub const ROOT_MIN: usize = 10;

/// Scores and labels beyond this many centi-rabbits are clipped here
/// before [`within_roots`] compares them: a won or lost leaf (a goal, a
/// rabbit count of zero) would otherwise outweigh the rest of its root.
pub const WITHIN_CLIP: f64 = 1500.0;

/// How an evaluation agrees with the teacher among the positions of one
/// root, averaged over the roots of [`ROOT_MIN`] positions or more.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WithinRoots {
    /// Roots measured.
    pub roots: usize,
    /// Positions in them.
    pub positions: usize,
    /// Spearman's rank correlation within a root, averaged.
    pub spearman: f64,
    /// The standard deviation, within a root, of the evaluation less the
    /// teacher (centi-rabbits; each root's mean difference removed, so a
    /// constant offset costs nothing), pooled over the roots.
    pub spread: f64,
}

/// [`WithinRoots`] of `scores` (centi-rabbits) against `labels` (teacher
/// units, `units` a centi-rabbit) grouped by `roots`; `None` when no root
/// has [`ROOT_MIN`] positions. The held-out figures over all positions are
/// mostly the differences between games, which every network gets right;
/// a search chooses between the positions of one root, and there networks
/// that agree alike over all positions differ (docs/results.md, session 65).
#[must_use]
pub fn within_roots(scores: &[f64], labels: &[f64], roots: &[u64], units: f64) -> Option<WithinRoots> {
    // Ordered, so that the sums (and the last digits printed) are the same every run.
    let mut groups: std::collections::BTreeMap<u64, Vec<(f64, f64)>> = std::collections::BTreeMap::new();
    let clip = |x: f64| x.clamp(-WITHIN_CLIP, WITHIN_CLIP);
    for ((&s, &l), &r) in scores.iter().zip(labels).zip(roots) {
        groups.entry(r).or_default().push((clip(s), clip(l / units)));
    }
    let (mut measured, mut count, mut positions, mut rho, mut squares) = (0, 0, 0, 0.0, 0.0);
    for group in groups.values().filter(|g| g.len() >= ROOT_MIN) {
        measured += 1;
        let (a, b): (Vec<f64>, Vec<f64>) = group.iter().copied().unzip();
        let r = spearman(&a, &b);
        // A root whose scores or labels are all equal has no ranking to agree on.
        if r.is_finite() {
            rho += r;
            count += 1;
        }
        let d: Vec<f64> = group.iter().map(|(s, l)| s - l).collect();
        let mean = d.iter().sum::<f64>() / d.len() as f64;
        squares += d.iter().map(|x| (x - mean).powi(2)).sum::<f64>();
        positions += group.len();
    }
    (positions > 0).then(|| WithinRoots {
        roots: measured,
        positions,
        spearman: rho / count.max(1) as f64,
        spread: (squares / positions as f64).sqrt(),
    })
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

    #[test]
    fn within_roots_removes_each_roots_offset_and_skips_small_roots() {
        // Two roots of 12: the scores are the labels (teacher units 10 a
        // centi-rabbit) plus a constant per root and, in the second, a
        // difference of +6 and -6 in turn; a third root of 3 is too small.
        let mut scores = Vec::new();
        let mut labels = Vec::new();
        let mut roots = Vec::new();
        for i in 0..12 {
            let l = f64::from(i) * 50.0;
            labels.extend([l * 10.0, l * 10.0]);
            scores.extend([l + 30.0, l - 200.0 + if i % 2 == 0 { 6.0 } else { -6.0 }]);
            roots.extend([1, 2]);
        }
        labels.extend([0.0, 10.0, 20.0]);
        scores.extend([500.0, -500.0, 0.0]);
        roots.extend([3, 3, 3]);
        let w = within_roots(&scores, &labels, &roots, 10.0).unwrap();
        assert_eq!((w.roots, w.positions), (2, 24));
        // Root 1 differs by 0 around its mean, root 2 by 6: sqrt(12·36 / 24).
        assert!((w.spread - 18f64.sqrt()).abs() < 1e-9, "{}", w.spread);
        assert!((w.spearman - 1.0).abs() < 1e-12, "steps of 50 outrank ±6");
        // Clipped: a leaf the teacher calls won far beyond the clip counts as the clip.
        let far = within_roots(&[1500.0; 10], &[1e7; 10], &[7; 10], 10.0).unwrap();
        assert_eq!(far.spread, 0.0);
        assert!(within_roots(&[1.0, 2.0], &[1.0, 2.0], &[1, 1], 1.0).is_none());
    }
}
