//! Dot products of byte rows with byte rows, exact in 32-bit integers: every
//! pair of a block of rows `a` with a block `b` (the kernel Perceptrons'
//! kernel values, when both the support rows and the examples are stored as
//! bytes, as MNIST's pixels are).
//!
//! One generic kernel, [`dots_tiled`], over [`Lanes`]: two rows of `a`
//! against four of `b` at a time, so each load serves several products,
//! the row's last bytes by one partial load. Its implementations, chosen at
//! run time ([`ByteIsa`]):
//! - the `wide` crate at the build's level, and AVX2: bytes widened to
//!   sixteen 16-bit lanes, multiplied pairwise into eight 32-bit sums
//!   (`pmaddwd`);
//! - AVX-512 VNNI: 64 bytes at a time, four products into each of sixteen
//!   32-bit sums (`vpdpbusd`, which multiplies unsigned by signed bytes:
//!   `a`'s bytes enter as `a − 128`, and `128 · Σ b` is added back).
//!
//! Integer sums do not depend on their order: every implementation returns
//! the scalar oracle's values ([`crate::scalar::dots_u8`]).

use crate::backend::Backend;

/// The largest dimension whose dot products of bytes cannot overflow an
/// `i32` (`255² · d ≤ 2^31 − 1`).
pub const MAX_DIM: usize = i32::MAX as usize / (255 * 255);

/// An instruction set the byte kernel runs on; holding one means the CPU
/// has it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ByteIsa(IsaKind);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum IsaKind {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2,
    #[cfg(target_arch = "x86_64")]
    Avx512Vnni,
}

impl ByteIsa {
    /// Every one this CPU runs, portable first.
    pub fn available() -> Vec<ByteIsa> {
        #[allow(unused_mut)]
        let mut v = vec![ByteIsa(IsaKind::Portable)];
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") {
                v.push(ByteIsa(IsaKind::Avx2));
            }
            if std::is_x86_feature_detected!("avx512bw") && std::is_x86_feature_detected!("avx512vnni") {
                v.push(ByteIsa(IsaKind::Avx512Vnni));
            }
        }
        v
    }

    /// The fastest: the portable one when [`Backend::best`] is (as
    /// `ROSENBLATT_SIMD=portable` makes it), else the widest available.
    pub fn best() -> ByteIsa {
        static BEST: std::sync::OnceLock<ByteIsa> = std::sync::OnceLock::new();
        *BEST.get_or_init(|| {
            if Backend::best() == Backend::portable() {
                ByteIsa(IsaKind::Portable)
            } else {
                *Self::available().last().expect("the portable one is always there")
            }
        })
    }

    /// `portable`, `avx2` or `avx512-vnni`.
    pub fn name(self) -> &'static str {
        match self.0 {
            IsaKind::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            IsaKind::Avx2 => "avx2",
            #[cfg(target_arch = "x86_64")]
            IsaKind::Avx512Vnni => "avx512-vnni",
        }
    }
}

/// `out[i·n + j] = Σ_k a[i·d + k] · b[j·d + k]` for the `m = a.len() / d`
/// rows of `a` and `n = b.len() / d` rows of `b`, on the fastest
/// instruction set.
///
/// Panics unless both slices hold whole rows of `d` bytes, `out` holds
/// `m · n` values and `d ≤` [`MAX_DIM`].
pub fn dots_u8(a: &[u8], b: &[u8], d: usize, out: &mut [i32]) {
    dots_u8_on(ByteIsa::best(), a, b, d, out)
}

/// [`dots_u8`] on a given instruction set.
pub fn dots_u8_on(isa: ByteIsa, a: &[u8], b: &[u8], d: usize, out: &mut [i32]) {
    assert!(d <= MAX_DIM, "dots_u8: dimension {d} above {MAX_DIM} could overflow");
    if d == 0 {
        assert!(a.is_empty() && b.is_empty() && out.is_empty(), "dots_u8: shapes");
        return;
    }
    let (m, n) = (a.len() / d, b.len() / d);
    assert!(a.len() == m * d && b.len() == n * d && out.len() == m * n, "dots_u8: shapes");
    match isa.0 {
        // SAFETY: the portable lanes use the build's instruction set; the
        // shapes are checked above.
        IsaKind::Portable => unsafe { dots_tiled::<Portable>(a, b, d, out) },
        // SAFETY: the token exists only after run-time detection of AVX2;
        // the shapes are checked above.
        #[cfg(target_arch = "x86_64")]
        IsaKind::Avx2 => unsafe { x86::dots_avx2(a, b, d, out) },
        // SAFETY: likewise, for AVX-512 BW and VNNI.
        #[cfg(target_arch = "x86_64")]
        IsaKind::Avx512Vnni => unsafe { x86::dots_vnni(a, b, d, out) },
    }
}

