//! `arimaa analyze`: search one position and print each finished iteration
//! (depth, score, nodes, time, speed and principal variation), then the
//! best turn. The position comes from a board diagram file, an AEI position
//! string, or a game record at a move.

use crate::error::CliError;
use arimaa_aei::report::pv_text;
use arimaa_core::diagram::parse_diagram;
use arimaa_core::notation::{board_diagram, position_to_aei};
use arimaa_core::record::{parse_record, rewound, MoveLabel};
use arimaa_core::{format_move, parse_position, Color, Game};
use arimaa_match::record::read_records;
use arimaa_search::search::Report;
use arimaa_search::smp::Watch;
use arimaa_search::time::DEFAULT_MOVE_TIME;
use arimaa_search::{Params, TimeManager, TransTable};
use clap::{ArgGroup, Args};
use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
#[command(group(ArgGroup::new("source").required(true).args(["diagram", "position", "game_file"])))]
pub struct AnalyzeArgs {
    /// A board diagram file: a first line with the move number and side to
    /// move (`12g`), the boxed board as `selfplay` and pyrimaa print it, and
    /// the file letters.
    #[arg(value_name = "DIAGRAM")]
    diagram: Option<PathBuf>,
    /// The side to move in the diagram (g or s), for one without a `12g` line.
    #[arg(long, requires = "diagram", value_parser = parse_side)]
    side: Option<Color>,
    /// A position as AEI's `setposition` takes it: `g [64 characters]`.
    #[arg(long)]
    position: Option<String>,
    /// A game record: a move list (`1g Ra1 ...`, `1s ...`, `2g ...`) or a
    /// match record file of several games.
    #[arg(long, value_name = "FILE")]
    game_file: Option<PathBuf>,
    /// The game to take from a match record: the one with this `Game`
    /// header (the Nth in the file when no game has one).
    #[arg(long, requires = "game_file", value_name = "N")]
    game: Option<u32>,
    /// The move to find: the position where it is to be played, like `3g`.
    /// Without it, the position after the record's last move.
    #[arg(long = "move", requires = "game_file", value_name = "LABEL")]
    at: Option<MoveLabel>,
    /// Search to this depth in steps (the root turn counts 4).
    #[arg(long, value_parser = clap::value_parser!(u32).range(4..=100))]
    depth: Option<u32>,
    /// Search for this many seconds. Without --depth or --time: 3 s, as the
    /// AEI engine thinks with no time control.
    #[arg(long, value_name = "SECS", value_parser = positive_seconds)]
    time: Option<f64>,
    /// Transposition table size in MB.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u64).range(1..=65_536))]
    hash: u64,
    /// Search threads (lazy SMP).
    #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u32).range(1..=256))]
    threads: u32,
}

fn parse_side(text: &str) -> Result<Color, String> {
    let mut chars = text.chars();
    match (chars.next().and_then(Color::from_letter), chars.next()) {
        (Some(side), None) => Ok(side),
        _ => Err(format!("'{text}' is not a side: g or s (w or b)")),
    }
}

fn positive_seconds(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(secs) if secs.is_finite() && secs > 0.0 && secs < 1e9 => Ok(secs),
        _ => Err(format!("'{text}' is not a positive number of seconds")),
    }
}

pub fn run(args: &AnalyzeArgs, params: &Params) -> ExitCode {
    crate::error::exit_code(analyze(args, params))
}

