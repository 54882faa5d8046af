//! What each concept of the evaluation is worth: its group of weights
//! switched off, and the rest refitted (`fit --ablate`) or left as they
//! are (`agree --ablate`). The groups are those the weights are declared
//! in.

use super::measure::{measure, Measure};
use super::texel::{fit, Dataset, FitConfig};
use arimaa_search::params::{Group, Params, Weight, Weights};

/// For each group with a free weight: the held-out measure after zeroing
/// its free weights in `fitted` and refitting the other free ones.
#[must_use]
pub fn refits(train: &Dataset, held: &Dataset, fitted: &Weights, config: &FitConfig) -> Vec<(Group, Measure)> {
    Group::ALL
        .iter()
        .filter_map(|&group| {
            let off: Vec<Weight> = group.weights().filter(|w| config.free.contains(w)).collect();
            if off.is_empty() {
                return None;
            }
            let base = off.iter().fold(fitted.clone(), |w, &p| w.with(p, 0));
            let rest = FitConfig {
                free: config.free.iter().copied().filter(|w| !off.contains(w)).collect(),
                ..config.clone()
            };
            let again = fit(train, &base, &rest);
            Some((group, measure(train, held, &again.weights)))
        })
        .collect()
}

/// `params` with each group of weights zeroed in turn (no refit); groups
/// whose weights are all zero already are left out.
#[must_use]
pub fn zeroed(params: &Params) -> Vec<(Group, Params)> {
    Group::ALL
        .iter()
        .filter(|g| g.weights().any(|w| params.weights[w] != 0))
        .map(|&g| {
            let off = Params {
                weights: params.weights.without(g),
                ..params.clone()
            };
            (g, off)
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ablations_zero_one_group_each_and_skip_groups_already_off() {
        let start = Params::default();
        let all = zeroed(&start);
        let live: Vec<Group> = Group::ALL
            .iter()
            .copied()
            .filter(|g| g.weights().any(|w| start.weights[w] != 0))
            .collect();
        assert!(!live.is_empty());
        assert_eq!(all.len(), live.len());
        for ((group, off), want) in all.iter().zip(&live) {
            assert_eq!(group, want);
            assert_eq!(off.weights, start.weights.without(*group));
            assert_eq!(off.search, start.search, "{}: the search is left alone", group.name());
        }
        // A set with one group wholly at zero has no ablation for it.
        let without = Params {
            weights: start.weights.without(live[0]),
            ..start.clone()
        };
        assert!(zeroed(&without).iter().all(|(g, _)| *g != live[0]));
    }
}