/// `WIDTH` bytes of a row at a time, multiplied with another row's into an
/// accumulator of 32-bit sums.
///
/// # Safety
///
/// Implementations are only used on CPUs with the instructions they emit.
pub(crate) unsafe trait Lanes: Copy {
    /// Bytes per load.
    const WIDTH: usize;
    /// What each product of `a`'s and `b`'s bytes misses: the sum is
    /// `sum(acc) + OFFSET · Σ b`.
    const OFFSET: i32;
    /// The 32-bit sums.
    type Acc: Copy;
    /// All zero.
    ///
    /// # Safety
    /// The CPU supports the implementation's instruction set.
    unsafe fn zero() -> Self::Acc;
    /// `WIDTH` bytes at `p` (`n < WIDTH` of them with `n`, the rest zero),
    /// as an operand on `a`'s side or `b`'s.
    ///
    /// # Safety
    /// `p..p + n` (or `p..p + WIDTH`) is readable; the CPU supports the
    /// instruction set.
    unsafe fn load(p: *const u8, n: Option<usize>, side_a: bool) -> Self;
    /// `acc` plus the products of `a`'s and `b`'s lanes.
    ///
    /// # Safety
    /// The CPU supports the instruction set.
    unsafe fn madd(acc: Self::Acc, a: Self, b: Self) -> Self::Acc;
    /// The sum of the accumulator's lanes.
    ///
    /// # Safety
    /// The CPU supports the instruction set.
    unsafe fn sum(acc: Self::Acc) -> i32;
}

/// `n` bytes at `p`, then zeros, as `W` bytes.
///
/// # Safety
/// `p..p + n` is readable, `n ≤ W`.
#[inline(always)]
unsafe fn partial<const W: usize>(p: *const u8, n: usize) -> [u8; W] {
    let mut buf = [0u8; W];
    // SAFETY: `n ≤ W` bytes are readable at `p` (the caller) and writable
    // in `buf`.
    unsafe { core::ptr::copy_nonoverlapping(p, buf.as_mut_ptr(), n) };
    buf
}

/// `wide` at the build's level: sixteen 16-bit lanes.
#[derive(Clone, Copy)]
pub(crate) struct Portable(wide::i16x16);

// SAFETY: `wide` uses only the instructions the build targets.
unsafe impl Lanes for Portable {
    const WIDTH: usize = 16;
    const OFFSET: i32 = 0;
    type Acc = wide::i32x8;
    #[inline(always)]
    unsafe fn zero() -> wide::i32x8 {
        wide::i32x8::ZERO
    }
    #[inline(always)]
    unsafe fn load(p: *const u8, n: Option<usize>, _: bool) -> Self {
        // SAFETY: the caller guarantees the readable bytes.
        let bytes: [u8; 16] = unsafe {
            match n {
                None => p.cast::<[u8; 16]>().read_unaligned(),
                Some(n) => partial::<16>(p, n),
            }
        };
        Portable(wide::i16x16::from(wide::u8x16::from(bytes)))
    }
    #[inline(always)]
    unsafe fn madd(acc: wide::i32x8, a: Self, b: Self) -> wide::i32x8 {
        acc + a.0.dot(b.0)
    }
    #[inline(always)]
    unsafe fn sum(acc: wide::i32x8) -> i32 {
        acc.reduce_add()
    }
}

