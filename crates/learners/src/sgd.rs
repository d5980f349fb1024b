//! Online (sub)gradient descent on a named loss — hinge, perceptron, or
//! logistic — with a step schedule and optional L2 regularisation, and
//! Pegasos (the hinge loss, `η_t = 1/(λt)`, projection onto the ball of
//! radius `1/√λ`). Projection onto any ball is also available on its own.
//!
//! Sparse cost: the weights are `w = s·v`. Shrinking by `(1 − ηλ)` scales
//! `s` (O(1)); an update adds to `v` on the row's non-zeros; `‖v‖²` is kept
//! up to date from the margin already computed, so the projection is O(1)
//! too. A step is O(nonzeros) whatever the dimension; `v` is rescaled in
//! O(d) only when `s` drifts below 2^-60 (rare).
//!
//! Averaging (Polyak–Ruppert): the model is the mean of the iterates after
//! every step, `w̄ = (1/n)·Σ_t s_t·v_t`, kept lazily as `Σ = U + c·v` with
//! `U` an f64 vector and `c` a scalar: an update `v += δ` subtracts `c·δ`
//! from `U` (O(nonzeros)), a shrink or projection changes `s` only, and
//! adding the iterate adds `s` to `c` (O(1)).

use crate::defer::Deferred;
use crate::error::{LearnError, param};
use crate::learner::{Bias, OnlineLearner, Step, worth_prefetching};
use crate::loss::Loss;
use crate::memory::{StateVec, zeros};
use crate::mix::{MixState, Mixable, put, take};
use crate::model::LinearModel;
use crate::sgd_state::Coords;
use rosenblatt_kernels::Row;

/// Step size at step `k` (0-based).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Schedule {
    /// `η0`.
    Constant,
    /// `η0 / (k + 1)`.
    InverseK,
    /// `η0 / √(k + 1)`.
    InverseSqrtK,
    /// Pegasos: `1 / (λ·(k + 1))` (η0 unused).
    Pegasos,
    /// AdaGrad: per coordinate, `η0 / √(Σ g_i²)` over the gradients it has
    /// had so far, this one included (Duchi, Hazan & Singer 2011) — large
    /// steps for rare features, small for frequent ones. Takes no L2 and
    /// no projection.
    Adaptive,
    /// Normalised adaptive steps (NAG; Ross, Mineiro & Langford 2013), the
    /// update Vowpal Wabbit makes by default: AdaGrad's per-coordinate
    /// step further divided by the largest `|x_i|` seen so far, `s_i`, and
    /// scaled by `√(t/N)` with `N = Σ_t Σ_i x_ti²/s_i²`; when a larger
    /// `|x_i|` arrives, `w_i` is first multiplied by `s_i/|x_i|`. Scaling a
    /// feature by any factor then scales its weight by the inverse and
    /// leaves every prediction unchanged, so no η0 has to fit the data's
    /// units. Takes no L2 and no projection.
    Normalized,
}

impl Schedule {
    /// Whether the steps are per coordinate (AdaGrad or NAG).
    pub fn per_coordinate(self) -> bool {
        matches!(self, Schedule::Adaptive | Schedule::Normalized)
    }
}

/// Parameters of [`Sgd`], checked by [`SgdParams::check`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SgdParams {
    /// The loss.
    pub loss: Loss,
    /// The schedule.
    pub schedule: Schedule,
    /// η0 (> 0).
    pub eta0: f32,
    /// L2 strength λ (≥ 0; > 0 for Pegasos).
    pub lambda: f32,
    /// Project onto the ball of this radius after every step (Pegasos:
    /// `1/√λ`).
    pub radius: Option<f32>,
    /// Bias handling (the bias is not regularised or projected).
    pub bias: Bias,
    /// Predict with the average of the iterates (Polyak–Ruppert) rather
    /// than the last one.
    pub average: bool,
}

impl Default for SgdParams {
    fn default() -> Self {
        SgdParams {
            loss: Loss::Hinge,
            schedule: Schedule::InverseSqrtK,
            eta0: 0.1,
            lambda: 0.0,
            radius: None,
            bias: Bias::Explicit,
            average: false,
        }
    }
}

impl SgdParams {
    /// Pegasos with strength λ.
    pub fn pegasos(lambda: f32) -> Self {
        let radius = Some(1.0 / lambda.sqrt());
        SgdParams {
            loss: Loss::Hinge,
            schedule: Schedule::Pegasos,
            eta0: 1.0,
            lambda,
            radius,
            bias: Bias::None,
            average: false,
        }
    }

