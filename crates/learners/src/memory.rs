//! Where a learner's per-feature state lives: [`StateVec`], zeroed arrays
//! that a size no allocation can hold refuses with an error instead of an
//! abort, that start on a cache line, and that are asked of the kernel in
//! 2 MB pages when large.
//!
//! Why the pages: a step reads and writes the state at the row's features,
//! scattered over the whole array. With 4 KB pages, a state of tens of MB
//! spans more pages than the processor's address-translation cache (the
//! TLB) holds, and every cell's access can wait for a page walk first,
//! under a virtual machine a nested one. One 2 MB page covers 512 of
//! those. Measured on the sparse set over 2^24 features (SPEED.md#learner-state-in-memory, "State
//! in 2 MB pages"): a pass of the Perceptron 15% faster, of the averaged
//! Perceptron 11%, of Pegasos 10%. Linux only (`madvise(MADV_HUGEPAGE)`);
//! elsewhere, and where the kernel's transparent huge pages are off, the
//! state is in ordinary pages and nothing else changes.

use crate::error::{LearnError, physical_memory};
use bytemuck::Zeroable;

/// State of this many bytes or more is asked for in 2 MB pages: the
/// 2 MB-aligned part of a smaller array is at most one page.
pub(crate) const HUGE_FROM: usize = 4 << 20;

/// A learner's state array: zeroed memory that starts on a cache line
/// (64 bytes) and whose allocation, and every clone's (parameter mixing's
/// copies), is advised into 2 MB pages before it is first written, when
/// large. It dereferences to a slice.
///
/// Why the cache line: a dense row's kernels load the weights eight
/// floats (32 bytes) at a time, and an array that starts 16 bytes into a
/// line, as the allocator's 16-byte alignment leaves it, splits every
/// other load across two lines. A plain C copy of the Perceptron's pass
/// over MNIST's rows ran 2–6% slower so, and which learner got an aligned
/// array was the allocator's chance (SPEED.md#learner-state-in-memory, "The state on a cache
/// line"). The array is allocated a line longer (zeroed pages from
/// `calloc`, as before) and starts at the first whole line inside it.
pub(crate) struct StateVec<T> {
    buf: Vec<T>,
    at: usize,
    len: usize,
}

/// Bytes of a cache line: where a state array starts.
const LINE: usize = 64;

impl<T> Default for StateVec<T> {
    fn default() -> Self {
        StateVec { buf: Vec::new(), at: 0, len: 0 }
    }
}

impl<T: PartialEq> PartialEq for StateVec<T> {
    fn eq(&self, o: &Self) -> bool {
        self[..] == o[..]
    }
}

impl<'a, T> IntoIterator for &'a StateVec<T> {
    type Item = &'a T;
    type IntoIter = std::slice::Iter<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter()
    }
}

impl<'a, T> IntoIterator for &'a mut StateVec<T> {
    type Item = &'a mut T;
    type IntoIter = std::slice::IterMut<'a, T>;
    fn into_iter(self) -> Self::IntoIter {
        self.iter_mut()
    }
}

impl<T> std::ops::Deref for StateVec<T> {
    type Target = [T];
    #[inline(always)]
    fn deref(&self) -> &[T] {
        &self.buf[self.at..self.at + self.len]
    }
}

impl<T> std::ops::DerefMut for StateVec<T> {
    #[inline(always)]
    fn deref_mut(&mut self) -> &mut [T] {
        &mut self.buf[self.at..self.at + self.len]
    }
}

impl<T: std::fmt::Debug> std::fmt::Debug for StateVec<T> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        self[..].fmt(f)
    }
}

impl<T: Zeroable + Copy> Clone for StateVec<T> {
    /// Zeroed pages, placed and advised as [`zeros`] does, then written
    /// once by the copy: a large clone arrives in 2 MB pages. An
    /// allocation failure aborts, as `Vec::clone`'s does.
    fn clone(&self) -> Self {
        let mut v = placed(bytemuck::allocation::zeroed_vec::<T>(padded::<T>(self.len)), self.len);
        v.copy_from_slice(self);
        v
    }
}

/// Elements to allocate for `n` that start on a line: a line more, when
/// a line holds whole elements (else alignment is left to the allocator);
/// saturating, so that a count no allocation can hold still fails as one.
fn padded<T>(n: usize) -> usize {
    // Two lines more than `n`: one for the start to move up to a line's
    // start, and one so that the last line it ends in lies inside this
    // allocation too. A small array's lines are then its own, never
    // shared with another allocation — another part's copy's, written on
    // another core at every step (`train::engine::Apart`).
    let s = size_of::<T>();
    if n > 0 && s > 0 && LINE.is_multiple_of(s) { n.saturating_add(2 * LINE / s) } else { n }
}

