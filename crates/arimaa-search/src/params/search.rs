//! The search's configuration: its rules switched on or off (`bool`), or
//! on with an amount (`Option<NonZeroU32>`, `None` = off), and the numbers
//! it tries, declared once. Each is also a file key and an AEI option,
//! whose integer form is 0 or 1 for a switch and 0 for `None`; none is an
//! evaluation weight, so `fit` and `tune` leave them alone.

use std::num::NonZeroU32;

/// A setting's type as the file and the AEI option see it: an integer
/// within the declared range.
pub trait Knob: Copy {
    /// The setting as an integer.
    fn to_int(self) -> i64;
    /// The setting for `v`, already checked against the declared range.
    fn from_int(v: i64) -> Self;
}

impl Knob for bool {
    fn to_int(self) -> i64 {
        i64::from(self)
    }

    fn from_int(v: i64) -> Self {
        v != 0
    }
}

impl Knob for i32 {
    fn to_int(self) -> i64 {
        i64::from(self)
    }

    fn from_int(v: i64) -> Self {
        i32::try_from(v).unwrap_or(if v < 0 { i32::MIN } else { i32::MAX })
    }
}

impl Knob for Option<NonZeroU32> {
    fn to_int(self) -> i64 {
        self.map_or(0, |v| i64::from(v.get()))
    }

    fn from_int(v: i64) -> Self {
        u32::try_from(v).ok().and_then(NonZeroU32::new)
    }
}

/// One setting's declaration: its name (also the AEI option and file
/// key), range and meaning; the default is [`DEFAULT`]'s value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchSpec {
    /// Name in files and AEI options.
    pub name: &'static str,
    /// Smallest accepted value.
    pub min: i64,
    /// Largest accepted value.
    pub max: i64,
    /// What it does.
    pub doc: &'static str,
}

macro_rules! search_config {
    ($( $(#[doc = $doc:literal])+ $name:ident: $ty:ty = $default:expr, $min:literal ..= $max:literal; )*) => {
        /// How the search runs, besides the evaluation's weights.
        #[derive(Clone, Copy, Debug, PartialEq, Eq)]
        pub struct SearchConfig {
            $( $(#[doc = $doc])+ pub $name: $ty, )*
        }

        /// The name of one search setting.
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(usize)]
        pub enum SearchSetting {
            $( $(#[doc = $doc])+ $name, )*
        }

        /// The engine's configuration.
        pub const DEFAULT: SearchConfig = SearchConfig { $( $name: $default, )* };

        /// Every setting's declaration, in the order of [`SearchSetting`].
        pub const SPECS: &[SearchSpec] = &[
            $( SearchSpec { name: stringify!($name), min: $min, max: $max, doc: concat!($($doc),+) }, )*
        ];

        impl SearchSetting {
            /// Every setting, in declaration order.
            pub const ALL: &'static [SearchSetting] = &[ $( SearchSetting::$name, )* ];
        }

        impl SearchConfig {
            /// The value of `setting` as an integer.
            #[must_use]
            pub fn get(&self, setting: SearchSetting) -> i64 {
                match setting { $( SearchSetting::$name => Knob::to_int(self.$name), )* }
            }

            /// Sets `setting` from an integer the caller has checked
            /// against its range.
            pub(super) fn put(&mut self, setting: SearchSetting, value: i64) {
                match setting { $( SearchSetting::$name => self.$name = Knob::from_int(value), )* }
            }
        }
    };
}

search_config! {
    /// Quiescence: on (1) plays out at the horizon the captures the side
    /// to move can make with its steps left (then one turn of the other
    /// side's) and finishes an open push or pull; off (0) stands on the
    /// evaluation (whose threat terms then carry them alone).
    quiescence: bool = true, 0..=1;
    /// Quiescence: centi-rabbits taken off each capture the root side plays
    /// at the horizon, so that a capture made in the tree ranks above the
    /// same capture deferred past the horizon, where the opponent's
    /// defences and counterplay are not searched; the opponent's captures
    /// keep their full weight (0 = off).
    quiesce_discount: Option<NonZeroU32> = NonZeroU32::new(50), 0..=200;
    /// Half-width of the root's aspiration window, in centi-rabbits.
    aspiration: i32 = 40, 5..=300;
    /// Root turns ranked late by the previous iteration are searched
    /// shallower (1 = on).
    root_reduce: bool = true, 0..=1;
    /// A step that commutes with the turn's previous step (both own pieces,
    /// every square of one at least three steps from every square of the
    /// other) and sorts before it is skipped: the other order reaches the
    /// same board and is searched (1 = on).
    commute: bool = true, 0..=1;
    /// Ending a turn early costs the steps given up (1), so that the depth
    /// counts whole turns; with 0 it is free and the opponent's turn after
    /// a short move is searched with the steps saved.
    pass_cost: bool = true, 0..=1;
    /// The learned network (`nnue/net.bin`) in the evaluation: 1 adds its
    /// correction to the hand-made terms (or, for a network trained alone,
    /// replaces them).
    nnue: bool = true, 0..=1;
    /// Time: an iteration whose best move changed or whose score fell lets
    /// the search run longer, up to 2.5 times its target (1 = on).
    time_stretch: bool = true, 0..=1;
    /// Time: an iteration whose leaves fall inside the opponent's turn
    /// (depths 5–7, 13–15) is not where the search stops when the clock
    /// allows more: the next iterations run, up to the most an unstable
    /// search may take, until the leaves reach the end of that turn
    /// (1 = on).
    turn_end: bool = false, 0..=1;
}

impl SearchSetting {
    /// The setting's declaration.
    #[must_use]
    pub fn spec(self) -> &'static SearchSpec {
        &SPECS[self as usize]
    }

    /// The setting called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<SearchSetting> {
        SPECS.iter().position(|s| s.name == name).map(|i| SearchSetting::ALL[i])
    }
}

impl Default for SearchConfig {
    fn default() -> Self {
        DEFAULT
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn declarations_are_consistent_and_round_trip() {
        for (i, &s) in SearchSetting::ALL.iter().enumerate() {
            assert_eq!(s as usize, i);
            let spec = s.spec();
            let d = DEFAULT.get(s);
            assert!(spec.min <= d && d <= spec.max, "{}", spec.name);
            for v in [spec.min, spec.max, d] {
                let mut c = DEFAULT;
                c.put(s, v);
                assert_eq!(c.get(s), v, "{}", spec.name);
            }
        }
    }
}
