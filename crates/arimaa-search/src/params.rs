//! Every tunable evaluation weight and search constant, declared once.
//!
//! The `params!` declaration below is the only place a tunable's name,
//! default, range and tuning step are written. From it come the `Params`
//! struct the evaluation and search read, its `DEFAULT`, the `SPECS` table the
//! AEI options and the tuner enumerate, and the `name = value` file format of
//! `arimaa --params FILE`.

/// One tunable: its name (also the AEI option and file key), default, range
/// and the step a tuner should perturb it by.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Spec {
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
    /// What it weighs.
    pub doc: &'static str,
}

macro_rules! params {
    ($( $(#[doc = $doc:literal])+ $name:ident = $default:literal, $min:literal ..= $max:literal, step $step:literal; )*) => {
        /// The name of one tunable, usable as an index into [`Params`]: the
        /// evaluation's terms name their weight with it, so that the same
        /// code computes the score (weights applied) and the fitting trace
        /// (each weight's feature value).
        #[allow(non_camel_case_types)]
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
        #[repr(usize)]
        pub enum Param {
            $( $(#[doc = $doc])+ $name, )*
        }

        /// Every tunable's declaration, in declaration order (the order of
        /// [`Param`]).
        pub const SPECS: &[Spec] = &[
            $( Spec { name: stringify!($name), default: $default, min: $min, max: $max, step: $step, doc: concat!($($doc),+) }, )*
        ];

        /// The engine's defaults.
        pub const DEFAULT: Params = Params { values: [ $( $default, )* ] };

        impl Param {
            /// Every tunable, in declaration order.
            pub const ALL: &'static [Param] = &[ $( Param::$name, )* ];
        }
    };
}

params! {
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
    /// Elephant on the four centre squares; a quarter less per step away.
    elephant_centre = 17, -40..=120, step 4;
    /// An elephant that cannot step and has no enemy next to it it could push.
    elephant_blocked = 81, -100..=500, step 20;
    /// Per empty square the elephant reaches in one or two steps.
    elephant_reach = -1, -10..=20, step 1;
    /// Per rank a camel stands beyond the middle of the board.
    camel_advance = -13, -100..=100, step 5;
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
    /// Per empty square next to an unfrozen officer.
    mobility = 2, -10..=12, step 1;
    /// Frozen piece: sixteenths of its value lost.
    frozen_16ths = 2, -8..=16, step 1;
    /// Unfrozen piece next to a stronger enemy (a friend beside it):
    /// sixteenths of its value lost.
    dominated_16ths = 0, -8..=16, step 1;
    /// Share in sixteenths of the best piece the side to move can capture with
    /// one push or pull (2 or more steps left).
    threat_mover_16ths = 7, -8..=16, step 1;
    /// Share in sixteenths of the best piece the waiting side threatens, when
    /// the mover has 3 or 4 steps left to defend; two more per step fewer.
    threat_waiting_16ths = 1, -8..=16, step 1;
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
    /// Bonus for being the side to move with four steps; a quarter of it per
    /// step left mid-turn.
    tempo = 8, -100..=100, step 5;
    /// A piece framed on a trap (every neighbour taken, a single own guard, no
    /// push to step off): percent of its value lost.
    frame_pct = 38, -50..=100, step 5;
    /// A piece frozen next to an empty trap that at most one other own piece
    /// guards: percent of its value lost.
    hostage_pct = -5, -50..=100, step 5;
    /// Quiescence: 1 plays out push and pull captures at the horizon, 0 stands
    /// on the evaluation (whose threat terms then carry them alone).
    quiescence = 1, 0..=1, step 1;
    /// Quiescence: centi-rabbits taken off each capture the root side plays
    /// at the horizon, so that a capture made in the tree ranks above the
    /// same capture deferred past the horizon, where the opponent's
    /// defences and counterplay are not searched; the opponent's captures
    /// keep their full weight (0 = off). 50 against 0 at 1 s a move: 59-48,
    /// SPRT [-50, 50] accepted H1 after 107 games (+36, 95 %: -30 .. +104);
    /// the capture puzzles' judged score 18 -> 19/20 at 1 and 2 s.
    quiesce_discount = 50, 0..=200, step 5;
    /// Half-width of the root's aspiration window, in centi-rabbits.
    aspiration = 40, 5..=300, step 10;
    /// Root turns ranked late by the previous iteration are searched
    /// shallower (1 = on).
    root_reduce = 1, 0..=1, step 1;
    /// A step that commutes with the turn's previous step (both own pieces,
    /// every square of one at least three steps from every square of the
    /// other) and sorts before it is skipped: the other order reaches the
    /// same board and is searched (1 = on).
    commute = 1, 0..=1, step 1;
    /// Ending a turn early costs the steps given up (1), so that the depth
    /// counts whole turns; with 0 it is free and the opponent's turn after
    /// a short move is searched with the steps saved. With `commute`, 43-20
    /// at 1 s a move against both off (+133, 95 %: +47 .. +238).
    pass_cost = 1, 0..=1, step 1;
    /// Time: an iteration whose best move changed or whose score fell lets
    /// the search run longer, up to 2.5 times its target (1 = on). On vs
    /// off at 1 s a move: 80-54 (+68, 95 %: +10 .. +131).
    time_stretch = 1, 0..=1, step 1;
}

/// Number of tunables.
pub const COUNT: usize = SPECS.len();

/// The values of every tunable (see the module documentation), indexed by
/// [`Param`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    values: [i32; COUNT],
}

impl std::ops::Index<Param> for Params {
    type Output = i32;

    #[inline]
    fn index(&self, p: Param) -> &i32 {
        &self.values[p as usize]
    }
}

impl Param {
    /// The tunable's declaration.
    #[must_use]
    pub fn spec(self) -> &'static Spec {
        &SPECS[self as usize]
    }

    /// The tunable called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Param> {
        SPECS.iter().position(|s| s.name == name).map(|i| Param::ALL[i])
    }
}

impl Default for Params {
    fn default() -> Self {
        DEFAULT
    }
}

/// A rejected parameter setting or file line.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum ParamError {
    /// No tunable has this name.
    #[error("no parameter named '{0}'")]
    Unknown(String),
    /// The value is not an integer.
    #[error("parameter '{name}': '{value}' is not an integer")]
    NotInteger {
        /// The parameter.
        name: String,
        /// The text given.
        value: String,
    },
    /// The value is outside the declared range.
    #[error("parameter '{name}': {value} is outside {min}..={max}")]
    OutOfRange {
        /// The parameter.
        name: String,
        /// The value given.
        value: i64,
        /// Its declared minimum.
        min: i32,
        /// Its declared maximum.
        max: i32,
    },
    /// A file line is not `name = value`.
    #[error("line {line}: expected 'name = value', found '{text}'")]
    Syntax {
        /// Line number, from 1.
        line: usize,
        /// The line's content.
        text: String,
    },
    /// A file sets the same tunable twice.
    #[error("line {line}: '{name}' is set twice")]
    Duplicate {
        /// Line number, from 1.
        line: usize,
        /// The parameter.
        name: String,
    },
    /// A file line's setting was rejected.
    #[error("line {line}: {error}")]
    Line {
        /// Line number, from 1.
        line: usize,
        /// What was wrong with its setting.
        error: Box<ParamError>,
    },
}

