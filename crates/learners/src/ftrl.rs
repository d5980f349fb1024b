//! Follow-the-regularised-leader: FTRL-Proximal with per-coordinate
//! learning rates and L1/L2 (McMahan et al. 2013), and the randomised
//! online linear classifier of FTRL with a growing quadratic regulariser.

use crate::error::{LearnError, param};
use crate::learner::{Bias, OnlineLearner, Step};
use crate::loss::Loss;
use crate::memory::{StateVec, zeros};
use crate::mix::{MixState, Mixable, Team, held};
use crate::model::LinearModel;
use rosenblatt_kernels::{Examples, Row};
use wide::f64x4;

/// FTRL-Proximal parameters.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct FtrlParams {
    /// α (> 0): the per-coordinate rate is `α/(β + √n_i)`.
    pub alpha: f64,
    /// β (≥ 0).
    pub beta: f64,
    /// L1 strength (≥ 0): weights with `|z_i| ≤ λ1` are exactly zero.
    pub l1: f64,
    /// L2 strength (≥ 0).
    pub l2: f64,
    /// The loss (logistic for sparse logistic models).
    pub loss: Loss,
    /// A bias as an always-present feature (not L1/L2 regularised).
    pub bias: Bias,
}

impl Default for FtrlParams {
    fn default() -> Self {
        FtrlParams { alpha: 0.1, beta: 1.0, l1: 1.0, l2: 1.0, loss: Loss::Logistic, bias: Bias::Explicit }
    }
}

/// FTRL-Proximal: per coordinate `z_i` and `n_i` (sum of squared
/// gradients); weights are computed from them on demand, so a step touches
/// only the row's non-zeros and a feature never seen keeps weight exactly 0.
/// `z_i` and `√n_i` sit side by side: at large dimensions a step is bound
/// by cache misses, one per touched coordinate this way (SPEED.md#ftrl-proximal-and-eg). Keeping
/// `√n_i` rather than `n_i`, and the row's weights from the margin for the
/// update, a step costs one division per non-zero for the margin and one
/// square root per non-zero for the update.
///
/// A step gathers the row's state into a scratch block first, then computes
/// weights, margin and update four lanes at a time (f64, the same
/// operations as a scalar loop, so no precision is traded): the divisions
/// and square roots of different coordinates overlap instead of waiting on
/// each other.
#[derive(Clone, Debug)]
pub struct FtrlProximal {
    /// `[z_i, √n_i]` per coordinate, in f32 (computed in f64).
    cells: StateVec<[f32; 2]>,
    zb: f64,
    sb: f64,
    p: FtrlParams,
    inv_alpha: f64,
    /// The current row, gathered: `z`, `√n`, value, then its weights; each
    /// padded with zeros to a multiple of [`LANES`].
    scratch: [Vec<f64>; 4],
}

/// Lanes of the step's arithmetic.
const LANES: usize = 4;

impl FtrlProximal {
    /// A learner over `dim` features.
    pub fn new(dim: usize, p: FtrlParams) -> Result<Self, LearnError> {
        if !(p.alpha.is_finite() && p.alpha > 0.0) {
            return Err(param("alpha", p.alpha, "a finite number > 0"));
        }
        for (name, v) in [("beta", p.beta), ("l1", p.l1), ("l2", p.l2)] {
            if !(v.is_finite() && v >= 0.0) {
                return Err(param(name, v, "a finite number >= 0"));
            }
        }
        Ok(FtrlProximal {
            cells: zeros(dim)?,
            zb: 0.0,
            sb: 0.0,
            inv_alpha: 1.0 / p.alpha,
            p,
            scratch: Default::default(),
        })
    }

    /// The weight of a coordinate with state `z` and `s = √n`:
    /// `−(z − sign(z)·l1)/((β + s)/α + l2)` past the L1 threshold, else 0.
    /// Written without a branch (`min`/`max` select the shrunk `z`), in the
    /// one form both [`Self::weight`] and the four-lane step use, so a
    /// model's weights are exactly those its steps used.
    #[inline(always)]
    fn weight_of<T>(z: T, s: T, [l1, l2, beta, inv_alpha]: [T; 4], zero: T) -> T
    where
        T: Copy + std::ops::Add<Output = T> + std::ops::Sub<Output = T> + std::ops::Mul<Output = T>,
        T: std::ops::Div<Output = T> + std::ops::Neg<Output = T> + MinMax,
    {
        // l1 − z < 0 exactly when z > l1; −l1 − z > 0 exactly when z < −l1.
        let shrunk = (l1 - z).min_(zero) + (-l1 - z).max_(zero);
        shrunk / ((beta + s) * inv_alpha + l2)
    }

