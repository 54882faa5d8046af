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
