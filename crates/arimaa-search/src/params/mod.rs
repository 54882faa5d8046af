//! Everything settable, declared once: the evaluation's [`Weights`] (in
//! `weights`, a group per concept) and the search's typed
//! [`SearchConfig`] (in `search`). Both are set by name from the
//! `name = value` file of `arimaa --params FILE` and from AEI options; this
//! module holds what the two share: the names, the range check, the file.

pub mod search;
pub mod weights;

pub use search::{SearchConfig, SearchSetting};
pub use weights::{Group, Weight, Weights};

/// What the engine runs with: the evaluation's weights and the search's
/// configuration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Params {
    /// The evaluation weights.
    pub weights: Weights,
    /// The search's rules and numbers.
    pub search: SearchConfig,
}

/// The engine's defaults.
pub const DEFAULT: Params = Params {
    weights: weights::DEFAULT,
    search: search::DEFAULT,
};

impl Default for Params {
    fn default() -> Self {
        DEFAULT
    }
}

/// Anything settable by name: a weight or a search setting.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Setting {
    /// An evaluation weight.
    Weight(Weight),
    /// A search setting.
    Search(SearchSetting),
}

impl Setting {
    /// Every setting: the weights, then the search settings, in declaration
    /// order (the order of the file).
    pub fn all() -> impl Iterator<Item = Setting> {
        let weights = Weight::ALL.iter().map(|&w| Setting::Weight(w));
        weights.chain(SearchSetting::ALL.iter().map(|&s| Setting::Search(s)))
    }

    /// The setting called `name`.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Setting> {
        Weight::from_name(name)
            .map(Setting::Weight)
            .or_else(|| SearchSetting::from_name(name).map(Setting::Search))
    }

    /// Its name in files and AEI options.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Setting::Weight(w) => w.spec().name,
            Setting::Search(s) => s.spec().name,
        }
    }

    /// Its accepted range.
    #[must_use]
    pub fn range(self) -> (i64, i64) {
        match self {
            Setting::Weight(w) => (i64::from(w.spec().min), i64::from(w.spec().max)),
            Setting::Search(s) => (s.spec().min, s.spec().max),
        }
    }

    /// Its value in [`DEFAULT`].
    #[must_use]
    pub fn default_value(self) -> i64 {
        DEFAULT.get(self)
    }

    /// What it does.
    #[must_use]
    pub fn doc(self) -> &'static str {
        match self {
            Setting::Weight(w) => w.spec().doc,
            Setting::Search(s) => s.spec().doc,
        }
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
        min: i64,
        /// Its declared maximum.
        max: i64,
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

/// Text shown for untrusted input in messages: bounded and printable.
fn shown(text: &str) -> String {
    text.chars()
        .take(40)
        .map(|c| if c.is_control() { '?' } else { c })
        .collect()
}

impl Params {
    /// The value of `setting`, as its file and AEI option give it.
    #[must_use]
    pub fn get(&self, setting: Setting) -> i64 {
        match setting {
            Setting::Weight(w) => i64::from(self.weights[w]),
            Setting::Search(s) => self.search.get(s),
        }
    }

    /// The value of the setting called `name`.
    #[must_use]
    pub fn get_named(&self, name: &str) -> Option<i64> {
        Setting::from_name(name).map(|s| self.get(s))
    }

    /// Sets `setting` to `value`, checked against its declaration; on an
    /// error nothing changes.
    pub fn set(&mut self, setting: Setting, value: i64) -> Result<(), ParamError> {
        let (min, max) = setting.range();
        if value < min || value > max {
            return Err(ParamError::OutOfRange {
                name: setting.name().to_string(),
                value,
                min,
                max,
            });
        }
        match setting {
            // In range, so it fits.
            Setting::Weight(w) => self.weights = self.weights.clone().with(w, value as i32),
            Setting::Search(s) => self.search.put(s, value),
        }
        Ok(())
    }

    /// Sets the setting called `name` to `value`, checked.
    pub fn set_named(&mut self, name: &str, value: i64) -> Result<(), ParamError> {
        let setting = Setting::from_name(name).ok_or_else(|| ParamError::Unknown(shown(name)))?;
        self.set(setting, value)
    }

    /// Sets `name` from the text `value`, checked against its declaration.
    pub fn set_text(&mut self, name: &str, value: &str) -> Result<(), ParamError> {
        let setting = Setting::from_name(name).ok_or_else(|| ParamError::Unknown(shown(name)))?;
        let v: i64 = value.trim().parse().map_err(|_| ParamError::NotInteger {
            name: setting.name().to_string(),
            value: shown(value.trim()),
        })?;
        self.set(setting, v)
    }

    /// The whole set as a file: one `name = value` line per setting, each
    /// after a comment with its meaning, default and range.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = String::from("# arimaa parameters: name = value (see `arimaa params`)\n");
        for s in Setting::all() {
            let (min, max) = s.range();
            out += &format!(
                "# {} (default {}, {min}..={max})\n{} = {}\n",
                s.doc().trim(),
                s.default_value(),
                s.name(),
                self.get(s)
            );
        }
        out
    }

    /// Reads a file written by [`Params::to_text`] (or by hand): `#` starts a
    /// comment, blank lines are skipped, settings not named keep their
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
    fn names_are_unique_across_weights_and_search_settings() {
        let names: Vec<&str> = Setting::all().map(Setting::name).collect();
        for n in &names {
            assert_eq!(names.iter().filter(|m| *m == n).count(), 1, "{n}");
            assert_eq!(Setting::from_name(n).map(Setting::name), Some(*n));
        }
        assert_eq!(names.len(), weights::COUNT + search::SPECS.len());
        assert_eq!(Params::default(), DEFAULT);
    }

    #[test]
    fn file_round_trip_keeps_every_value() {
        let mut p = DEFAULT;
        for (i, s) in Setting::all().enumerate() {
            let (min, max) = s.range();
            p.set(s, if i % 2 == 0 { min } else { max }).unwrap();
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