    fn consts(&self, regularised: bool) -> [f64; 4] {
        let (l1, l2) = if regularised { (self.p.l1, self.p.l2) } else { (0.0, 0.0) };
        [l1, l2, self.p.beta, self.inv_alpha]
    }

    /// The weight of a coordinate with state `z` and `s = √n`.
    #[inline]
    fn weight(&self, z: f64, s: f64, regularised: bool) -> f64 {
        Self::weight_of(z, s, self.consts(regularised), 0.0)
    }

    fn bias_weight(&self) -> f64 {
        if self.p.bias == Bias::Explicit { self.weight(self.zb, self.sb, false) } else { 0.0 }
    }

    /// One coordinate's step for gradient `g` at weight `w`: `σ = (√(n + g²)
    /// − √n)/α`, `z += g − σ·w`, `n += g²`.
    #[inline]
    fn step(&self, z: f64, s: f64, g: f64, w: f64) -> [f64; 2] {
        let s2 = (s * s + g * g).sqrt();
        [z + g - (s2 - s) * self.inv_alpha * w, s2]
    }

    /// Gathers the row's state into the scratch block and computes its
    /// weights there; returns the row's margin. Lane `k % 4` sums entry
    /// `k`'s term, the lanes are added pairwise, then the bias.
    fn gather<R: Row>(&mut self, x: &R) -> f64 {
        let n = x.nnz();
        let padded = n.div_ceil(LANES) * LANES;
        let (c, bias) = (self.consts(true).map(f64x4::splat), self.bias_weight());
        let [zs, ss, vs, ws] = &mut self.scratch;
        for b in [&mut *zs, &mut *ss, &mut *vs, &mut *ws] {
            b.clear();
            b.resize(padded, 0.0);
        }
        for k in 0..n {
            let (i, v) = x.entry(k);
            let [z, s] = self.cells[i];
            (zs[k], ss[k], vs[k]) = (f64::from(z), f64::from(s), f64::from(v));
        }
        let mut acc = f64x4::ZERO;
        for (((z, s), v), w) in zs
            .chunks_exact(LANES)
            .zip(ss.chunks_exact(LANES))
            .zip(vs.chunks_exact(LANES))
            .zip(ws.chunks_exact_mut(LANES))
        {
            let wv = Self::weight_of(lanes(z), lanes(s), c, f64x4::ZERO);
            acc += wv * lanes(v);
            w.copy_from_slice(&wv.to_array());
        }
        let [a, b, c2, d] = acc.to_array();
        bias + ((a + b) + (c2 + d))
    }
}

fn lanes(x: &[f64]) -> f64x4 {
    f64x4::from(<[f64; LANES]>::try_from(x).expect("a chunk of LANES"))
}

/// `min` and `max` on scalars and lanes alike (for [`FtrlProximal::weight_of`]).
trait MinMax {
    fn min_(self, o: Self) -> Self;
    fn max_(self, o: Self) -> Self;
}

impl MinMax for f64 {
    #[inline(always)]
    fn min_(self, o: Self) -> Self {
        if self < o { self } else { o }
    }
    #[inline(always)]
    fn max_(self, o: Self) -> Self {
        if self > o { self } else { o }
    }
}

impl MinMax for f64x4 {
    #[inline(always)]
    fn min_(self, o: Self) -> Self {
        self.fast_min(o)
    }
    #[inline(always)]
    fn max_(self, o: Self) -> Self {
        self.fast_max(o)
    }
}

