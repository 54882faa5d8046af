//! Goal threats: how many free steps each side's best rabbit needs to reach
//! its goal rank.
//!
//! The distance is a flood from the goal rank over empty squares a rabbit
//! may step to (forward or sideways, never back), leaving out the traps no
//! own piece guards. A frozen rabbit needs a friend or the freezer to move
//! first, counted as two more steps. Pieces that could step into the way are
//! ignored: the distance says how near a threat is, the weights (fitted to
//! games) how much it is worth, and the search's exact goal test the rest.

use super::{Shared, Terms};
use crate::params::Weight;
use arimaa_core::rules::goal_rank;
use arimaa_core::{Bitboard, Color, Direction, Kind, Piece, Position};

/// Distances beyond this are not measured.
pub const FAR: u8 = 9;

/// The squares from which one rabbit step of `color` lands in `set`.
fn one_step_back(set: Bitboard, color: Color) -> Bitboard {
    let back = match color {
        Color::Gold => Direction::South,
        Color::Silver => Direction::North,
    };
    set.shift(back) | set.shift(Direction::East) | set.shift(Direction::West)
}

/// Free steps the best rabbit of `color` needs to reach goal (0..[`FAR`]);
/// `FAR` when none can within 8. `frozen` is `pos.frozen(color)`.
#[must_use]
pub fn goal_distance(pos: &Position, color: Color, frozen: Bitboard) -> u8 {
    let rabbits = pos.bitboard(Piece::new(color, Kind::Rabbit));
    let goal = goal_rank(color);
    if rabbits.is_empty() {
        return FAR;
    }
    if (rabbits & goal).any() {
        return 0;
    }
    let own = pos.color_bb(color);
    let unsafe_traps = Bitboard::TRAPS & !own.neighbors();
    let passable = pos.empty_squares() & !unsafe_traps;
    let (free, stuck) = (rabbits & !frozen, rabbits & frozen);
    let mut reach = goal & passable;
    let mut best = FAR;
    for k in 1..FAR {
        if k >= best {
            break;
        }
        let from = one_step_back(reach, color);
        if (from & free).any() {
            return best.min(k);
        }
        if (from & stuck).any() {
            best = best.min(k + 2);
        }
        let next = reach | (from & passable);
        if next == reach {
            break;
        }
        reach = next;
    }
    best
}

/// The goal terms: the waiting side's and the mover's best rabbits.
pub(super) fn terms<T: Terms>(pos: &Position, shared: &Shared, acc: &mut T) {
    const WAITING: [Weight; 3] = [Weight::goal_waiting_4, Weight::goal_waiting_6, Weight::goal_waiting_8];
    const MOVER: [Weight; 3] = [Weight::goal_mover_4, Weight::goal_mover_6, Weight::goal_mover_8];
    let us = pos.side();
    for (color, params, sign) in [(us.opponent(), WAITING, -1), (us, MOVER, 1)] {
        if !params.iter().any(|&p| acc.wants(p)) {
            continue;
        }
        let d = goal_distance(pos, color, shared.frozen(color));
        let bucket = match d {
            0..=4 => 0,
            5 | 6 => 1,
            7 | 8 => 2,
            _ => continue,
        };
        acc.add(params[bucket], sign, 1);
    }
}

#[cfg(test)]
mod tests {
    use super::super::tests::board;
    use super::*;

    fn distance(pos: &Position, color: Color) -> u8 {
        goal_distance(pos, color, pos.frozen(color))
    }

    #[test]
    fn free_paths_are_counted_and_blockers_go_around() {
        // Gold rabbit on d5: three steps straight up.
        let open = board(
            [
                "........", "........", "........", "...R....", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(distance(&open, Color::Gold), 3);
        // A wall on d6 to f6... the rabbit goes round by c6? c6 is an
        // unguarded trap: it must go by b-file or g-file.
        let walled = board(
            [
                "........", "........", "...rrr..", "...R....", "........", "........", "........", "........",
            ],
            'g',
        );
        // d5 → c5 → b5 → b6 → b7 → b8: 5 steps (c6 is a trap no gold piece guards).
        assert_eq!(distance(&walled, Color::Gold), 5);
        // Silver has no rabbit near its goal (rank 1): d6 is 5 ranks away.
        assert_eq!(distance(&walled, Color::Silver), 5);
    }

    #[test]
    fn a_frozen_rabbit_needs_two_more_and_no_rabbits_is_far() {
        // Gold rabbit on d6 frozen by a silver cat on d5? A cat beside it on e6.
        let frozen = board(
            [
                "........", "........", "...Rc...", "........", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(distance(&frozen, Color::Gold), 4);
        let none = board(
            [
                "........", "........", "........", "........", "........", "........", "........", "........",
            ],
            'g',
        );
        assert_eq!(distance(&none, Color::Gold), FAR);
    }
}
