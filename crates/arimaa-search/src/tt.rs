//! The transposition table: fixed size, shared by all search threads without
//! locks. Each slot is two relaxed atomics, `key ^ data` and `data`; a reader
//! accepts an entry only when the two agree, so a torn write (two threads
//! storing at once) reads as a miss instead of as a wrong entry.

use arimaa_core::Step;
use std::sync::atomic::{AtomicU64, Ordering};

/// How a stored score bounds the true one.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub enum Bound {
    /// The score is exact.
    Exact = 1,
    /// The true score is at least this (a cut-off).
    Lower = 2,
    /// The true score is at most this (all moves failed low).
    Upper = 3,
}

/// What a probe returns.
#[derive(Copy, Clone, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The best step found here, if any (to be checked for legality before use).
    pub step: Option<Step>,
    /// The score, from the side to move's point of view.
    pub score: i32,
    /// Remaining depth in steps the score was searched to.
    pub depth: i32,
    /// How the score bounds the true value.
    pub bound: Bound,
}

#[derive(Default)]
struct Slot {
    check: AtomicU64,
    data: AtomicU64,
}

/// Entries per bucket: one cache line of 64 bytes.
const BUCKET: usize = 4;

/// The table.
pub struct TransTable {
    slots: Vec<Slot>,
    buckets: usize,
    age: AtomicU64,
}

impl std::fmt::Debug for TransTable {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "TransTable({} entries)", self.slots.len())
    }
}

// data layout: step+1 (16 bits; 0 = none) | score+32768 (16) | depth+1 (8) | bound (2) | age (6)
fn pack(step: Option<Step>, score: i32, depth: i32, bound: Bound, age: u64) -> u64 {
    let step_bits = step.map_or(0, |s| u64::from(s.bits()) + 1) & 0xFFFF;
    let score_bits = ((score.clamp(-32_000, 32_000) + 32_768) as u64) & 0xFFFF;
    let depth_bits = ((depth.clamp(-1, 254) + 1) as u64) & 0xFF;
    step_bits | score_bits << 16 | depth_bits << 32 | (bound as u64) << 40 | (age & 63) << 42
}

fn unpack(data: u64) -> Option<(Entry, u64)> {
    let bound = match (data >> 40) & 3 {
        1 => Bound::Exact,
        2 => Bound::Lower,
        3 => Bound::Upper,
        _ => return None,
    };
    let step_bits = data & 0xFFFF;
    let step = (step_bits != 0)
        .then(|| Step::from_bits((step_bits - 1) as u16))
        .flatten();
    let score = ((data >> 16) & 0xFFFF) as i32 - 32_768;
    let depth = ((data >> 32) & 0xFF) as i32 - 1;
    Some((
        Entry {
            step,
            score,
            depth,
            bound,
        },
        (data >> 42) & 63,
    ))
}

impl TransTable {
    /// A table of about `mb` megabytes (at least one bucket).
    #[must_use]
    ///
    /// # Panics
    /// If the memory cannot be had; sizes that come from outside go through
    /// [`TransTable::try_new`].
    pub fn new(mb: usize) -> TransTable {
        TransTable::try_new(mb).unwrap_or_else(|e| panic!("{e}"))
    }

    /// A table of about `mb` megabytes, or an error if the allocator refuses
    /// the memory (instead of aborting the process).
    pub fn try_new(mb: usize) -> Result<TransTable, String> {
        let bytes = mb.max(1).saturating_mul(1024 * 1024);
        let buckets = (bytes / (16 * BUCKET)).max(1);
        let mut slots = Vec::new();
        slots
            .try_reserve_exact(buckets * BUCKET)
            .map_err(|_| format!("cannot allocate a {mb} MB hash table"))?;
        slots.extend((0..buckets * BUCKET).map(|_| Slot::default()));
        Ok(TransTable {
            slots,
            buckets,
            age: AtomicU64::new(0),
        })
    }

    /// Size in bytes of the entries.
    #[must_use]
    pub fn bytes(&self) -> usize {
        self.slots.len() * 16
    }

    /// Forgets everything (a new game).
    pub fn clear(&self) {
        for s in &self.slots {
            s.check.store(0, Ordering::Relaxed);
            s.data.store(0, Ordering::Relaxed);
        }
    }

    /// Marks a new search: older entries become the first to be replaced.
    pub fn new_search(&self) {
        self.age.fetch_add(1, Ordering::Relaxed);
    }

