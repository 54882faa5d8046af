//! The tuning loop: each iteration plays a short match between the engine
//! with the plus values and the engine with the minus values (given as
//! `setoption` settings, so the match's spec holds everything and can be
//! played on a cluster worker as well as here) with `arimaa match`'s runner
//! and executor, updates the values, and saves the state, the current best
//! parameter file and the plot.

use crate::error::TuningError;
use crate::plot::svg;
use crate::spsa::{trial, update, Gains, Signs, Tunable};
use crate::state::State;
use arimaa_match::config::{EngineSpec, Limit, MatchConfig};
use arimaa_match::executor::Executor;
use arimaa_match::progress::Progress;
use arimaa_match::tc::TimeControl;
use arimaa_search::params::{weights, Params, SearchSetting, Weight};
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

/// A tuning run's settings.
#[derive(Clone, Debug)]
pub struct TuneConfig {
    /// The engine binary (it must take the parameters as AEI options).
    pub engine: PathBuf,
    /// Names of the parameters to tune.
    pub names: Vec<String>,
    /// Directory for the state, the parameter files and the plot.
    pub dir: PathBuf,
    /// Stop after this many iterations in all (resumed ones included).
    pub iterations: u64,
    /// Stop after this much time in this session.
    pub time: Option<Duration>,
    /// Games per iteration (even: pairs with colours swapped).
    pub games: u32,
    /// Games at once.
    pub concurrency: usize,
    /// Time control of the games.
    pub tc: TimeControl,
    /// SPSA gains.
    pub gains: Gains,
    /// Seed of the signs for a new run.
    pub seed: u64,
}

/// Where a run's files live.
#[derive(Clone, Debug)]
pub struct Files {
    /// The resumable state.
    pub state: PathBuf,
    /// The current values, rounded, as a `--params` file.
    pub best: PathBuf,
    /// The plot.
    pub plot: PathBuf,
}

impl Files {
    /// The files in `dir`.
    #[must_use]
    pub fn in_dir(dir: &Path) -> Files {
        Files {
            state: dir.join("state.txt"),
            best: dir.join("best.params"),
            plot: dir.join("paths.svg"),
        }
    }
}

/// The evaluation weights named in `names` as tunables, with their
/// defaults. Search settings are not tuned: a switch is on or off, and its
/// worth is a match, not a gradient.
pub fn tunables(names: &[String]) -> Result<(Vec<Tunable>, Vec<f64>), TuningError> {
    let mut out = Vec::new();
    let mut values = Vec::new();
    for name in names {
        let spec = Weight::from_name(name).map(Weight::spec).ok_or_else(|| {
            let all: Vec<&str> = weights::SPECS.iter().map(|s| s.name).collect();
            let what = if SearchSetting::from_name(name).is_some() {
                format!("'{name}' is a search setting, not an evaluation weight")
            } else {
                format!("no parameter named '{name}'")
            };
            TuningError::Names(format!("{what} (weights: {})", all.join(", ")))
        })?;
        out.push(Tunable {
            name: spec.name.to_string(),
            min: f64::from(spec.min),
            max: f64::from(spec.max),
            step: f64::from(spec.step),
        });
        values.push(f64::from(spec.default));
    }
    if out.is_empty() {
        return Err(TuningError::Names(
            "nothing to tune: name at least one parameter".into(),
        ));
    }
    Ok((out, values))
}

/// The parameter set with `values` (rounded) for the tunables, defaults elsewhere.
pub fn params_with(tunables: &[Tunable], values: &[f64]) -> Result<Params, TuningError> {
    let mut p = Params::default();
    for (t, v) in tunables.iter().zip(values) {
        p.set_named(&t.name, v.round() as i64)?;
    }
    Ok(p)
}

fn write(path: &Path, text: &str) -> Result<(), TuningError> {
    std::fs::write(path, text).map_err(|e| TuningError::File(format!("cannot write {}: {e}", path.display())))
}

/// The state to start from: the saved one when it tunes the same
/// parameters, a new one otherwise.
fn start_state(
    config: &TuneConfig,
    tunables: &[Tunable],
    defaults: &[f64],
    files: &Files,
) -> Result<State, TuningError> {
    if files.state.exists() {
        let state = State::load(&files.state)?;
        let names: Vec<&str> = state.values.iter().map(|(n, _)| n.as_str()).collect();
        let wanted: Vec<&str> = tunables.iter().map(|t| t.name.as_str()).collect();
        if names != wanted {
            return Err(TuningError::State(format!(
                "{} tunes {} but this run names {}: use another --dir or the same parameters",
                files.state.display(),
                names.join(","),
                wanted.join(",")
            )));
        }
        return Ok(state);
    }
    Ok(State {
        seed: config.seed,
        iteration: 0,
        games: 0,
        values: tunables
            .iter()
            .map(|t| t.name.clone())
            .zip(defaults.iter().copied())
            .collect(),
        path: vec![(0, defaults.to_vec())],
    })
}

