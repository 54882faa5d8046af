//! Exact goal detection: can the side to move put a rabbit on its goal rank
//! within the steps left in its turn?
//!
//! A depth-first search over legal steps, pruned by a sound bound: an own
//! rabbit moves only by its own steps, one square each, so a rabbit `d` ranks
//! from goal needs `d` of the remaining steps. When no step is spare, only the
//! north steps of rabbits exactly that far can be part of a goal.

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
    let goal = goal_rank(us);
    let own_rabbit = Piece::new(us, Kind::Rabbit);
    for &step in list.as_slice() {
        let piece = step.piece();
        let is_own_rabbit = piece.color == us && piece.kind == Kind::Rabbit;
        if tight && !(is_own_rabbit && step.dir() == north(us)) {
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
    fn needs_a_push_to_clear_the_way() {
        // Gold's rabbit on b7 is blocked by a silver dog on b8; the elephant on a8
        // pulls the dog away (2 steps) and the rabbit steps in.
        let p = board('g', "Rb7 Ea8 db8 rh8");
        let path = find_goal(&p).expect("goal by pull");
        assert!(path.len() <= 4);
        assert!(brute(&p));
    }
}
