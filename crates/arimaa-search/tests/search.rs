//! The search as a player: legal answers under stop, depth limits and game history.

use arimaa_core::{Color, Game, Move, Piece, Position, Square};
use arimaa_search::params::search;
use arimaa_search::smp::Watch;
use arimaa_search::Progress;
use arimaa_search::{Params, SearchConfig, Searcher, TimeManager, TransTable};
use std::sync::Mutex;
use std::time::{Duration, Instant};

fn board(side: char, pieces: &str) -> Position {
    let mut p = Position::empty(Color::from_letter(side).unwrap());
    for tok in pieces.split_whitespace() {
        let piece = Piece::from_letter(tok.chars().next().unwrap()).unwrap();
        p.put(piece, Square::parse(&tok[1..]).unwrap());
    }
    p
}

fn standard_game() -> Game {
    let mut g = Game::new();
    g.play_text("Ra1 Rb1 Rc1 Rd1 Re1 Rf1 Rg1 Rh1 Ha2 Db2 Cc2 Md2 Ee2 Cf2 Dg2 Hh2")
        .unwrap();
    g.play_text("ra8 rb8 rc8 rd8 re8 rf8 rg8 rh8 ha7 db7 cc7 md7 ee7 cf7 dg7 hh7")
        .unwrap();
    g
}

#[test]
fn stop_returns_a_legal_move_promptly() {
    let game = standard_game();
    let time = TimeManager::unlimited();
    let started = Instant::now();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            time.stop();
        });
        Searcher::new(&game, &time, &TransTable::new(16)).run(&mut |_| {})
    });
    let r = result.expect("a move");
    assert!(started.elapsed() < Duration::from_secs(2));
    let mut g = game.clone();
    g.play(&r.best).expect("legal");
}

#[test]
fn stop_from_outside_ends_every_thread_of_a_lazy_smp_search() {
    let game = standard_game();
    let (time, tt) = (TimeManager::unlimited(), TransTable::new(16));
    let started = Instant::now();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(200));
            time.stop();
        });
        arimaa_search::smp::search(
            &game,
            &time,
            &tt,
            2,
            None,
            &Params::default(),
            Watch::iterations(&mut |_| {}),
        )
    });
    assert!(started.elapsed() < Duration::from_secs(2), "{:?}", started.elapsed());
    let mut g = game.clone();
    g.play(&result.expect("a move").best).expect("legal");
}

#[test]
fn a_fixed_time_ends_the_search_at_its_hard_limit() {
    let game = standard_game();
    let time = TimeManager::fixed(Duration::from_millis(100), Duration::from_millis(200));
    let started = Instant::now();
    let r = Searcher::new(&game, &time, &TransTable::new(16))
        .run(&mut |_| {})
        .expect("a move");
    assert!(started.elapsed() < Duration::from_secs(1), "{:?}", started.elapsed());
    let mut g = game.clone();
    g.play(&r.best).expect("legal");
}

#[test]
fn out_of_time_before_the_root_is_ordered_still_gives_a_legal_move() {
    // 3,353 root turns: scoring stops at the first look at the clock (turn 256)
    // and the search picks among the scored ones.
    let game = standard_game();
    // Out of time by the clock, and by `stop` with no clock.
    for (time, stopped) in [
        (TimeManager::fixed(Duration::ZERO, Duration::ZERO), false),
        (TimeManager::unlimited(), true),
    ] {
        if stopped {
            time.stop();
        }
        let r = Searcher::new(&game, &time, &TransTable::new(1))
            .run(&mut |_| {})
            .expect("a move");
        let mut g = game.clone();
        g.play(&r.best).expect("legal");
    }
}

#[test]
fn fixed_depth_reports_every_iteration_and_is_deterministic() {
    let game = standard_game();
    let run = || {
        let time = TimeManager::unlimited();
        let mut depths = Vec::new();
        let r = Searcher::new(&game, &time, &TransTable::new(16))
            .depth(6)
            .run(&mut |rep| depths.push(rep.depth))
            .unwrap();
        (r.best, r.nodes, depths)
    };
    let (a, b) = (run(), run());
    assert_eq!(a, b, "same depth, same answer and node count");
    assert_eq!(a.2, vec![4, 5, 6]);
}