impl OnlineLearner for FtrlProximal {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.cells.len()
    }
    fn margin<R: Row>(&self, x: &R) -> f32 {
        let mut partial = [0.0f64; LANES];
        for k in 0..x.nnz() {
            let (i, v) = x.entry(k);
            let [z, s] = self.cells[i];
            partial[k % LANES] += self.weight(f64::from(z), f64::from(s), true) * f64::from(v);
        }
        let [a, b, c, d] = partial;
        (self.bias_weight() + ((a + b) + (c + d))) as f32
    }
    const PREFETCH: bool = true;
    #[inline(always)]
    fn prefetch<R: Row>(&self, x: &R) {
        if crate::learner::worth_prefetching(size_of_val(&self.cells[..])) {
            x.prefetch_state(&self.cells);
        }
    }
    fn learn<R: Row>(&mut self, x: &R, y: f32, h: f32, _example: usize) -> Step {
        let m = self.gather(x);
        let ym = f64::from(y) * m;
        // ∂loss/∂m, weighed by the row's importance.
        let gm = -f64::from(y) * (f64::from(self.p.loss.gradient_factor(ym as f32)) * f64::from(h));
        if gm != 0.0 {
            let [zs, ss, vs, ws] = &mut self.scratch;
            let (gm4, inv_alpha) = (f64x4::splat(gm), f64x4::splat(self.inv_alpha));
            for (((z, s), v), w) in zs
                .chunks_exact_mut(LANES)
                .zip(ss.chunks_exact_mut(LANES))
                .zip(vs.chunks_exact(LANES))
                .zip(ws.chunks_exact(LANES))
            {
                let (zv, sv, g) = (lanes(z), lanes(s), gm4 * lanes(v));
                let s2 = (sv * sv + g * g).sqrt();
                z.copy_from_slice(&(zv + g - (s2 - sv) * inv_alpha * lanes(w)).to_array());
                s.copy_from_slice(&s2.to_array());
            }
            for k in 0..x.nnz() {
                let (i, v) = x.entry(k);
                // A zero (dense rows store them) has no gradient: its state
                // stays exactly as it is.
                if v != 0.0 {
                    self.cells[i] = [zs[k] as f32, ss[k] as f32];
                }
            }
            if self.p.bias == Bias::Explicit {
                [self.zb, self.sb] = self.step(self.zb, self.sb, gm, self.bias_weight());
            }
        }
        Step { mistake: ym <= 0.0, updated: gm != 0.0 }
    }
    fn model(&self) -> LinearModel {
        LinearModel {
            weights: self.cells.iter().map(|&[z, s]| self.weight(f64::from(z), f64::from(s), true) as f32).collect(),
            bias: self.bias_weight() as f32,
        }
    }
}

/// `max ‖x‖` over the examples: the `R` of [`RandomizedFtrl`].
pub fn max_norm<E: Examples>(data: &E) -> f64 {
    scales(data).max_norm
}

/// The bounds of a set of rows that defaults are derived from.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Scales {
    /// `R = max ‖x‖₂`.
    pub max_norm: f64,
    /// `max |x_i|` over every entry.
    pub max_abs: f64,
}

/// Rows per task of [`scales`] on the current rayon pool.
const SCALE_ROWS: usize = 4096;

/// The [`Scales`] of `data`: maxima, so the same bits however the rows are
/// split, spread over the current rayon pool (called outside any pool, on
/// this thread alone: no global pool is started).
pub fn scales<E: Examples>(data: &E) -> Scales {
    use rayon::prelude::*;
    let [max_norm2, max_abs] = if rayon::current_thread_index().is_none() || data.len() <= SCALE_ROWS {
        bounds(data, 0..data.len())
    } else {
        (0..data.len().div_ceil(SCALE_ROWS))
            .into_par_iter()
            .map(|b| bounds(data, b * SCALE_ROWS..((b + 1) * SCALE_ROWS).min(data.len())))
            .reduce(|| [0.0; 2], |a, b| [a[0].max(b[0]), a[1].max(b[1])])
    };
    Scales { max_norm: max_norm2.sqrt(), max_abs }
}

/// The [`Scales`] of the rows every process of `team` holds, as
/// [`scales`] of all of them: each process's maxima, then the largest
/// passed along the ranks and sent from the last to all.
pub fn scales_over<E: Examples>(team: &dyn Team, data: &E) -> Scales {
    let (rank, size) = (team.rank(), team.size());
    let here = scales(data);
    let mut m = [here.max_norm, here.max_abs];
    if rank > 0 {
        let mut before = [0.0; 2];
        team.receive(rank - 1, &mut before);
        m = [m[0].max(before[0]), m[1].max(before[1])];
    }
    if rank + 1 < size {
        team.send(rank + 1, &m);
    }
    team.broadcast(size - 1, &mut m);
    Scales { max_norm: m[0], max_abs: m[1] }
}

