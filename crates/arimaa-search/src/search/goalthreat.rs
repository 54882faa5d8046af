//! Goal threats at the horizon: the side not to move could reach goal from
//! this board in a turn of its own, and no turn of the mover stops it.
//!
//! The evaluation sees a rabbit near goal as a term among many; whether
//! the mover can still stop it is a question of one turn's steps, which
//! the step tree past its horizon does not ask. At a leaf where a quick
//! goal test finds the other side's goal, the mover's defence is searched:
//! its turns made of steps within two squares of that goal's path, each
//! ended and tested for the other side's goal. A leaf with no such turn
//! is a loss.

use super::{Searcher, WIN_BOUND};
use crate::goal::{find_goal, goal_reach, goal_within};
use arimaa_core::keytable::KeyTable;
use arimaa_core::rules::goal_rank;
use arimaa_core::{Bitboard, Kind, Pending, Piece, Position, Step, StepList};

/// The score of a threat the defence search could not stop, less the ply:
/// beyond every evaluation and short of a goal the tree has proved, since
/// the defence looked only at steps near the goal path.
pub(super) const THREAT_WON: i32 = WIN_BOUND - 1000;

/// Steps a defence search may try, its goal tests' included, before it
/// gives up and counts the threat as met: one that finds a defence usually
/// does so within a few hundred, but showing that none exists took 48,000
/// in a lost position of a match, and 3,000 never did.
const DEFENCE_STEPS: u32 = 30_000;

/// Steps of the goal test that finds the other side's threat at a leaf:
/// one that finds nothing, in a race, can try thousands, and the test runs
/// at every leaf with the other side's rabbits within a turn of goal; a
/// threat it cannot find this quickly is left to the evaluation.
const QUICK_GOAL_TEST: u32 = 32;

/// Entries of the threat cache (a power of two).
const CACHE: usize = 1 << 14;

/// What the searcher keeps for goal threats: the verdicts by state key,
/// the defence search's table of states seen, and the steps spent.
pub(super) struct Threats {
    /// Key and verdict (true: lost to a threat) of states already judged.
    cache: Vec<(u64, bool)>,
    seen: KeyTable,
    /// Steps tried by goal tests and defences, held to four times the
    /// nodes (unbounded, 12 times at depth 8 in a race, the search's
    /// time doubled).
    pub(super) spent: u64,
}

impl Threats {
    pub(super) fn new() -> Threats {
        Threats {
            cache: vec![(0, false); CACHE],
            seen: KeyTable::with_capacity(1 << 12),
            spent: 0,
        }
    }
}

/// The squares a defence against the goal by `path` may touch: within two
/// steps of the rabbit's way (a defence blocks it, freezes or moves the
/// rabbit, or captures it), and next to the path's other steps that touch
/// the way (clearing it or unfreezing the rabbit); a goal found with steps
/// to spare may also hold steps that serve nothing, and they are left out.
fn zone(path: &[Step]) -> Bitboard {
    let squares = |s: &Step| Bitboard::from_square(s.from()) | Bitboard::from_square(s.to());
    let way = path
        .iter()
        .filter(|s| s.piece().kind == Kind::Rabbit)
        .fold(Bitboard::EMPTY, |b, s| b | squares(s));
    let near = way | way.neighbors();
    let helpers = path
        .iter()
        .map(squares)
        .filter(|b| (*b & near).any())
        .fold(Bitboard::EMPTY, |b, s| b | s);
    near | near.neighbors() | helpers.neighbors()
}