/// One load's worth of rows `R` of `a` (at `a`) against rows `C` of `b`
/// (at `b`), `d` bytes apart, at byte `k` (`n` of them when partial).
///
/// # Safety
/// The bytes read lie inside the rows; the CPU supports `L`.
#[inline(always)]
unsafe fn step<L: Lanes, const R: usize, const C: usize>(
    acc: &mut [[L::Acc; C]; R],
    a: *const u8,
    b: *const u8,
    d: usize,
    k: usize,
    n: Option<usize>,
) {
    // SAFETY: forwarded from the caller.
    unsafe {
        let mut bv = [L::load(b.add(k), n, false); C];
        for (c, v) in bv.iter_mut().enumerate().skip(1) {
            *v = L::load(b.add(c * d + k), n, false);
        }
        for (r, row) in acc.iter_mut().enumerate() {
            let av = L::load(a.add(r * d + k), n, true);
            for (s, &v) in row.iter_mut().zip(&bv) {
                *s = L::madd(*s, av, v);
            }
        }
    }
}

/// Rows `R` of `a` (at `a`) against rows `C` of `b` (at `b`), `d` bytes
/// each. (No closures in here: a closure is compiled without its caller's
/// target features, and its intrinsics would not inline.)
///
/// # Safety
/// The rows exist; the CPU supports `L`.
#[inline(always)]
unsafe fn tile<L: Lanes, const R: usize, const C: usize>(a: *const u8, b: *const u8, d: usize) -> [[i32; C]; R] {
    let full = d / L::WIDTH * L::WIDTH;
    // SAFETY: the CPU supports `L`, and every step reads `WIDTH` bytes at
    // `k < full`, or the `d − full` left, inside the rows (the caller).
    unsafe {
        let mut acc = [[L::zero(); C]; R];
        let mut k = 0;
        while k < full {
            step::<L, R, C>(&mut acc, a, b, d, k, None);
            k += L::WIDTH;
        }
        if full < d {
            step::<L, R, C>(&mut acc, a, b, d, full, Some(d - full));
        }
        let mut out = [[0; C]; R];
        for (o, s) in out.iter_mut().zip(&acc) {
            for (o, &s) in o.iter_mut().zip(s) {
                *o = L::sum(s);
            }
        }
        out
    }
}