/// `[max ‖x‖², max |x_i|]` over rows `rows` of `data`. `|x_i|` is compared
/// by its bits (an integer maximum, no chain of float compares; the same
/// order for the non-negative floats), a NaN ignored as `f64::max` would.
fn bounds<E: Examples>(data: &E, rows: std::ops::Range<usize>) -> [f64; 2] {
    let (mut max_norm2, mut max_abs) = (0.0f64, 0u32);
    for i in rows {
        let x = data.row(i);
        max_norm2 = max_norm2.max(f64::from(x.norm_sq()));
        for k in 0..x.nnz() {
            let b = x.entry(k).1.abs().to_bits();
            max_abs = max_abs.max(if b > f32::INFINITY.to_bits() { 0 } else { b });
        }
    }
    [max_norm2, f64::from(f32::from_bits(max_abs))]
}

/// `d·Var(X)` of `data`: the dimension times the variance of every entry
/// of the `n × d` matrix, zeros included — the squared distance a Gaussian
/// kernel's width is measured in (scikit-learn's `gamma="scale"` is its
/// inverse). One pass in row order: its sums, in f64, are order-dependent.
pub fn spread<E: Examples>(data: &E) -> f64 {
    let mut sums = [0.0; 2];
    sum(data, &mut sums);
    finish(sums, data.len(), data.dim())
}

/// The [`spread`] of the rows every process of `team` holds, as [`spread`]
/// of all of them in rank order, bit for bit: each process continues the
/// running sums where the one before stopped, and the last sends them to
/// all.
pub fn spread_over<E: Examples>(team: &dyn Team, data: &E) -> f64 {
    let (rank, size) = (team.rank(), team.size());
    let rows: usize = held(team, data.len()).iter().sum();
    let mut sums = [0.0; 2];
    if rank > 0 {
        team.receive(rank - 1, &mut sums);
    }
    sum(data, &mut sums);
    if rank + 1 < size {
        team.send(rank + 1, &sums);
    }
    team.broadcast(size - 1, &mut sums);
    finish(sums, rows, data.dim())
}

/// Continues the running `[Σ x_i, Σ ‖x‖²]` over `data`.
fn sum<E: Examples>(data: &E, sums: &mut [f64; 2]) {
    let [mut sum, mut sum_sq] = *sums;
    for i in 0..data.len() {
        let x = data.row(i);
        sum_sq += f64::from(x.norm_sq());
        for k in 0..x.nnz() {
            sum += f64::from(x.entry(k).1);
        }
    }
    *sums = [sum, sum_sq];
}

fn finish([sum, sum_sq]: [f64; 2], rows: usize, dim: usize) -> f64 {
    let (n, d) = (rows as f64, dim as f64);
    if n > 0.0 && d > 0.0 {
        // d·(E[x²] − E[x]²) over the n·d entries.
        (sum_sq / n - sum * sum / (n * n * d)).max(0.0)
    } else {
        0.0
    }
}

/// A uniform draw in [0, 1) for step `t` of the generator `seed`:
/// SplitMix64's finaliser over (seed, t), its top 53 bits.
fn draw(seed: u64, t: u64) -> f64 {
    let mut z = seed.wrapping_add(t.wrapping_add(1).wrapping_mul(0x9e37_79b9_7f4a_7c15));
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    z ^= z >> 31;
    (z >> 11) as f64 / (1u64 << 53) as f64
}

/// The randomised online linear classifier: FTRL on the linear losses
/// `ℓ_t(x) = (1 − y_t⟨z_t, x⟩)/2` (the probability of a mistake) with the
/// regulariser `ψ_t(x) = (√(2t)/4)·‖R·x‖²` over the ball `‖x‖ ≤ 1/R`, where
/// `R ≥ ‖z_t‖` for every row. It predicts +1 with probability `(1 + q)/2`,
/// `q = ⟨z_t, x_t⟩`, from a seeded generator; its expected number of
/// mistakes exceeds the best fixed `u` in the ball by at most `√(2T)`.
/// (With `R = 1` the regulariser is `(√(2t)/4)·‖x‖²`; scaling it by `R²`
/// keeps the bound for any `R`.)
///
/// `x_t` is `S/(R²·√(2t))` projected onto the ball, `S = Σ_{s<t} y_s z_s`;
/// `S` and `‖S‖²` are kept up to date, so a step is O(nonzeros).
#[derive(Clone, Debug)]
pub struct RandomizedFtrl {
    s: StateVec<f32>,
    s_norm_sq: f64,
    r: f64,
    t: u64,
    /// The draws' seed: step t's draw is a hash of (seed, t), so the state
    /// is `t` and nothing more.
    seed: u64,
    expected_mistakes: f64,
}

