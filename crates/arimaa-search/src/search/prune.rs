//! Selectivity: which nodes and steps are searched less deep or not at all,
//! each rule switched by its parameter so that it can be measured alone.
//!
//! - **Root reductions** (`root_reduce`): root turns are many (thousands) and
//!   most are poor; those ranked late by the previous iteration are searched
//!   1, 2 or 3 steps shallower, and again at full depth if they beat the best.
//! - **Commuting steps** (`commute`): of two own steps that reach the same
//!   board in either order, only one order is searched.
//!
//! Neither may hide a goal: the root never reduces below the safety check
//! (the opponent's goal test after each root turn), and a skipped order
//! reaches the same board as the searched one.

use crate::params::SearchConfig;
use arimaa_core::{Color, Square, Step};

/// The root turns ranked first by the previous iteration that are never
/// reduced, however many turns there are: the best move is almost always
/// among the previous iteration's first few, and with few root turns (an
/// endgame) the shares below would reduce the second best.
const ROOT_UNREDUCED: usize = 4;

/// Where, as a share of the root turns ranked above it, a root turn's
/// reduction grows by a step: none in the first tenth, 1 step up to 30 %,
/// 2 up to 75 %, 3 beyond. Set by hand and never tuned; a reduced turn that
/// beats the best is searched again at full depth, so a share set too low
/// costs time rather than the move.
const ROOT_REDUCTION_SHARES: [f64; 3] = [0.1, 0.3, 0.75];

/// Steps the root turn ranked `index` of `count` is reduced by, with `extra`
/// steps searched after the root turns this iteration.
pub(super) fn root_reduction(params: &SearchConfig, index: usize, count: usize, extra: i32) -> i32 {
    if !params.root_reduce || index < ROOT_UNREDUCED || extra < 2 {
        return 0;
    }
    let rank = index as f64 / count as f64;
    let r = ROOT_REDUCTION_SHARES.iter().filter(|&&share| rank >= share).count() as i32;
    // Each reduced turn still gets the opponent's first step.
    r.min(extra - 1)
}

/// True when the own steps `earlier` and `later` (of distinct pieces) can be
/// played in either order to the same board: every square of one is at least
/// three steps from every square of the other, so neither changes the
/// other's occupancy, freezing, or the trap captures either may cause (two
/// squares next to one trap are at most two steps apart).
pub(super) fn commutes(earlier: Step, later: Step) -> bool {
    let far = |x: Square, y: Square| x.file().abs_diff(y.file()) + x.rank().abs_diff(y.rank()) >= 3;
    [earlier.from(), earlier.to()]
        .iter()
        .all(|&x| far(x, later.from()) && far(x, later.to()))
}

/// True when `step`, played at a node whose turn's previous step was `prev`
/// (an own simple step), repeats a pair of commuting steps in the order not
/// searched: of the two orders only the one with the smaller step first is.
pub(super) fn redundant(params: &SearchConfig, prev: Option<Step>, side: Color, step: Step) -> bool {
    let Some(prev) = prev else { return false };
    params.commute
        && step.piece().color == side
        && prev.piece().color == side
        && step.bits() < prev.bits()
        && commutes(prev, step)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::search::DEFAULT;
    use arimaa_core::{Direction, Kind, Piece};

    fn step(color: Color, kind: Kind, file: u8, rank: u8, dir: Direction) -> Step {
        Step::new(Piece::new(color, kind), Square::new(file, rank), dir)
    }

    #[test]
    fn steps_commute_only_when_nothing_of_one_is_near_the_other() {
        use Direction::{East, North, West};
        let g = Color::Gold;
        // a2-a3 and h2-h3: far apart.
        let a = step(g, Kind::Rabbit, 0, 1, North);
        let h = step(g, Kind::Rabbit, 7, 1, North);
        assert!(commutes(a, h) && commutes(h, a));
        // b3-b4 and d3-d4 are two files apart: the squares next to trap c3
        // (b3, d3) both change, so the captures on c3 depend on the order.
        let b = step(g, Kind::Dog, 1, 2, North);
        let d = step(g, Kind::Cat, 3, 2, North);
        assert!(!commutes(b, d) && !commutes(d, b));
        // A step onto the square the other just left, and neighbours.
        let e1 = step(g, Kind::Horse, 4, 0, East);
        let f1 = step(g, Kind::Camel, 5, 0, East);
        assert!(!commutes(e1, f1));
        assert!(!commutes(
            step(g, Kind::Dog, 2, 5, West),
            step(g, Kind::Cat, 4, 5, East)
        ));
        // Three steps apart from every square: d1-e1 and h2-h3.
        assert!(commutes(step(g, Kind::Dog, 3, 0, East), h));
    }

    #[test]
    fn only_the_larger_first_order_of_commuting_own_steps_is_skipped() {
        let on = SearchConfig {
            commute: true,
            ..DEFAULT
        };
        let g = Color::Gold;
        let a = step(g, Kind::Rabbit, 0, 1, Direction::North);
        let h = step(g, Kind::Rabbit, 7, 1, Direction::North);
        let (small, large) = if a.bits() < h.bits() { (a, h) } else { (h, a) };
        assert!(
            redundant(&on, Some(large), g, small),
            "large then small is the skipped order"
        );
        assert!(!redundant(&on, Some(small), g, large));
        let off = SearchConfig {
            commute: false,
            ..DEFAULT
        };
        assert!(!redundant(&off, Some(large), g, small), "switched off");
        assert!(!redundant(&on, None, g, small), "first step of a turn");
        // An enemy step (a push or a pull) never commutes away.
        let enemy = step(Color::Silver, Kind::Rabbit, 0, 6, Direction::North);
        assert!(!redundant(&on, Some(large), g, enemy));
        // A step next to the previous one is always searched.
        let near = step(g, Kind::Dog, 6, 1, Direction::West);
        assert!(!redundant(&on, Some(h), g, near));
    }

    #[test]
    fn root_reductions_grow_with_rank_and_keep_a_step() {
        let p = SearchConfig {
            root_reduce: true,
            ..DEFAULT
        };
        assert_eq!(root_reduction(&p, 2, 1000, 4), 0);
        assert_eq!(root_reduction(&p, 50, 1000, 4), 0);
        assert_eq!(root_reduction(&p, 200, 1000, 4), 1);
        assert_eq!(root_reduction(&p, 500, 1000, 4), 2);
        assert_eq!(root_reduction(&p, 900, 1000, 4), 3);
        assert_eq!(root_reduction(&p, 900, 1000, 2), 1, "one step of the reply is kept");
        assert_eq!(root_reduction(&p, 900, 1000, 1), 0);
    }
}