    fn bucket(&self, key: u64) -> usize {
        // Multiply-shift maps the key onto the bucket range without a division.
        ((u128::from(key) * self.buckets as u128) >> 64) as usize * BUCKET
    }

    /// The entry for `key`, if stored and intact.
    #[must_use]
    pub fn probe(&self, key: u64) -> Option<Entry> {
        let base = self.bucket(key);
        for slot in &self.slots[base..base + BUCKET] {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key {
                return unpack(data).map(|(e, _)| e);
            }
        }
        None
    }

    /// Stores an entry, replacing the same key, else an empty slot, else the
    /// slot that is oldest and shallowest.
    pub fn store(&self, key: u64, step: Option<Step>, score: i32, depth: i32, bound: Bound) {
        let age = self.age.load(Ordering::Relaxed) & 63;
        let base = self.bucket(key);
        let bucket = &self.slots[base..base + BUCKET];
        let write = |slot: &Slot, step: Option<Step>| {
            let data = pack(step, score, depth, bound, age);
            slot.check.store(key ^ data, Ordering::Relaxed);
            slot.data.store(data, Ordering::Relaxed);
        };
        for slot in bucket {
            let data = slot.data.load(Ordering::Relaxed);
            if slot.check.load(Ordering::Relaxed) ^ data == key {
                if let Some((old, old_age)) = unpack(data) {
                    // Keep a deeper entry of the same search unless this one is exact.
                    if old.depth > depth && old_age == age && bound != Bound::Exact {
                        return;
                    }
                    write(slot, step.or(old.step));
                    return;
                }
            }
        }
        let mut victim = &bucket[0];
        let mut worst = i64::MAX;
        for slot in bucket {
            let Some((old, old_age)) = unpack(slot.data.load(Ordering::Relaxed)) else {
                victim = slot;
                break;
            };
            let stale = ((age + 64 - old_age) & 63) as i64;
            let value = i64::from(old.depth) - 8 * stale;
            if value < worst {
                worst = value;
                victim = slot;
            }
        }
        write(victim, step);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use arimaa_core::{Color, Direction, Kind, Piece, Square};

    fn step() -> Step {
        Step::new(
            Piece::new(Color::Gold, Kind::Elephant),
            Square::new(3, 3),
            Direction::North,
        )
    }

    #[test]
    fn stores_and_probes() {
        let tt = TransTable::new(1);
        assert_eq!(tt.probe(42), None);
        tt.store(42, Some(step()), -123, 7, Bound::Lower);
        assert_eq!(
            tt.probe(42),
            Some(Entry {
                step: Some(step()),
                score: -123,
                depth: 7,
                bound: Bound::Lower
            })
        );
        tt.store(42, None, 50, 9, Bound::Exact);
        let e = tt.probe(42).unwrap();
        assert_eq!(
            (e.step, e.score, e.depth, e.bound),
            (Some(step()), 50, 9, Bound::Exact),
            "keeps the old best step"
        );
        tt.clear();
        assert_eq!(tt.probe(42), None);
    }

    #[test]
    fn a_torn_entry_reads_as_a_miss() {
        let tt = TransTable::new(1);
        tt.store(99, Some(step()), 5, 3, Bound::Exact);
        let base = tt.bucket(99);
        // Simulate another thread's half-finished write.
        tt.slots[base].data.fetch_xor(1 << 20, Ordering::Relaxed);
        assert_eq!(tt.probe(99), None);
    }

    #[test]
    fn memory_follows_the_size() {
        for mb in [1, 4, 16] {
            let tt = TransTable::new(mb);
            assert!(tt.bytes() <= mb * 1024 * 1024 && tt.bytes() > mb * 1024 * 1024 * 9 / 10);
        }
    }

    #[test]
    fn many_keys_in_a_small_table_replace_instead_of_growing() {
        let tt = TransTable::new(1);
        let n = tt.slots.len() as u64 * 3;
        for k in 1..=n {
            tt.store(
                k.wrapping_mul(0x9E37_79B9_7F4A_7C15),
                None,
                k as i32 % 1000,
                (k % 20) as i32,
                Bound::Exact,
            );
        }
        assert_eq!(tt.slots.len() * 16, tt.bytes());
        let hits = (1..=n)
            .filter(|k| tt.probe(k.wrapping_mul(0x9E37_79B9_7F4A_7C15)).is_some())
            .count();
        assert!(hits > 0 && hits <= tt.slots.len());
    }
}
