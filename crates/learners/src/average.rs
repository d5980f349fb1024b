//! Lazy averaging: the sum of every weight vector a run passes through,
//! kept in O(nonzeros) per update, shared by the binary and multi-class
//! averaged Perceptrons.
//!
//! Within a segment of at most [`SEGMENT`] steps, `u` collects
//! `(τ − 1)·a·x` for an update `a·x` at local step τ, so that the sum of
//! the segment's weight vectors is `L·w − u` (L steps). Segments are folded
//! into f64 sums, so that 10^8 steps average as accurately as 10^3: `u`
//! never holds more than one segment's worth.

use crate::defer::Deferred;
use crate::error::LearnError;
use crate::learner::{Plan, worth_prefetching};
use crate::memory::{StateVec, zeros};
use rosenblatt_kernels::Row;

/// Steps per averaging segment (then folded into f64).
pub const SEGMENT: u64 = 1 << 20;

/// Lazy averaging of weights `w` and biases `b` over the steps of a run (or
/// its last half), shared by the binary and multi-class averaged learners.
#[derive(Clone, Debug)]
pub(crate) struct LazyAverage {
    /// `Σ (τ − 1)·a·x` of this segment's updates, like `w`.
    pub(crate) u: StateVec<f32>,
    /// The same for the biases (a [`StateVec`], as small as it is, so
    /// that its line is its own: it is written at every mistake).
    pub(crate) ub: StateVec<f32>,
    sum: StateVec<f64>,
    sum_b: StateVec<f64>,
    tau: u64,
    averaged: u64,
    step: u64,
    start: u64,
    last_half: bool,
    /// Sparse rows' updates of `u`, held back when one vector of `u`
    /// outgrows the cache its rows' cells would miss in.
    held: Deferred<f32>,
}

impl LazyAverage {
    /// For `n` weights and `nb` biases.
    pub(crate) fn new(n: usize, nb: usize, last_half: bool) -> Result<Self, LearnError> {
        Ok(LazyAverage {
            u: zeros(n)?,
            ub: zeros(nb)?,
            sum: zeros(n)?,
            sum_b: zeros(nb)?,
            tau: 0,
            averaged: 0,
            step: 0,
            start: 0,
            last_half,
            held: Deferred::new(worth_prefetching(n / nb.max(1) * size_of::<f32>())),
        })
    }

    /// The update of a step at factor `t` (from [`Self::tick`]): `w += a·x`
    /// now, and `u[at..] += t·a·x` now or, for a sparse row over a large
    /// `u`, a few updates later, its cells prefetched meanwhile: on a
    /// mistake the row's cells of `w` are in cache from the margin, those
    /// of `u` are not, and waiting on them took more than half an averaged
    /// pass over the sparse benchmark set (SPEED.md#the-averaged-perceptron).
    #[inline]
    pub(crate) fn add<R: Row>(&mut self, x: &R, a: f32, w: &mut [f32], t: f32, at: usize) {
        let c = t * a;
        if self.held.is_on() {
            if x.axpy_terms(c, self.held.slot(&mut self.u)) {
                x.axpy(a, w);
                x.prefetch_state(&self.u[at..]);
                self.held.hold(at);
                return;
            }
            // A row updated in lanes: the held updates go first.
            self.settle();
        }
        x.axpy2(a, w, c, &mut self.u[at..at + w.len()]);
    }

    /// Applies the held updates of `u` (at the end of a pass, so that the
    /// model read after it need not copy `u` to apply them).
    pub(crate) fn settle(&mut self) {
        self.held.flush(&mut self.u);
    }

    pub(crate) fn begin(&mut self, plan: &Plan) {
        self.start = if self.last_half { plan.steps / 2 } else { 0 };
    }

    /// Starts a step. Inside the averaging window it returns `τ − 1`, the
    /// factor of this step's update in `u`; before the window, `None`.
    #[inline(always)]
    pub(crate) fn tick(&mut self) -> Option<f32> {
        self.step += 1;
        if self.step <= self.start {
            return None;
        }
        self.tau += 1;
        self.averaged += 1;
        Some((self.tau - 1) as f32)
    }

