//! Selectivity: which nodes and steps are searched less deep, each rule
//! switched by its parameter (0 = off) so that it can be measured alone.
//!
//! - **Late-move reductions** (`lmr`): at a node with enough depth, quiet
//!   steps after the first `lmr` units are searched one step shallower (two
//!   for steps that lose a piece), with a null window; one that beats alpha
//!   is searched again at full depth.
//! - **Root reductions** (`root_reduce`): root turns are many (thousands) and
//!   most are poor; those ranked late by the previous iteration are searched
//!   1, 2 or 3 steps shallower, and again at full depth if they beat the best.
//! - **Null move** (`null_move`): at a turn start with depth to spare, a side
//!   whose position is already above beta gives up its turn; if the
//!   opponent, moving twice, still cannot bring the score below beta in a
//!   search `4 + null_move` steps shallower, the node is cut.
//!
//! - **Futility** (`futility`, a margin per step): a null-window node at most
//!   two steps from the horizon whose evaluation is more than the margin
//!   below alpha goes straight to quiescence (captures and the goal test
//!   still run); more than the margin above beta, it stands.
//!
//! None of them may hide a goal: a reduced search always reaches the next
//! turn start, where the exact goal test of the side to move runs, and the
//! root never reduces below the safety check (the opponent's goal test after
//! each root turn).

use super::order::Class;
use crate::params::{Param, Params};
use arimaa_core::{Color, Square, Step};

/// Steps a late unit is reduced by, at a node with `depth` steps left, the
/// unit costing `cost` steps, `searched` units tried before it, and `to_turn`
/// steps from the child to the next turn start (0 when the unit ends the turn).
pub(super) fn late_reduction(params: &Params, class: Class, depth: i32, cost: i32, searched: u32, to_turn: i32) -> i32 {
    let after = params[Param::lmr];
    if after == 0 || class == Class::Tactical || searched < after as u32 {
        return 0;
    }
    let r = match class {
        Class::Losing => 2,
        _ => 1 + i32::from(searched >= 4 * after as u32),
    };
    // Never past the next turn start when the search would reach it (the
    // goal test there must run); when the horizon falls before it anyway,
    // down to the horizon, whose goal test covers the steps left.
    let child = depth - cost;
    let room = if child >= to_turn { child - to_turn } else { child };
    r.min(room).max(0)
}

/// Steps the root turn ranked `index` of `count` is reduced by, with `extra`
/// steps searched after the root turns this iteration.
pub(super) fn root_reduction(params: &Params, index: usize, count: usize, extra: i32) -> i32 {
    if params[Param::root_reduce] == 0 || index < 4 || extra < 2 {
        return 0;
    }
    let rank = index as f64 / count as f64;
    let r = if rank < 0.1 {
        0
    } else if rank < 0.3 {
        1
    } else if rank < 0.75 {
        2
    } else {
        3
    };
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
pub(super) fn redundant(params: &Params, prev: Option<Step>, side: Color, step: Step) -> bool {
    let Some(prev) = prev else { return false };
    params[Param::commute] != 0
        && step.piece().color == side
        && prev.piece().color == side
        && step.bits() < prev.bits()
        && commutes(prev, step)
}

/// The null move's depth, when it may be tried at a turn start with `depth`
/// steps left and a null window; `None` when not.
pub(super) fn null_depth(params: &Params, depth: i32) -> Option<i32> {
    let r = params[Param::null_move];
    // Below 4 + r + 1 the opponent's reply would be cut to nothing.
    (r > 0 && depth > 4 + r).then_some(depth - 4 - r)
}

/// The futility margin at a node with `depth` steps left, when futility
/// applies there.
pub(super) fn futility_margin(params: &Params, depth: i32) -> Option<i32> {
    let per_step = params[Param::futility];
    (per_step > 0 && (1..=2).contains(&depth)).then_some(per_step * depth)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::params::DEFAULT;
    use arimaa_core::{Direction, Kind, Piece};

    #[test]
    fn reductions_spare_tactics_and_never_skip_the_next_turn_start() {
        let p = DEFAULT.with(Param::lmr, 3);
        assert_eq!(late_reduction(&p, Class::Tactical, 8, 1, 20, 0), 0);
        assert_eq!(
            late_reduction(&p, Class::Quiet, 8, 1, 2, 0),
            0,
            "early units are searched fully"
        );
        assert_eq!(late_reduction(&p, Class::Quiet, 8, 1, 3, 0), 1);
        assert_eq!(late_reduction(&p, Class::Quiet, 8, 1, 12, 0), 2);
        assert_eq!(late_reduction(&p, Class::Losing, 8, 1, 3, 0), 2);
        // Depth 4 at a step with 3 steps to the turn's end: 4 - 1 - 3 = 0 to spare.
        assert_eq!(late_reduction(&p, Class::Quiet, 4, 1, 9, 3), 0);
        // Depth 2 with 3 steps to the turn's end: the horizon comes first,
        // so the step may go down to it.
        assert_eq!(late_reduction(&p, Class::Quiet, 2, 1, 9, 3), 1);
        assert_eq!(late_reduction(&p, Class::Quiet, 1, 1, 9, 3), 0);
        assert_eq!(
            late_reduction(&DEFAULT.with(Param::lmr, 0), Class::Quiet, 8, 1, 9, 0),
            0
        );
    }

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
        let on = DEFAULT.with(Param::commute, 1);
        let g = Color::Gold;
        let a = step(g, Kind::Rabbit, 0, 1, Direction::North);
        let h = step(g, Kind::Rabbit, 7, 1, Direction::North);
        let (small, large) = if a.bits() < h.bits() { (a, h) } else { (h, a) };
        assert!(
            redundant(&on, Some(large), g, small),
            "large then small is the skipped order"
        );
        assert!(!redundant(&on, Some(small), g, large));
        let off = DEFAULT.with(Param::commute, 0);
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
        let p = DEFAULT.with(Param::root_reduce, 1);
        assert_eq!(root_reduction(&p, 2, 1000, 4), 0);
        assert_eq!(root_reduction(&p, 50, 1000, 4), 0);
        assert_eq!(root_reduction(&p, 200, 1000, 4), 1);
        assert_eq!(root_reduction(&p, 500, 1000, 4), 2);
        assert_eq!(root_reduction(&p, 900, 1000, 4), 3);
        assert_eq!(root_reduction(&p, 900, 1000, 2), 1, "one step of the reply is kept");
        assert_eq!(root_reduction(&p, 900, 1000, 1), 0);
        assert_eq!(null_depth(&DEFAULT.with(Param::null_move, 1), 5), None);
        assert_eq!(null_depth(&DEFAULT.with(Param::null_move, 1), 8), Some(3));
        let f = DEFAULT.with(Param::futility, 50);
        assert_eq!(futility_margin(&f, 1), Some(50));
        assert_eq!(futility_margin(&f, 2), Some(100));
        assert_eq!(futility_margin(&f, 3), None);
        assert_eq!(futility_margin(&DEFAULT, 1), None);
    }
}