    /// Validates the parameters.
    pub fn check(self) -> Result<Self, LearnError> {
        if !(self.eta0.is_finite() && self.eta0 > 0.0) {
            return Err(param("eta0", self.eta0, "a finite number > 0"));
        }
        if !(self.lambda.is_finite() && self.lambda >= 0.0) {
            return Err(param("lambda", self.lambda, "a finite number >= 0"));
        }
        if self.schedule == Schedule::Pegasos && self.lambda <= 0.0 {
            return Err(param("lambda", self.lambda, "> 0 for Pegasos"));
        }
        if self.schedule.per_coordinate() && (self.lambda != 0.0 || self.radius.is_some()) {
            return Err(param(
                "lambda",
                self.lambda,
                "0 with adaptive steps, which take no L2 or projection (adaptive = 0 for η/√k steps with L2)",
            ));
        }
        if let Some(r) = self.radius
            && !(r.is_finite() && r > 0.0)
        {
            return Err(param("radius", r, "a finite number > 0"));
        }
        Ok(self)
    }
}

/// Online gradient descent.
#[derive(Clone, Debug)]
pub struct Sgd {
    /// `v`, AdaGrad's `Σ g_i²` per coordinate then the bias's (none
    /// unless adaptive; f32, half the memory of f64 and a sparse pass 1.4×
    /// faster: SPEED.md#adagrads-step), and NAG's largest `|x_i|` so far
    /// (none unless normalised; the bias's is 1): side by side in cells
    /// when prefetched ([`Coords`]).
    v: Coords,
    s: f64,
    /// `‖v‖²`, kept exact enough by recomputing at every rescale.
    v_norm_sq: f64,
    b: f32,
    k: u64,
    p: SgdParams,
    avg: Average,
    /// NAG's `N = Σ_t Σ_i x_ti²/s_i²` (the bias counting 1 per step).
    norm_sum: f64,
    /// `v` at the current row's entries before an averaged adaptive step
    /// (scratch).
    old: Vec<f32>,
    /// Whether the training loop's hint to load a coming row's state is
    /// taken ([`OnlineLearner::prefetch`]): per-coordinate steps over a
    /// dimension whose state outgrows the core's cache.
    prefetch: bool,
    /// Sparse rows' updates of the running sum `U` in non-adaptive steps,
    /// held back while its cells load, when `U` outgrows the cache (as
    /// the averaged Perceptron's: [`crate::defer`]). Adaptive steps never
    /// hold any: their `U` is prefetched rows ahead instead.
    held: Deferred<f64>,
}

/// The running sum of the iterates, `Σ = U + c·v` (and the biases'),
/// over `n` steps; empty unless averaging.
#[derive(Clone, Debug, Default)]
struct Average {
    u: StateVec<f64>,
    c: f64,
    b: f64,
    n: u64,
}

const RESCALE_BELOW: f64 = 1.0 / (1u64 << 60) as f64;
const FOLD_ABOVE: f64 = (1u64 << 30) as f64;

impl Sgd {
    /// A zero learner over `dim` features.
    pub fn new(dim: usize, params: SgdParams) -> Result<Self, LearnError> {
        let p = params.check()?;
        let avg = Average { u: if p.average { zeros(dim)? } else { StateVec::default() }, ..Average::default() };
        // From 2^16 features (512 KB of `v` and `Σg²`): prefetched, and in
        // cells.
        let prefetch = p.schedule.per_coordinate() && worth_prefetching(dim.saturating_mul(2 * size_of::<f32>()));
        Ok(Sgd {
            v: Coords::new(dim, p.schedule.per_coordinate(), p.schedule == Schedule::Normalized, prefetch)?,
            s: 1.0,
            v_norm_sq: 0.0,
            b: 0.0,
            k: 0,
            p,
            avg,
            norm_sum: 0.0,
            old: Vec::new(),
            prefetch,
            // Adaptive steps already have `U`'s cells prefetched rows ahead
            // (`prefetch`), and holding their updates back as well made
            // them slower (SPEED.md#adagrads-step).
            held: Deferred::new(p.average && !prefetch && worth_prefetching(dim * size_of::<f64>())),
        })
    }

