//! Exact goal detection: can the side to move put a rabbit on its goal rank
//! within the steps left in its turn?
//!
//! A depth-first search over legal steps, pruned by a sound bound: an own
//! rabbit moves only by its own steps, one square each, so a rabbit `d` ranks
//! from goal needs `d` of the remaining steps. When no step is spare, only the
//! north steps of rabbits exactly that far can be part of a goal. When one
//! step is spare, it must touch the rabbit's way directly (see [`near_way`]).

use arimaa_core::keytable::KeyTable;
use arimaa_core::rules::goal_rank;
use arimaa_core::{Bitboard, Color, Direction, Kind, Pending, Piece, Position, Step, StepList};
use std::cell::RefCell;

/// A goal path for the side to move within its remaining steps, if one exists.
/// The steps returned end with the side's rabbit on its goal rank and the turn
/// may end there (no push half done).
#[must_use]
pub fn find_goal(pos: &Position) -> Option<Vec<Step>> {
    let mut path = Vec::with_capacity(4);
    with_table(|seen| search(pos, &mut path, seen)).then_some(path)
}

/// True when the side to move can reach goal within its remaining steps.
#[must_use]
pub fn can_goal(pos: &Position) -> bool {
    let mut path = Vec::with_capacity(4);
    with_table(|seen| search(pos, &mut path, seen))
}

thread_local! {
    /// States already shown goal-less in this call: step orders transpose a lot.
    static SEEN: RefCell<KeyTable> = RefCell::new(KeyTable::with_capacity(1 << 10));
}

fn with_table(f: impl FnOnce(&mut KeyTable) -> bool) -> bool {
    SEEN.with(|cell| match cell.try_borrow_mut() {
        Ok(mut table) => {
            table.clear();
            f(&mut table)
        }
        // Re-entered (never by this crate): use a private table.
        Err(_) => f(&mut KeyTable::with_capacity(64)),
    })
}

fn north(color: Color) -> Direction {
    match color {
        Color::Gold => Direction::North,
        Color::Silver => Direction::South,
    }
}

/// Squares from which a rabbit of `color` can reach its goal in at most `steps` steps.
pub fn goal_reach(color: Color, steps: u8) -> Bitboard {
    let rows = (steps.min(7) as u32 + 1) * 8;
    let mask = if rows >= 64 { !0u64 } else { (1u64 << rows) - 1 };
    match color {
        Color::Silver => Bitboard(mask),
        Color::Gold => Bitboard(mask.reverse_bits()),
    }
}

/// Fewest steps any own rabbit needs to reach goal, ignoring obstacles.
fn rabbit_distance(pos: &Position, us: Color) -> Option<u8> {
    let rabbits = pos.bitboard(Piece::new(us, Kind::Rabbit));
    (0..=pos.steps_left()).find(|&d| (rabbits & goal_reach(us, d)).any())
}

/// A sound bound on the goal: some own rabbit has a path to the goal rank
/// (forward and sideways steps) whose length, plus one for every occupied
/// square on it, is at most `left`.
///
/// Every occupied square the rabbit enters must be emptied first by a step
/// of another piece, and a step empties only its own start square, except
/// through a capture, which empties a trap: occupied traps therefore count
/// nothing extra. So a goal within `left` steps needs such a path.
fn path_within(pos: &Position, us: Color, left: u8) -> bool {
    let occupied = pos.occupied();
    let cheap = !occupied | (occupied & Bitboard::TRAPS);
    let dear = occupied & !Bitboard::TRAPS;
    let forward = north(us);
    let moves = |b: Bitboard| b.shift(forward) | b.shift(Direction::East) | b.shift(Direction::West);
    let goal = goal_rank(us);
    // reach[k]: squares some rabbit reaches at cost k or less.
    let mut before = Bitboard::EMPTY;
    let mut reach = pos.bitboard(Piece::new(us, Kind::Rabbit));
    for _ in 0..left {
        let next = reach | (moves(reach) & cheap) | (moves(before) & dear);
        before = reach;
        reach = next;
        if (reach & goal).any() {
            return true;
        }
    }
    false
}

/// The squares a step must start or end on to help a rabbit of `us` reach
/// goal within `left` steps, when exactly
/// one step is spare (`left` is one more than the nearest rabbit's rank
/// distance).
///
/// With one spare step the rabbit makes all its forward steps and at most one
/// sideways step, so its way lies in its own file and the two beside it,
/// from its rank to the goal rank. The spare step cannot be part of a push or
/// pull (two steps), so it is one step of an own piece, and it helps only by
/// emptying a square of the way (it starts there, or next to a trap on the
/// way whose lone own piece it leaves to be captured), by unfreezing the
/// rabbit or guarding a trap on the way (it ends next to the way), or by
/// being the rabbit's own sideways step. A pull begun earlier may be
/// finished by the enemy piece, which then leaves a square of the way.
/// Every such step starts or ends within one square of the way.
fn near_way(pos: &Position, us: Color, left: u8) -> Bitboard {
    // The nearest rabbits have the spare step; those `left` ranks away have
    // none and may only step forward, on their own file.
    let rabbits = pos.bitboard(Piece::new(us, Kind::Rabbit)) & goal_reach(us, left);
    let forward = north(us);
    let mut way = Bitboard::EMPTY;
    let mut front = rabbits | rabbits.shift(Direction::East) | rabbits.shift(Direction::West);
    while front.any() {
        way |= front;
        front = front.shift(forward);
    }
    way | way.neighbors()
}

