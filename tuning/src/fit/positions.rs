//! Positions for a teacher to label (`arimaa positions`): every position of
//! some games after the setups, and positions one random legal turn away
//! from them.
//!
//! An evaluation is used at the leaves of a search, and most leaves follow
//! poor moves; positions of good play alone never show it what a blunder
//! leaves behind. So each game position can bring `random` more: a turn
//! drawn uniformly from its distinct legal turns (third repetitions and
//! turns that end the game left out), the opponent to move after it. With
//! `turns` above one, each random position is that many random turns away
//! (both sides' blunders, as at the leaves of a two-turn search).

use super::data::{replay, GameRecord, DECIDED_EVAL};
use crate::error::TuningError;
use arimaa_core::notation::position_to_aei;
use arimaa_core::rng::XorShift;
use arimaa_core::rules::goal_or_elimination;
use arimaa_core::{Color, Position, TurnGen};
use serde_json::json;

/// Where a position comes from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Reached in the game.
    Game,
    /// One random legal turn after a game position.
    Random,
    /// A turn start along the engine's own search's PV (`pv_positions`).
    Pv,
    /// After one of the turns the engine's static score likes best
    /// (`top_positions`).
    Top,
}

/// One position to label, with what the game says of it.
#[derive(Clone, Debug)]
pub struct PositionLine {
    /// The position, at the start of the side to move's turn.
    pub pos: Position,
    /// The game's source (file and line or game number): train and test
    /// sets are split by it.
    pub game: String,
    /// Index in the game's move list of the move played from the game
    /// position (for `Random`, the one it was drawn from).
    pub ply: usize,
    /// Reached in the game or by a random turn.
    pub origin: Origin,
    /// 1 when the side to move went on to win the game, 0 when it lost, 0.5
    /// a draw (for a random position, the game's result all the same: a
    /// weak target, the teacher's score is the strong one).
    pub result: f64,
    /// The player's own evaluation where the game has one (game positions).
    pub eval: Option<f64>,
    /// The move the game played here (game positions).
    pub played: Option<String>,
    /// The name of the player to move, where the game names its players.
    pub player: Option<String>,
}

impl PositionLine {
    /// The JSON line `arimaa label` reads: `pos` and the rest as fields.
    #[must_use]
    pub fn to_json(&self) -> serde_json::Value {
        let mut v = json!({
            "pos": position_to_aei(&self.pos),
            "game": self.game,
            "ply": self.ply,
            "origin": match self.origin { Origin::Game => "game", Origin::Random => "random", Origin::Pv => "pv", Origin::Top => "top" },
            "result": self.result,
        });
        if let Some(e) = self.eval {
            v["eval"] = json!(e);
        }
        if let Some(m) = &self.played {
            v["played"] = json!(m);
        }
        if let Some(p) = &self.player {
            v["player"] = json!(p);
        }
        v
    }
}

/// Every position after the setups of `games`, each followed by `random`
/// positions `turns` random turns away (fewer where the position has fewer
/// distinct turns that do not end the game). `seed` makes the draw repeatable.
pub fn positions(
    games: &[GameRecord],
    random: usize,
    turns: usize,
    seed: u64,
) -> Result<Vec<PositionLine>, TuningError> {
    let mut rng = XorShift(seed | 1);
    let mut gen = TurnGen::new();
    let mut out = Vec::new();
    for game in games {
        let source = source_name(game);
        replay(game, |g, i| {
            let pos = *g.position();
            let side = pos.side();
            let result = |mover: Color| result_for(game.winner, mover);
            let player = |mover: Color| game.players.as_ref().map(|p| p[mover.index()].clone());
            let eval = game.evals.get(i).copied().flatten().filter(|e| e.abs() < DECIDED_EVAL);
            out.push(PositionLine {
                pos,
                game: source.clone(),
                ply: i,
                origin: Origin::Game,
                result: result(side),
                eval,
                played: game.moves.get(i).cloned(),
                player: player(side),
            });
            if random == 0 {
                return;
            }
            let legal = g.legal_turns(&mut gen);
            let mut tries = 0;
            let mut drawn = 0;
            // A few draws may end the game; give up after a bounded number.
            while drawn < random && tries < 4 * random && !legal.is_empty() {
                tries += 1;
                let first = legal[rng.below(legal.len())].result(&pos);
                if ends(&first) {
                    continue;
                }
                let Some(after) = walk(first, turns.saturating_sub(1), &mut rng) else {
                    continue;
                };
                drawn += 1;
                out.push(PositionLine {
                    pos: after,
                    game: source.clone(),
                    ply: i,
                    origin: Origin::Random,
                    result: result(after.side()),
                    eval: None,
                    played: None,
                    player: player(after.side()),
                });
            }
        })?;
    }
    Ok(out)
}

