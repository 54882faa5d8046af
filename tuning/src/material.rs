//! Material over a match's games: when each player lost and took pieces.
//!
//! Against a much stronger opponent every game is lost and the score says
//! nothing about which build lost better. How long a player keeps its
//! material does: the captures are in every record (the rules core writes
//! them as `x` tokens when it replays the moves), so each game gives the
//! balance of pieces taken less pieces lost at fixed turns, the turn of the
//! first loss and what was lost — figures that move when a change helps,
//! long before the results do. The tokens counted are those of the
//! rules core's own record of the replayed moves, so a record whose capture
//! tokens disagree with the rules is refused when it is read, not miscounted.

use crate::judge::{mean_half, median};
use arimaa_core::{Color, Kind, Piece};
use arimaa_match::record::RecordedGame;
use std::collections::BTreeMap;

/// One capture: the turn it happened in and the piece taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capture {
    /// The move number of the turn (2 is the first turn after the setups).
    pub turn: u32,
    /// The captured piece.
    pub piece: Piece,
}

/// Every capture of a replayed game, in order.
#[must_use]
pub fn captures(game: &RecordedGame) -> Vec<Capture> {
    game.game
        .record()
        .iter()
        .flat_map(|m| {
            m.text.split_whitespace().filter_map(move |token| {
                let mut chars = token.chars();
                let piece = Piece::from_letter(chars.next()?)?;
                token.ends_with('x').then_some(Capture { turn: m.number, piece })
            })
        })
        .collect()
}

/// One player's material over its games.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct PlayerMaterial {
    /// Games played.
    pub games: u32,
    /// For each asked turn, each game's balance (pieces taken less pieces
    /// lost) at the end of that turn (or at the game's end, if sooner).
    pub balance: Vec<Vec<i32>>,
    /// Each game's turn of the first own piece lost (games that lost none
    /// are not in it).
    pub first_loss: Vec<u32>,
    /// Own pieces lost, by kind (`Kind::index`).
    pub lost: [u32; 6],
    /// Enemy pieces taken, by kind.
    pub taken: [u32; 6],
}

/// Each player's material, by the names of the `Gold` and `Silver`
/// headers (a game without them counts for "gold" and "silver"), at the
/// turns `at`.
#[must_use]
pub fn tally(games: &[RecordedGame], at: &[u32]) -> BTreeMap<String, PlayerMaterial> {
    let mut out: BTreeMap<String, PlayerMaterial> = BTreeMap::new();
    for game in games {
        let caps = captures(game);
        for color in Color::ALL {
            let (header, fallback) = match color {
                Color::Gold => ("Gold", "gold"),
                Color::Silver => ("Silver", "silver"),
            };
            let name = game.header(header).unwrap_or(fallback).to_string();
            let p = out.entry(name).or_default();
            p.games += 1;
            p.balance.resize(at.len(), Vec::new());
            let sign = |c: &Capture| if c.piece.color == color { -1 } else { 1 };
            for (i, &turn) in at.iter().enumerate() {
                p.balance[i].push(caps.iter().filter(|c| c.turn <= turn).map(sign).sum());
            }
            if let Some(first) = caps.iter().find(|c| c.piece.color == color) {
                p.first_loss.push(first.turn);
            }
            for c in &caps {
                let k = c.piece.kind.index();
                if c.piece.color == color {
                    p.lost[k] += 1;
                } else {
                    p.taken[k] += 1;
                }
            }
        }
    }
    out
}

/// Mean and half-width of the 95 % interval of `xs` (0 for fewer than two).
#[must_use]
pub fn mean_interval(xs: &[i32]) -> (f64, f64) {
    if xs.is_empty() {
        return (0.0, 0.0);
    }
    let v: Vec<f64> = xs.iter().map(|&x| f64::from(x)).collect();
    let (mean, half) = mean_half(&v);
    (mean, if xs.len() < 2 { 0.0 } else { half })
}

/// The median turn of `turns` (`None` when empty).
#[must_use]
pub fn median_turn(turns: &[u32]) -> Option<f64> {
    median(&mut turns.iter().map(|&t| f64::from(t)).collect::<Vec<_>>())
}

/// Pieces by kind as `e0 m0 h1 d0 c2 r5`, strongest first.
#[must_use]
pub fn kinds_text(counts: &[u32; 6]) -> String {
    Kind::ALL
        .iter()
        .rev()
        .map(|k| format!("{}{}", Piece::new(Color::Silver, *k).letter(), counts[k.index()]))
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_match::record::read_records;

    /// The first nine turns of a game against sharp (then resigned, for
    /// the test): gold's rabbit is pulled off h4 and pushed into f6 on
    /// turn 8.
    const GAME: &str = "[Event \"test\"]
[Gold \"ours\"]
[Silver \"sharp\"]
[Result \"s\"]
[Reason \"r\"]

1g Ee2 Md2 Hb2 Hg2 Dc2 Df2 Cb1 Cg1 Ra1 Rc1 Rd1 Re1 Rf1 Rh1 Ra2 Rh2
1s ed7 mb7 he7 hg7 dc7 df7 cb8 ce8 ra7 rh7 ra8 rc8 rd8 rf8 rg8 rh8
2g Ee2n Ee3n Ee4n Ee5w
2s ed7s hg7s ed6w ec6s
3g Ra2n Ra3e Hg2n Md2e
3s ec5s ra7s mb7s cb8s
4g Dc2n Dc3e Hb2e Ed5s
4s ec4w eb4e Rb3n
5g Rh2n Cb1n Cb2n Rb4w
5s ec4n ec5e ed5e ee5s
6g Rh3n Cg1n Me2w Re1n
6s rh7s rh6s ee4e ef4e
7g Hg3w Cg2s Hf3w Ed4e
7s eg4n Rh4w eg5w Rg4n
8g Ee4n Ee5n Ee6s he7s
8s ef5s Rg5w Rf5n Rf6x ef4n
9g Rh1n Ra4n Cg1n Cg2n
";

    #[test]
    fn captures_come_from_the_replayed_record_and_count_per_player() {
        let games = read_records(GAME).expect("record");
        let caps = captures(&games[0]);
        assert_eq!(
            caps,
            vec![Capture {
                turn: 8,
                piece: Piece::new(Color::Gold, Kind::Rabbit)
            }]
        );
        let t = tally(&games, &[7, 8, 20]);
        let ours = &t["ours"];
        assert_eq!(ours.games, 1);
        assert_eq!(ours.balance, vec![vec![0], vec![-1], vec![-1]]);
        assert_eq!(ours.first_loss, vec![8]);
        assert_eq!(ours.lost[Kind::Rabbit.index()], 1);
        let sharp = &t["sharp"];
        assert_eq!(sharp.balance, vec![vec![0], vec![1], vec![1]]);
        assert!(sharp.first_loss.is_empty());
        assert_eq!(sharp.taken[Kind::Rabbit.index()], 1);
        assert_eq!(kinds_text(&sharp.taken), "e0 m0 h0 d0 c0 r1");
    }

    #[test]
    fn summaries_of_small_samples() {
        assert_eq!(mean_interval(&[]), (0.0, 0.0));
        assert_eq!(mean_interval(&[-2]), (-2.0, 0.0));
        let (m, h) = mean_interval(&[-1, -3]);
        assert_eq!(m, -2.0);
        assert!((h - 1.96 * (2.0f64 / 2.0).sqrt()).abs() < 1e-9, "{h}");
        assert_eq!(median_turn(&[]), None);
        assert_eq!(median_turn(&[9, 7, 30]), Some(9.0));
        assert_eq!(median_turn(&[8, 12]), Some(10.0));
    }
}
