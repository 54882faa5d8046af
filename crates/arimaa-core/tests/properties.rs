//! Properties that must hold everywhere, checked along random games.

mod common;

use arimaa_core::notation::{format_move, parse_position, position_to_aei};
use arimaa_core::perft::step_perft;
use arimaa_core::{parse_move, Pending, Position, StepList, TurnGen};
use common::{fixture_position, movegen_fixtures, random_game_positions, Rng};

/// Along random step paths: an open push has one to three completions,
/// each of which closes it and is a legal step there; no other state has
/// any.
#[test]
fn push_completions_close_the_open_push_and_only_it() {
    let mut rng = Rng(0xB05);
    let (mut open, mut closed) = (0, 0);
    for start in random_game_positions(13, 12, 80) {
        let mut pos = start;
        for _ in 0..4 {
            let completions: Vec<_> = pos.push_completions().collect();
            if matches!(pos.pending(), Pending::Push { .. }) {
                open += 1;
                assert!((1..=3).contains(&completions.len()), "{}", position_to_aei(&pos));
                let legal = pos.legal_step_list();
                for &c in &completions {
                    assert!(legal.contains(c));
                    let mut after = pos;
                    after.make_step(c);
                    assert!(!matches!(after.pending(), Pending::Push { .. }));
                }
            } else {
                closed += 1;
                assert!(completions.is_empty(), "{}", position_to_aei(&pos));
            }
            let list = pos.legal_step_list();
            if list.is_empty() {
                break;
            }
            // Push first halves are taken often, so that open pushes come up.
            let pushes: Vec<_> = list
                .as_slice()
                .iter()
                .filter(|s| s.piece().color != pos.side())
                .collect();
            let step = if !pushes.is_empty() && rng.below(2) == 0 {
                *pushes[rng.below(pushes.len())]
            } else {
                list.as_slice()[rng.below(list.len())]
            };
            pos.make_step(step);
        }
    }
    assert!(open > 100 && closed > 1000, "{open} open pushes, {closed} other states");
}

/// Walks random step paths through whole turns, checking the incremental hash
/// and make/unmake at every step.
#[test]
fn incremental_hash_and_unmake_along_random_step_paths() {
    let mut rng = Rng(0x5EED);
    let mut checked = 0;
    for start in random_game_positions(11, 12, 80) {
        let mut pos = start;
        let mut undos = Vec::new();
        let mut states = vec![pos];
        for _ in 0..4 {
            let list = pos.legal_step_list();
            if list.is_empty() {
                break;
            }
            let step = list.as_slice()[rng.below(list.len())];
            undos.push(pos.make_step(step));
            assert_eq!(
                pos.hash(),
                pos.hash_from_scratch(),
                "after {step} from {}",
                position_to_aei(&states[0])
            );
            states.push(pos);
            checked += 1;
        }
        while let Some(u) = undos.pop() {
            states.pop();
            pos.unmake_step(u);
            assert!(pos == *states.last().unwrap(), "unmake restores everything");
        }
        assert!(pos == start);
        if !pos.legal_step_list().is_empty() {
            // end_turn and its undo, too.
            let u = pos.end_turn();
            assert_eq!(pos.hash(), pos.hash_from_scratch());
            pos.unmake_end_turn(u);
            assert!(pos == start);
        }
    }
    assert!(checked > 2000, "only {checked} steps checked");
}

#[test]
fn every_generated_turn_prints_and_parses_back_to_its_result() {
    let mut gen = TurnGen::new();
    let mut rng = Rng(77);
    let mut checked = 0;
    for pos in random_game_positions(23, 6, 60) {
        let turns = gen.turns(&pos);
        assert_eq!(turns.len(), gen.count(&pos), "collecting and counting agree");
        for _ in 0..60.min(turns.len()) {
            let t = &turns[rng.below(turns.len())];
            let text = format_move(&pos, &t.steps);
            let (mv, mut after) = parse_move(&pos, &text).unwrap_or_else(|e| panic!("{text}: {e}"));
            assert_eq!(mv, t.steps);
            after.end_turn();
            assert!(after == t.result(&pos), "{text}");
            assert_eq!(t.hash, after.hash(), "{text}: the stored result hash");
            assert_eq!(after.hash(), after.hash_from_scratch());
            checked += 1;
        }
    }
    assert!(checked > 10_000, "only {checked} turns checked");
}

#[test]
fn result_hashes_are_distinct_and_the_unchanged_board_is_excluded() {
    let mut gen = TurnGen::new();
    for pos in random_game_positions(5, 3, 40) {
        let mut after_start = pos;
        after_start.end_turn();
        let turns = gen.turns(&pos);
        let mut hashes: Vec<u64> = turns.iter().map(|t| t.hash).collect();
        hashes.sort_unstable();
        hashes.dedup();
        assert_eq!(hashes.len(), turns.len());
        assert!(!turns.iter().any(|t| t.result(&pos).same_board(&pos)));
        assert!(turns.iter().all(|t| !t.steps.is_empty() && t.steps.len() <= 4));
    }
}

