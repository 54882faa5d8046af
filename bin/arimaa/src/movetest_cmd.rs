//! `arimaa movetest`: each candidate engine's move in a fixed set of
//! teacher-scored positions, judged by the teacher (see
//! `arimaa_tuning::movetest`).

use crate::engine_groups::EngineGroups;
use crate::error::CliError;
use crate::interrupt::{stop_on_ctrl_c, EXIT_INTERRUPTED};
use arimaa_core::notation::{parse_position, position_to_aei};
use arimaa_match::label::store::{read_positions, PositionLine};
use arimaa_match::label::{self, Event, LabelConfig, ScoreSource, Task};
use arimaa_match::progress::Progress;
use arimaa_match::EngineSpec;
use arimaa_tuning::movetest::{loss, play, summarize, After};
use clap::Args;
use serde_json::{json, Value};
use std::collections::{HashMap, HashSet};
use std::io::Write;
use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

#[derive(Args, Debug)]
#[command(after_help = "Example (two builds, judged by sharp at depth 4):
  arimaa movetest --positions test.jsonl --limit 400 --concurrency 2 \\
      --engine name=base cmd=./arimaa-base depth=8 --engine name=new cmd=./arimaa-new depth=8 \\
      --teacher name=sharp cmd=PATH/sharp.sh option.hash=64 option.threads=1 depth=4 \\
      --teacher-score log:Eval --cache sharp-after.jsonl

The positions are teacher labels (`arimaa label` output: `score`, `best`).
Each candidate searches each position; the teacher scores the position its
move leads to (kept in --cache: a later run, or another candidate playing
the same move, reuses it). A move's loss is the teacher's score before plus
its score after, in rabbits, clipped to 3. Every candidate after the first
is also compared with the first, position by position. A candidate given a
clock (e.g. tc=1s/10s/100/20s instead of depth=8) searches each position as
the first move of a game at that clock: what a match would play.")]
// A candidate searches to a fixed depth (every run plays the same moves) or
// on a clock (what a match at that clock would play, which a fixed depth
// can misjudge for a slower build: docs/results.md, Move tests, session 58).
#[command(mut_arg("engine", |a| a.help(
    "A candidate: name=NAME cmd=COMMAND [dir=DIR] (depth=N | tc=TC) [option.NAME=VALUE ...]: \
     a fixed depth, or a clock given to each position as to a game's first move. Give it once per engine"
)))]
pub struct MovetestArgs {
    /// Teacher-labelled positions (JSON lines with `pos` and `score`, as
    /// `arimaa label` writes them).
    #[arg(long, value_name = "FILE")]
    positions: PathBuf,
    #[command(flatten)]
    engines: EngineGroups,
    /// The teacher: name=NAME cmd=COMMAND [dir=DIR] depth=N [option.NAME=VALUE ...].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1.., required = true)]
    teacher: Vec<String>,
    /// Where the teacher's score is (`info` or `log:KEY`, as for `arimaa label`).
    #[arg(long, default_value = "info")]
    teacher_score: ScoreSource,
    /// Where the candidates' score is (read only to know the search ended well).
    #[arg(long, default_value = "info")]
    engine_score: ScoreSource,
    /// Teacher scores of positions after a move: read if the file exists,
    /// and each new one appended.
    #[arg(long, value_name = "FILE")]
    cache: Option<PathBuf>,
    /// Write each position's moves and losses here (JSON lines: `pos`,
    /// `score`, `best` (the teacher's), then per candidate its `move` and
    /// `loss`), to read the moves that lost most.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// Only the first N positions.
    #[arg(long)]
    limit: Option<usize>,
    /// Teacher units to a rabbit (sharp's millirabbits: 1000; ours: 100).
    #[arg(long, default_value_t = 1000.0)]
    unit: f64,
    /// Engines searching at once, one position each.
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=256))]
    concurrency: u64,
    /// Seconds one position may take before it is skipped.
    #[arg(long, default_value_t = 120.0)]
    move_timeout: f64,
    /// No progress on stderr; only the summary.
    #[arg(long)]
    quiet: bool,
}

/// Runs `arimaa movetest`.
pub fn run(args: &MovetestArgs) -> ExitCode {
    match movetest(args) {
        Ok(code) => code,
        Err(e) => {
            eprintln!("error: {e}");
            ExitCode::FAILURE
        }
    }
}

/// A labelling configuration from `--engine`-style words: `ask` is
/// [`label::Ask::Search`] for the teacher (a fixed depth) and
/// [`label::Ask::Play`] for a candidate (a depth or a clock).
fn config(
    words: &[String],
    what: &str,
    ask: label::Ask,
    score: &ScoreSource,
    args: &MovetestArgs,
) -> Result<LabelConfig, CliError> {
    let engine =
        EngineSpec::parse(words, &[] as &[String], None).map_err(|e| CliError::Usage(format!("{what}: {e}")))?;
    let config = LabelConfig {
        ask,
        engine,
        concurrency: args.concurrency as usize,
        score: score.clone(),
        move_timeout: Duration::from_secs_f64(args.move_timeout),
    };
    config.validate()?;
    Ok(config)
}