    fn eta(&self) -> f64 {
        let k = self.k as f64;
        let e0 = f64::from(self.p.eta0);
        match self.p.schedule {
            Schedule::Constant => e0,
            Schedule::InverseK => e0 / (k + 1.0),
            Schedule::InverseSqrtK => e0 / (k + 1.0).sqrt(),
            Schedule::Pegasos => 1.0 / (f64::from(self.p.lambda) * (k + 1.0)),
            Schedule::Adaptive => e0,
            // √(t/N), t counting this step (N has counted its row).
            Schedule::Normalized if self.norm_sum > 0.0 => e0 * ((k + 1.0) / self.norm_sum).sqrt(),
            Schedule::Normalized => 0.0,
        }
    }

    /// Folds `c·v` into `U` (O(d)): `Σ = U` exactly as it stood.
    fn fold(&mut self) {
        self.held.flush(&mut self.avg.u);
        let c = self.avg.c;
        self.avg.u.iter_mut().zip(self.v.weights()).for_each(|(u, v)| *u += c * f64::from(v));
        self.avg.c = 0.0;
    }

    /// Folds `s` into `v` (O(d)), and the running sum's `c·v` into `U`.
    fn rescale(&mut self) {
        if self.p.average {
            self.fold();
        }
        let s = self.s as f32;
        self.v.map_weights(|x| x * s);
        self.v_norm_sq = self.v.weights().map(|x| f64::from(x) * f64::from(x)).sum();
        self.s = 1.0;
    }
}

impl OnlineLearner for Sgd {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.v.dim()
    }
    #[inline]
    fn margin<R: Row>(&self, x: &R) -> f32 {
        (self.s * f64::from(self.v.dot(x))) as f32 + self.b
    }
    /// Adaptive steps over a large dimension wait on their state: a cell
    /// of `v`, `Σg²` (and NAG's scale) per entry, and the running sum's
    /// when averaging, a cache miss each, as FTRL-Proximal's cells were
    /// (SPEED.md#adagrads-step). The plain step's SIMD axpy, like the
    /// Perceptron's, does better without hints.
    const PREFETCH: bool = true;
    #[inline(always)]
    fn prefetch<R: Row>(&self, x: &R) {
        if self.prefetch {
            self.v.prefetch(x);
            if !self.avg.u.is_empty() {
                x.prefetch_state(&self.avg.u);
            }
        }
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, _example: usize) -> Step {
        if self.p.schedule == Schedule::Normalized {
            self.normalize(x);
        }
        let vx = f64::from(self.v.dot(x));
        let m = (self.s * vx) as f32 + self.b;
        let ym = y * m;
        let eta = self.eta();
        self.k += 1;
        let lambda = f64::from(self.p.lambda);
        // Shrink first (the gradient of λ/2‖w‖² at the current w). Shrinking
        // changes s only, so v·x stays `vx` unless the shrink zeroes w (the
        // first Pegasos step, ηλ = 1).
        let mut vx = vx;
        if lambda > 0.0 {
            let f = 1.0 - eta * lambda;
            if f <= 0.0 {
                // Σ = U + c·v keeps its value with v = 0 (the first Pegasos
                // step, where v is zero unless mixed in).
                if self.p.average {
                    self.fold();
                }
                self.v.map_weights(|_| 0.0);
                self.v_norm_sq = 0.0;
                self.s = 1.0;
                vx = 0.0;
            } else {
                self.s *= f;
            }
        }
        // The row's loss gradient, weighed by its importance.
        let g = f64::from(self.p.loss.gradient_factor(ym)) * f64::from(h);
        let updated = g != 0.0;
        if updated && self.p.schedule.per_coordinate() {
            // s = 1 throughout (no L2, no projection).
            self.adaptive_step(x, eta * g * f64::from(y), g);
        } else if updated {
            let c = eta * g * f64::from(y);
            let cv = c / self.s;
            // ‖v + cv·x‖² = ‖v‖² + 2cv·(v·x) + cv²‖x‖².
            self.v_norm_sq += 2.0 * cv * vx + cv * cv * f64::from(x.norm_sq());
            if self.p.average {
                // v += δ, and U −= c·(the change v received): the f32
                // rounding of v is then the iterate's own, and Σ = U + c·v
                // stays exact to f64 rounding however large c/s grows.
                let (c, cv) = (self.avg.c, cv as f32);
                // `U −= c·δ` as `+(−c·δ)`, the same bits, held back while
                // U's cells load for sparse rows (v's are in cache from
                // the margin).
                let mut u = self.held.sink(&mut self.avg.u, x.nnz() < x.dim());
                let (v, stride) = self.v.strided_mut();
                for k in 0..x.nnz() {
                    let (i, xi) = x.entry(k);
                    let w = &mut v[i * stride];
                    let old = *w;
                    *w += cv * xi;
                    u.add(i, -(c * (f64::from(*w) - f64::from(old))));
                }
                u.done(x);
            } else {
                self.v.axpy(x, cv as f32);
            }
            if self.p.bias == Bias::Explicit {
                self.b += c as f32;
            }
        }
        if let Some(radius) = self.p.radius {
            let radius = f64::from(radius);
            let norm = self.s * self.v_norm_sq.max(0.0).sqrt();
            if norm > radius {
                self.s *= radius / norm;
            }
        }
        if self.s.abs() < RESCALE_BELOW {
            self.rescale();
        }
        if self.p.average {
            self.avg.c += self.s;
            self.avg.b += f64::from(self.b);
            self.avg.n += 1;
            // `c·v` stands for the sum of the iterates since the last fold,
            // `c/s` times the current one: past 2^30, f64 rounding in it
            // would reach 1e-7 of an iterate, so fold (O(d); under
            // Pegasos' 1/k shrinking, every 2^30 steps or so).
            if self.avg.c > FOLD_ABOVE * self.s {
                self.fold();
            }
        }
        Step { mistake: ym <= 0.0, updated }
    }
    /// The held updates of `U` applied, so that the model read after a
    /// pass need not copy `U` to apply them.
    fn end_pass(&mut self) {
        self.held.flush(&mut self.avg.u);
    }
    /// The last iterate, or with averaging the mean of the iterates (the
    /// last iterate before any step).
    fn model(&self) -> LinearModel {
        if self.p.average && self.avg.n > 0 {
            let (c, n) = (self.avg.c, self.avg.n as f64);
            let u = self.held.applied(&self.avg.u);
            let weights = u.iter().zip(self.v.weights()).map(|(&u, v)| ((u + c * f64::from(v)) / n) as f32).collect();
            return LinearModel { weights, bias: (self.avg.b / n) as f32 };
        }
        self.iterate()
    }
}