fn search(pos: &Position, path: &mut Vec<Step>, seen: &mut KeyTable) -> bool {
    let us = pos.side();
    let left = pos.steps_left();
    let Some(distance) = rabbit_distance(pos, us) else {
        return false;
    };
    if left == 0 || !path_within(pos, us, left) {
        return false;
    }
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    let tight = distance == left;
    // A rabbit already on goal (mid-turn) needs no help: any step that keeps
    // it there wins, so the filter applies only to rabbits still on their way.
    let near = if distance >= 1 && distance + 1 == left && !matches!(pos.pending(), Pending::Push { .. }) {
        near_way(pos, us, left)
    } else {
        Bitboard::FULL
    };
    let goal = goal_rank(us);
    let own_rabbit = Piece::new(us, Kind::Rabbit);
    for &step in list.as_slice() {
        let piece = step.piece();
        let is_own_rabbit = piece.color == us && piece.kind == Kind::Rabbit;
        if tight && !(is_own_rabbit && step.dir() == north(us)) {
            continue;
        }
        if !(near.has(step.from()) || near.has(step.to())) {
            continue;
        }
        let mut child = *pos;
        child.make_step(step);
        path.push(step);
        // Own rabbits never leave the goal rank during their own turn, so a
        // rabbit there (moved in now, or already there) wins at the turn's end.
        if (child.bitboard(own_rabbit) & goal).any() && !matches!(child.pending(), Pending::Push { .. }) {
            return true;
        }
        if child.steps_left() > 0 && seen.insert_key(child.state_key()) && search(&child, path, seen) {
            return true;
        }
        path.pop();
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_core::{Square, TurnGen};

    fn board(side: char, pieces: &str) -> Position {
        let mut p = Position::empty(Color::from_letter(side).unwrap());
        for tok in pieces.split_whitespace() {
            let piece = Piece::from_letter(tok.chars().next().unwrap()).unwrap();
            p.put(piece, Square::parse(&tok[1..]).unwrap());
        }
        p
    }

    /// The slow truth: some legal turn ends with an own rabbit on goal.
    fn brute(pos: &Position) -> bool {
        let us = pos.side();
        TurnGen::new()
            .turns(pos)
            .iter()
            .any(|t| (t.result(pos).bitboard(Piece::new(us, Kind::Rabbit)) & goal_rank(us)).any())
    }

    #[test]
    fn simple_runs_and_blocks() {
        let p = board('g', "Rd4 re8 Ee1");
        assert!(can_goal(&p), "four free steps north");
        let p = board('g', "Rd4 Ee1 rd6 rc5 re5 rh8");
        assert!(!can_goal(&p), "blocked and no help near");
        let p = board('s', "rd6 Ee8 Rh1");
        assert!(!can_goal(&p), "five ranks away");
        assert_eq!(can_goal(&board('s', "rd4 Ee8 Rh1")), brute(&board('s', "rd4 Ee8 Rh1")));
    }

    #[test]
    fn agrees_with_every_turn_mid_turn_too_along_random_games() {
        // Random games run long enough for rabbits to come near goal; the test
        // is made at turn starts and after one, two and three random steps.
        let mut rng = arimaa_core::rng::XorShift(0x9E37_79B9_7F4A_7C15);
        let mut next = move |n: usize| rng.below(n);
        let mut gen = TurnGen::new();
        let (mut checked, mut goals) = (0, 0);
        for _ in 0..40 {
            let mut pos = Position::standard();
            for _ in 0..80 {
                let turns = gen.turns(&pos);
                if turns.is_empty() || arimaa_core::rules::goal_or_elimination(&pos).is_some() {
                    break;
                }
                let mut mid = pos;
                for _ in 0..next(4) {
                    let steps = mid.legal_step_list();
                    if steps.is_empty() || mid.steps_left() <= 1 {
                        break;
                    }
                    mid.make_step(steps.as_slice()[next(steps.len())]);
                }
                for p in [pos, mid] {
                    if matches!(p.pending(), Pending::Push { .. }) {
                        continue;
                    }
                    let truth = brute(&p);
                    assert_eq!(can_goal(&p), truth, "{}", arimaa_core::position_to_aei(&p));
                    checked += 1;
                    goals += usize::from(truth);
                }
                pos = turns[next(turns.len())].result(&pos);
            }
        }
        assert!(checked > 2000 && goals > 50, "{checked} positions, {goals} goals");
    }

    #[test]
    fn needs_a_push_to_clear_the_way() {
        // Gold's rabbit on b7 is blocked by a silver dog on b8; the elephant on a8
        // pulls the dog away (2 steps) and the rabbit steps in.
        let p = board('g', "Rb7 Ea8 db8 rh8");
        let path = find_goal(&p).expect("goal by pull");
        assert!(path.len() <= 4);
        assert!(brute(&p));
    }
}
