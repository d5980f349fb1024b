//! The eight-lane f32 vector the kernels are written against, and its
//! implementations: [`Portable`] (the `wide` crate, at the build's
//! instruction-set level) and, on x86-64, [`Avx2Fma`] (`std::arch`, chosen at
//! run time).
//!
//! Every kernel in [`crate::kernel`] is written once, generic over [`Simd`];
//! the per-ISA wrappers in [`crate::backend`] only instantiate it inside a
//! function compiled for that ISA.

/// Eight f32 lanes.
///
/// All methods are `unsafe` because an implementation may use instructions
/// the CPU lacks; the pointer-taking ones also read or write eight elements.
///
/// # Safety
///
/// Implementors must only be used (by the kernels) on CPUs that support the
/// instructions they emit; [`crate::Backend`] is the token that proves it.
pub(crate) unsafe trait Simd: Copy {
    /// All lanes zero.
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn zero() -> Self;
    /// All lanes `x`.
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn splat(x: f32) -> Self;
    /// Loads eight f32 from `p` (no alignment needed).
    ///
    /// # Safety
    /// `p..p+8` is readable; the CPU supports the instruction set.
    unsafe fn load(p: *const f32) -> Self;
    /// Stores the lanes to `p..p+8` (no alignment needed).
    ///
    /// # Safety
    /// `p..p+8` is writable; the CPU supports the instruction set.
    unsafe fn store(self, p: *mut f32);
    /// Loads eight bytes from `p` and converts each to f32 (0.0..=255.0).
    ///
    /// # Safety
    /// `p..p+8` is readable; the CPU supports the instruction set.
    unsafe fn load_u8(p: *const u8) -> Self;
    /// `[base[idx[0]], …, base[idx[7]]]`.
    ///
    /// # Safety
    /// `idx..idx+8` is readable, each `base + idx[j]` is readable, every
    /// `idx[j] < 2^31`; the CPU supports the instruction set.
    unsafe fn gather_u32(base: *const f32, idx: *const u32) -> Self;
    /// As [`Simd::gather_u32`] with 16-bit indices.
    ///
    /// # Safety
    /// As [`Simd::gather_u32`].
    unsafe fn gather_u16(base: *const f32, idx: *const u16) -> Self;
    /// `[base[idx[0] << shift], …, base[idx[7] << shift]]`: the first
    /// (or, from `base + f`, float `f`) of each indexed cell of
    /// `1 << shift` floats.
    ///
    /// # Safety
    /// As [`Simd::gather_u32`], for each `base + (idx[j] << shift)`, and
    /// every `idx[j] << shift < 2^31`.
    unsafe fn gather_u32_cells(base: *const f32, idx: *const u32, shift: u32) -> Self;
    /// As [`Simd::gather_u32_cells`] with 16-bit indices.
    ///
    /// # Safety
    /// As [`Simd::gather_u32_cells`].
    unsafe fn gather_u16_cells(base: *const f32, idx: *const u16, shift: u32) -> Self;
    /// `[base[at[0]], …, base[at[7]]]`.
    ///
    /// # Safety
    /// Every `base + at[j]` is readable; the CPU supports the instruction set.
    unsafe fn gather_at(base: *const f32, at: [usize; 8]) -> Self;
    /// Lane-wise `self + o`.
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn add(self, o: Self) -> Self;
    /// Lane-wise `self * m + a` (fused where the instruction set has it).
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn mul_add(self, m: Self, a: Self) -> Self;
    /// Lane-wise `self * o`, rounded once (never fused).
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn mul(self, o: Self) -> Self;
    /// Lane-wise `self / o` (IEEE).
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn div(self, o: Self) -> Self;
    /// Lane-wise square root (IEEE).
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn sqrt(self) -> Self;
    /// Lane-wise `(k · f64::from(self)) as f32`: the product in f64,
    /// rounded once to f32.
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn mul_f64(self, k: f64) -> Self;
    /// `new` in the lanes where `x` is not zero (nor −0.0), `old` in the
    /// others.
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn where_nonzero(x: Self, new: Self, old: Self) -> Self;
    /// The lanes, in order.
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn to_array(self) -> [f32; 8];
    /// Sum of the lanes, in a fixed order.
    ///
    /// # Safety
    /// The CPU supports this implementation's instruction set.
    unsafe fn reduce_add(self) -> f32;
}

