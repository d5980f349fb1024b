//! The kernel bodies, each written once: generic over the vector type
//! ([`Simd`]), where a row's weights are ([`Layout`]: contiguous for dense
//! rows, indexed for sparse ones) and how its values are stored
//! ([`Values`]). Encoding choices are associated constants, so every
//! instantiation compiles to a branch-free loop.
//!
//! Summation order depends only on the row length, never on alignment or on
//! the data, so a kernel is deterministic for a given backend.

use crate::simd::Simd;
use crate::values::{Index, ValueKind, Values};

/// Where entry `k` of a row finds its weight.
pub(crate) trait Layout: Copy {
    /// Entry `k` uses weight `k` (dense rows).
    const CONTIGUOUS: bool;
    /// The weights of entries `k..k+8`.
    ///
    /// # Safety
    /// `k + 8 <= n` for the row's `n`; `w` covers the row's dimension; the CPU
    /// supports `S`.
    unsafe fn load_w<S: Simd>(self, w: *const f32, k: usize) -> S;
    /// The weight index of entry `k`.
    ///
    /// # Safety
    /// `k < n` for the row's `n`.
    unsafe fn w_index(self, k: usize) -> usize;
}

/// Dense rows: entry `k` is feature `k`.
#[derive(Clone, Copy)]
pub(crate) struct Contiguous;

impl Layout for Contiguous {
    const CONTIGUOUS: bool = true;
    #[inline(always)]
    unsafe fn load_w<S: Simd>(self, w: *const f32, k: usize) -> S {
        // SAFETY: the caller guarantees `k + 8 <= n <= len(w)`.
        unsafe { S::load(w.add(k)) }
    }
    #[inline(always)]
    unsafe fn w_index(self, k: usize) -> usize {
        k
    }
}

/// Sparse rows: entry `k` is feature `idx[k]`.
#[derive(Clone, Copy)]
pub(crate) struct Indexed<I>(pub(crate) *const I);

impl<I: Index> Layout for Indexed<I> {
    const CONTIGUOUS: bool = false;
    #[inline(always)]
    unsafe fn load_w<S: Simd>(self, w: *const f32, k: usize) -> S {
        // SAFETY: the caller guarantees eight readable indices at `k`, each
        // below the dimension (and below 2^31 for `u32`), which `w` covers.
        unsafe {
            if I::BITS == 32 {
                S::gather_u32(w, self.0.add(k).cast::<u32>())
            } else {
                S::gather_u16(w, self.0.add(k).cast::<u16>())
            }
        }
    }
    #[inline(always)]
    unsafe fn w_index(self, k: usize) -> usize {
        // SAFETY: the caller guarantees `k < n`.
        unsafe { (*self.0.add(k)).to_usize() }
    }
}

/// State in cells of `1 << shift` floats (AdaGrad's `[w_i, G_i]`, NAG's
/// `[w_i, G_i, s_i, unused]`: [`crate::CellWidth`]), so that a step
/// touches one cache line per entry, not one per array: entry `k`'s cell
/// starts at float `feature(k) << shift`; a pointer `f` floats on reads
/// float `f` of each cell. The width is a value, not a type: one copy of
/// each kernel serves both.
#[derive(Clone, Copy)]
pub(crate) struct Cells<L> {
    pub(crate) rows: L,
    pub(crate) shift: u32,
}

impl<I: Index> Layout for Cells<Indexed<I>> {
    const CONTIGUOUS: bool = false;
    #[inline(always)]
    unsafe fn load_w<S: Simd>(self, w: *const f32, k: usize) -> S {
        // SAFETY: as `Indexed::load_w`, each cell (from float
        // `idx[j] << shift`) in bounds of `w`'s cells.
        unsafe {
            if I::BITS == 32 {
                S::gather_u32_cells(w, self.rows.0.add(k).cast::<u32>(), self.shift)
            } else {
                S::gather_u16_cells(w, self.rows.0.add(k).cast::<u16>(), self.shift)
            }
        }
    }
    #[inline(always)]
    unsafe fn w_index(self, k: usize) -> usize {
        // SAFETY: forwarded from the caller.
        unsafe { self.rows.w_index(k) << self.shift }
    }
}

impl Layout for Cells<Contiguous> {
    const CONTIGUOUS: bool = false;
    #[inline(always)]
    unsafe fn load_w<S: Simd>(self, w: *const f32, k: usize) -> S {
        // SAFETY: the caller guarantees `k + 8 <= n`, whose cells `w` covers.
        unsafe { S::gather_at(w, std::array::from_fn(|j| (k + j) << self.shift)) }
    }
    #[inline(always)]
    unsafe fn w_index(self, k: usize) -> usize {
        k << self.shift
    }
}

