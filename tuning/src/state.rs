//! The tuner's state file: everything needed to resume a run where it
//! stopped, as plain `key = value` text (written to a temporary file and
//! renamed, so an interruption never leaves half a file).
//!
//! ```text
//! seed = 42
//! iteration = 17
//! games = 136
//! value trap_strongest = 21.375
//! value mobility = 2.5
//! path 1 20.5 2.25
//! path 2 21.0 2.5
//! ```
//! `path` lines are the values after each iteration, in `value` order.

use crate::error::TuningError;
use std::path::Path;

/// A run's progress.
#[derive(Clone, Debug, PartialEq)]
pub struct State {
    /// Seed of the perturbation signs (the generator's current state).
    pub seed: u64,
    /// Iterations done.
    pub iteration: u64,
    /// Games played.
    pub games: u64,
    /// Current values by name.
    pub values: Vec<(String, f64)>,
    /// Values after each iteration (iteration number, values in `values` order).
    pub path: Vec<(u64, Vec<f64>)>,
}

impl State {
    /// The state as text.
    #[must_use]
    pub fn to_text(&self) -> String {
        let mut out = format!(
            "seed = {}\niteration = {}\ngames = {}\n",
            self.seed, self.iteration, self.games
        );
        for (name, v) in &self.values {
            out += &format!("value {name} = {v}\n");
        }
        for (k, vs) in &self.path {
            let row: Vec<String> = vs.iter().map(f64::to_string).collect();
            out += &format!("path {k} {}\n", row.join(" "));
        }
        out
    }

    /// Reads a state written by [`State::to_text`].
    pub fn from_text(text: &str) -> Result<State, TuningError> {
        let mut state = State {
            seed: 0,
            iteration: 0,
            games: 0,
            values: Vec::new(),
            path: Vec::new(),
        };
        for (i, line) in text.lines().enumerate() {
            let line_no = i + 1;
            let bad = |why: &str| TuningError::State(format!("state line {line_no}: {why}"));
            let line = line.trim();
            if line.is_empty() {
                continue;
            }
            if let Some(rest) = line.strip_prefix("value ") {
                let (name, v) = rest.split_once('=').ok_or_else(|| bad("expected 'value NAME = X'"))?;
                let v: f64 = v.trim().parse().map_err(|_| bad("value is not a number"))?;
                state.values.push((name.trim().to_string(), v));
            } else if let Some(rest) = line.strip_prefix("path ") {
                let mut words = rest.split_whitespace();
                let k: u64 = words
                    .next()
                    .and_then(|w| w.parse().ok())
                    .ok_or_else(|| bad("bad iteration"))?;
                let vs = words
                    .map(|w| w.parse::<f64>().map_err(|_| bad("path value is not a number")))
                    .collect::<Result<Vec<_>, _>>()?;
                state.path.push((k, vs));
            } else {
                let (key, v) = line.split_once('=').ok_or_else(|| bad("expected 'key = value'"))?;
                let v: u64 = v.trim().parse().map_err(|_| bad("not a whole number"))?;
                match key.trim() {
                    "seed" => state.seed = v,
                    "iteration" => state.iteration = v,
                    "games" => state.games = v,
                    other => return Err(bad(&format!("unknown key '{other}'"))),
                }
            }
        }
        if state.path.iter().any(|(_, vs)| vs.len() != state.values.len()) {
            return Err(TuningError::State(
                "state: a path line does not have one value per parameter".into(),
            ));
        }
        Ok(state)
    }

    /// Loads `path`.
    pub fn load(path: &Path) -> Result<State, TuningError> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| TuningError::State(format!("cannot read {}: {e}", path.display())))?;
        State::from_text(&text).map_err(|e| TuningError::State(format!("{}: {e}", path.display())))
    }

    /// Saves to `path` through a temporary file and a rename.
    pub fn save(&self, path: &Path) -> Result<(), TuningError> {
        let tmp = path.with_extension("tmp");
        std::fs::write(&tmp, self.to_text())
            .map_err(|e| TuningError::State(format!("cannot write {}: {e}", tmp.display())))?;
        std::fs::rename(&tmp, path).map_err(|e| TuningError::State(format!("cannot replace {}: {e}", path.display())))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_and_rejects_damage() {
        let s = State {
            seed: 99,
            iteration: 2,
            games: 16,
            values: vec![("a".into(), 1.5), ("b".into(), -3.25)],
            path: vec![(1, vec![1.0, -3.0]), (2, vec![1.5, -3.25])],
        };
        assert_eq!(State::from_text(&s.to_text()), Ok(s.clone()));
        assert!(State::from_text("seed = x").is_err());
        assert!(
            State::from_text("value a = 1\npath 1 1 2").is_err(),
            "two values for one parameter"
        );
        assert!(State::from_text("colour = 3").is_err());
        let dir = std::env::temp_dir().join(format!("arimaa-state-test-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let file = dir.join("state.txt");
        s.save(&file).unwrap();
        assert_eq!(State::load(&file), Ok(s));
        assert!(State::load(&dir.join("missing")).is_err());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
