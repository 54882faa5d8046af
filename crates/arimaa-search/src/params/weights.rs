//! The evaluation's weights, declared once, each with the concept (the
//! [`Group`]) it belongs to: `fit` refits them, `tune` plays them, and
//! `--ablate` switches a group off by its declaration, not by name.

/// One weight's declaration: its name (also the AEI option and file key),
/// default, range, the step a tuner perturbs it by, and its group.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WeightSpec {
    /// Name in files, AEI options and the tuner.
    pub name: &'static str,
    /// The engine's value when nothing is set.
    pub default: i32,
    /// Smallest accepted value.
    pub min: i32,
    /// Largest accepted value.
    pub max: i32,
    /// A tuner's perturbation size.
    pub step: i32,
    /// The concept it weighs.
    pub group: Group,
    /// What it weighs.
    pub doc: &'static str,
}

macro_rules! weights {
    ($(
        $(#[doc = $gdoc:literal])+
        $group:ident = $label:literal {
            $( $(#[doc = $doc:literal])+ $name:ident = $default:literal, $min:literal ..= $max:literal, step $step:literal; )*
        }
    )*) => {
        /// A concept of the evaluation: the weights that measure it are
        /// fitted, tuned and switched off together.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        pub enum Group {
            $( $(#[doc = $gdoc])+ $group, )*
        }

        impl Group {
            /// Every group, in declaration order.
            pub const ALL: &'static [Group] = &[ $( Group::$group, )* ];

            /// The group's name, as `fit --ablate` and `agree --ablate` print it.
            #[must_use]
            pub fn name(self) -> &'static str {
                match self { $( Group::$group => $label, )* }
            }
        }

        /// The name of one weight, usable as an index into [`Weights`]: the
        /// evaluation's terms name their weight with it, so that the same
        /// code computes the score (weights applied) and the fitting trace
        /// (each weight's feature value).
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(usize)]
        pub enum Weight {
            $( $( $(#[doc = $doc])+ $name, )* )*
        }

        /// Every weight's declaration, in declaration order (the order of
        /// [`Weight`]).
        pub const SPECS: &[WeightSpec] = &[
            $( $( WeightSpec {
                name: stringify!($name),
                default: $default,
                min: $min,
                max: $max,
                step: $step,
                group: Group::$group,
                doc: concat!($($doc),+),
            }, )* )*
        ];

        /// The engine's weights.
        pub const DEFAULT: Weights = Weights { values: [ $( $( $default, )* )* ] };

        impl Weight {
            /// Every weight, in declaration order.
            pub const ALL: &'static [Weight] = &[ $( $( Weight::$name, )* )* ];
        }
    };
}

weights! {
    /// Trap control: the pieces next to each trap, the strongest of them,
    /// the elephant nearby, an own piece on a weakly held trap.
    Traps = "traps" {
        /// Home trap control: one own piece next to the trap.
        trap_1 = 14, -40..=80, step 4;
        /// Home trap control: two own pieces next to the trap.
        trap_2 = 29, -40..=120, step 4;
        /// Home trap control: three own pieces next to the trap.
        trap_3 = 37, -40..=160, step 4;
        /// Home trap control: four own pieces next to the trap.
        trap_4 = 41, -40..=160, step 4;
        /// Home trap: the strongest piece next to it is ours.
        trap_strongest = 2, -40..=100, step 4;
        /// Opponent's home trap: one own piece next to it.
        trap_away_1 = -1, -40..=80, step 4;
        /// Opponent's home trap: two own pieces next to it.
        trap_away_2 = 22, -40..=120, step 4;
        /// Opponent's home trap: three own pieces next to it.
        trap_away_3 = 32, -40..=160, step 4;
        /// Opponent's home trap: four own pieces next to it.
        trap_away_4 = 30, -40..=160, step 4;
        /// Opponent's home trap: the strongest piece next to it is ours.
        trap_away_strongest = 4, -40..=100, step 4;
        /// Own elephant within two steps of an own home trap.
        trap_elephant_home = -13, -100..=200, step 5;
        /// Own elephant within two steps of an opponent's home trap.
        trap_elephant_away = -10, -100..=200, step 5;
        /// Penalty for an own piece on a trap with at most one guard, in percent of its value.
        weak_trap_pct = 4, -50..=100, step 5;
    }
    /// The elephant: central, blocked, free to move.
    Elephant = "elephant" {
        /// Elephant on the four centre squares; a quarter less per step away.
        elephant_centre = 17, -40..=120, step 4;
        /// An elephant that cannot step and has no enemy next to it it could push.
        elephant_blocked = 81, -100..=500, step 20;
        /// Per empty square the elephant reaches in one or two steps.
        elephant_reach = -1, -10..=20, step 1;
    }
    /// The camel's advance.
    Camel = "camel" {
        /// Per rank a camel stands beyond the middle of the board.
        camel_advance = -13, -100..=100, step 5;
    }
    /// Rabbits: advance by the enemy officers left, open lanes, central rabbits.
    Rabbits = "rabbits" {
        /// Rabbit advancement against full enemy officers, in percent of the
        /// built-in table (by rank); interpolated with `advance_bare_pct` by
        /// the enemy officers left.
        advance_pct = 68, -300..=400, step 15;
        /// Rabbit advancement against no enemy officers, in percent of the
        /// built-in table (by rank).
        advance_bare_pct = 179, -300..=600, step 15;
        /// Rabbit with no enemy officer ahead on its file and the next ones, in
        /// percent of the built-in table (by rank).
        open_lane_pct = 99, -200..=400, step 15;
        /// Per rabbit on the central files c to f, ranks 3 to 6 from its side.
        rabbit_centre = -7, -100..=100, step 4;
    }
    /// Officer mobility and frozen pieces.
    Mobility = "mobility, frozen" {
        /// Per empty square next to an unfrozen officer.
        mobility = 2, -10..=12, step 1;
        /// Frozen piece: sixteenths of its value lost.
        frozen_16ths = 2, -8..=16, step 1;
    }
    /// Unfrozen pieces next to a stronger enemy.
    Dominated = "dominated" {
        /// Unfrozen piece next to a stronger enemy (a friend beside it):
        /// sixteenths of its value lost.
        dominated_16ths = 0, -8..=16, step 1;
    }
    /// Captures with one push or pull (two steps), either side.
    Threats = "two-step threats" {
        /// Share in sixteenths of the best piece the side to move can capture with
        /// one push or pull (2 or more steps left).
        threat_mover_16ths = 7, -8..=16, step 1;
        /// Share in sixteenths of the best piece the waiting side threatens, when
        /// the mover has 3 or 4 steps left to defend; two more per step fewer.
        threat_waiting_16ths = 1, -8..=16, step 1;
    }
    /// Captures over a whole turn, found by a step search (`turn_captures`).
    Captures = "whole-turn captures" {
        /// Share in sixteenths of the net material the side to move can win
        /// with the steps it has left (approach, guard removal, push or pull).
        capture_turn_16ths = 0, -8..=16, step 1;
    }
    /// Pieces either side could capture within its next turn, by the
    /// estimated steps.
    Danger = "danger" {
        /// Share in sixteenths of the best piece the side to move can capture in
        /// an estimated 3 steps (approach and push or pull), within its steps left.
        danger_mover_3 = 2, -8..=16, step 1;
        /// As `danger_mover_3`, for captures of an estimated 4 steps.
        danger_mover_4 = 3, -8..=16, step 1;
        /// Share in sixteenths of each piece of the side to move that the opponent
        /// could capture in an estimated 2 steps on its next turn.
        danger_own_2 = 2, -8..=16, step 1;
        /// As `danger_own_2`, 3 steps.
        danger_own_3 = 0, -8..=16, step 1;
        /// As `danger_own_2`, 4 steps.
        danger_own_4 = 1, -8..=16, step 1;
        /// As `danger_own_2`, 5 or 6 steps.
        danger_own_6 = 0, -8..=16, step 1;
        /// Share in sixteenths of each piece of the waiting side that the side to
        /// move could capture in an estimated 5 or 6 steps.
        danger_foe_6 = 0, -8..=16, step 1;
    }
    /// Rabbits' free distance to goal.
    Goal = "goal" {
        /// The waiting side has a rabbit an estimated 4 or fewer free steps from goal.
        goal_waiting_4 = 35, -200..=600, step 10;
        /// The waiting side's best rabbit is 5 or 6 free steps from goal.
        goal_waiting_6 = -12, -200..=600, step 10;
        /// The waiting side's best rabbit is 7 or 8 free steps from goal.
        goal_waiting_8 = -6, -200..=600, step 10;
        /// The side to move has a rabbit an estimated 4 or fewer free steps from
        /// goal (that the exact goal test found no way through).
        goal_mover_4 = 37, -200..=600, step 10;
        /// The side to move's best rabbit is 5 or 6 free steps from goal.
        goal_mover_6 = 4, -200..=600, step 10;
        /// The side to move's best rabbit is 7 or 8 free steps from goal.
        goal_mover_8 = 4, -200..=600, step 10;
    }
    /// The side to move's steps.
    Tempo = "tempo" {
        /// Bonus for being the side to move with four steps; a quarter of it per
        /// step left mid-turn.
        tempo = 8, -100..=100, step 5;
    }
    /// Frames and hostages.
    Binds = "binds" {
        /// A piece framed on a trap (every neighbour taken, a single own guard, no
        /// push to step off): percent of its value lost.
        frame_pct = 38, -50..=100, step 5;
        /// A piece frozen next to an empty trap that at most one other own piece
        /// guards: percent of its value lost.
        hostage_pct = -5, -50..=100, step 5;
    }
}

/// Number of weights.
pub const COUNT: usize = SPECS.len();

/// The value of every evaluation weight, indexed by [`Weight`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    values: [i32; COUNT],
}

impl std::ops::Index<Weight> for Weights {
    type Output = i32;

    #[inline]
    fn index(&self, w: Weight) -> &i32 {
        &self.values[w as usize]
    }
}

impl Default for Weights {
    fn default() -> Self {
        DEFAULT
    }
}

impl Weight {
    /// The weight's declaration.
    #[must_use]
    pub fn spec(self) -> &'static WeightSpec {
        &SPECS[self as usize]
    }

    /// The weight called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Weight> {
        SPECS.iter().position(|s| s.name == name).map(|i| Weight::ALL[i])
    }

    /// The group it belongs to.
    #[must_use]
    pub fn group(self) -> Group {
        self.spec().group
    }
}

impl Group {
    /// The weights of this group, in declaration order.
    pub fn weights(self) -> impl Iterator<Item = Weight> {
        Weight::ALL.iter().copied().filter(move |w| w.group() == self)
    }
}

impl Weights {
    /// The same set with `weight` at `value` (not range-checked: for tests
    /// and fitting, which clamp to the declared ranges themselves).
    #[must_use]
    pub fn with(mut self, weight: Weight, value: i32) -> Weights {
        self.values[weight as usize] = value;
        self
    }

    /// All values, in declaration order.
    #[must_use]
    pub fn values(&self) -> &[i32; COUNT] {
        &self.values
    }

    /// The same set with every weight of `group` at zero: the evaluation
    /// without that concept.
    #[must_use]
    pub fn without(&self, group: Group) -> Weights {
        group.weights().fold(self.clone(), |w, g| w.with(g, 0))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_consistent() {
        for s in SPECS {
            assert!(s.min <= s.default && s.default <= s.max, "{}", s.name);
            assert!(s.step > 0 && s.step <= s.max - s.min, "{}", s.name);
            assert_eq!(SPECS.iter().filter(|t| t.name == s.name).count(), 1);
        }
        for (i, w) in Weight::ALL.iter().enumerate() {
            assert_eq!(*w as usize, i);
            assert_eq!(DEFAULT[*w], w.spec().default);
        }
    }

    #[test]
    fn every_group_has_weights_and_each_weight_one_group() {
        let mut seen = 0;
        for &g in Group::ALL {
            let n = g.weights().count();
            assert!(n > 0, "{}", g.name());
            seen += n;
        }
        assert_eq!(seen, COUNT);
        let without = DEFAULT.without(Group::Traps);
        for &w in Weight::ALL {
            let expect = if w.group() == Group::Traps { 0 } else { DEFAULT[w] };
            assert_eq!(without[w], expect, "{}", w.spec().name);
        }
    }
}