fn engine(name: &str, cmd: &Path, tunables: &[Tunable], params: &Params, tc: &TimeControl) -> EngineSpec {
    let mut options = vec![("hash".to_string(), "32".to_string())];
    for t in tunables {
        if let Some(v) = params.get_named(&t.name) {
            options.push((t.name.clone(), v.to_string()));
        }
    }
    EngineSpec {
        name: name.to_string(),
        command: vec![cmd.display().to_string()],
        dir: None,
        options,
        limit: Limit::Clock(tc.clone()),
    }
}

/// Runs (or resumes) the tuning until the iteration count, the time limit or
/// `stop`, its games played by `executor`. Progress goes to stderr; returns
/// the final state.
pub fn run(config: &TuneConfig, executor: &mut dyn Executor, stop: &Arc<AtomicBool>) -> Result<State, TuningError> {
    std::fs::create_dir_all(&config.dir)
        .map_err(|e| TuningError::File(format!("cannot create {}: {e}", config.dir.display())))?;
    let files = Files::in_dir(&config.dir);
    let (tunables, defaults) = tunables(&config.names)?;
    let mut state = start_state(config, &tunables, &defaults, &files)?;
    let mut values: Vec<f64> = state.values.iter().map(|(_, v)| *v).collect();
    let started = Instant::now();
    let progress = Progress::new(config.iterations, "iterations", false);
    progress.line(&format!(
        "tuning {} from iteration {} ({} games so far), {} games per iteration",
        config.names.join(", "),
        state.iteration,
        state.games,
        config.games
    ));
    progress.resume_at(state.iteration);
    while state.iteration < config.iterations && !stop.load(Ordering::Relaxed) {
        if config.time.is_some_and(|t| started.elapsed() >= t) {
            break;
        }
        let k = state.iteration;
        let mut signs = Signs(state.seed);
        let t = trial(&tunables, &values, &config.gains, k, &mut signs);
        let (plus, minus) = (params_with(&tunables, &t.plus)?, params_with(&tunables, &t.minus)?);
        let matchup = MatchConfig {
            engines: vec![
                engine("plus", &config.engine, &tunables, &plus, &config.tc),
                engine("minus", &config.engine, &tunables, &minus, &config.tc),
            ],
            games: config.games,
            concurrency: config.concurrency,
            grace: Duration::from_millis(100),
            hang_timeout: Duration::from_secs(2),
            move_timeout: Duration::from_secs(120),
            max_turns: Some(200),
            setups: None,
            record: None,
            pgn: None,
            sprt: None,
            stats: None,
            log: None,
            event: format!("spsa iteration {}", k + 1),
            resume: false,
        };
        let report = arimaa_match::runner::run_match_on(executor, &matchup, stop, true)?;
        if report.interrupted {
            break;
        }
        let wdl = report.tally.first_pair();
        let games = wdl.games();
        if games == 0 {
            return Err(TuningError::NoGames);
        }
        let r = (f64::from(wdl.wins) - f64::from(wdl.losses)) / f64::from(games);
        update(&tunables, &mut values, &config.gains, k, &t, r);
        state.seed = signs.0;
        state.iteration += 1;
        state.games += u64::from(games);
        state.values = tunables
            .iter()
            .map(|t| t.name.clone())
            .zip(values.iter().copied())
            .collect();
        state.path.push((state.iteration, values.clone()));
        state.save(&files.state)?;
        write(&files.best, &params_with(&tunables, &values)?.to_text())?;
        write(&files.plot, &svg(&tunables, &state.path)?)?;
        let shown: Vec<String> = state.values.iter().map(|(n, v)| format!("{n}={v:.2}")).collect();
        let shown = shown.join(" ");
        progress.line(&format!(
            "iteration {} games {} ({}-{}-{} plus vs minus) elapsed {:.0}s  {shown}",
            state.iteration,
            state.games,
            wdl.wins,
            wdl.draws,
            wdl.losses,
            started.elapsed().as_secs_f64(),
        ));
        progress.update(state.iteration, &shown, false);
    }
    progress.finish();
    Ok(state)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_search::Weight;

    #[test]
    fn unknown_names_are_refused_and_values_round_into_a_params_set() {
        assert!(tunables(&["nosuch".to_string()])
            .unwrap_err()
            .to_string()
            .contains("no parameter named 'nosuch'"));
        assert!(tunables(&["commute".to_string()])
            .unwrap_err()
            .to_string()
            .contains("'commute' is a search setting, not an evaluation weight"));
        assert!(tunables(&[]).is_err());
        let (t, defaults) = tunables(&["mobility".to_string(), "trap_strongest".to_string()]).unwrap();
        let d = Params::default();
        assert_eq!(
            defaults,
            vec![
                f64::from(d.weights[Weight::mobility]),
                f64::from(d.weights[Weight::trap_strongest])
            ]
        );
        let p = params_with(&t, &[3.4, 25.6]).unwrap();
        assert_eq!(
            (p.weights[Weight::mobility], p.weights[Weight::trap_strongest]),
            (3, 26)
        );
        assert_eq!(
            p.weights[Weight::trap_1],
            Params::default().weights[Weight::trap_1],
            "others keep their defaults"
        );
    }
}
