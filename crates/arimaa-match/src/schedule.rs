//! Which games are played: every pair of engines meets `games` times, in
//! pairs of games with colours swapped and the same opening.

/// One game to play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GameJob {
    /// 1-based number in the schedule.
    pub number: u32,
    /// Index of the gold engine.
    pub gold: usize,
    /// Index of the silver engine.
    pub silver: usize,
    /// 0-based number of the game pair: selects the opening.
    pub pair: usize,
}

/// The schedule for `engines` engines, `games` games per pairing. Rounds go
/// over all pairings so that a stopped match has played each about equally;
/// an odd `games` leaves the last pair with one game.
#[must_use]
pub fn schedule(engines: usize, games: u32) -> Vec<GameJob> {
    let pairings: Vec<(usize, usize)> = (0..engines)
        .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
        .collect();
    let mut jobs = Vec::new();
    let mut pair = 0;
    for round in 0..games.div_ceil(2) {
        for &(a, b) in &pairings {
            for (k, (gold, silver)) in [(a, b), (b, a)].into_iter().enumerate() {
                if 2 * round + k as u32 >= games {
                    continue;
                }
                jobs.push(GameJob {
                    number: jobs.len() as u32 + 1,
                    gold,
                    silver,
                    pair,
                });
            }
            pair += 1;
        }
    }
    jobs
}

/// A pair of games: the unit of work an executor is handed. Both games
/// (one when an odd count leaves the last pair short) share the opening.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PairJob {
    /// The pair number ([`GameJob::pair`]), unique in a schedule.
    pub index: usize,
    /// Its games, in schedule order.
    pub games: Vec<GameJob>,
}

/// The schedule grouped by pair, in schedule order.
#[must_use]
pub fn pairs(jobs: Vec<GameJob>) -> Vec<PairJob> {
    let mut out: Vec<PairJob> = Vec::new();
    for job in jobs {
        match out.last_mut() {
            Some(p) if p.index == job.pair => p.games.push(job),
            _ => out.push(PairJob {
                index: job.pair,
                games: vec![job],
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_swap_colours_and_share_an_opening() {
        let jobs = schedule(2, 4);
        let sides: Vec<_> = jobs.iter().map(|j| (j.gold, j.silver, j.pair)).collect();
        assert_eq!(sides, [(0, 1, 0), (1, 0, 0), (0, 1, 1), (1, 0, 1)]);
        assert_eq!(jobs.iter().map(|j| j.number).collect::<Vec<_>>(), [1, 2, 3, 4]);
    }

    #[test]
    fn pairs_group_the_two_games_of_each_pair() {
        let grouped = pairs(schedule(3, 3));
        assert_eq!(grouped.len(), 6, "two rounds of three pairings");
        let sizes: Vec<usize> = grouped.iter().map(|p| p.games.len()).collect();
        assert_eq!(sizes, [2, 2, 2, 1, 1, 1], "the odd last game stands alone");
        for (i, p) in grouped.iter().enumerate() {
            assert_eq!(p.index, i);
            assert!(p.games.iter().all(|g| g.pair == i));
        }
        let first = &grouped[0].games;
        assert_eq!((first[0].gold, first[0].silver), (first[1].silver, first[1].gold));
    }

    #[test]
    fn odd_counts_and_three_engines() {
        assert_eq!(schedule(2, 3).len(), 3);
        let jobs = schedule(3, 2);
        assert_eq!(jobs.len(), 6);
        for a in 0..3 {
            let gold = jobs.iter().filter(|j| j.gold == a).count();
            let silver = jobs.iter().filter(|j| j.silver == a).count();
            assert_eq!((gold, silver), (2, 2), "engine {a}");
        }
    }
}