/// Raw values of entries `k..k+8`.
///
/// # Safety
/// `k + 8 <= n`; the CPU supports `S`.
#[inline(always)]
unsafe fn raw8<S: Simd, V: Values>(v: V, k: usize) -> S {
    // SAFETY: the caller guarantees eight stored values at `k`.
    unsafe {
        match V::KIND {
            ValueKind::F32 => S::load(v.as_ptr().cast::<f32>().add(k)),
            ValueKind::U8 => S::load_u8(v.as_ptr().add(k)),
            ValueKind::Ones => S::splat(1.0),
        }
    }
}

/// Raw value of entry `k`.
///
/// # Safety
/// `k < n`.
#[inline(always)]
unsafe fn raw1<V: Values>(v: V, k: usize) -> f32 {
    // SAFETY: the caller guarantees a stored value at `k`.
    unsafe {
        match V::KIND {
            ValueKind::F32 => *v.as_ptr().cast::<f32>().add(k),
            ValueKind::U8 => f32::from(*v.as_ptr().add(k)),
            ValueKind::Ones => 1.0,
        }
    }
}

/// `acc + raw(k..k+8) * w`; binary rows skip the multiply.
///
/// # Safety
/// As [`raw8`].
#[inline(always)]
unsafe fn madd<S: Simd, V: Values>(v: V, k: usize, w: S, acc: S) -> S {
    // SAFETY: forwarded from the caller.
    unsafe {
        match V::KIND {
            ValueKind::Ones => acc.add(w),
            _ => raw8::<S, V>(v, k).mul_add(w, acc),
        }
    }
}

/// `Σ_k value(k) · w[index(k)]` over the `n` entries of a row.
///
/// Four accumulators hide the add latency (and, for sparse rows, overlap the
/// gathers); the last `n % 8` entries are summed one by one, so nothing past
/// the row is read.
///
/// # Safety
/// The row has `n` entries with in-bounds weight indices (each below 2^31
/// for `u32`), `w` covers the dimension, and the CPU supports `S`.
#[inline(always)]
pub(crate) unsafe fn dot<S: Simd, L: Layout, V: Values>(l: L, v: V, n: usize, w: *const f32) -> f32 {
    // SAFETY: every `k` used below satisfies `k + 8 <= n` (vector steps) or
    // `k < n` (scalar tail), which is what the helpers require.
    unsafe {
        let (mut a0, mut a1, mut a2, mut a3) = (S::zero(), S::zero(), S::zero(), S::zero());
        let mut k = 0;
        while k + 32 <= n {
            a0 = madd(v, k, l.load_w::<S>(w, k), a0);
            a1 = madd(v, k + 8, l.load_w::<S>(w, k + 8), a1);
            a2 = madd(v, k + 16, l.load_w::<S>(w, k + 16), a2);
            a3 = madd(v, k + 24, l.load_w::<S>(w, k + 24), a3);
            k += 32;
        }
        while k + 8 <= n {
            a0 = madd(v, k, l.load_w::<S>(w, k), a0);
            k += 8;
        }
        let mut s = a0.add(a1).add(a2.add(a3)).reduce_add();
        while k < n {
            s += raw1(v, k) * *w.add(l.w_index(k));
            k += 1;
        }
        s * v.scale()
    }
}

/// `row · w_b` for eight weight vectors at once: each entry of the row is
/// decoded once and multiplied into eight independent accumulators, which
/// also fill both FMA pipes. Scoring many rows against one stored row (the
/// voted perceptron's `⟨x_j, x⟩`) runs at several times the one-vector rate.
///
/// # Safety
/// As [`dot`], for every one of the eight vectors.
#[inline(always)]
pub(crate) unsafe fn dot8<S: Simd, L: Layout, V: Values>(l: L, v: V, n: usize, ws: &[*const f32; 8]) -> [f32; 8] {
    // SAFETY: `k + 8 <= n` in the vector loop, `k < n` in the tail.
    unsafe {
        let mut acc = [S::zero(); 8];
        let mut k = 0;
        while k + 8 <= n {
            let x = raw8::<S, V>(v, k);
            for b in 0..8 {
                acc[b] = x.mul_add(l.load_w::<S>(ws[b], k), acc[b]);
            }
            k += 8;
        }
        let mut out = acc.map(|a| a.reduce_add());
        while k < n {
            let (x, i) = (raw1(v, k), l.w_index(k));
            for b in 0..8 {
                out[b] += x * *ws[b].add(i);
            }
            k += 1;
        }
        out.map(|s| s * v.scale())
    }
}