fn analyze(args: &AnalyzeArgs, params: &Params) -> Result<(), CliError> {
    let (game, label) = position_to_search(args)?;
    let at = label.map_or_else(|| "the position".to_string(), |l| format!("move {l}"));
    if game.in_setup() {
        return Err(CliError::Usage(format!(
            "{at} is a setup: analyze searches turns, from move 2g on"
        )));
    }
    if let Some(outcome) = game.outcome() {
        return Err(CliError::Usage(format!(
            "the game is over at {at} ({outcome}): nothing to search"
        )));
    }
    let root = *game.position();
    match label {
        Some(l) => say!("{l}  {}", position_to_aei(&root)),
        None => say!("{}", position_to_aei(&root)),
    }
    say_raw!("{}", board_diagram(&root));
    let time = match (args.time, args.depth) {
        (Some(secs), _) => {
            let secs = Duration::from_secs_f64(secs);
            TimeManager::fixed(secs, secs)
        }
        (None, Some(_)) => TimeManager::unlimited(),
        (None, None) => TimeManager::fixed(DEFAULT_MOVE_TIME, DEFAULT_MOVE_TIME),
    };
    let tt = TransTable::try_new(args.hash as usize).map_err(|e| CliError::Usage(format!("--hash: {e}")))?;
    say!(
        "{:>5} {:>7} {:>12} {:>8} {:>10}  pv",
        "depth",
        "score",
        "nodes",
        "time",
        "nps"
    );
    let mut report = |r: &Report| {
        say!(
            "{:>5} {:>7} {:>12} {:>8.2} {:>10}  {}",
            r.depth,
            r.score,
            r.nodes,
            r.elapsed.as_secs_f64(),
            nps(r.nodes, r.elapsed),
            pv_text(&root, &r.pv)
        );
    };
    let result = arimaa_search::smp::search(
        &game,
        &time,
        &tt,
        args.threads as usize,
        args.depth,
        params,
        Watch::iterations(&mut report),
    )
    .ok_or_else(|| CliError::Usage(format!("{} has no legal turn", root.side())))?;
    let elapsed = time.elapsed();
    say!(
        "best {}    (depth {}, score {}, {} nodes, {:.2} s, {} nps)",
        format_move(&root, &result.best),
        result.depth,
        result.score,
        result.nodes,
        elapsed.as_secs_f64(),
        nps(result.nodes, elapsed)
    );
    Ok(())
}

fn nps(nodes: u64, elapsed: Duration) -> u64 {
    (nodes as f64 / elapsed.as_secs_f64().max(1e-3)) as u64
}

/// The game to search from, with the label of the move to find when the
/// source names it (a diagram's `12g` line, a record).
fn position_to_search(args: &AnalyzeArgs) -> Result<(Game, Option<MoveLabel>), CliError> {
    if let Some(path) = &args.diagram {
        let text = read(path)?;
        let diagram = parse_diagram(&text, args.side).map_err(|error| CliError::Diagram {
            path: path.display().to_string(),
            error,
        })?;
        return Ok((Game::from_position(diagram.position), diagram.label));
    }
    if let Some(text) = &args.position {
        return Ok((Game::from_position(parse_position(text)?), None));
    }
    let Some(path) = &args.game_file else {
        return Err(CliError::Usage("give a diagram file, --position or --game-file".into()));
    };
    let game = recorded_game(path, args.game)?;
    let label = args.at.unwrap_or(MoveLabel::next_in(&game));
    Ok((rewound(&game, label)?, Some(label)))
}

/// The game of the record file at `path`: a move list alone, or from a match
/// record the game numbered `pick`.
fn recorded_game(path: &Path, pick: Option<u32>) -> Result<Game, CliError> {
    let text = read(path)?;
    let shown = path.display().to_string();
    if !text.lines().any(|l| l.trim_start().starts_with('[')) {
        if pick.is_some_and(|n| n != 1) {
            return Err(CliError::Usage(format!(
                "--game: {shown} is one game's move list; --game picks a game in a match record"
            )));
        }
        return parse_record(&text).map_err(|error| CliError::Record { path: shown, error });
    }
    let mut games = read_records(&text)?;
    let count = games.len();
    let index = match pick {
        None if count == 1 => 0,
        None => {
            return Err(CliError::Usage(format!(
                "{shown} holds {count} games: pick one with --game N"
            )))
        }
        Some(n) if games.iter().any(|g| g.header("Game").is_some()) => {
            let wanted = n.to_string();
            games
                .iter()
                .position(|g| g.header("Game") == Some(wanted.as_str()))
                .ok_or_else(|| CliError::Usage(format!("--game: {shown} has no game with [Game \"{n}\"]")))?
        }
        Some(n) => (n as usize)
            .checked_sub(1)
            .filter(|&i| i < count)
            .ok_or_else(|| CliError::Usage(format!("--game: {shown} holds games 1 to {count}, not {n}")))?,
    };
    Ok(games.swap_remove(index).game)
}

fn read(path: &Path) -> Result<String, CliError> {
    std::fs::read_to_string(path).map_err(|e| CliError::File(format!("cannot read {}: {e}", path.display())))
}
