//! Positions our own engine walks into: the turn starts along the principal
//! variation of a fixed-depth search from each game position (`arimaa
//! positions --pv DEPTH`), or the positions after the turns its static
//! evaluation likes best (`arimaa positions --top K`).
//!
//! A search picks, among the positions at its horizon, those its evaluation
//! likes best, so where the evaluation is too kind to a position the search
//! goes there: a teacher's labels on exactly those positions are the
//! candidates for the evaluation's one-sided errors (measured on
//! 2026-12-04, no larger along the PV than elsewhere; the games a build
//! plays showed them: docs/results.md). The best turns by the static
//! score alone are the sharpest case: a one-turn search without
//! quiescence plays the first of them.

use super::data::{replay, GameRecord};
use super::positions::{ends, result_for, source_name, Origin, PositionLine};
use crate::error::TuningError;
use arimaa_core::{Color, Game, Position, TurnGen};
use arimaa_search::{static_score, Params, Searcher, TimeManager, TransTable};
use rayon::prelude::*;

/// A game position to search from, with what its lines carry.
struct Root {
    game: Game,
    source: String,
    ply: usize,
    /// The game's winner (`None` a draw).
    winner: Option<Color>,
    players: Option<[String; 2]>,
}

impl Root {
    /// The line of `pos`, reached from this root as `origin` says: the
    /// root's game and ply, the game's result and player for `pos`'s mover.
    fn line(&self, pos: Position, origin: Origin) -> PositionLine {
        let side = pos.side();
        PositionLine {
            pos,
            game: self.source.clone(),
            ply: self.ply,
            origin,
            result: result_for(self.winner, side),
            eval: None,
            played: None,
            player: self.players.as_ref().map(|p| p[side.index()].clone()),
        }
    }
}

/// For every `every`-th position after the setups of `games`, the turn
/// starts along the PV of a `depth`-step search with `params` (whole turns
/// only: a last turn the horizon cut short is left out, as is any position
/// that ends the game). `threads` searches at once, each with a `hash_mb`
/// table cleared between positions.
pub fn pv_positions(
    games: &[GameRecord],
    every: usize,
    depth: u32,
    params: &Params,
    threads: usize,
    hash_mb: usize,
) -> Result<Vec<PositionLine>, TuningError> {
    let roots = roots(games, every)?;
    let search_all = || -> Vec<Vec<PositionLine>> {
        roots
            .par_iter()
            .map_init(
                || TransTable::new(hash_mb),
                |tt, root| {
                    tt.clear();
                    along_pv(root, depth, params, tt)
                },
            )
            .collect()
    };
    Ok(on_pool(threads, search_all).into_iter().flatten().collect())
}

/// For every `every`-th position after the setups of `games`, the
/// positions after the `best` turns its side's static score (`params`)
/// ranks highest, the opponent to move after each (turns that end the game
/// and third repetitions left out), each position once (the first root
/// that reaches it keeps it). `threads` roots at once.
pub fn top_positions(
    games: &[GameRecord],
    every: usize,
    best: usize,
    params: &Params,
    threads: usize,
) -> Result<Vec<PositionLine>, TuningError> {
    let roots = roots(games, every)?;
    let rank_all = || -> Vec<Vec<PositionLine>> {
        roots
            .par_iter()
            .map_init(
                || (TurnGen::new(), None),
                |(gen, net), root| best_turns(root, best, params, gen, net),
            )
            .collect()
    };
    let mut seen = std::collections::HashSet::new();
    Ok(on_pool(threads, rank_all)
        .into_iter()
        .flatten()
        .filter(|line| seen.insert(line.pos.hash()))
        .collect())
}

/// Every `every`-th position after the setups of `games`.
fn roots(games: &[GameRecord], every: usize) -> Result<Vec<Root>, TuningError> {
    let mut roots = Vec::new();
    let mut n = 0usize;
    for game in games {
        let source = source_name(game);
        replay(game, |g, i| {
            if n.is_multiple_of(every.max(1)) {
                roots.push(Root {
                    game: g.clone(),
                    source: source.clone(),
                    ply: i,
                    winner: game.winner,
                    players: game.players.clone(),
                });
            }
            n += 1;
        })?;
    }
    Ok(roots)
}

/// `work` on a pool of `threads` (on the global pool if one cannot be made).
fn on_pool<T: Send>(threads: usize, work: impl FnOnce() -> T + Send) -> T {
    match rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build() {
        Ok(pool) => pool.install(work),
        Err(_) => work(),
    }
}

/// The positions after the `best` turns from `root` its mover scores highest.
fn best_turns(
    root: &Root,
    best: usize,
    params: &Params,
    gen: &mut TurnGen,
    net: &mut Option<Box<arimaa_search::nnue::Tracker>>,
) -> Vec<PositionLine> {
    let from = *root.game.position();
    let mut scored: Vec<(i32, Position)> = root
        .game
        .legal_turns(gen)
        .iter()
        .map(|t| t.result(&from))
        .filter(|after| !ends(after))
        .map(|after| (-static_score(&after, params, net), after))
        .collect();
    // Highest first; the hash breaks ties so that the order is the same on
    // every run whatever the generator's order.
    scored.sort_unstable_by_key(|(score, after)| (std::cmp::Reverse(*score), after.hash()));
    scored
        .into_iter()
        .take(best)
        .map(|(_, pos)| root.line(pos, Origin::Top))
        .collect()
}