/// `row · w_b` for eight weight vectors stored transposed, `t[i][b]` (the
/// weight of feature `i` in vector `b`): each entry costs one broadcast and
/// one FMA against eight contiguous floats, so a sparse row pays only for its
/// non-zeros and no gather is needed.
///
/// # Safety
/// As [`dot`], with `t` covering `dim × 8` floats.
#[inline(always)]
pub(crate) unsafe fn dot_t8<S: Simd, L: Layout, V: Values>(l: L, v: V, n: usize, t: *const f32) -> [f32; 8] {
    // SAFETY: every `k < n`, and `w_index(k) < dim`, so `t + 8·index` has
    // eight readable floats.
    unsafe {
        let mut acc = [S::zero(); 4];
        let mut k = 0;
        while k + 4 <= n {
            for (j, a) in acc.iter_mut().enumerate() {
                let x = S::splat(raw1(v, k + j));
                *a = x.mul_add(S::load(t.add(l.w_index(k + j) * 8)), *a);
            }
            k += 4;
        }
        while k < n {
            acc[0] = S::splat(raw1(v, k)).mul_add(S::load(t.add(l.w_index(k) * 8)), acc[0]);
            k += 1;
        }
        let mut out = [0.0f32; 8];
        acc[0].add(acc[1]).add(acc[2].add(acc[3])).mul_add(S::splat(v.scale()), S::zero()).store(out.as_mut_ptr());
        out
    }
}

/// `w[index(k)] += alpha · value(k)` over the `n` entries of a row.
///
/// Dense rows are updated eight lanes at a time. Sparse rows are scattered one
/// entry at a time: AVX2 has no scatter, and a row's indices are unique, so
/// there is no dependency between the stores to exploit.
///
/// # Safety
/// As [`dot`], with `w` writable.
#[inline(always)]
pub(crate) unsafe fn axpy<S: Simd, L: Layout, V: Values>(l: L, v: V, n: usize, alpha: f32, w: *mut f32) {
    let a = alpha * v.scale();
    // SAFETY: as in `dot`; every index is in bounds of the writable `w`.
    unsafe {
        let mut k = 0;
        if L::CONTIGUOUS {
            let av = S::splat(a);
            while k + 8 <= n {
                let p = w.add(k);
                raw8::<S, V>(v, k).mul_add(av, S::load(p)).store(p);
                k += 8;
            }
        }
        while k < n {
            *w.add(l.w_index(k)) += a * raw1(v, k);
            k += 1;
        }
    }
}

/// `w += a·row` and `u += b·row` in one sweep over the row: the update of
/// lazy averaging, which reads each index and value once for both vectors.
///
/// # Safety
/// As [`axpy`], for both `w` and `u`.
#[inline(always)]
pub(crate) unsafe fn axpy2<S: Simd, L: Layout, V: Values>(
    l: L,
    v: V,
    n: usize,
    a: f32,
    w: *mut f32,
    b: f32,
    u: *mut f32,
) {
    let (a, b) = (a * v.scale(), b * v.scale());
    // SAFETY: as in `axpy`, for both vectors.
    unsafe {
        let mut k = 0;
        if L::CONTIGUOUS {
            let (av, bv) = (S::splat(a), S::splat(b));
            while k + 8 <= n {
                let x = raw8::<S, V>(v, k);
                let (p, q) = (w.add(k), u.add(k));
                x.mul_add(av, S::load(p)).store(p);
                x.mul_add(bv, S::load(q)).store(q);
                k += 8;
            }
        }
        while k < n {
            let (i, x) = (l.w_index(k), raw1(v, k));
            *w.add(i) += a * x;
            *u.add(i) += b * x;
            k += 1;
        }
    }
}

/// `Σ_k value(k)²` over the `n` entries of a row.
///
/// # Safety
/// The row has `n` stored values; the CPU supports `S`.
#[inline(always)]
pub(crate) unsafe fn norm_sq<S: Simd, V: Values>(v: V, n: usize) -> f32 {
    if V::KIND == ValueKind::Ones {
        return n as f32;
    }
    // SAFETY: `k + 8 <= n` for vector steps and `k < n` in the tail.
    let raw = unsafe {
        let (mut a0, mut a1) = (S::zero(), S::zero());
        let mut k = 0;
        while k + 16 <= n {
            let x = raw8::<S, V>(v, k);
            let y = raw8::<S, V>(v, k + 8);
            a0 = x.mul_add(x, a0);
            a1 = y.mul_add(y, a1);
            k += 16;
        }
        while k + 8 <= n {
            let x = raw8::<S, V>(v, k);
            a0 = x.mul_add(x, a0);
            k += 8;
        }
        let mut s = a0.add(a1).reduce_add();
        while k < n {
            let x = raw1(v, k);
            s += x * x;
            k += 1;
        }
        s
    };
    let c = v.scale();
    raw * (c * c)
}