/// Eight `u32` indices at `p`, read as four 64-bit words.
///
/// A gather is bound by load ports (an index load and a weight load per
/// lane); halving the index loads measured 16% faster on Zen 3 (SPEED.md#sparse-dot-gathers).
///
/// # Safety
/// `p..p+8` is readable.
#[inline(always)]
pub(crate) unsafe fn split_u32(p: *const u32) -> [usize; 8] {
    // SAFETY: the caller guarantees 32 readable bytes at `p`.
    let q = unsafe { p.cast::<[u64; 4]>().read_unaligned() };
    let (lo, hi) = (|x: u64| x as u32 as usize, |x: u64| (x >> 32) as usize);
    // Little-endian: the first index of each pair is the low half.
    let q = q.map(u64::from_le);
    [lo(q[0]), hi(q[0]), lo(q[1]), hi(q[1]), lo(q[2]), hi(q[2]), lo(q[3]), hi(q[3])]
}

/// Eight `u16` indices at `p`, read as two 64-bit words.
///
/// # Safety
/// `p..p+8` is readable.
#[inline(always)]
pub(crate) unsafe fn split_u16(p: *const u16) -> [usize; 8] {
    // SAFETY: the caller guarantees 16 readable bytes at `p`.
    let q = unsafe { p.cast::<[u64; 2]>().read_unaligned() }.map(u64::from_le);
    let at = |x: u64, s: u32| ((x >> s) & 0xffff) as usize;
    [at(q[0], 0), at(q[0], 16), at(q[0], 32), at(q[0], 48), at(q[1], 0), at(q[1], 16), at(q[1], 32), at(q[1], 48)]
}

/// `wide::f32x8`: SSE2 on baseline x86-64 (two four-lane halves), AVX (+FMA)
/// when the build enables them, NEON on aarch64, scalar elsewhere.
#[derive(Clone, Copy)]
pub(crate) struct Portable(wide::f32x8);