#[test]
fn mirrored_positions_have_the_same_counts() {
    let mut gen = TurnGen::new();
    let mut positions: Vec<Position> = movegen_fixtures().iter().map(fixture_position).collect();
    positions.extend(random_game_positions(3, 4, 50));
    for pos in positions {
        let m = pos.mirror();
        assert_eq!(m.mirror().hash(), pos.hash());
        assert_eq!(gen.count(&m), gen.count(&pos), "{}", position_to_aei(&pos));
        let (a, b) = (m.legal_step_list(), pos.legal_step_list());
        assert_eq!(a.len(), b.len());
        // Step by step, the mirrored step is legal in the mirrored position.
        for s in b.as_slice() {
            assert!(a.contains(s.mirror()), "{s} mirrored");
        }
    }
}

#[test]
fn step_perft_agrees_with_counting_children_one_by_one() {
    let pos = Position::standard();
    assert_eq!(step_perft(&pos, 1), 8);
    let mut total = 0;
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    for &s in list.as_slice() {
        let mut p = pos;
        p.make_step(s);
        total += step_perft(&p, 2);
    }
    assert_eq!(step_perft(&pos, 3), total);
}

#[test]
fn positions_print_and_parse_back() {
    for pos in random_game_positions(9, 3, 60) {
        let text = position_to_aei(&pos);
        let back = parse_position(&text).unwrap();
        assert!(back == pos, "{text}");
    }
}

/// Every step path, no pruning and no state table: the slow, obvious count.
fn brute_force_ends(root: &Position, pos: &Position, out: &mut std::collections::HashSet<([u64; 6], [u64; 2])>) {
    let mut list = StepList::new();
    pos.legal_steps(&mut list);
    for &s in list.as_slice() {
        let mut child = *pos;
        child.make_step(s);
        if !matches!(child.pending(), arimaa_core::Pending::Push { .. }) && !child.same_board(root) {
            let kinds = arimaa_core::Kind::ALL.map(|k| child.kind_bb(k).0);
            let colors = arimaa_core::Color::ALL.map(|c| child.color_bb(c).0);
            out.insert((kinds, colors));
        }
        if child.steps_left() > 0 {
            brute_force_ends(root, &child, out);
        }
    }
}

#[test]
fn turn_generation_equals_brute_force_enumeration() {
    let mut gen = TurnGen::new();
    let mut positions = random_game_positions(41, 4, 30);
    positions.retain(|p| p.occupied().count() <= 26);
    positions.truncate(60);
    positions.push(Position::standard());
    for pos in positions {
        let mut set = std::collections::HashSet::new();
        brute_force_ends(&pos, &pos, &mut set);
        // The brute force compares whole boards, so it also checks the hash never merges two.
        assert!(!set.is_empty());
        assert_eq!(gen.count(&pos), set.len(), "{}", position_to_aei(&pos));
    }
}

/// Random crowds around the traps: captures, sole guards and frozen pieces in
/// nearly every turn, where step orders stop commuting. The generator's
/// pruning of step orders must still count exactly what the brute force finds.
#[test]
fn turn_generation_equals_brute_force_in_crowds_around_traps() {
    use arimaa_core::{Color, Kind, Piece, Square};
    // Squares within 1, 2 and 3 of a trap: the tighter the zone, the more
    // pieces touch each other; the wider, the more detours and far steps.
    let zones: Vec<Vec<Square>> = (1..=3)
        .map(|radius| {
            (0..64u8)
                .map(Square::from_index_unchecked)
                .filter(|s| {
                    [(2i8, 2i8), (5, 2), (2, 5), (5, 5)]
                        .iter()
                        .any(|&(f, r)| (s.file() as i8 - f).abs() + (s.rank() as i8 - r).abs() <= radius)
                })
                .collect()
        })
        .collect();
    let mut rng = Rng(0x7A9);
    let mut gen = TurnGen::new();
    for case in 0..900 {
        let side = if case % 2 == 0 { Color::Gold } else { Color::Silver };
        let trap_zone = &zones[case % 3];
        let mut pos = Position::empty(side);
        for _ in 0..6 + rng.below(9) {
            let sq = trap_zone[rng.below(trap_zone.len())];
            let piece = Piece::new(Color::ALL[rng.below(2)], Kind::ALL[rng.below(6)]);
            // Pieces on traps need a friend next to them to stand there.
            let friend = (arimaa_core::Bitboard::around(sq) & pos.color_bb(piece.color)).any();
            if !pos.occupied().has(sq) && (!arimaa_core::Bitboard::TRAPS.has(sq) || friend) {
                pos.put(piece, sq);
            }
        }
        let mut set = std::collections::HashSet::new();
        brute_force_ends(&pos, &pos, &mut set);
        assert_eq!(gen.count(&pos), set.len(), "{}", position_to_aei(&pos));
        assert_eq!(gen.turns(&pos).len(), set.len(), "{}", position_to_aei(&pos));
    }
}
