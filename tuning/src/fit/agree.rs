//! Move agreement: the share of positions where the engine, searching to a
//! fixed depth, plays the move the game's player played. Moves are compared
//! by the position they lead to, so different step orders of one turn agree.

use super::data::{replay, GameRecord};
use crate::error::TuningError;
use arimaa_core::{parse_move, Game};
use arimaa_search::{Params, Searcher, TimeManager, TransTable};
use rayon::prelude::*;

/// One position to agree on.
#[derive(Clone, Debug)]
pub struct Probe {
    /// The game up to the position (its history for repetitions).
    pub game: Game,
    /// The move the player played, as text.
    pub played: String,
}

/// Every `every`-th position after the setups of the games `which`.
pub fn probes(games: &[GameRecord], which: &[usize], every: usize) -> Result<Vec<Probe>, TuningError> {
    let mut out = Vec::new();
    let mut n = 0usize;
    for &gi in which {
        let game = &games[gi];
        replay(game, |g, i| {
            if n.is_multiple_of(every.max(1)) {
                out.push(Probe {
                    game: g.clone(),
                    played: game.moves[i].clone(),
                });
            }
            n += 1;
        })?;
    }
    Ok(out)
}

/// How many of `probes` the engine agrees on, searching each to `depth`
/// steps with `params`, `threads` positions at a time (one search thread
/// and a `hash_mb` table each).
#[must_use]
pub fn agreement(probes: &[Probe], depth: u32, params: &Params, threads: usize, hash_mb: usize) -> usize {
    let pool = match rayon::ThreadPoolBuilder::new().num_threads(threads.max(1)).build() {
        Ok(pool) => pool,
        Err(_) => return agree_all(probes, depth, params, hash_mb),
    };
    pool.install(|| agree_all(probes, depth, params, hash_mb))
}

fn agree_all(probes: &[Probe], depth: u32, params: &Params, hash_mb: usize) -> usize {
    probes
        .par_iter()
        .map_init(
            || TransTable::new(hash_mb),
            |tt, probe| {
                tt.clear();
                usize::from(agrees(probe, depth, params, tt))
            },
        )
        .sum()
}

/// True when the engine's move at `depth` leads where the player's did.
fn agrees(probe: &Probe, depth: u32, params: &Params, tt: &TransTable) -> bool {
    let pos = *probe.game.position();
    let Ok((_, played)) = parse_move(&pos, &probe.played) else {
        return false;
    };
    let time = TimeManager::unlimited();
    let Some(result) = Searcher::new(&probe.game, &time, tt)
        .params(params)
        .depth(depth)
        .run(&mut |_| {})
    else {
        return false;
    };
    let mine = pos.after_turn(&result.best);
    mine.same_board(&played)
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_core::TurnGen;

    #[test]
    fn the_engines_own_choice_agrees_and_any_other_turn_does_not() {
        let setups = [
            "Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2",
            "ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7",
        ];
        let mut game = Game::new();
        for s in setups {
            game.play_text(s).unwrap();
        }
        let probe = |played: &str| Probe {
            game: game.clone(),
            played: played.to_string(),
        };
        let tt = TransTable::new(1);
        let time = TimeManager::unlimited();
        let own = Searcher::new(&game, &time, &tt).depth(4).run(&mut |_| {}).unwrap();
        let pos = *game.position();
        let chosen = pos.after_turn(&own.best);
        let other = game
            .legal_turns(&mut TurnGen::new())
            .into_iter()
            .find(|t| !t.result(&pos).same_board(&chosen))
            .map(|t| arimaa_core::format_move(&pos, &t.steps))
            .unwrap();
        let p = Params::default();
        let own_text = arimaa_core::format_move(&pos, &own.best);
        assert!(agrees(&probe(&own_text), 4, &p, &tt));
        assert!(!agrees(&probe(&other), 4, &p, &tt));
        assert!(
            !agrees(&probe("Ra1n"), 4, &p, &tt),
            "an illegal move agrees with nothing"
        );
        assert_eq!(agreement(&[probe(&own_text), probe(&other)], 4, &p, 2, 1), 1);
    }
}