/// The kernel, written once: 2 × 4 tiles, the leftover rows one pair at a
/// time.
///
/// # Safety
/// `a` and `b` hold whole rows of `d > 0` bytes, `out` their `m · n`
/// products, `d ≤ MAX_DIM`; the CPU supports `L`.
#[inline(always)]
pub(crate) unsafe fn dots_tiled<L: Lanes>(a: &[u8], b: &[u8], d: usize, out: &mut [i32]) {
    let (m, n) = (a.len() / d, b.len() / d);
    // `OFFSET · Σ b_j` (no overflow: 128 · 255 · d < 2^31 for d ≤ MAX_DIM).
    let fix: Vec<i32> = if L::OFFSET == 0 {
        vec![0; n]
    } else {
        b.chunks(d).map(|r| L::OFFSET * r.iter().map(|&v| i32::from(v)).sum::<i32>()).collect()
    };
    let (pa, pb) = (a.as_ptr(), b.as_ptr());
    let mut i = 0;
    while i < m {
        let rows = if i + 2 <= m { 2 } else { 1 };
        let mut j = 0;
        while j < n {
            // SAFETY: rows i..i+rows of a and j..j+4 (or j) of b exist.
            unsafe {
                if rows == 2 && j + 4 <= n {
                    let t = tile::<L, 2, 4>(pa.add(i * d), pb.add(j * d), d);
                    for (r, t) in t.iter().enumerate() {
                        for (c, &v) in t.iter().enumerate() {
                            out[(i + r) * n + j + c] = v + fix[j + c];
                        }
                    }
                    j += 4;
                } else {
                    for r in 0..rows {
                        let t = tile::<L, 1, 1>(pa.add((i + r) * d), pb.add(j * d), d);
                        out[(i + r) * n + j] = t[0][0] + fix[j];
                    }
                    j += 1;
                }
            }
        }
        i += rows;
    }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The kernel on AVX2, and on AVX-512 VNNI.

    use super::{Lanes, partial};
    use core::arch::x86_64::*;

    #[derive(Clone, Copy)]
    pub(crate) struct Avx2(__m256i);

    // SAFETY: used only inside `dots_avx2`, compiled for AVX2 and called
    // after run-time detection.
    unsafe impl Lanes for Avx2 {
        const WIDTH: usize = 16;
        const OFFSET: i32 = 0;
        type Acc = __m256i;
        #[inline(always)]
        unsafe fn zero() -> __m256i {
            // SAFETY: AVX2 is available (the trait's contract).
            unsafe { _mm256_setzero_si256() }
        }
        #[inline(always)]
        unsafe fn load(p: *const u8, n: Option<usize>, _: bool) -> Self {
            // SAFETY: the readable bytes and AVX2, by the caller.
            unsafe {
                let v = match n {
                    None => _mm_loadu_si128(p.cast()),
                    Some(n) => _mm_loadu_si128(partial::<16>(p, n).as_ptr().cast()),
                };
                Avx2(_mm256_cvtepu8_epi16(v))
            }
        }
        #[inline(always)]
        unsafe fn madd(acc: __m256i, a: Self, b: Self) -> __m256i {
            // SAFETY: AVX2 is available.
            unsafe { _mm256_add_epi32(acc, _mm256_madd_epi16(a.0, b.0)) }
        }
        #[inline(always)]
        unsafe fn sum(acc: __m256i) -> i32 {
            // SAFETY: AVX2 is available.
            unsafe {
                let s = _mm_add_epi32(_mm256_castsi256_si128(acc), _mm256_extracti128_si256(acc, 1));
                let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b01_00_11_10));
                let s = _mm_add_epi32(s, _mm_shuffle_epi32(s, 0b10_11_00_01));
                _mm_cvtsi128_si32(s)
            }
        }
    }

    #[derive(Clone, Copy)]
    pub(crate) struct Vnni(__m512i);

    // SAFETY: used only inside `dots_vnni`, compiled for AVX-512 BW and
    // VNNI and called after run-time detection.
    unsafe impl Lanes for Vnni {
        const WIDTH: usize = 64;
        // `a`'s bytes enter as signed `a − 128`.
        const OFFSET: i32 = 128;
        type Acc = __m512i;
        #[inline(always)]
        unsafe fn zero() -> __m512i {
            // SAFETY: AVX-512F is available.
            unsafe { _mm512_setzero_si512() }
        }
        #[inline(always)]
        unsafe fn load(p: *const u8, n: Option<usize>, side_a: bool) -> Self {
            // SAFETY: the readable bytes (a masked load touches only the
            // `n` selected) and AVX-512 BW, by the caller.
            unsafe {
                let v = match n {
                    None => _mm512_loadu_si512(p.cast()),
                    Some(n) => _mm512_maskz_loadu_epi8((1u64 << n) - 1, p.cast()),
                };
                // Flipping the top bit turns `a` into the signed `a − 128`;
                // past a partial load's end `b` is zero, so those lanes add
                // nothing.
                Vnni(if side_a { _mm512_xor_si512(v, _mm512_set1_epi8(-128)) } else { v })
            }
        }
        #[inline(always)]
        unsafe fn madd(acc: __m512i, a: Self, b: Self) -> __m512i {
            // SAFETY: AVX-512 VNNI is available. Unsigned `b` times signed
            // `a − 128`, four products into each 32-bit lane.
            unsafe { _mm512_dpbusd_epi32(acc, b.0, a.0) }
        }
        #[inline(always)]
        unsafe fn sum(acc: __m512i) -> i32 {
            // SAFETY: AVX-512F is available.
            unsafe { _mm512_reduce_add_epi32(acc) }
        }
    }

    /// # Safety
    /// As [`super::dots_tiled`]; the CPU has AVX2.
    #[target_feature(enable = "avx2")]
    pub(crate) unsafe fn dots_avx2(a: &[u8], b: &[u8], d: usize, out: &mut [i32]) {
        // SAFETY: forwarded; AVX2 is enabled for this function.
        unsafe { super::dots_tiled::<Avx2>(a, b, d, out) }
    }

    /// # Safety
    /// As [`super::dots_tiled`]; the CPU has AVX-512 BW and VNNI.
    #[target_feature(enable = "avx512f,avx512bw,avx512vnni")]
    pub(crate) unsafe fn dots_vnni(a: &[u8], b: &[u8], d: usize, out: &mut [i32]) {
        // SAFETY: forwarded; AVX-512 BW and VNNI are enabled for this
        // function.
        unsafe { super::dots_tiled::<Vnni>(a, b, d, out) }
    }
}
