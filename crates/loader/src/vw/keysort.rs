//! Sorting a row's keys (`index << 32 | place`, all distinct). Hashed
//! indices spread evenly over the index range, so the keys are first
//! placed by their index's high bits into about one bucket per key, which
//! leaves them nearly in order, and an insertion sort finishes: a few
//! steps a key, where a comparison sort of 80 keys took 4,500
//! instructions a row (SPEED.md#vw-text). Keys bunched into a few
//! buckets, which would make the insertion sort slow, go to
//! `sort_unstable` instead.

/// Below this many keys a comparison sort is as quick.
const SMALL: usize = 32;
/// Above this many, the buckets' counts would not stay in cache.
const LARGE: usize = 1 << 16;

/// The room a sort scatters into, kept from row to row.
#[derive(Clone, Debug, Default)]
pub(crate) struct KeySort {
    spare: Vec<u64>,
    starts: Vec<u32>,
}

impl KeySort {
    /// Sorts `keys` (distinct) ascending.
    pub(crate) fn sort(&mut self, keys: &mut Vec<u64>) {
        sort_keys(keys, &mut self.spare, &mut self.starts);
    }
}

fn sort_keys(keys: &mut Vec<u64>, spare: &mut Vec<u64>, starts: &mut Vec<u32>) {
    let n = keys.len();
    if keys.is_sorted() {
        return;
    }
    if !(SMALL..=LARGE).contains(&n) {
        keys.sort_unstable();
        return;
    }
    // Buckets: the next power of two at or above n, over the bits the
    // largest index has.
    let bucket_bits = usize::BITS - (n - 1).leading_zeros();
    let top = keys.iter().fold(0, |m, &k| m | k >> 32);
    let index_bits = u64::BITS - top.leading_zeros();
    let shift = 32 + index_bits.saturating_sub(bucket_bits);
    starts.clear();
    starts.resize((1 << bucket_bits) + 1, 0);
    for &k in keys.iter() {
        starts[(k >> shift) as usize + 1] += 1;
    }
    for b in 1..starts.len() {
        starts[b] += starts[b - 1];
    }
    spare.clear();
    spare.resize(n, 0);
    for &k in keys.iter() {
        let b = (k >> shift) as usize;
        spare[starts[b] as usize] = k;
        starts[b] += 1;
    }
    // Keys are out of order only within a bucket now: an insertion sort,
    // given up for a comparison sort once it has moved 4 keys a key.
    let (mut moved, budget) = (0, 4 * n);
    for i in 1..n {
        let x = spare[i];
        let mut j = i;
        while j > 0 && spare[j - 1] > x {
            spare[j] = spare[j - 1];
            j -= 1;
        }
        spare[j] = x;
        moved += i - j;
        if moved > budget {
            spare.sort_unstable();
            break;
        }
    }
    std::mem::swap(keys, spare);
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn check(mut keys: Vec<u64>) -> Result<(), TestCaseError> {
        let mut want = keys.clone();
        want.sort_unstable();
        KeySort::default().sort(&mut keys);
        prop_assert_eq!(keys, want);
        Ok(())
    }

    /// Keys as rows make them: `index << 32 | place`, places distinct.
    fn keyed(indices: Vec<u32>) -> Vec<u64> {
        indices.iter().enumerate().map(|(p, &i)| u64::from(i) << 32 | p as u64).collect()
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(512))]

        /// Hashed (spread), bunched (a narrow range, or all but one in the
        /// first bucket: the comparison sort takes over), repeated and
        /// rotated runs all come out sorted.
        #[test]
        fn sorts_as_sort_unstable_does(
            spread in proptest::collection::vec(any::<u32>(), 0..300),
            narrow in proptest::collection::vec(0u32..8, 0..300),
            bits in 1u32..=32,
            rotate in 0usize..300,
        ) {
            check(keyed(spread.iter().map(|&i| if bits == 32 { i } else { i & ((1 << bits) - 1) }).collect()))?;
            check(keyed(narrow.iter().map(|&i| i << 20).collect()))?;
            // One large index puts the rest into the first bucket.
            let mut outlier: Vec<u32> = spread.iter().map(|&i| i >> 12).collect();
            outlier.push(u32::MAX);
            check(keyed(outlier))?;
            check(keyed(narrow))?;
            let mut run: Vec<u32> = (0..200).map(|i| i * 7).collect();
            run.rotate_left(rotate % 200);
            check(keyed(run))?;
        }
    }

    #[test]
    fn large_rows_sort_too() {
        let indices: Vec<u32> = (0..70_000u32).map(|i| i.wrapping_mul(2_654_435_761)).collect();
        check(keyed(indices)).unwrap();
    }
}