/// A game's source without its folders: an identifier, not a path.
pub(super) fn source_name(game: &GameRecord) -> String {
    std::path::Path::new(&game.source)
        .file_name()
        .map_or_else(|| game.source.clone(), |n| n.to_string_lossy().into_owned())
}

/// The game's result for `mover`: 1 a win, 0 a loss, 0.5 a draw (`winner`
/// `None`).
pub(super) fn result_for(winner: Option<Color>, mover: Color) -> f64 {
    match winner {
        Some(w) if w == mover => 1.0,
        Some(_) => 0.0,
        None => 0.5,
    }
}

/// Whether the game is over after a turn: a goal, an elimination, or no
/// legal step for the side to move.
pub(super) fn ends(pos: &Position) -> bool {
    goal_or_elimination(pos).is_some() || pos.legal_step_list().is_empty()
}

/// `extra` more random turns from `pos`; `None` when a few draws in a row
/// all end the game. These turns are random walks of steps (each step drawn
/// among the legal ones, the turn ended after each with chance 1 in 4 where
/// it may end), not draws among distinct turns: generating every turn costs
/// milliseconds a position, a walk microseconds, and past the first turn
/// any spread of blunders serves.
fn walk(mut pos: Position, extra: usize, rng: &mut XorShift) -> Option<Position> {
    for _ in 0..extra {
        pos = (0..4).find_map(|_| random_turn(&pos, rng).filter(|after| !ends(after)))?;
    }
    Some(pos)
}

/// One random walk of steps from the start of a turn to its end.
fn random_turn(pos: &Position, rng: &mut XorShift) -> Option<Position> {
    let mut p = *pos;
    loop {
        if p.can_end_turn() && (p.steps_left() == 0 || rng.below(4) == 0) {
            p.end_turn();
            return Some(p);
        }
        let steps = p.legal_step_list();
        let steps = steps.as_slice();
        if p.steps_left() == 0 || steps.is_empty() {
            return None;
        }
        p.make_step(steps[rng.below(steps.len())]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fit::data::parse_jsonl;

    const GAME: &str = r#"{"moves": ["Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2", "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7", "Ee2n Ee3n", "ee7s ee6s", "Md2n Md3n"], "result": "s", "eval": [null, null, 120, -130, 40]}"#;

    #[test]
    fn game_positions_carry_result_eval_and_move_and_random_ones_differ() {
        let games = parse_jsonl(GAME, "t").unwrap();
        let lines = positions(&games, 2, 1, 7).unwrap();
        let game: Vec<_> = lines.iter().filter(|l| l.origin == Origin::Game).collect();
        let random: Vec<_> = lines.iter().filter(|l| l.origin == Origin::Random).collect();
        assert_eq!(game.len(), 3, "three moves after the setups");
        assert_eq!(random.len(), 6, "two random turns after each");
        assert_eq!(game[0].result, 0.0, "gold to move, silver won");
        assert_eq!(game[1].eval, Some(-130.0));
        assert_eq!(game[2].played.as_deref(), Some("Md2n Md3n"));
        for (k, r) in random.iter().enumerate() {
            let from = game[k / 2];
            assert_ne!(r.pos.side(), from.pos.side(), "the opponent moves after a random turn");
            assert_ne!(r.pos.hash(), from.pos.hash());
            assert_eq!(r.result, 1.0 - from.result);
            assert_eq!(r.ply, from.ply);
        }
        let again = positions(&games, 2, 1, 7).unwrap();
        let key = |ls: &[PositionLine]| ls.iter().map(|l| l.pos.hash()).collect::<Vec<_>>();
        assert_eq!(key(&lines), key(&again), "the same seed draws the same turns");
        let v = lines[0].to_json();
        assert_eq!(v["origin"], "game");
        assert!(v["pos"].as_str().unwrap().starts_with("g ["));
    }

    #[test]
    fn random_positions_two_turns_away_keep_the_mover_and_differ() {
        let games = parse_jsonl(GAME, "t").unwrap();
        let lines = positions(&games, 3, 2, 11).unwrap();
        let game: Vec<_> = lines.iter().filter(|l| l.origin == Origin::Game).collect();
        let random: Vec<_> = lines.iter().filter(|l| l.origin == Origin::Random).collect();
        assert_eq!(random.len(), 9, "three random positions after each of three");
        for (k, r) in random.iter().enumerate() {
            let from = game[k / 3];
            assert_eq!(r.pos.side(), from.pos.side(), "two turns: the same side to move ({k})");
            assert_ne!(r.pos.hash(), from.pos.hash());
            assert_eq!(r.result, from.result);
            assert_eq!(r.ply, from.ply);
        }
    }
}