/// Runs `tasks` through `config`'s engine; returns each labelled task's
/// score and move by index, and the number skipped.
fn search_all(
    config: &LabelConfig,
    tasks: &[Task],
    stop: &AtomicBool,
    quiet: bool,
    mut keep: impl FnMut(usize, i64) -> Result<(), CliError>,
) -> Result<(HashMap<usize, String>, u64), CliError> {
    let progress = Progress::new(tasks.len() as u64, "positions", quiet);
    let (mut best, mut skipped, mut error) = (HashMap::new(), 0u64, None);
    let result = label::run(config, tasks, stop, |event| {
        match event {
            Event::Labelled(l) => {
                if let Err(e) = keep(l.index, l.score) {
                    error.get_or_insert(e);
                    stop.store(true, Ordering::Relaxed);
                }
                best.insert(l.index, l.best);
            }
            Event::Skipped { index, why } => {
                skipped += 1;
                progress.line(&format!(
                    "{}: position {}: skipped: {why}",
                    config.engine.name,
                    index + 1
                ));
            }
        }
        progress.update(
            (best.len() as u64) + skipped,
            &format!("{}: {} searched, {skipped} skipped", config.engine.name, best.len()),
            false,
        );
    });
    progress.finish();
    if let Some(e) = error {
        return Err(e);
    }
    result?;
    Ok((best, skipped))
}

/// The teacher scores kept from earlier runs: position → score.
fn read_cache(path: &PathBuf) -> Result<HashMap<String, f64>, CliError> {
    let mut cache = HashMap::new();
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(cache),
        Err(e) => return Err(CliError::File(format!("cannot read {}: {e}", path.display()))),
    };
    for (i, line) in text.lines().enumerate() {
        let v: Value = serde_json::from_str(line).unwrap_or(Value::Null);
        let pos = v["pos"].as_str().and_then(|p| parse_position(p).ok());
        match (pos, v["score"].as_f64()) {
            (Some(p), Some(s)) => {
                cache.insert(position_to_aei(&p), s);
            }
            // A line cut by a stopped run, or not ours: said and left.
            _ => eprintln!("{}:{}: not a cached score; ignored", path.display(), i + 1),
        }
    }
    Ok(cache)
}