// SAFETY: `wide` only emits instructions enabled at compile time, which every
// CPU the binary runs on has.
unsafe impl Simd for Portable {
    #[inline(always)]
    unsafe fn zero() -> Self {
        Portable(wide::f32x8::ZERO)
    }
    #[inline(always)]
    unsafe fn splat(x: f32) -> Self {
        Portable(wide::f32x8::splat(x))
    }
    #[inline(always)]
    unsafe fn load(p: *const f32) -> Self {
        // SAFETY: the caller guarantees eight readable f32 at `p`.
        Portable(wide::f32x8::new(unsafe { p.cast::<[f32; 8]>().read_unaligned() }))
    }
    #[inline(always)]
    unsafe fn store(self, p: *mut f32) {
        // SAFETY: the caller guarantees eight writable f32 at `p`.
        unsafe { p.cast::<[f32; 8]>().write_unaligned(self.0.to_array()) }
    }
    #[inline(always)]
    unsafe fn load_u8(p: *const u8) -> Self {
        // SAFETY: the caller guarantees eight readable bytes at `p`.
        let b = unsafe { p.cast::<[u8; 8]>().read_unaligned() };
        Portable(wide::f32x8::new(b.map(f32::from)))
    }
    #[inline(always)]
    unsafe fn gather_u32(base: *const f32, idx: *const u32) -> Self {
        // SAFETY: the caller guarantees eight readable indices, each in bounds of `base`.
        let i = unsafe { split_u32(idx) };
        // SAFETY: as above.
        Portable(wide::f32x8::new(i.map(|j| unsafe { *base.add(j) })))
    }
    #[inline(always)]
    unsafe fn gather_u16(base: *const f32, idx: *const u16) -> Self {
        // SAFETY: the caller guarantees eight readable indices, each in bounds of `base`.
        let i = unsafe { split_u16(idx) };
        // SAFETY: as above.
        Portable(wide::f32x8::new(i.map(|j| unsafe { *base.add(j) })))
    }
    #[inline(always)]
    unsafe fn gather_u32_cells(base: *const f32, idx: *const u32, shift: u32) -> Self {
        // SAFETY: the caller guarantees eight readable indices, each cell in bounds of `base`.
        unsafe { Self::gather_at(base, split_u32(idx).map(|j| j << shift)) }
    }
    #[inline(always)]
    unsafe fn gather_u16_cells(base: *const f32, idx: *const u16, shift: u32) -> Self {
        // SAFETY: as in `gather_u32_cells`.
        unsafe { Self::gather_at(base, split_u16(idx).map(|j| j << shift)) }
    }
    #[inline(always)]
    unsafe fn gather_at(base: *const f32, at: [usize; 8]) -> Self {
        // SAFETY: the caller guarantees every `base + at[j]` is readable.
        Portable(wide::f32x8::new(at.map(|j| unsafe { *base.add(j) })))
    }
    #[inline(always)]
    unsafe fn add(self, o: Self) -> Self {
        Portable(self.0 + o.0)
    }
    #[inline(always)]
    unsafe fn mul_add(self, m: Self, a: Self) -> Self {
        Portable(self.0.mul_add(m.0, a.0))
    }
    #[inline(always)]
    unsafe fn mul(self, o: Self) -> Self {
        Portable(self.0 * o.0)
    }
    #[inline(always)]
    unsafe fn div(self, o: Self) -> Self {
        Portable(self.0 / o.0)
    }
    #[inline(always)]
    unsafe fn sqrt(self) -> Self {
        Portable(self.0.sqrt())
    }
    #[inline(always)]
    unsafe fn mul_f64(self, k: f64) -> Self {
        Portable(wide::f32x8::new(self.0.to_array().map(|x| (k * f64::from(x)) as f32)))
    }
    #[inline(always)]
    unsafe fn where_nonzero(x: Self, new: Self, old: Self) -> Self {
        Portable(x.0.simd_ne(wide::f32x8::ZERO).bitselect(new.0, old.0))
    }
    #[inline(always)]
    unsafe fn to_array(self) -> [f32; 8] {
        self.0.to_array()
    }
    #[inline(always)]
    unsafe fn reduce_add(self) -> f32 {
        self.0.reduce_add()
    }
}

#[cfg(target_arch = "x86_64")]
pub(crate) use x86::Avx2Fma;

#[cfg(target_arch = "x86_64")]
mod x86 {
    use super::Simd;
    use core::arch::x86_64::*;

    /// `__m256` with AVX2 and FMA, for CPUs detected at run time. With
    /// `HW`, gathers are `vgatherdps`; without, eight scalar loads. Which
    /// is faster depends on the core (SPEED.md#sparse-dot-gathers): on a Zen 3 the scalar
    /// loads measured 1.7× the hardware gather, on an Intel Xeon the
    /// hardware gather made Perceptron passes 2-10% faster. The arithmetic
    /// is the same either way, so the results are bit for bit the same.
    #[derive(Clone, Copy)]
    pub(crate) struct Avx2Fma<const HW: bool>(__m256);

    impl<const HW: bool> Avx2Fma<HW> {
        /// Eight scalar loads inserted into one vector: the loads fold into
        /// `vinsertps`, and three load ports serve them.
        ///
        /// # Safety
        /// Every `base + i[j]` is readable; the CPU has AVX.
        #[inline(always)]
        unsafe fn gather_scalar(base: *const f32, i: [usize; 8]) -> Self {
            // SAFETY: the caller guarantees every lane's address is readable.
            unsafe {
                let l = |j: usize| *base.add(i[j]);
                Avx2Fma(_mm256_setr_ps(l(0), l(1), l(2), l(3), l(4), l(5), l(6), l(7)))
            }
        }