/// The declaration of `name`.
#[must_use]
pub fn spec(name: &str) -> Option<&'static Spec> {
    Param::from_name(name).map(Param::spec)
}

/// Text shown for untrusted input in messages: bounded and printable.
fn shown(text: &str) -> String {
    text.chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

impl Params {
    /// The value of the tunable `name`.
    #[must_use]
    pub fn get(&self, name: &str) -> Option<i32> {
        Param::from_name(name).map(|p| self[p])
    }

    /// The same set with `param` at `value` (not range-checked: for tests
    /// and fitting, which clamp to the declared ranges themselves).
    #[must_use]
    pub fn with(mut self, param: Param, value: i32) -> Params {
        self.values[param as usize] = value;
        self
    }

    /// All values, in declaration order.
    #[must_use]
    pub fn values(&self) -> &[i32; COUNT] {
        &self.values
    }

    /// Sets `name` from the text `value`, checked against its declaration.
    pub fn set_text(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let Some(spec) = spec(name) else {
            return Err(ParamError::Unknown(shown(name)));
        };
        let v: i64 = value.trim().parse().map_err(|_| ParamError::NotInteger {
            name: spec.name.to_string(),
            value: shown(value.trim()),
        })?;
        self.set(name, v)
    }

    /// Sets `name` to `value`, checked against its declaration.
    pub fn set(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let Some(spec) = spec(name) else {
            return Err(ParamError::Unknown(shown(name)));
        };
        if value < i64::from(spec.min) || value > i64::from(spec.max) {
            return Err(ParamError::OutOfRange {
                name: spec.name.to_string(),
                value,
                min: spec.min,
                max: spec.max,
            });
        }
        if let Some(p) = Param::from_name(name) {
            self.values[p as usize] = value as i32;
        }
        Ok(())
    }

    /// The whole set as a file: one `name = value` line per tunable, each
    /// after a comment with its meaning, default and range.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::from("# arimaa parameters: name = value (see `arimaa params`)\n");
        for s in SPECS {
            let value = self.get(s.name).unwrap_or(s.default);
            out += &format!(
                "# {} (default {}, {}..={})\n{} = {}\n",
                s.doc.trim(),
                s.default,
                s.min,
                s.max,
                s.name,
                value
            );
        }
        out
    }

    /// Reads a file written by [`Params::to_text`] (or by hand): `#` starts a
    /// comment, blank lines are skipped, tunables not named keep their
    /// defaults. Every line is checked; the first bad one is the error.
    pub fn from_text(text: &str) -> Result<Params, ParamError> {
        let mut params = DEFAULT;
        let mut seen = Vec::new();
        for (i, raw) in text.lines().enumerate() {
            let line = i + 1;
            let content = raw.split('#').next().unwrap_or("").trim();
            if content.is_empty() {
                continue;
            }
            let Some((name, value)) = content.split_once('=') else {
                return Err(ParamError::Syntax {
                    line,
                    text: shown(content),
                });
            };
            let name = name.trim();
            if seen.contains(&name) {
                return Err(ParamError::Duplicate {
                    line,
                    name: shown(name),
                });
            }
            params.set_text(name, value).map_err(|e| ParamError::Line {
                line,
                error: Box::new(e),
            })?;
            seen.push(name);
        }
        Ok(params)
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
            assert_eq!(DEFAULT.get(s.name), Some(s.default), "{}", s.name);
            assert_eq!(SPECS.iter().filter(|t| t.name == s.name).count(), 1);
        }
        assert_eq!(Params::default(), DEFAULT);
    }

    #[test]
    fn file_round_trip_keeps_every_value() {
        let mut p = DEFAULT;
        for (i, s) in SPECS.iter().enumerate() {
            let v = if i % 2 == 0 { s.min } else { s.max };
            p.set(s.name, i64::from(v)).unwrap();
        }
        let text = p.to_text();
        assert_eq!(Params::from_text(&text), Ok(p.clone()));
        assert_ne!(p, DEFAULT);
        // An empty file is the defaults.
        assert_eq!(Params::from_text("# nothing\n\n"), Ok(DEFAULT));
    }

    #[test]
    fn bad_settings_are_rejected_with_their_line() {
        let cases = [
            ("mobility = 3\nnosuch = 1\n", "line 2: no parameter named 'nosuch'"),
            ("mobility = x", "line 1: parameter 'mobility': 'x' is not an integer"),
            ("mobility = 99", "line 1: parameter 'mobility': 99 is outside -10..=12"),
            ("mobility 3", "line 1: expected 'name = value', found 'mobility 3'"),
            ("mobility = 3\nmobility = 4", "line 2: 'mobility' is set twice"),
            (
                "mobility = 99999999999999999999",
                "line 1: parameter 'mobility': '99999999999999999999' is not an integer",
            ),
        ];
        for (text, message) in cases {
            assert_eq!(Params::from_text(text).unwrap_err().to_string(), message, "{text}");
        }
        let mut p = DEFAULT;
        assert!(p.set_text("mobility", "-11").is_err());
        assert_eq!(p, DEFAULT, "a rejected value changes nothing");
    }

    #[test]
    fn random_files_never_panic_and_errors_say_why() {
        let alphabet: Vec<char> = "mobility_trap1234567890 =#-\n\tx\u{0}é".chars().collect();
        let mut rng = arimaa_core::rng::XorShift(0x9E37_79B9_7F4A_7C15);
        let mut next = |n: usize| rng.below(n);
        let mut accepted = 0;
        for _ in 0..20_000 {
            let len = next(40);
            let text: String = (0..len).map(|_| alphabet[next(alphabet.len())]).collect();
            match Params::from_text(&text) {
                Ok(_) => accepted += 1,
                Err(e) => assert!(!e.to_string().is_empty()),
            }
        }
        assert!(accepted > 0, "some random texts are comments or blank");
    }
}