    /// Ends a step: folds the segment into f64 when it is full.
    #[inline(always)]
    pub(crate) fn end_step(&mut self, w: &[f32], b: &[f32]) {
        if self.tau == SEGMENT {
            self.fold(w, b);
        }
    }

    /// The averaged weights and biases, or `None` before any averaged step.
    pub(crate) fn average(&self, w: &[f32], b: &[f32]) -> Option<(Vec<f32>, Vec<f32>)> {
        if self.averaged == 0 {
            return None;
        }
        let (t, n) = (self.tau as f64, self.averaged as f64);
        let avg = |s: &[f64], w: &[f32], u: &[f32]| -> Vec<f32> {
            s.iter().zip(w).zip(u).map(|((s, &w), &u)| ((s + t * f64::from(w) - f64::from(u)) / n) as f32).collect()
        };
        Some((avg(&self.sum, w, &self.held.applied(&self.u)), avg(&self.sum_b, b, &self.ub)))
    }

    /// Folds the open segment into the f64 sums (so the state is `w`, the
    /// sums and the counts alone).
    pub(crate) fn fold(&mut self, w: &[f32], b: &[f32]) {
        self.fold_each(w, b, |_| {});
    }

    /// [`Self::fold`], handing each folded sum to `each` as it goes (the
    /// weights' sums, then the biases').
    fn fold_each(&mut self, w: &[f32], b: &[f32], mut each: impl FnMut(f64)) {
        self.settle();
        let t = self.tau as f64;
        for (sum, (u, w)) in [(&mut self.sum[..], (&mut self.u[..], w)), (&mut self.sum_b[..], (&mut self.ub[..], b))] {
            for ((s, &w), u) in sum.iter_mut().zip(w).zip(u.iter_mut()) {
                *s += t * f64::from(w) - f64::from(*u);
                *u = 0.0;
                each(*s);
            }
        }
        self.tau = 0;
    }

    /// Appends the sums and counts (accumulated across parts when mixing).
    pub(crate) fn save_totals(&mut self, w: &[f32], b: &[f32], total: &mut Vec<f64>) {
        // Folded and copied in one sweep: as a fold and then a copy, the
        // sums were read twice, and saving 16 parts' states cost more than
        // mixing them.
        total.reserve(self.sum.len() + self.sum_b.len() + 2);
        self.fold_each(w, b, |s| total.push(s));
        total.extend([self.averaged as f64, self.step as f64]);
    }

    /// Coordinates `at..at + out.len()` of what [`Self::save_totals`]
    /// would append, into `out`, without folding: each sum as the fold
    /// would leave it, `s + (τ·w − u)`, the same bits. The held updates
    /// must have been applied ([`Self::settle`]).
    pub(crate) fn totals_into(&self, w: &[f32], b: &[f32], at: usize, out: &mut [f64]) {
        debug_assert_eq!(self.held.held(), 0, "totals read with updates held");
        let t = self.tau as f64;
        let parts = [(&self.sum[..], w, &self.u[..]), (&self.sum_b[..], b, &self.ub[..])];
        let (at, rest) = crate::mix::runs([self.sum.len(), self.sum_b.len()], at, out, |k, from, run| {
            let (sum, w, u) = parts[k];
            for (((o, &s), &w), &u) in run.iter_mut().zip(&sum[from..]).zip(&w[from..]).zip(&u[from..]) {
                *o = s + (t * f64::from(w) - f64::from(u));
            }
        });
        let counts = [self.averaged as f64, self.step as f64];
        rest.copy_from_slice(&counts[at..at + rest.len()]);
    }

    /// Reads what `save_totals` wrote.
    pub(crate) fn load_totals(&mut self, total: &[f64]) {
        self.settle();
        let (n, nb) = (self.sum.len(), self.sum_b.len());
        self.sum.copy_from_slice(&total[..n]);
        self.sum_b.copy_from_slice(&total[n..n + nb]);
        self.averaged = total[n + nb] as u64;
        self.step = total[n + nb + 1] as u64;
        self.u.iter_mut().chain(self.ub.iter_mut()).for_each(|u| *u = 0.0);
        self.tau = 0;
    }
}