fn movetest(args: &MovetestArgs) -> Result<ExitCode, CliError> {
    if !(args.unit.is_finite() && args.unit > 0.0) {
        return Err(CliError::Usage("--unit must be above 0".into()));
    }
    if !(args.move_timeout > 0.0 && args.move_timeout <= 86_400.0) {
        return Err(CliError::Usage(
            "--move-timeout: seconds, above 0 and at most a day".into(),
        ));
    }
    let teacher = config(
        &args.teacher,
        "--teacher",
        label::Ask::Search,
        &args.teacher_score,
        args,
    )?;
    let candidates = args
        .engines
        .0
        .iter()
        .map(|words| config(words, "--engine", label::Ask::Play, &args.engine_score, args))
        .collect::<Result<Vec<_>, _>>()?;
    let positions = read_positions(&args.positions)?;
    for (line, why) in &positions.refused {
        eprintln!("{}:{line}: skipped: {why}", args.positions.display());
    }
    // Positions the teacher has scored; their teacher's move too, if given.
    let test: Vec<(&PositionLine, f64)> = positions
        .lines
        .iter()
        .filter_map(|l| Some((l, l.fields.get("score")?.as_f64()?)))
        .take(args.limit.unwrap_or(usize::MAX))
        .collect();
    if test.is_empty() {
        return Err(CliError::Usage(format!(
            "{}: no position with a teacher's `score`",
            args.positions.display()
        )));
    }
    let tasks: Vec<Task> = test
        .iter()
        .enumerate()
        .map(|(i, (l, _))| Task {
            index: i,
            pos: l.task.pos,
        })
        .collect();
    let teachers_after: Vec<Option<After>> = test
        .iter()
        .map(|(l, _)| {
            let best = l.fields.get("best")?.as_str()?;
            play(&l.task.pos, best).ok()
        })
        .collect();
    eprintln!(
        "{} positions; {} candidates; teacher {}",
        test.len(),
        candidates.len(),
        teacher.engine.name
    );
    let stop = stop_on_ctrl_c("the move test");
    let mut reached: Vec<Vec<Option<After>>> = Vec::new();
    let mut played: Vec<HashMap<usize, String>> = Vec::new();
    for c in &candidates {
        let (best, _) = search_all(c, &tasks, &stop, args.quiet, |_, _| Ok(()))?;
        let after = (0..test.len())
            .map(|i| {
                let text = best.get(&i)?;
                match play(&tasks[i].pos, text) {
                    Ok(a) => Some(a),
                    Err(e) => {
                        eprintln!("{}: position {}: illegal move '{text}': {e}", c.engine.name, i + 1);
                        None
                    }
                }
            })
            .collect();
        reached.push(after);
        played.push(best);
        if stop.load(Ordering::Relaxed) {
            return Ok(ExitCode::from(EXIT_INTERRUPTED));
        }
    }
    // The teacher scores each position a candidate reached, once.
    let mut cache = match &args.cache {
        Some(p) => read_cache(p)?,
        None => HashMap::new(),
    };
    let mut todo: Vec<String> = Vec::new();
    let mut queued = HashSet::new();
    for a in reached.iter().flatten().flatten() {
        if let After::Position(p) = a {
            let key = position_to_aei(p);
            if !cache.contains_key(&key) && queued.insert(key.clone()) {
                todo.push(key);
            }
        }
    }
    let todo_tasks: Vec<Task> = todo
        .iter()
        .enumerate()
        .map(|(i, key)| parse_position(key).map(|pos| Task { index: i, pos }))
        .collect::<Result<_, _>>()
        .map_err(|e| CliError::Usage(format!("a reached position: {e}")))?;
    eprintln!(
        "{} positions reached; {} to score with the teacher",
        cache.len() + todo.len(),
        todo.len()
    );
    let mut file = match &args.cache {
        Some(p) => Some(
            std::fs::OpenOptions::new()
                .create(true)
                .append(true)
                .open(p)
                .map_err(|e| CliError::File(format!("cannot write {}: {e}", p.display())))?,
        ),
        None => None,
    };
    let mut fresh: HashMap<String, f64> = HashMap::new();
    search_all(&teacher, &todo_tasks, &stop, args.quiet, |i, score| {
        fresh.insert(todo[i].clone(), score as f64);
        if let (Some(f), Some(p)) = (file.as_mut(), &args.cache) {
            writeln!(f, "{}", json!({"pos": todo[i], "score": score}))
                .and_then(|()| f.flush())
                .map_err(|e| CliError::File(format!("cannot write {}: {e}", p.display())))?;
        }
        Ok(())
    })?;
    cache.extend(fresh);
    let names: Vec<String> = candidates.iter().map(|c| c.engine.name.clone()).collect();
    let losses: Vec<Vec<Option<f64>>> = reached
        .iter()
        .map(|r| {
            r.iter()
                .zip(&test)
                .map(|(a, (_, before))| {
                    let a = a.as_ref()?;
                    let after = match a {
                        After::Position(p) => cache.get(&position_to_aei(p)).copied(),
                        _ => None,
                    };
                    loss(*before, after, a, args.unit)
                })
                .collect()
        })
        .collect();
    let same: Vec<Vec<bool>> = reached
        .iter()
        .map(|r| {
            r.iter()
                .zip(&teachers_after)
                .map(|(a, t)| a.is_some() && a == t)
                .collect()
        })
        .collect();
    if let Some(path) = &args.out {
        write_out(path, &test, &names, &played, &losses)?;
    }
    say!(
        "{:<16} {:>6}  {:>18}  {:>8}  {:>9}  {:>22}",
        "engine",
        "moves",
        "loss/move (95 %)",
        ">= 1 R",
        "teacher's",
        "vs first (95 %)"
    );
    for s in summarize(&names, &losses, &same) {
        let versus = s
            .versus_first
            .map_or(String::new(), |(d, h)| format!("{d:+.3} R ± {h:.3}"));
        say!(
            "{:<16} {:>6}  {:>8.3} R ± {:<6.3}  {:>6.1} %  {:>7.1} %  {versus:>22}",
            s.name,
            s.moves,
            s.mean,
            s.half_width,
            100.0 * s.blunders,
            100.0 * s.teachers_move
        );
    }
    say!("(losses in rabbits, each clipped to 3; teacher's = the teacher's own move played)");
    Ok(if stop.load(Ordering::Relaxed) {
        ExitCode::from(EXIT_INTERRUPTED)
    } else {
        ExitCode::SUCCESS
    })
}

/// Writes one line per test position: the teacher's view and each
/// candidate's move and loss.
fn write_out(
    path: &PathBuf,
    test: &[(&PositionLine, f64)],
    names: &[String],
    played: &[HashMap<usize, String>],
    losses: &[Vec<Option<f64>>],
) -> Result<(), CliError> {
    let mut text = String::new();
    for (i, (line, score)) in test.iter().enumerate() {
        let mut v = json!({
            "pos": position_to_aei(&line.task.pos),
            "score": score,
            "best": line.fields.get("best").cloned().unwrap_or(Value::Null),
        });
        for (c, name) in names.iter().enumerate() {
            v[name] = json!({"move": played[c].get(&i), "loss": losses[c][i]});
        }
        text.push_str(&v.to_string());
        text.push('\n');
    }
    std::fs::write(path, text).map_err(|e| CliError::File(format!("cannot write {}: {e}", path.display())))
}