impl RandomizedFtrl {
    /// A learner over `dim` features for rows of norm at most `r`
    /// ([`max_norm`]), drawing its predictions from `seed`.
    pub fn new(dim: usize, r: f64, seed: u64) -> Result<Self, LearnError> {
        if !(r.is_finite() && r > 0.0) {
            return Err(param("R", r, "a finite number > 0 (the largest row norm)"));
        }
        Ok(RandomizedFtrl { s: zeros(dim)?, s_norm_sq: 0.0, r, t: 0, seed, expected_mistakes: 0.0 })
    }

    /// `Σ_t (1 − y_t q_t)/2` so far: the expected number of mistakes.
    pub fn expected_mistakes(&self) -> f64 {
        self.expected_mistakes
    }

    /// The divisor turning `S` into `x_{t+1}` (after `t` steps).
    fn scale(&self, t: u64) -> f64 {
        let r2 = self.r * self.r;
        // Unconstrained minimiser S/(R²√(2t)); projected when its norm,
        // ‖S‖/(R²√(2t)), exceeds 1/R.
        (r2 * (2.0 * t as f64).sqrt()).max(self.r * self.s_norm_sq.sqrt())
    }

    /// `q = ⟨z, x_t⟩` for the next step.
    fn q<R: Row>(&self, z: &R) -> f64 {
        let d = self.scale(self.t + 1);
        if d == 0.0 { 0.0 } else { (f64::from(z.dot(&self.s)) / d).clamp(-1.0, 1.0) }
    }
}

impl OnlineLearner for RandomizedFtrl {
    type Model = LinearModel;
    fn dim(&self) -> usize {
        self.s.len()
    }
    /// The probability-weighted margin `q` (its sign is the more likely
    /// prediction).
    fn margin<R: Row>(&self, x: &R) -> f32 {
        self.q(x) as f32
    }
    fn learn<R: Row>(&mut self, z: &R, y: f32, h: f32, _example: usize) -> Step {
        let q = self.q(z);
        let positive = draw(self.seed, self.t) < (1.0 + q) / 2.0;
        self.expected_mistakes += (1.0 - f64::from(y) * q) / 2.0;
        let sz = f64::from(z.dot(&self.s));
        // s += h·y·z: ‖s‖² grows by 2hy(s·z) + h²‖z‖².
        let (a, hh) = (h * y, f64::from(h) * f64::from(h));
        self.s_norm_sq = (self.s_norm_sq + 2.0 * f64::from(a) * sz + hh * f64::from(z.norm_sq())).max(0.0);
        z.axpy(a, &mut self.s);
        self.t += 1;
        Step { mistake: positive != (y > 0.0), updated: true }
    }
    /// The deterministic vector `x_{T+1}` (the sign of `q`).
    fn model(&self) -> LinearModel {
        let d = self.scale(self.t + 1);
        let f = if d == 0.0 { 0.0 } else { (1.0 / d) as f32 };
        LinearModel { weights: self.s.iter().map(|v| v * f).collect(), bias: 0.0 }
    }
}

/// `z` and `n` are mixed as means (the per-coordinate state FTRL-Proximal
/// predicts from).
impl Mixable for FtrlProximal {
    fn save_state(&mut self, out: &mut MixState) {
        out.mean.clear();
        out.mean.extend(self.cells.iter().flat_map(|&[z, s]| [f64::from(z), f64::from(s) * f64::from(s)]));
        out.mean.extend([self.zb, self.sb * self.sb]);
        out.total.clear();
    }
    fn load_state(&mut self, s: &MixState) {
        for (c, m) in self.cells.iter_mut().zip(s.mean.chunks_exact(2)) {
            *c = [m[0] as f32, m[1].sqrt() as f32];
        }
        let d = 2 * self.cells.len();
        (self.zb, self.sb) = (s.mean[d], s.mean[d + 1].sqrt());
    }
}

impl crate::state::Resume for FtrlProximal {
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        f.f32s(self.cells.as_flattened_mut());
        f.f64(&mut self.zb);
        f.f64(&mut self.sb);
    }
}

impl crate::state::Resume for RandomizedFtrl {
    fn fields(&mut self, f: &mut dyn crate::state::Fields) {
        f.f32s(&mut self.s);
        f.f64(&mut self.s_norm_sq);
        f.u64(&mut self.t);
        f.f64(&mut self.expected_mistakes);
    }
}
