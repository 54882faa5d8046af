//! `arimaa selfplay`: the engine plays itself, move by move, with a board diagram.

use arimaa_core::notation::{board_diagram, format_setup};
use arimaa_core::{format_move, Game};
use arimaa_search::setup::choose_setup;
use arimaa_search::{Params, Searcher, TimeManager, TransTable};
use clap::Args;
use std::process::ExitCode;
use std::time::Duration;

#[derive(Args, Debug)]
pub struct SelfplayArgs {
    /// Seconds per move.
    #[arg(long, default_value_t = 1.0)]
    movetime: f64,
    /// Stop after this many turns (each side's move is one turn).
    #[arg(long, default_value_t = 200)]
    max_turns: u32,
    /// Seed for the setups.
    #[arg(long, default_value_t = 1)]
    seed: u64,
    /// Print only the moves, not the board after each.
    #[arg(long)]
    quiet: bool,
}

pub fn run(args: &SelfplayArgs, params: &Params) -> ExitCode {
    if !(args.movetime.is_finite() && args.movetime > 0.0) {
        eprintln!("error: --movetime must be a positive number of seconds");
        return ExitCode::FAILURE;
    }
    let mut game = Game::new();
    for i in 0..2 {
        let side = game.side_to_move();
        let placed = choose_setup(side, game.position(), args.seed.wrapping_add(i));
        let text = format_setup(&placed);
        say!("{}{} {text}", game.move_number(), side.letter());
        if let Err(e) = game.play_text(&text) {
            eprintln!("error: setup refused: {e}");
            return ExitCode::FAILURE;
        }
    }
    if !args.quiet {
        say_raw!("{}", board_diagram(game.position()));
    }
    let tt = TransTable::new(64);
    let time = Duration::from_secs_f64(args.movetime);
    for _ in 0..args.max_turns {
        if let Some(outcome) = game.outcome() {
            say!("result: {outcome}");
            return ExitCode::SUCCESS;
        }
        let clock = TimeManager::fixed(time / 2, time);
        let (number, side) = (game.move_number(), game.side_to_move());
        let Some(result) = Searcher::new(&game, &clock, &tt).params(params).run(&mut |_| {}) else {
            say!("{number}{}: no legal move", side.letter());
            break;
        };
        say!(
            "{number}{} {}    (depth {}, score {}, {} nodes)",
            side.letter(),
            format_move(game.position(), &result.best),
            result.depth,
            result.score,
            result.nodes
        );
        if let Err(e) = game.play(&result.best) {
            eprintln!("error: the engine chose an illegal move: {e}");
            return ExitCode::FAILURE;
        }
        if !args.quiet {
            say_raw!("{}", board_diagram(game.position()));
        }
    }
    match game.outcome() {
        Some(outcome) => say!("result: {outcome}"),
        None => say!("result: unfinished after {} turns", args.max_turns),
    }
    ExitCode::SUCCESS
}
