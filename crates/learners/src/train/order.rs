//! A part's order of rows for a pass: sequential, a fresh shuffle, draws
//! with replacement, chunks read in runs (the default), or blocks for data
//! beyond memory; drawn from the seed, the part and the pass alone.

use super::*;

/// Seed of part `p`'s generator: part 0 uses the run's seed, so that one
/// part replays the sequential algorithm.
pub(super) fn part_seed(seed: u64, p: usize) -> u64 {
    // SplitMix64's increment spreads neighbouring parts apart.
    seed ^ (p as u64).wrapping_mul(0x9E37_79B9_7F4A_7C15)
}

/// One part's rows and the order of its current pass.
pub(super) struct PartOrder {
    /// Row indices, `start..start + len` in this pass's order.
    pub(super) order: Vec<u32>,
    start: u32,
    rng: Xoshiro256PlusPlus,
    /// With [`Order::Blocks`]: where each block ends in `order`.
    pub(super) ends: Vec<usize>,
    /// With [`Order::Chunks`]: the rows in chunk order, each chunk as
    /// stored — what to read ahead.
    stream: Vec<u32>,
}

impl PartOrder {
    pub(super) fn new(rows: Range<usize>, seed: u64) -> Self {
        PartOrder {
            start: rows.start as u32,
            order: (rows.start as u32..rows.end as u32).collect(),
            rng: Xoshiro256PlusPlus::seed_from_u64(seed),
            ends: Vec::new(),
            stream: Vec::new(),
        }
    }

    /// The rows to prefetch a second time, one per step of `len`: for
    /// [`Order::Chunks`], `order` shifted by [`ROW_AHEAD`] (the window
    /// shuffles rows that [`PartOrder::ahead`] brought near); none for the
    /// other orders.
    pub(super) fn near(&self, kind: Order, len: usize) -> &[u32] {
        match kind {
            Order::Chunks => &self.order[ROW_AHEAD.min(len)..len],
            Order::Sequential | Order::Shuffle | Order::Sample | Order::Blocks => &[],
        }
    }

    /// The rows to prefetch, one per step of `len`: `order` shifted by
    /// [`PREFETCH_AHEAD`] for random orders and by [`SEQUENTIAL_AHEAD`]
    /// for the sequential one (the hardware prefetcher alone does not keep
    /// up with it), the next window's rows in storage order for
    /// [`Order::Chunks`].
    pub(super) fn ahead(&self, kind: Order, len: usize) -> &[u32] {
        match kind {
            Order::Sequential => &self.order[SEQUENTIAL_AHEAD.min(len)..len],
            Order::Chunks => &self.stream[(CHUNK_ROWS * WINDOW_CHUNKS).min(len)..len],
            Order::Shuffle | Order::Sample | Order::Blocks => &self.order[PREFETCH_AHEAD.min(len)..len],
        }
    }

    /// Makes the next pass's order (the sequential order stays as stored;
    /// a shuffle permutes the last pass's).
    pub(super) fn next(&mut self, kind: Order) {
        let len = self.order.len() as u32;
        match kind {
            Order::Sequential => {}
            Order::Shuffle => self.order.shuffle(&mut self.rng),
            Order::Sample => {
                for o in self.order.iter_mut() {
                    *o = self.start + self.rng.random_range(0..len);
                }
            }
            Order::Blocks => self.ends = shuffle_blocks(&mut self.order, self.start, &mut self.rng),
            Order::Chunks => {
                // The chunks in a random order, each chunk's rows as stored:
                // the order memory is read in. Then each window of that
                // stream shuffled within itself: the order rows train in.
                let n = self.order.len();
                let mut chunks: Vec<usize> = (0..n.div_ceil(CHUNK_ROWS)).collect();
                chunks.shuffle(&mut self.rng);
                self.stream.clear();
                for c in chunks {
                    self.stream.extend((c * CHUNK_ROWS..((c + 1) * CHUNK_ROWS).min(n)).map(|r| self.start + r as u32));
                }
                self.order.copy_from_slice(&self.stream);
                for window in self.order.chunks_mut(CHUNK_ROWS * WINDOW_CHUNKS) {
                    window.shuffle(&mut self.rng);
                }
            }
        }
    }
}

/// Reorders `order` (the rows `base..base + order.len()`) into shuffled
/// blocks of [`BLOCK_ROWS`] and returns where each block ends in it.
pub(super) fn shuffle_blocks(order: &mut [u32], base: u32, rng: &mut Xoshiro256PlusPlus) -> Vec<usize> {
    let n = order.len();
    let mut blocks: Vec<usize> = (0..n.div_ceil(BLOCK_ROWS)).collect();
    blocks.shuffle(rng);
    let (mut at, mut ends) = (0, Vec::with_capacity(blocks.len()));
    for b in blocks {
        let rows = b * BLOCK_ROWS..((b + 1) * BLOCK_ROWS).min(n);
        let chunk = &mut order[at..at + rows.len()];
        chunk.iter_mut().zip(rows.clone()).for_each(|(o, r)| *o = base + r as u32);
        chunk.shuffle(rng);
        at += rows.len();
        ends.push(at);
    }
    ends
}