/// The whole-turn positions of one search's PV.
fn along_pv(root: &Root, depth: u32, params: &Params, tt: &TransTable) -> Vec<PositionLine> {
    let time = TimeManager::unlimited();
    let Some(result) = Searcher::new(&root.game, &time, tt)
        .params(params)
        .depth(depth)
        .run(&mut |_| {})
    else {
        return Vec::new();
    };
    let mut out = Vec::new();
    let mut pos = *root.game.position();
    let last = result.pv.len().saturating_sub(1);
    for (k, turn) in result.pv.iter().enumerate() {
        // The horizon may cut the PV's last turn: a board halfway through a
        // turn is not a turn start. The root's turn is whole whatever its
        // length, and a short turn before the last one passed.
        if k > 0 && k == last && turn.len() < 4 {
            break;
        }
        pos = pos.after_turn(turn);
        if ends(&pos) {
            break;
        }
        out.push(root.line(pos, Origin::Pv));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::data::parse_jsonl;

    const GAME: &str = r#"{"moves": ["Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2", "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7", "Ee2n Ee3n", "ee7s ee6s"], "result": "s"}"#;

    #[test]
    fn pv_positions_are_whole_turns_along_the_engines_own_line() {
        let games = parse_jsonl(GAME, "g.jsonl").unwrap();
        let params = Params::default();
        let lines = pv_positions(&games, 1, 8, &params, 2, 1).unwrap();
        // Two game positions, each bringing at most the two turn starts of
        // an eight-step PV.
        assert!(!lines.is_empty() && lines.len() <= 4);
        for l in &lines {
            assert_eq!(l.origin, Origin::Pv);
            assert_eq!(l.pos.steps_left(), 4, "a turn start");
        }
        // From the first game position (gold to move), the first PV position
        // is gold's chosen turn played: silver to move, and it is what the
        // search itself plays there.
        let mut game = Game::new();
        game.play_text(&games[0].moves[0]).unwrap();
        game.play_text(&games[0].moves[1]).unwrap();
        let tt = TransTable::new(1);
        let time = TimeManager::unlimited();
        let own = Searcher::new(&game, &time, &tt).depth(8).run(&mut |_| {}).unwrap();
        let first: Vec<_> = lines.iter().filter(|l| l.ply == 2).collect();
        assert!((1..=2).contains(&first.len()));
        assert!(first[0].pos.same_board(&game.position().after_turn(&own.best)));
        assert_eq!(first[0].pos.side(), Color::Silver);
        assert_eq!(first[0].result, 1.0, "silver won the game");
        // Every third position only: fewer roots, a subset of the lines.
        let sparse = pv_positions(&games, 3, 8, &params, 1, 1).unwrap();
        assert!(sparse.len() < lines.len());
        assert!(sparse.iter().all(|l| l.ply == 2));
    }

    #[test]
    fn top_positions_are_the_turns_the_static_score_ranks_best() {
        let games = parse_jsonl(GAME, "g.jsonl").unwrap();
        let params = Params::default();
        let lines = top_positions(&games, 1, 3, &params, 2).unwrap();
        assert_eq!(lines.len(), 6, "three positions after each of the two game positions");
        let mut game = Game::new();
        game.play_text(&games[0].moves[0]).unwrap();
        game.play_text(&games[0].moves[1]).unwrap();
        let from = *game.position();
        // Every distinct turn's score for gold, the mover, best first.
        let mut net = None;
        let mut all: Vec<i32> = game
            .legal_turns(&mut TurnGen::new())
            .iter()
            .map(|t| -static_score(&t.result(&from), &params, &mut net))
            .collect();
        all.sort_unstable_by(|a, b| b.cmp(a));
        let first: Vec<_> = lines.iter().filter(|l| l.ply == 2).collect();
        assert_eq!(first.len(), 3);
        for (k, l) in first.iter().enumerate() {
            assert_eq!(l.origin, Origin::Top);
            assert_eq!(l.pos.side(), Color::Silver, "the opponent moves after the turn");
            assert_eq!(l.pos.steps_left(), 4);
            assert_eq!(-static_score(&l.pos, &params, &mut net), all[k], "rank {k}");
            assert!(!l.pos.same_board(&from));
        }
        assert_ne!(first[0].pos.hash(), first[1].pos.hash());
        assert_eq!(first[0].result, 1.0, "silver won the game");
        // The same lines on one thread, and fewer roots with `every`.
        let again = top_positions(&games, 1, 3, &params, 1).unwrap();
        let key = |ls: &[PositionLine]| ls.iter().map(|l| l.pos.hash()).collect::<Vec<_>>();
        assert_eq!(key(&lines), key(&again));
        let sparse = top_positions(&games, 2, 3, &params, 1).unwrap();
        assert_eq!(sparse.len(), 3);
        // A game read twice brings no position twice.
        let twice = parse_jsonl(&format!("{GAME}\n{GAME}"), "g.jsonl").unwrap();
        assert_eq!(twice.len(), 2);
        assert_eq!(key(&top_positions(&twice, 1, 3, &params, 2).unwrap()), key(&lines));
        assert_eq!(lines[0].to_json()["origin"], "top");
    }
}
