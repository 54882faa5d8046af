//! Long-lived binds around traps that no short search sees end: frames and
//! hostages. Both are pieces that are not capturable this turn (the threat
//! terms and quiescence cover those) but tie down the losing side for many
//! turns, which a few plies of search cannot value.

use super::{piece_value, Terms};
use crate::params::Weight;
use arimaa_core::{Bitboard, Color, Kind, Position, Square};

/// A piece of `color` framed on a trap: every neighbour occupied, exactly one
/// of them its own (the guard, which cannot leave without losing it), and no
/// weaker enemy neighbour it could push away to step off.
fn framed(pos: &Position, color: Color, trap: Square) -> bool {
    let around = Bitboard::around(trap);
    let (own, enemy) = (pos.color_bb(color), pos.color_bb(color.opponent()));
    if !own.has(trap) || (around & pos.empty_squares()).any() || (around & own).count() != 1 {
        return false;
    }
    let kind = pos.kind_at(trap).unwrap_or(Kind::Rabbit);
    let empty = pos.empty_squares();
    !(around & enemy & pos.weaker_than(color.opponent(), kind))
        .iter()
        .any(|e| (Bitboard::around(e) & empty).any())
}

/// A piece of `color` held next to a trap: frozen (so a stronger enemy is
/// next to it and no friend is), with the trap empty and at most one other
/// own piece guarding it, so the holder can drag it in as soon as that guard
/// is drawn away.
fn hostage(pos: &Position, color: Color, trap: Square, sq: Square, frozen: Bitboard) -> bool {
    frozen.has(sq) && !pos.occupied().has(trap) && (Bitboard::around(trap) & pos.color_bb(color)).count() <= 2
}

/// Value of `color`'s pieces in frames and held hostage, in centi-rabbits
/// (as [`piece_value`]): `(framed, held)`. `frozen` is `pos.frozen(color)`,
/// already at hand in the caller.
fn bound_values(pos: &Position, color: Color, frozen: Bitboard) -> (i32, i32) {
    let own = pos.color_bb(color);
    let mut framed_value = 0;
    let mut held_value = 0;
    for trap in Bitboard::TRAPS {
        if framed(pos, color, trap) {
            framed_value += piece_value(pos.kind_at(trap).unwrap_or(Kind::Rabbit));
        }
        for sq in Bitboard::around(trap) & own & frozen {
            if hostage(pos, color, trap, sq, frozen) {
                held_value += piece_value(pos.kind_at(sq).unwrap_or(Kind::Rabbit));
            }
        }
    }
    (framed_value, held_value)
}

/// The bind terms of `color`, added with `sign`: each bound piece costs its
/// parameter's percentage of its value.
pub(super) fn side<T: Terms>(pos: &Position, color: Color, frozen: Bitboard, sign: i32, acc: &mut T) {
    // Frames need no frozen piece, hostages do.
    let wanted = acc.wants(Weight::frame_pct) || acc.wants(Weight::hostage_pct);
    if !wanted || (frozen.is_empty() && (pos.color_bb(color) & Bitboard::TRAPS).is_empty()) {
        return;
    }
    let (framed, held) = bound_values(pos, color, frozen);
    acc.add(Weight::frame_pct, -sign * framed, 100);
    acc.add(Weight::hostage_pct, -sign * held, 100);
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::eval::tests::board;

    /// A board from eight rank strings, rank 8 first ('.' or ' ' empty).
    #[test]
    fn a_framed_dog_is_found_and_needs_a_single_guard() {
        // Gold dog on c3 (a trap); gold guard b3, silver elephant c4,
        // camel d3, horse c2: framed.
        let ranks = [
            "........", "........", "........", "........", "..e.....", ".RDm....", "..h.....", "........",
        ];
        let pos = board(ranks, 'g');
        let c3 = Square::parse("c3").unwrap();
        assert!(framed(&pos, Color::Gold, c3));
        assert_eq!(bound_values(&pos, Color::Gold, pos.frozen(Color::Gold)), (200, 0));
        assert!(!framed(&pos, Color::Silver, c3), "the dog is gold's");
        // Take the horse off c2 and the dog can step: no frame.
        let mut open = pos;
        open.clear_square(Square::parse("c2").unwrap());
        assert!(!framed(&open, Color::Gold, c3));
        // A second gold guard on c2: a guard can leave, no frame.
        let mut two = pos;
        two.clear_square(Square::parse("c2").unwrap());
        two.put(
            arimaa_core::Piece::new(Color::Gold, Kind::Rabbit),
            Square::parse("c2").unwrap(),
        );
        assert!(!framed(&two, Color::Gold, c3));
    }

    #[test]
    fn a_frame_a_weaker_neighbour_could_be_pushed_out_of_is_no_frame() {
        // As above but d3 holds a silver cat with an empty e3 behind it: the
        // dog can push it away and step off.
        let ranks = [
            "........", "........", "........", "........", "..e.....", ".RDc....", "..h.....", "........",
        ];
        let pos = board(ranks, 'g');
        assert!(!framed(&pos, Color::Gold, Square::parse("c3").unwrap()));
        // Fill every square around the cat: the push has nowhere to go.
        let mut shut = pos;
        for s in ["e3", "d4", "d2"] {
            shut.put(
                arimaa_core::Piece::new(Color::Silver, Kind::Rabbit),
                Square::parse(s).unwrap(),
            );
        }
        assert!(framed(&shut, Color::Gold, Square::parse("c3").unwrap()));
    }

    #[test]
    fn a_frozen_piece_by_a_weakly_held_trap_is_a_hostage() {
        // Gold horse on f7 beside the f6 trap, frozen by the silver elephant on
        // g7; f6 empty and no other gold piece around it.
        let ranks = [
            "........", ".....He.", "........", "........", "........", "........", "........", "........",
        ];
        let pos = board(ranks, 'g');
        let frozen = pos.frozen(Color::Gold);
        assert!(frozen.has(Square::parse("f7").unwrap()));
        assert_eq!(bound_values(&pos, Color::Gold, frozen), (0, 300));
        // Two more gold guards around f6 hold the trap: no hostage.
        let mut held = pos;
        for s in ["e6", "f5"] {
            held.put(
                arimaa_core::Piece::new(Color::Gold, Kind::Rabbit),
                Square::parse(s).unwrap(),
            );
        }
        assert_eq!(bound_values(&held, Color::Gold, held.frozen(Color::Gold)), (0, 0));
        // Something on the trap itself blocks the drag: no hostage.
        let mut blocked = pos;
        blocked.put(
            arimaa_core::Piece::new(Color::Silver, Kind::Dog),
            Square::parse("f6").unwrap(),
        );
        assert_eq!(bound_values(&blocked, Color::Gold, blocked.frozen(Color::Gold)), (0, 0));
    }
}