/// Whether the eight stored values at `k` are all zero (or −0.0): a dense
/// row's background, which AdaGrad's step skips whole.
///
/// # Safety
/// `k + 8 <= n`.
#[inline(always)]
unsafe fn zero8<V: Values>(v: V, k: usize) -> bool {
    // SAFETY: the caller guarantees eight stored values at `k`.
    unsafe {
        match V::KIND {
            ValueKind::F32 => {
                // No bit but the sign set in any of the eight.
                let x = v.as_ptr().cast::<f32>().add(k).cast::<[u32; 8]>().read_unaligned();
                x.iter().fold(0, |a, b| a | (b << 1)) == 0
            }
            ValueKind::U8 => v.as_ptr().add(k).cast::<u64>().read_unaligned() == 0,
            ValueKind::Ones => false,
        }
    }
}

/// One AdaGrad step's constants (`c = η·g·y`, the loss gradient `g`) and
/// the state it updates: weights `w`, sums of squared gradients `g2`, and
/// NAG's per-coordinate scales `s` (`None`: every scale is 1).
#[derive(Clone, Copy)]
pub(crate) struct AdagradStep {
    pub(crate) c: f64,
    pub(crate) g: f64,
    pub(crate) w: *mut f32,
    pub(crate) g2: *mut f32,
    pub(crate) s: Option<*const f32>,
}

/// AdaGrad's step over the `n` entries of a row, the entry-by-entry
/// [`crate::scalar::adagrad_step`] (`G_i += (g·x)²`, then
/// `w_i += (c·x)/(√G_i·s_i)`, the products `g·x` and `c·x` in f64) on
/// every entry whose value `x` is not zero; `s = None` means every `s_i`
/// is 1.
///
/// Eight entries at a time: a row's indices are unique, so their steps are
/// independent, and the square roots and divisions of eight overlap in the
/// lanes, with eight times fewer instructions around them than one entry at
/// a time. Every operation is one IEEE operation (no fused multiply-add), so
/// each lane is the scalar step to the bit on every backend; lanes whose
/// value is zero keep their state (the scalar step skips them). Dense rows
/// skip blocks of eight zeros (an image's background) whole; sparse rows
/// scatter the lanes back one by one (AVX2 has no scatter).
///
/// # Safety
/// As [`axpy`], with `st.w` and `st.g2` writable and `st.s` (when given)
/// readable at every index of the row.
#[inline(always)]
pub(crate) unsafe fn adagrad<S: Simd, L: Layout, V: Values>(l: L, v: V, n: usize, st: AdagradStep) {
    let AdagradStep { c, g, w, g2, s } = st;
    // SAFETY: every `k` used below satisfies `k + 8 <= n` (vector steps) or
    // `k < n` (scalar tail), so every index is in bounds of `w`, `g2` and
    // `s`.
    unsafe {
        let scale = S::splat(v.scale());
        let mut k = 0;
        while k + 8 <= n {
            if L::CONTIGUOUS && zero8(v, k) {
                k += 8;
                continue;
            }
            let raw = raw8::<S, V>(v, k);
            // Decoded as `Values::decode` does: bytes times the scale.
            let x = if V::KIND == ValueKind::U8 { raw.mul(scale) } else { raw };
            let (gx, cx) = (x.mul_f64(g), x.mul_f64(c));
            let (g_old, w_old) = (l.load_w::<S>(g2, k), l.load_w::<S>(w, k));
            let g_new = g_old.add(gx.mul(gx));
            let root = g_new.sqrt();
            let d = match s {
                Some(s) => root.mul(l.load_w::<S>(s, k)),
                None => root,
            };
            let w_new = w_old.add(cx.div(d));
            let (g_new, w_new) = if V::KIND == ValueKind::Ones {
                (g_new, w_new)
            } else {
                (S::where_nonzero(x, g_new, g_old), S::where_nonzero(x, w_new, w_old))
            };
            if L::CONTIGUOUS {
                g_new.store(g2.add(k));
                w_new.store(w.add(k));
            } else {
                let (a, b) = (g_new.to_array(), w_new.to_array());
                for j in 0..8 {
                    let i = l.w_index(k + j);
                    *g2.add(i) = a[j];
                    *w.add(i) = b[j];
                }
            }
            k += 8;
        }
        while k < n {
            let i = l.w_index(k);
            let x = raw1(v, k) * v.scale();
            let si = s.map_or(1.0, |s| *s.add(i));
            (*g2.add(i), *w.add(i)) = crate::scalar::adagrad_step(*g2.add(i), *w.add(i), si, x, c, g);
            k += 1;
        }
    }
}