/// The state of `n` elements inside `buf` (of [`padded`]`(n)`): from its
/// first element on a line, when there is one in reach; advised into 2 MB
/// pages when it is [`HUGE_FROM`] bytes or more (the one place the
/// threshold is applied).
fn placed<T>(buf: Vec<T>, n: usize) -> StateVec<T> {
    let s = size_of::<T>();
    let at = if buf.len() > n && s > 0 {
        let skip = (LINE - buf.as_ptr() as usize % LINE) % LINE;
        if skip.is_multiple_of(s) { skip / s } else { 0 }
    } else {
        0
    };
    let v = StateVec { buf, at, len: n };
    if size_of_val(&v[..]) >= HUGE_FROM {
        advise_huge_pages(&v);
    }
    v
}

/// `n` zeros for a learner's state, or [`LearnError::TooLarge`]: a
/// dimension no allocation can hold (a LIBSVM index near 2^32 sets one) is
/// refused instead of aborting the process.
///
/// An array over half the machine's memory is refused too: the allocator
/// grants more than there is (pages are only taken when written), and the
/// model a learner hands out is a copy of its weights: a Perceptron over
/// 2^32 features (17 GB of weights) on a 24 GB machine was killed by the
/// kernel, at 24 GB resident, before it wrote its model.
pub(crate) fn zeros<T: Zeroable>(n: usize) -> Result<StateVec<T>, LearnError> {
    let bytes = n as u128 * size_of::<T>() as u128;
    let too_large = LearnError::TooLarge { values: n, bytes };
    if physical_memory().is_some_and(|m| bytes > m / 2) {
        return Err(too_large);
    }
    // Zeroed pages from the system, untouched (calloc): a large state
    // costs memory only where it is written (in 2 MB steps once advised:
    // a state written at a few scattered features holds more memory than
    // in 4 KB pages, at most its whole size, which the model's copy of
    // the weights takes anyway), and its pages are advised before any is.
    Ok(placed(bytemuck::allocation::try_zeroed_vec::<T>(padded::<T>(n)).map_err(|()| too_large)?, n))
}

