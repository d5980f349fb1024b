//! Updates of a large state vector held back a few updates, so that their
//! cells can be prefetched meanwhile: for state a step writes but its
//! margin did not read (an averaging vector), which would otherwise be a
//! cache miss per entry at the moment of the update (SPEED.md#the-averaged-perceptron, "The
//! averaging vectors' updates deferred").
//!
//! Every element still receives its increments in update order, so a
//! vector updated through [`Deferred`] holds the same bits as one updated
//! at once, as soon as what is held has been applied ([`Deferred::flush`]):
//! whatever reads the vector, or updates it by another way, flushes first.

use rosenblatt_kernels::Row;
use std::ops::AddAssign;

/// Updates held back at most (measured on the sparse set: SPEED.md#the-averaged-perceptron).
const DEPTH: usize = 4;

/// Up to [`DEPTH`] updates of a vector, oldest first: each an offset into
/// the vector and the `(index, increment)` pairs to add there.
#[derive(Clone, Debug)]
pub(crate) struct Deferred<T> {
    /// Inline, not on the heap: written at every held update, they stay
    /// on the lines of the learner that holds them (a part's copy is alone
    /// on its lines: `train::engine::Apart`).
    slots: [(usize, Vec<(u32, T)>); DEPTH],
    on: bool,
    /// The slot the next update goes to (the oldest, when all are held).
    next: usize,
    held: usize,
}

impl<T: Copy + AddAssign> Deferred<T> {
    /// Deferring on or off (then [`Self::slot`] is never to be called).
    pub(crate) fn new(on: bool) -> Self {
        Deferred { slots: std::array::from_fn(|_| (0, Vec::new())), on, next: 0, held: 0 }
    }

    pub(crate) fn is_on(&self) -> bool {
        self.on
    }

    /// How many updates are held.
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

    /// Where one row's increments of `u` go: into a held update when
    /// `hold` (and deferring is on), else straight into `u`, after what is
    /// held. End with [`Sink::done`].
    pub(crate) fn sink<'a>(&'a mut self, u: &'a mut [T], hold: bool) -> Sink<'a, T> {
        if hold && self.is_on() {
            self.slot(u);
            return Sink { u, held: Some(self) };
        }
        self.flush(u);
        Sink { u, held: None }
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

/// One row's increments of a vector, held or applied at once
/// ([`Deferred::sink`]).
pub(crate) struct Sink<'a, T> {
    u: &'a mut [T],
    held: Option<&'a mut Deferred<T>>,
}

impl<T: Copy + AddAssign> Sink<'_, T> {
    /// `u[i] += d`, now or with the held update.
    #[inline(always)]
    pub(crate) fn add(&mut self, i: usize, d: T) {
        match &mut self.held {
            // Indices are below the row's dimension, at most 2^32.
            Some(h) => h.slots[h.next].1.push((i as u32, d)),
            None => self.u[i] += d,
        }
    }

    /// Holds the increments of row `x` (if they are held), prefetching
    /// their cells of `u`.
    pub(crate) fn done<R: Row>(self, x: &R) {
        if let Some(h) = self.held {
            x.prefetch_state(self.u);
            h.hold(0);
        }
    }
}