/// A search of about 1.5 s tells a progress listener at least once, from
/// inside an iteration: the depth under way is past the last one reported
/// complete, and the line starts with a legal turn. Lazy SMP reports from
/// the main thread alone, so the same holds with a helper.
#[test]
fn a_long_iteration_reports_its_progress_every_second() {
    let game = standard_game();
    for threads in [1, 2] {
        let (time, tt) = (TimeManager::unlimited(), TransTable::new(16));
        let seen: Mutex<Vec<Progress>> = Mutex::new(Vec::new());
        let listen = |p: &Progress| seen.lock().unwrap().push(p.clone());
        let mut completed = Vec::new();
        let result = std::thread::scope(|s| {
            s.spawn(|| {
                std::thread::sleep(Duration::from_millis(1500));
                time.stop();
            });
            let mut report = |r: &arimaa_search::Report| completed.push((r.elapsed, r.depth));
            let watch = Watch::iterations(&mut report).with_progress(&listen);
            arimaa_search::smp::search(&game, &time, &tt, threads, None, &Params::default(), watch)
        })
        .expect("a move");
        let seen = seen.into_inner().unwrap();
        let first = seen
            .first()
            .unwrap_or_else(|| panic!("{threads} threads: no progress in 1.5 s"));
        assert!(first.elapsed >= Duration::from_secs(1), "{:?}", first.elapsed);
        let done_before = completed
            .iter()
            .filter(|(at, _)| *at <= first.elapsed)
            .map(|&(_, d)| d)
            .max()
            .expect("iteration 4 ends long before a second");
        assert!(first.depth > done_before, "{} after {done_before}", first.depth);
        assert!(first.nodes > 0);
        let mut g = game.clone();
        g.play(&first.pv[0]).expect("the best turn so far is legal");
        assert_eq!(
            result.pv.first(),
            Some(&result.best),
            "the answer's line starts with it"
        );
    }
}

/// Listening to the progress changes nothing the search does.
#[test]
fn a_progress_listener_leaves_the_search_as_it_was() {
    let game = standard_game();
    let run = |listen: bool| {
        let time = TimeManager::unlimited();
        let tt = TransTable::new(16);
        let ignore = |_: &Progress| {};
        let s = Searcher::new(&game, &time, &tt).depth(7);
        let mut s = if listen { s.progress(&ignore) } else { s };
        let r = s.run(&mut |_| {}).unwrap();
        (r.best, r.nodes, r.score, r.pv)
    };
    assert_eq!(run(true), run(false));
}

#[test]
fn never_plays_a_third_repetition() {
    // Gold shuttles its elephant, silver a walled-in rabbit; after two cycles
    // the elephant's step back to d5 would repeat a position a third time.
    let mut g = Game::from_position(board('g', "Ed4 Ra1 Rb1 Rc2 ra2"));
    for _ in 0..2 {
        for mv in ["Ed4n", "ra2e", "Ed5s", "rb2w"] {
            g.play_text(mv).unwrap();
        }
    }
    let mut trial = g.clone();
    assert!(trial.play_text("Ed4n").is_err(), "the set-up is right");
    for depth in [4, 6] {
        let time = TimeManager::unlimited();
        let r = Searcher::new(&g, &time, &TransTable::new(16))
            .depth(depth)
            .run(&mut |_| {})
            .unwrap();
        let mut after = g.clone();
        after
            .play(&r.best)
            .unwrap_or_else(|e| panic!("depth {depth}: {:?} refused: {e}", r.best));
    }
}

#[test]
fn no_legal_turn_gives_none() {
    // Silver to move with its only rabbit frozen: immobilized, nothing to play.
    let g = Game::from_position(board('s', "ra7 Cb7 Ra2 Eh2"));
    let time = TimeManager::unlimited();
    assert!(Searcher::new(&g, &time, &TransTable::new(16))
        .depth(4)
        .run(&mut |_| {})
        .is_none());
}

#[test]
fn lazy_smp_returns_a_legal_move_and_counts_every_thread() {
    let game = standard_game();
    let tt = TransTable::new(16);
    let time = TimeManager::unlimited();
    let mut reports = 0;
    let r = arimaa_search::smp::search(
        &game,
        &time,
        &tt,
        2,
        Some(6),
        &Params::default(),
        Watch::iterations(&mut |_| reports += 1),
    )
    .expect("a move");
    assert!(reports >= 1);
    let mut g = game.clone();
    g.play(&r.best).expect("legal");
    // A single thread on a fresh table for comparison: two threads count more nodes in all.
    let single = Searcher::new(&game, &TimeManager::unlimited(), &TransTable::new(16))
        .depth(6)
        .run(&mut |_| {})
        .unwrap();
    assert!(r.nodes > single.nodes / 2, "{} vs {}", r.nodes, single.nodes);
}

