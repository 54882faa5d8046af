//! `arimaa tune`: SPSA tuning of declared parameters by self-play matches.

use arimaa_match::cluster::Cluster;
use arimaa_match::tc::TimeControl;
use arimaa_tuning::run::{run, TuneConfig};
use arimaa_tuning::spsa::Gains;
use clap::Args;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct TuneArgs {
    /// Parameters to tune, comma-separated (`arimaa params` lists them).
    #[arg(long, value_delimiter = ',', required = true)]
    tune: Vec<String>,
    /// Directory of the run: state.txt (resume), best.params, paths.svg.
    #[arg(long, default_value = "tuning/run")]
    dir: PathBuf,
    /// Engine binary that plays both sides (it must take the parameters as
    /// AEI options, as arimaa does).
    #[arg(long, default_value = "target/release/arimaa")]
    engine: PathBuf,
    /// Stop when this many iterations are done in all.
    #[arg(long, default_value_t = 1000)]
    iterations: u64,
    /// Stop after this many minutes in this session.
    #[arg(long, value_name = "MINUTES")]
    minutes: Option<f64>,
    /// Games per iteration (pairs with colours swapped).
    #[arg(long, default_value_t = 8)]
    games: u32,
    /// Games at once (with --cluster ray: game pairs in flight).
    #[arg(long, default_value_t = 2)]
    concurrency: usize,
    /// Where the games are played, as for `arimaa match`: local, ray,
    /// ray:HOST:PORT, ray://HOST:PORT or ray:local.
    #[arg(long, default_value = "local", value_name = "WHERE")]
    cluster: String,
    /// Time control of the games (arimaa.com form, as for `arimaa match`).
    #[arg(long, default_value = "0.3s/3s/100")]
    tc: String,
    /// SPSA update gain a.
    #[arg(long, default_value_t = Gains::default().a)]
    a: f64,
    /// SPSA perturbation c, in parameter steps.
    #[arg(long, default_value_t = Gains::default().c)]
    c: f64,
    /// Seed of the perturbation signs of a new run.
    #[arg(long, default_value_t = 1)]
    seed: u64,
}

pub fn run_cmd(args: &TuneArgs) -> ExitCode {
    let tc: TimeControl = match args.tc.parse() {
        Ok(tc) => tc,
        Err(e) => {
            eprintln!("error: --tc: {e}");
            return ExitCode::FAILURE;
        }
    };
    let time = match args.minutes {
        Some(m) if m.is_finite() && m > 0.0 => Some(Duration::from_secs_f64(m * 60.0)),
        Some(_) => {
            eprintln!("error: --minutes must be a positive number");
            return ExitCode::FAILURE;
        }
        None => None,
    };
    if args.games == 0 || args.games % 2 == 1 {
        eprintln!("error: --games must be even and positive (pairs with colours swapped)");
        return ExitCode::FAILURE;
    }
    let config = TuneConfig {
        engine: args.engine.clone(),
        names: args.tune.clone(),
        dir: args.dir.clone(),
        iterations: args.iterations,
        time,
        games: args.games,
        concurrency: args.concurrency,
        tc,
        gains: Gains {
            a: args.a,
            c: args.c,
            ..Gains::default()
        },
        seed: args.seed,
    };
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    if let Err(e) = ctrlc::set_handler(move || {
        flag.store(true, Ordering::Relaxed);
        eprintln!("\nstopping after the games in progress; the state is saved");
    }) {
        eprintln!("warning: Ctrl-C will not stop the run cleanly: {e}");
    }
    let mut executor = match args.cluster.parse::<Cluster>().and_then(|c| c.executor()) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("error: {e}");
            return ExitCode::FAILURE;
        }
    };
    match run(&config, executor.as_mut(), &stop) {
        Ok(state) => {
            say!(
                "{} iterations, {} games; current values in {}",
                state.iteration,
                state.games,
                args.dir.join("best.params").display()
            );
            ExitCode::SUCCESS
        }
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}