impl Sgd {
    /// NAG's first move on a row: where `|x_i|` exceeds the largest seen,
    /// `w_i *= s_i/|x_i|` and `s_i = |x_i|`; then `N += Σ x_i²/s_i²`.
    fn normalize<R: Row>(&mut self, x: &R) {
        let (ac, average, u) = (self.avg.c, self.p.average, &mut self.avg.u);
        let bias = if self.p.bias == Bias::Explicit { 1.0 } else { 0.0 };
        self.norm_sum += self.v.normalize(x, bias, |i, old, new| {
            if average {
                u[i] -= ac * (f64::from(new) - f64::from(old));
            }
        });
    }

    /// AdaGrad's step `w_i += η·(g·y·x_i)/√G_i`, `G_i += (g·x_i)²` first;
    /// `c = η·g·y`; NAG divides by `s_i` too. The kernel steps eight
    /// coordinates at a time, each to the bit the scalar step
    /// ([`rosenblatt_kernels::scalar::adagrad_step`]); the running sum of
    /// the iterates then follows `v`'s change.
    fn adaptive_step<R: Row>(&mut self, x: &R, c: f64, g: f64) {
        if !self.p.average {
            self.v.adagrad(x, c, g);
        } else {
            // U −= c·(the change v received). An entry the step left alone
            // subtracts c·(+0) = +0 (c ≥ 0): U keeps its bits. Dense rows
            // (entry k is feature k) copy and sweep v whole, in lanes.
            let dense = x.nnz() == x.dim();
            let mut old = std::mem::take(&mut self.old);
            old.clear();
            if dense {
                match self.v.split_weights() {
                    Some(v) => old.extend_from_slice(&v[..x.dim()]),
                    None => old.extend(self.v.weights().take(x.dim())),
                }
            } else {
                let (v, stride) = self.v.strided_mut();
                old.extend((0..x.nnz()).map(|k| v[x.entry(k).0 * stride]));
            }
            self.v.adagrad(x, c, g);
            let ac = self.avg.c;
            if dense {
                // A slice's own iterator where there is one: the loop runs
                // in lanes.
                let u = &mut self.avg.u[..];
                match self.v.split_weights() {
                    Some(v) => subtract_changes(u, v.iter().copied(), &old, ac),
                    None => subtract_changes(u, self.v.weights(), &old, ac),
                }
            } else {
                let (v, stride) = self.v.strided_mut();
                for (k, &o) in old.iter().enumerate() {
                    let i = x.entry(k).0;
                    self.avg.u[i] -= ac * (f64::from(v[i * stride]) - f64::from(o));
                }
            }
            self.old = old;
        }
        if self.p.bias == Bias::Explicit {
            let gb = self.v.bias_sum();
            *gb += (g * g) as f32;
            self.b += c as f32 / gb.sqrt();
        }
    }