#[test]
fn evaluation_is_colour_symmetric_along_random_games() {
    use arimaa_core::TurnGen;
    use arimaa_search::eval::evaluate;
    let mut gen = TurnGen::new();
    let mut rng = arimaa_core::rng::XorShift(0x2545_F491_4F6C_DD1D);
    let mut checked = 0;
    // Every weight nonzero, so that the terms that are off by default count too.
    let mut all_on = arimaa_search::Weights::default();
    for &w in arimaa_search::Weight::ALL {
        if all_on[w] == 0 {
            all_on = all_on.with(w, w.spec().step);
        }
    }
    for _ in 0..8 {
        let mut pos = standard_game().position().to_owned();
        for _ in 0..60 {
            // The mirror swaps colours and the side to move: same score for its mover.
            // With the default weights and with every weight on.
            for p in [&arimaa_search::Weights::default(), &all_on] {
                assert_eq!(
                    evaluate(&pos, p),
                    evaluate(&pos.mirror(), p),
                    "{}",
                    arimaa_core::position_to_aei(&pos)
                );
            }
            checked += 1;
            let turns = gen.turns(&pos);
            if turns.is_empty() {
                break;
            }
            pos = turns[rng.below(turns.len())].result(&pos);
        }
    }
    assert!(checked > 200);
}

#[test]
fn every_whole_turn_of_the_principal_variation_is_legal() {
    // Middle-game positions with pushes and pulls around the traps: the PV
    // holds pushes as 2-step units and must print back as legal turns.
    let boards = [
        "g [rrcrrd  dr  c  r      he r     R        R   D E RHCR   RMR CRH  ]",
        "s [   rhh   c  r  mr     r      Rer r rCr        M H   EDRR C   R  ]",
        "g [       h      cM   d         r h   rC RRR     R Er rR      H   C]",
    ];
    let mut steps = 0;
    for text in boards {
        let pos = arimaa_core::parse_position(text).unwrap();
        let game = Game::from_position(pos);
        let time = TimeManager::unlimited();
        let mut pvs = Vec::new();
        Searcher::new(&game, &time, &TransTable::new(16))
            .depth(7)
            .run(&mut |rep| pvs.push(rep.pv.clone()))
            .unwrap();
        for pv in pvs {
            let mut g = game.clone();
            for turn in &pv[..pv.len() - 1] {
                g.play(turn).unwrap_or_else(|e| panic!("{turn:?} in {pv:?}: {e}"));
                steps += turn.len();
            }
        }
    }
    assert!(steps > 0, "some PV went past its first turn");
}

/// Best move, score and nodes of a one-thread search of `position` to `depth`.
fn fixed_depth(position: &Position, depth: u32, params: &Params) -> (Move, i32, u64) {
    let game = Game::from_position(*position);
    let time = TimeManager::unlimited();
    let tt = TransTable::new(16);
    let r = Searcher::new(&game, &time, &tt)
        .depth(depth)
        .params(params)
        .run(&mut |_| {})
        .expect("a move");
    (r.best, r.score, r.nodes)
}

/// The default weights with the search configured as `search`.
fn with_search(search: SearchConfig) -> Params {
    Params {
        search,
        ..Params::default()
    }
}

#[test]
fn skipping_the_second_order_of_commuting_steps_changes_no_result() {
    // Without reductions every end of turn is still reached through the
    // order kept, so the search gives the same move and score with fewer nodes.
    let full = with_search(SearchConfig {
        root_reduce: false,
        pass_cost: true,
        commute: false,
        ..search::DEFAULT
    });
    let skipping = with_search(SearchConfig {
        commute: true,
        ..full.search
    });
    let (mut nodes_full, mut nodes_skipping) = (0, 0);
    for text in &arimaa_search::bench::POSITIONS[2..7] {
        let position = arimaa_core::parse_position(text).expect("bench position");
        let (move_a, score_a, n_a) = fixed_depth(&position, 8, &full);
        let (move_b, score_b, n_b) = fixed_depth(&position, 8, &skipping);
        assert_eq!((&move_a, score_a), (&move_b, score_b), "{text}");
        nodes_full += n_a;
        nodes_skipping += n_b;
    }
    assert!(
        nodes_skipping * 10 < nodes_full * 9,
        "{nodes_skipping} nodes with the rule, {nodes_full} without"
    );
}

#[test]
fn a_pass_costs_the_steps_it_gives_up() {
    // With a free pass, a short turn of the opponent hands the saved steps to
    // the next turn and the tree of a depth-7 search is far larger (12x on
    // this position; the root's reductions are off to compare whole trees).
    let position = arimaa_core::parse_position(arimaa_search::bench::POSITIONS[5]).expect("bench position");
    let free = with_search(SearchConfig {
        root_reduce: false,
        pass_cost: false,
        ..search::DEFAULT
    });
    let costs = with_search(SearchConfig {
        root_reduce: false,
        pass_cost: true,
        ..search::DEFAULT
    });
    let (_, _, n_free) = fixed_depth(&position, 7, &free);
    let (_, _, n_costs) = fixed_depth(&position, 7, &costs);
    assert!(n_costs * 4 < n_free, "{n_costs} nodes with the cost, {n_free} without");
}