impl LazyAverage {
    /// Every counter and sum, for [`crate::state::Resume`] (the window's
    /// start is set again by `begin`).
    pub(crate) fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        self.settle();
        f.f32s(&mut self.u);
        f.f32s(&mut self.ub);
        f.f64s(&mut self.sum);
        f.f64s(&mut self.sum_b);
        for c in [&mut self.tau, &mut self.averaged, &mut self.step] {
            f.u64(c);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sets::Lifted;
    use rand::rngs::Xoshiro256PlusPlus;
    use rand::{RngExt, SeedableRng};
    use rosenblatt_kernels::{DenseRow, SparseRow, U8Values};

    /// `d` sorted distinct indices below `dim`.
    fn indices(rng: &mut Xoshiro256PlusPlus, n: usize, dim: usize) -> Vec<u32> {
        let mut ix: Vec<u32> = (0..n).map(|_| rng.random_range(0..dim as u32)).collect();
        ix.sort_unstable();
        ix.dedup();
        ix
    }

    fn bits(v: &[f32]) -> Vec<u32> {
        v.iter().map(|x| x.to_bits()).collect()
    }

    /// Deferred updates of `u` leave every bit as immediate ones: sparse
    /// rows in f32 and in bytes, lifted rows, a dense row between them (the
    /// held updates go first), two vectors side by side in `u`; compared
    /// after every step through `average` (which applies what is held
    /// without changing the learner), through a fold, and at the end.
    #[test]
    fn deferring_the_updates_of_u_changes_no_bit() {
        let d = 500;
        let mut rng = Xoshiro256PlusPlus::seed_from_u64(7);
        let mut avg: [LazyAverage; 2] = std::array::from_fn(|_| LazyAverage::new(2 * d, 2, false).unwrap());
        assert!(!avg[1].held.is_on());
        avg[0].held = Deferred::new(true);
        let mut w = [vec![0.0f32; 2 * d], vec![0.0f32; 2 * d]];
        let b = [0.0f32; 2];
        let dense: Vec<f32> = (0..d - 1).map(|i| (i % 7) as f32 * 0.3 - 1.0).collect();
        let mut deferred = 0;
        for step in 0..400 {
            let ix = indices(&mut rng, 30, d - 1);
            let vals: Vec<f32> = ix.iter().map(|_| rng.random_range(-2.0f32..2.0)).collect();
            let bytes: Vec<u8> = ix.iter().map(|_| rng.random_range(1u8..=255)).collect();
            let (a, at) = (rng.random_range(-1.5f32..1.5), rng.random_range(0..2) * d);
            for (l, w) in avg.iter_mut().zip(&mut w) {
                let t = l.tick().unwrap();
                let w = &mut w[at..at + d - 1];
                match step % 5 {
                    0 | 1 => l.add(&SparseRow::try_new(d - 1, &ix, &vals[..]).unwrap(), a, w, t, at),
                    2 => {
                        l.add(&SparseRow::try_new(d - 1, &ix, U8Values::new(&bytes, 1.0 / 255.0)).unwrap(), a, w, t, at)
                    }
                    3 if step % 50 == 3 => l.add(&DenseRow::new(&dense[..]), a, w, t, at),
                    _ => {
                        let row =
                            Lifted(SparseRow::try_new(d - 2, &ix[..ix.len() - 1], &vals[..ix.len() - 1]).unwrap());
                        l.add(&row, a, w, t, at);
                    }
                }
            }
            deferred += avg[0].held.held();
            assert_eq!(bits(&w[0]), bits(&w[1]), "w after step {step}");
            let (m0, m1) = (avg[0].average(&w[0], &b).unwrap(), avg[1].average(&w[1], &b).unwrap());
            assert_eq!(bits(&m0.0), bits(&m1.0), "the average after step {step}");
            if step == 200 {
                avg.iter_mut().zip(&w).for_each(|(l, w)| l.fold(w, &b));
                assert_eq!(avg[0].held.held(), 0);
                assert_eq!(avg[0].sum, avg[1].sum);
            }
        }
        assert!(deferred > 1000, "updates were held ({deferred})");
        avg[0].settle();
        assert_eq!(bits(&avg[0].u), bits(&avg[1].u));
    }
}
