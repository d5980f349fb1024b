//! Updates of a large state vector held back a few updates, so that their
//! cells can be prefetched meanwhile: for state a step writes but its
//! margin did not read (an averaging vector), which would otherwise be a
//! cache miss per entry at the moment of the update (SPEED.md, "The
//! averaging vectors' updates deferred").
//!
//! Every element still receives its increments in update order, so a
//! vector updated through [`Deferred`] holds the same bits as one updated
//! at once, as soon as what is held has been applied ([`Deferred::flush`]):
//! whatever reads the vector, or updates it by another way, flushes first.

use std::ops::AddAssign;

/// Updates held back at most (measured on the sparse set: SPEED.md).
pub(crate) const DEPTH: usize = 4;

/// Up to [`DEPTH`] updates of a vector, oldest first: each an offset into
/// the vector and the `(index, increment)` pairs to add there.
#[derive(Clone, Debug)]
pub(crate) struct Deferred<T> {
    /// Empty when deferring is off.
    slots: Vec<(usize, Vec<(u32, T)>)>,
    /// The slot the next update goes to (the oldest, when all are held).
    next: usize,
    held: usize,
}

impl<T: Copy + AddAssign> Deferred<T> {
    /// Deferring on or off (then [`Self::slot`] is never to be called).
    pub(crate) fn new(on: bool) -> Self {
        Deferred { slots: if on { vec![(0, Vec::new()); DEPTH] } else { Vec::new() }, next: 0, held: 0 }
    }

    pub(crate) fn is_on(&self) -> bool {
        !self.slots.is_empty()
    }

    /// How many updates are held.
    #[cfg(test)]
    pub(crate) fn held(&self) -> usize {
        self.held
    }

    /// An empty list for the next update's increments, after applying the
    /// oldest held update to `u` if every slot is taken. Fill it, then
    /// [`Self::hold`] it.
    pub(crate) fn slot(&mut self, u: &mut [T]) -> &mut Vec<(u32, T)> {
        if self.held == DEPTH {
            self.apply_oldest(u);
        }
        let terms = &mut self.slots[self.next].1;
        terms.clear();
        terms
    }

    /// Holds the list [`Self::slot`] returned, for `u[at..]`.
    pub(crate) fn hold(&mut self, at: usize) {
        self.slots[self.next].0 = at;
        self.next = (self.next + 1) % DEPTH;
        self.held += 1;
    }

    fn apply_oldest(&mut self, u: &mut [T]) {
        let (at, terms) = &self.slots[(self.next + DEPTH - self.held) % DEPTH];
        let u = &mut u[*at..];
        for &(i, d) in terms {
            u[i as usize] += d;
        }
        self.held -= 1;
    }

    /// Applies every held update to `u`, oldest first.
    pub(crate) fn flush(&mut self, u: &mut [T]) {
        while self.held > 0 {
            self.apply_oldest(u);
        }
    }

    /// `u` with every held update applied, leaving `self` as it is (for
    /// readers that hold `&self`); borrowed when nothing is held.
    pub(crate) fn applied<'u>(&self, u: &'u [T]) -> std::borrow::Cow<'u, [T]>
    where
        [T]: ToOwned<Owned = Vec<T>>,
    {
        if self.held == 0 {
            return std::borrow::Cow::Borrowed(u);
        }
        let (mut u, mut held) = (u.to_vec(), self.clone());
        held.flush(&mut u);
        std::borrow::Cow::Owned(u)
    }
}