        /// `vgatherdps` of the eight 32-bit offsets `i` (each below 2^31).
        ///
        /// # Safety
        /// Every `base + i[j]` is readable; the CPU has AVX2.
        #[inline(always)]
        unsafe fn gather_hw(base: *const f32, i: __m256i) -> Self {
            // SAFETY: the caller guarantees every lane's address is readable
            // and AVX2.
            Avx2Fma(unsafe { _mm256_i32gather_ps::<4>(base, i) })
        }

        /// `vgatherdps` of the first float of the cells of `1 << shift`
        /// floats at the eight indices `i` (each `i[j] << shift < 2^31`).
        ///
        /// # Safety
        /// Every cell is readable; the CPU has AVX2.
        #[inline(always)]
        unsafe fn gather_cells_hw(base: *const f32, i: __m256i, shift: u32) -> Self {
            // SAFETY: the caller guarantees every lane's address is readable
            // and AVX2.
            unsafe { Self::gather_hw(base, _mm256_sll_epi32(i, _mm_cvtsi32_si128(shift as i32))) }
        }
    }

    // SAFETY: every method is only reached through an AVX2+FMA `Backend`,
    // which exists only after run-time detection found AVX2 and FMA.
    unsafe impl<const HW: bool> Simd for Avx2Fma<HW> {
        #[inline(always)]
        unsafe fn zero() -> Self {
            // SAFETY: AVX is available (caller's contract).
            Avx2Fma(unsafe { _mm256_setzero_ps() })
        }
        #[inline(always)]
        unsafe fn splat(x: f32) -> Self {
            // SAFETY: AVX is available (caller's contract).
            Avx2Fma(unsafe { _mm256_set1_ps(x) })
        }
        #[inline(always)]
        unsafe fn load(p: *const f32) -> Self {
            // SAFETY: eight readable f32 at `p`, AVX available (caller's contract).
            Avx2Fma(unsafe { _mm256_loadu_ps(p) })
        }
        #[inline(always)]
        unsafe fn store(self, p: *mut f32) {
            // SAFETY: eight writable f32 at `p`, AVX available (caller's contract).
            unsafe { _mm256_storeu_ps(p, self.0) }
        }
        #[inline(always)]
        unsafe fn load_u8(p: *const u8) -> Self {
            // SAFETY: eight readable bytes at `p` (a 64-bit load), AVX2 available.
            unsafe {
                let b = _mm_loadl_epi64(p.cast::<__m128i>());
                Avx2Fma(_mm256_cvtepi32_ps(_mm256_cvtepu8_epi32(b)))
            }
        }
        #[inline(always)]
        unsafe fn gather_u32(base: *const f32, idx: *const u32) -> Self {
            if HW {
                // SAFETY: eight readable indices, each below 2^31 and in
                // bounds of `base`; AVX2 available (caller's contract).
                return unsafe { Self::gather_hw(base, _mm256_loadu_si256(idx.cast())) };
            }
            // SAFETY: eight readable indices, each in bounds of `base`.
            unsafe { Self::gather_scalar(base, super::split_u32(idx)) }
        }
        #[inline(always)]
        unsafe fn gather_u16(base: *const f32, idx: *const u16) -> Self {
            if HW {
                // SAFETY: eight readable u16 indices (one 128-bit load), each
                // in bounds of `base`; AVX2 available (caller's contract).
                return unsafe { Self::gather_hw(base, _mm256_cvtepu16_epi32(_mm_loadu_si128(idx.cast()))) };
            }
            // SAFETY: eight readable indices, each in bounds of `base`.
            unsafe { Self::gather_scalar(base, super::split_u16(idx)) }
        }
        #[inline(always)]
        unsafe fn gather_u32_cells(base: *const f32, idx: *const u32, shift: u32) -> Self {
            if HW {
                // SAFETY: eight readable indices, each shifted below 2^31
                // with its cell in bounds of `base`; AVX2 available
                // (caller's contract).
                return unsafe { Self::gather_cells_hw(base, _mm256_loadu_si256(idx.cast()), shift) };
            }
            // SAFETY: eight readable indices, each cell in bounds of `base`.
            unsafe { Self::gather_scalar(base, super::split_u32(idx).map(|j| j << shift)) }
        }
        #[inline(always)]
        unsafe fn gather_u16_cells(base: *const f32, idx: *const u16, shift: u32) -> Self {
            if HW {
                // SAFETY: as in `gather_u32_cells`, the u16 indices widened.
                return unsafe {
                    Self::gather_cells_hw(base, _mm256_cvtepu16_epi32(_mm_loadu_si128(idx.cast())), shift)
                };
            }
            // SAFETY: eight readable indices, each cell in bounds of `base`.
            unsafe { Self::gather_scalar(base, super::split_u16(idx).map(|j| j << shift)) }
        }
        #[inline(always)]
        unsafe fn gather_at(base: *const f32, at: [usize; 8]) -> Self {
            // SAFETY: the caller guarantees every lane's address is readable.
            unsafe { Self::gather_scalar(base, at) }
        }
        #[inline(always)]
        unsafe fn add(self, o: Self) -> Self {
            // SAFETY: AVX available (caller's contract).
            Avx2Fma(unsafe { _mm256_add_ps(self.0, o.0) })
        }
        #[inline(always)]
        unsafe fn mul_add(self, m: Self, a: Self) -> Self {
            // SAFETY: FMA available (caller's contract).
            Avx2Fma(unsafe { _mm256_fmadd_ps(self.0, m.0, a.0) })
        }
        #[inline(always)]
        unsafe fn mul(self, o: Self) -> Self {
            // SAFETY: AVX available (caller's contract).
            Avx2Fma(unsafe { _mm256_mul_ps(self.0, o.0) })
        }
        #[inline(always)]
        unsafe fn div(self, o: Self) -> Self {
            // SAFETY: AVX available (caller's contract).
            Avx2Fma(unsafe { _mm256_div_ps(self.0, o.0) })
        }
        #[inline(always)]
        unsafe fn sqrt(self) -> Self {
            // SAFETY: AVX available (caller's contract).
            Avx2Fma(unsafe { _mm256_sqrt_ps(self.0) })
        }
        #[inline(always)]
        unsafe fn mul_f64(self, k: f64) -> Self {
            // SAFETY: AVX available (caller's contract). Each half widens to
            // four f64, multiplies, and rounds back (to nearest, as `as`).
            unsafe {
                let k = _mm256_set1_pd(k);
                let lo = _mm256_cvtps_pd(_mm256_castps256_ps128(self.0));
                let hi = _mm256_cvtps_pd(_mm256_extractf128_ps::<1>(self.0));
                Avx2Fma(_mm256_set_m128(_mm256_cvtpd_ps(_mm256_mul_pd(k, hi)), _mm256_cvtpd_ps(_mm256_mul_pd(k, lo))))
            }
        }
        #[inline(always)]
        unsafe fn where_nonzero(x: Self, new: Self, old: Self) -> Self {
            // SAFETY: AVX available (caller's contract). Unordered
            // not-equal: ±0 compare equal to zero.
            unsafe {
                let live = _mm256_cmp_ps::<_CMP_NEQ_UQ>(x.0, _mm256_setzero_ps());
                Avx2Fma(_mm256_blendv_ps(old.0, new.0, live))
            }
        }
        #[inline(always)]
        unsafe fn to_array(self) -> [f32; 8] {
            let mut a = [0.0f32; 8];
            // SAFETY: `a` has eight writable f32; AVX available.
            unsafe { _mm256_storeu_ps(a.as_mut_ptr(), self.0) };
            a
        }
        #[inline(always)]
        unsafe fn reduce_add(self) -> f32 {
            // SAFETY: AVX available (caller's contract). Same pairing as
            // `wide`'s AVX reduction: (lo + hi) halves, then pairs, then lanes.
            unsafe {
                let s = _mm_add_ps(_mm256_castps256_ps128(self.0), _mm256_extractf128_ps::<1>(self.0));
                let s = _mm_add_ps(s, _mm_movehl_ps(s, s));
                let s = _mm_add_ss(s, _mm_shuffle_ps::<0b01>(s, s));
                _mm_cvtss_f32(s)
            }
        }
    }
}