/// Asks the kernel to back the whole 2 MB pages inside `v`'s memory with
/// 2 MB pages (the ends outside them stay in 4 KB pages). Pages already
/// written keep their size until the kernel's background thread merges
/// them; pages first written after this come as 2 MB pages. Advice only:
/// a refusal (no transparent huge pages) changes nothing, so its result
/// is not looked at.
pub(crate) fn advise_huge_pages<T>(v: &[T]) {
    #[cfg(target_os = "linux")]
    {
        const HUGE: usize = 2 << 20;
        let (at, len) = (v.as_ptr() as usize, size_of_val(v));
        let start = at.next_multiple_of(HUGE);
        let end = (at + len) / HUGE * HUGE;
        if end > start {
            // SAFETY: `start..end` lies inside `v`'s allocation, which this
            // process owns and maps read-write; MADV_HUGEPAGE only marks the
            // range eligible for 2 MB pages: it neither moves nor changes
            // any byte, and no reference is made from the address.
            unsafe { libc::madvise(start as *mut libc::c_void, end - start, libc::MADV_HUGEPAGE) };
        }
    }
    #[cfg(not(target_os = "linux"))]
    let _ = v;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_array_over_half_the_memory_is_refused_before_it_is_asked_for() {
        let Some(m) = physical_memory() else { return };
        assert!(m > 1 << 20, "{m} bytes");
        let n = usize::try_from(m / 2 + 1).unwrap();
        assert_eq!(zeros::<u8>(n).unwrap_err(), LearnError::TooLarge { values: n, bytes: n as u128 });
        assert_eq!(*zeros::<f32>(1000).unwrap(), vec![0.0; 1000]);
    }

    #[test]
    fn a_large_state_is_zero_and_its_clones_are_equal_copies() {
        for n in [0, 1, 1000, (HUGE_FROM / 4) - 1, HUGE_FROM / 4, 3 * HUGE_FROM / 4 + 12_345] {
            let mut v = zeros::<f32>(n).unwrap();
            assert_eq!(v.len(), n);
            assert!(v.iter().all(|&x| x.to_bits() == 0), "{n} zeros");
            v.iter_mut().enumerate().for_each(|(i, x)| *x = i as f32 * 0.5 - 7.0);
            let c = v.clone();
            assert_eq!(c.len(), n);
            assert!(c.iter().zip(v.iter()).all(|(a, b)| a.to_bits() == b.to_bits()), "clone of {n}");
            assert!(n == 0 || c.as_ptr() != v.as_ptr(), "a copy, not a share");
        }
    }

    /// Every state array, and every clone, starts on a cache line whatever
    /// the allocator handed out, for each element size a line holds whole
    /// (the learners' f32, f64, `[f32; 2]` cells and EG±'s 32-byte cells),
    /// small and large, and holds exactly its zeros.
    #[test]
    fn a_state_starts_on_a_cache_line_and_so_do_its_clones() {
        #[derive(Clone, Copy, Debug, PartialEq, Zeroable)]
        #[repr(C, align(32))]
        struct Cell([f64; 3]);
        fn check<T: Zeroable + Copy + PartialEq + std::fmt::Debug>(n: usize) {
            // Other allocations in between, so that the arrays do not all
            // come from one place.
            let _gap: Vec<Vec<u8>> = (1..8).map(|k| vec![0u8; k * 24]).collect();
            let v = zeros::<T>(n).unwrap();
            let c = v.clone();
            for (what, a) in [("zeros", &v), ("clone", &c)] {
                assert_eq!(a.len(), n, "{what} of {n} {}", std::any::type_name::<T>());
                assert!(n == 0 || (a.as_ptr() as usize).is_multiple_of(LINE), "{what} of {n}: at {:p}", a.as_ptr());
                assert!(a.iter().all(|x| *x == T::zeroed()));
            }
        }
        for n in [0, 1, 7, 784, 1000, 3 * HUGE_FROM / 8 + 5] {
            check::<f32>(n);
            check::<f64>(n);
            check::<[f32; 2]>(n);
            check::<Cell>(n);
        }
    }

    /// On Linux with transparent huge pages in `madvise` or `always` mode,
    /// a large state written after it was made sits in 2 MB pages
    /// (`AnonHugePages` of its mapping in `/proc/self/smaps`), and so does
    /// a clone, unless the kernel counted a fallback (no 2 MB page free).
    /// 64 MB: above glibc's largest mmap threshold, so the array is a fresh
    /// mapping whatever this process freed before.
    #[test]
    #[cfg(target_os = "linux")]
    fn a_large_state_is_backed_by_huge_pages_where_the_kernel_has_them() {
        let mode = std::fs::read_to_string("/sys/kernel/mm/transparent_hugepage/enabled").unwrap_or_default();
        if !(mode.contains("[madvise]") || mode.contains("[always]")) {
            eprintln!("transparent huge pages off ({}): nothing to check", mode.trim());
            return;
        }
        let fallbacks = || {
            let s = std::fs::read_to_string("/proc/vmstat").unwrap_or_default();
            s.lines().find_map(|l| l.strip_prefix("thp_fault_fallback ")?.parse::<u64>().ok())
        };
        let before = fallbacks();
        let mut v = zeros::<f32>(64 << 20 >> 2).unwrap();
        v.iter_mut().for_each(|x| *x = 1.0);
        let c = v.clone();
        for (what, at) in [("zeros", v.as_ptr() as usize), ("clone", c.as_ptr() as usize)] {
            let kb = anon_huge_kb(at);
            if kb.is_some_and(|kb| kb < 32 << 10) && fallbacks() > before {
                eprintln!("{what}: the kernel had no 2 MB page free ({kb:?} kB in them)");
                continue;
            }
            // At least 60 of the 64 MB are whole 2 MB pages inside.
            assert!(kb.is_some_and(|kb| kb >= 60 << 10), "{what}: {kb:?} kB in 2 MB pages");
        }
    }

    /// `AnonHugePages` of the mapping holding `at + 4 MB` (past the
    /// array's unadvised head: the advised part is a mapping of its own),
    /// in kB.
    #[cfg(target_os = "linux")]
    fn anon_huge_kb(at: usize) -> Option<u64> {
        let probe = at + (4 << 20);
        let smaps = std::fs::read_to_string("/proc/self/smaps").ok()?;
        let mut inside = false;
        for line in smaps.lines() {
            let head = line.split_whitespace().next().unwrap_or("");
            if let Some((lo, hi)) = head.split_once('-')
                && let (Ok(lo), Ok(hi)) = (usize::from_str_radix(lo, 16), usize::from_str_radix(hi, 16))
            {
                inside = lo <= probe && probe < hi;
            } else if inside && let Some(kb) = line.strip_prefix("AnonHugePages:") {
                return kb.trim().trim_end_matches("kB").trim().parse().ok();
            }
        }
        None
    }
}