impl Searcher<'_> {
    /// The score of a leaf of the step tree: quiescence, lowered to a loss
    /// when it stands above `alpha` and the other side has a goal threat
    /// the mover cannot stop.
    pub(super) fn leaf(&mut self, pos: &Position, alpha: i32, beta: i32, ply: usize) -> i32 {
        let score = self.quiesce(pos, alpha, beta, ply);
        if score >= WIN_BOUND {
            return score;
        }
        if score > alpha && self.threat_against(pos) {
            // The mover's own goal comes first; `horizon` tests it only
            // below its `beta`.
            let goal = self.horizon(pos, ply, WIN_BOUND);
            return if goal >= WIN_BOUND {
                goal
            } else {
                -(THREAT_WON - ply as i32)
            };
        }
        score
    }

    /// True when the side not to move could reach goal from this board in
    /// a turn of its own, found by a quick goal test, and no turn of the
    /// mover's steps near that goal's path stops it.
    fn threat_against(&mut self, pos: &Position) -> bool {
        if !self.params.search.goal_threats || pos.pending() != Pending::None || pos.steps_left() == 0 {
            return false;
        }
        let them = pos.side().opponent();
        if (pos.bitboard(Piece::new(them, Kind::Rabbit)) & goal_reach(them, 4)).is_empty() {
            return false;
        }
        let key = pos.state_key();
        let slot = (key >> 40) as usize & (CACHE - 1);
        let (cached, lost) = self.threats.cache[slot];
        if cached == key {
            return lost;
        }
        // A goal test's step costs a tenth of a tree node or less.
        if self.threats.spent > self.nodes * 4 {
            return false;
        }
        let mut other = *pos;
        other.end_turn();
        let mut quick = QUICK_GOAL_TEST;
        let lost = goal_within(&other, &mut quick) && {
            let zone = find_goal(&other).map_or(Bitboard::EMPTY, |path| zone(&path));
            self.threats.seen.clear();
            let mut budget = DEFENCE_STEPS;
            let defended = self.defence(pos, zone, &mut budget);
            self.threats.spent += u64::from(DEFENCE_STEPS - budget);
            defended == Some(false)
        };
        self.threats.spent += u64::from(QUICK_GOAL_TEST - quick);
        self.threats.cache[slot] = (key, lost);
        lost
    }

    /// Whether the side to move at `pos` has a turn, of steps that start
    /// or end in `zone` (and the completions of its pushes), after which
    /// the other side cannot reach goal: `None` when `budget` steps ran out
    /// first.
    fn defence(&mut self, pos: &Position, zone: Bitboard, budget: &mut u32) -> Option<bool> {
        let mut list = StepList::new();
        pos.legal_steps(&mut list);
        let pushing = matches!(pos.pending(), Pending::Push { .. });
        let us = pos.side();
        let them = us.opponent();
        for &step in list.as_slice() {
            if !pushing && !zone.has(step.from()) && !zone.has(step.to()) {
                continue;
            }
            if *budget == 0 {
                return None;
            }
            *budget -= 1;
            let mut child = *pos;
            child.make_step(step);
            if child.can_end_turn() {
                let mut next = child;
                next.end_turn();
                if !self.is_repetition(next.hash()) {
                    // The defender's own goal wins it the game; the other
                    // side's rabbit on its goal (pushed there) is no defence.
                    if (next.bitboard(Piece::new(us, Kind::Rabbit)) & goal_rank(us)).any() {
                        return Some(true);
                    }
                    if (next.bitboard(Piece::new(them, Kind::Rabbit)) & goal_rank(them)).is_empty()
                        && !goal_within(&next, budget)
                    {
                        // A goal test that ran out of steps lands here too:
                        // the threat is won only when every turn tried is
                        // shown to lose, and the caller hears `None`.
                        return if *budget == 0 { None } else { Some(true) };
                    }
                }
            }
            if child.steps_left() > 0 && self.threats.seen.insert_key(child.state_key()) {
                match self.defence(&child, zone, budget) {
                    Some(false) => {}
                    found => return found,
                }
            }
        }
        Some(false)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::board;
    use crate::params::{Params, SearchConfig, DEFAULT};
    use crate::search::INF;
    use crate::time::TimeManager;
    use crate::tt::TransTable;
    use arimaa_core::Game;

    /// The leaf score of `pos` with goal threats on or off.
    fn leaf(pos: &Position, threats: bool) -> i32 {
        let game = Game::from_position(*pos);
        let (time, tt) = (TimeManager::unlimited(), TransTable::new(1));
        let params = Params {
            search: SearchConfig {
                goal_threats: threats,
                ..DEFAULT.search
            },
            ..DEFAULT
        };
        let mut s = Searcher::new(&game, &time, &tt).params(&params);
        // The budget is a share of the nodes: a fresh searcher has none.
        s.nodes = 1000;
        s.leaf(pos, -INF, INF, 0)
    }

    #[test]
    fn a_threat_the_mover_cannot_stop_is_a_loss_and_one_it_can_is_not() {
        // Gold's rabbit on d7, silver to move: its rabbit on a8 can block
        // one goal square, its elephant on h3 cannot come near.
        let lost = board(
            [
                "r.......", "...R....", "........", "........", "........", ".......e", "........", "....E...",
            ],
            's',
        );
        assert!(leaf(&lost, false) > -WIN_BOUND + 2000, "the evaluation alone");
        assert_eq!(leaf(&lost, true), -THREAT_WON);
        // Silver's camel on c8 steps to d8 and freezes the rabbit.
        let held = board(
            [
                "r.m.....", "...R....", "........", "........", "........", ".......e", "........", "....E...",
            ],
            's',
        );
        assert!(leaf(&held, true) > -WIN_BOUND + 2000);
    }
}