    /// The current iterate `s·v`, `b`.
    fn iterate(&self) -> LinearModel {
        let s = self.s as f32;
        LinearModel { weights: self.v.weights().map(|x| x * s).collect(), bias: self.b }
    }
}

/// `U −= ac·(v − old)`, coordinate by coordinate.
#[inline(always)]
fn subtract_changes(u: &mut [f64], v: impl Iterator<Item = f32>, old: &[f32], ac: f64) {
    for ((u, v), &o) in u.iter_mut().zip(v).zip(old) {
        *u -= ac * (f64::from(v) - f64::from(o));
    }
}

/// The mixed state is the effective `w = s·v` (then `s = 1`), the bias, and
/// the step count `k` as a total, so the schedule decays with every part's
/// steps; with averaging, the sums of the iterates and their count are
/// totals too, so the average is over every part's steps; so are
/// AdaGrad's sums of squared gradients.
impl Mixable for Sgd {
    fn save_state(&mut self, out: &mut MixState) {
        let w = self.iterate();
        put(&mut out.mean, &[&w.weights, &[w.bias]]);
        out.total.clear();
        out.total.push(self.k as f64);
        if self.p.average {
            self.held.flush(&mut self.avg.u);
            let c = self.avg.c;
            out.total.extend(self.avg.u.iter().zip(self.v.weights()).map(|(&u, v)| u + c * f64::from(v)));
            out.total.extend([self.avg.b, self.avg.n as f64]);
        }
        // AdaGrad's accumulators add up every part's gradients; so does
        // NAG's N (beside the step count k). Its per-coordinate scales are
        // means: every part's v is already in its own scales' units.
        self.v.with_sums(|g2| out.total.extend(g2.iter().map(|&g| f64::from(g))));
        if self.p.schedule == Schedule::Normalized {
            out.total.push(self.norm_sum);
            self.v.with_scales(|sc| out.mean.extend(sc.iter().map(|&s| f64::from(s))));
        }
    }
    fn load_state(&mut self, s: &MixState) {
        let mut b = [0.0];
        self.v.with_weights(|v| take(&s.mean, &mut [v, &mut b]));
        self.b = b[0];
        self.s = 1.0;
        self.v_norm_sq = self.v.weights().map(|x| f64::from(x) * f64::from(x)).sum();
        self.k = s.total[0] as u64;
        if self.p.average {
            self.held.flush(&mut self.avg.u);
            let d = self.v.dim();
            self.avg.u.copy_from_slice(&s.total[1..=d]);
            self.avg.c = 0.0;
            self.avg.b = s.total[d + 1];
            self.avg.n = s.total[d + 2] as u64;
        }
        let normalized = self.p.schedule == Schedule::Normalized;
        let end = s.total.len() - usize::from(normalized);
        self.v.with_sums(|g2| {
            let g = g2.len();
            g2.iter_mut().zip(&s.total[end - g..end]).for_each(|(a, &b)| *a = b as f32);
        });
        if normalized {
            self.norm_sum = s.total[end];
            let d = self.v.dim() + 1;
            self.v.with_scales(|sc| sc.iter_mut().zip(&s.mean[d..]).for_each(|(a, &b)| *a = b as f32));
        }
    }
}

impl crate::state::Resume for Sgd {
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        self.held.flush(&mut self.avg.u);
        self.v.with_weights(|v| f.f32s(v));
        for x in [&mut self.s, &mut self.v_norm_sq, &mut self.avg.c, &mut self.avg.b] {
            f.f64(x);
        }
        f.f32s(std::slice::from_mut(&mut self.b));
        f.u64(&mut self.k);
        f.u64(&mut self.avg.n);
        f.f64s(&mut self.avg.u);
        self.v.with_sums(|g2| f.f32s(g2));
        self.v.with_scales(|s| f.f32s(s));
        f.f64(&mut self.norm_sum);
    }
}

#[cfg(test)]
#[path = "sgd_tests.rs"]
mod tests;
