//! Which instruction set runs the kernels, and the thin per-ISA wrappers.
//!
//! Policy: the portable kernels use `wide` at the build's level (baseline
//! x86-64 is SSE2; `-C target-cpu=native` gives AVX2+FMA). On x86-64 the same
//! kernels are also compiled inside `#[target_feature(enable = "avx2,fma")]`
//! wrappers and chosen at run time when the CPU has both, so a default build
//! runs AVX2 gathers and FMA where they exist and still runs everywhere else.
//! The AVX2 kernels come twice, gathering with scalar loads or with
//! `vgatherdps`: the second is chosen on Intel CPUs, where it measured
//! faster, the first elsewhere (on a Zen 3 it measured 1.7× the hardware
//! gather; SPEED.md#sparse-dot-gathers). `ROSENBLATT_SIMD=portable` in the environment forces
//! the portable kernels.

use crate::kernel::{self, AdagradStep, Layout};
use crate::simd::Portable;
use crate::values::Values;
use core::sync::atomic::{AtomicU8, Ordering};

/// A proof that an instruction set is available, naming the kernels to run.
///
/// Only [`Backend::portable`] can be made without a check; the others come
/// from run-time detection, so holding one means its instructions exist.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Backend(Kind);

#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
enum Kind {
    Portable,
    #[cfg(target_arch = "x86_64")]
    Avx2Fma,
    #[cfg(target_arch = "x86_64")]
    Avx2FmaGather,
}

const UNKNOWN: u8 = 0;
const PORTABLE: u8 = 1;
const AVX2FMA: u8 = 2;
const AVX2FMA_GATHER: u8 = 3;
static BEST: AtomicU8 = AtomicU8::new(UNKNOWN);

impl Backend {
    /// The `wide` kernels at the build's instruction-set level.
    pub const fn portable() -> Self {
        Backend(Kind::Portable)
    }

    /// The AVX2+FMA kernels gathering with scalar loads, if this CPU has
    /// both.
    pub fn avx2_fma() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        {
            if std::is_x86_feature_detected!("avx2") && std::is_x86_feature_detected!("fma") {
                return Some(Backend(Kind::Avx2Fma));
            }
        }
        None
    }

    /// The AVX2+FMA kernels gathering with `vgatherdps`, if this CPU has
    /// both.
    pub fn avx2_fma_gather() -> Option<Self> {
        #[cfg(target_arch = "x86_64")]
        if Self::avx2_fma().is_some() {
            return Some(Backend(Kind::Avx2FmaGather));
        }
        None
    }

    /// Every backend this CPU can run, portable first.
    pub fn available() -> Vec<Self> {
        let mut v = vec![Self::portable()];
        v.extend(Self::avx2_fma());
        v.extend(Self::avx2_fma_gather());
        v
    }

    /// The fastest available backend, detected once; `ROSENBLATT_SIMD=portable`
    /// forces the portable one.
    #[inline]
    pub fn best() -> Self {
        match BEST.load(Ordering::Relaxed) {
            PORTABLE => Self::portable(),
            #[cfg(target_arch = "x86_64")]
            AVX2FMA => Backend(Kind::Avx2Fma),
            #[cfg(target_arch = "x86_64")]
            AVX2FMA_GATHER => Backend(Kind::Avx2FmaGather),
            _ => Self::detect(),
        }
    }

    #[cold]
    fn detect() -> Self {
        let forced = std::env::var_os("ROSENBLATT_SIMD").is_some_and(|v| v == "portable");
        let avx2 = if intel() { Self::avx2_fma_gather() } else { Self::avx2_fma() };
        let b = if forced { Self::portable() } else { avx2.unwrap_or(Self::portable()) };
        BEST.store(
            match b.0 {
                Kind::Portable => PORTABLE,
                #[cfg(target_arch = "x86_64")]
                Kind::Avx2Fma => AVX2FMA,
                #[cfg(target_arch = "x86_64")]
                Kind::Avx2FmaGather => AVX2FMA_GATHER,
            },
            Ordering::Relaxed,
        );
        b
    }

    /// A short name: `avx2+fma`, or `portable` with the build level.
    pub fn name(self) -> &'static str {
        match self.0 {
            Kind::Portable => "portable",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2Fma => "avx2+fma",
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2FmaGather => "avx2+fma, hardware gathers",
        }
    }

    /// Whether this backend can gather with signed 32-bit offsets only, so
    /// `u32` indices must stay below 2^31.
    #[inline(always)]
    pub(crate) fn gathers_i32(self) -> bool {
        self.0 != Kind::Portable
    }
}

/// Whether the CPU's vendor string is Intel's: the AVX2 kernels gather
/// with `vgatherdps` there.
fn intel() -> bool {
    #[cfg(target_arch = "x86_64")]
    {
        let r = core::arch::x86_64::__cpuid(0);
        [r.ebx, r.edx, r.ecx].map(u32::to_le_bytes).as_flattened() == b"GenuineIntel"
    }
    #[cfg(not(target_arch = "x86_64"))]
    false
}

/// The instruction-set level `wide` was compiled for (the portable kernels).
pub const fn build_level() -> &'static str {
    if cfg!(all(target_arch = "x86_64", target_feature = "avx2", target_feature = "fma")) {
        "x86-64 with AVX2+FMA"
    } else if cfg!(all(target_arch = "x86_64", target_feature = "avx")) {
        "x86-64 with AVX"
    } else if cfg!(all(target_arch = "x86_64", target_feature = "sse4.1")) {
        "x86-64 with SSE4.1"
    } else if cfg!(target_arch = "x86_64") {
        "x86-64 baseline (SSE2)"
    } else if cfg!(all(target_arch = "aarch64", target_feature = "neon")) {
        "aarch64 NEON"
    } else {
        "scalar"
    }
}

/// One line for `--version`: the backend in use and the build level.
pub fn describe() -> String {
    let b = Backend::best();
    format!("simd: {}; portable kernels built for {}", b.name(), build_level())
}

macro_rules! dispatch {
    ($backend:expr, $kernel:ident, $avx:ident, <$($g:ident),*>, ($($arg:expr),*)) => {{
        match $backend.0 {
            // SAFETY (for the caller): the portable kernels only use
            // instructions of the build level.
            Kind::Portable => kernel::$kernel::<Portable, $($g),*>($($arg),*),
            // SAFETY (for the caller): a `Kind::Avx2Fma*` token exists
            // only after run-time detection of AVX2 and FMA.
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2Fma => x86::$avx::<false, $($g),*>($($arg),*),
            #[cfg(target_arch = "x86_64")]
            Kind::Avx2FmaGather => x86::$avx::<true, $($g),*>($($arg),*),
        }
    }};
}

/// # Safety
/// The row (`l`, `v`, `n`) has in-bounds weight indices for `w`, and `b`'s
/// index limit holds (see [`Backend::gathers_i32`]).
#[inline]
pub(crate) unsafe fn dot<L: Layout, V: Values>(b: Backend, l: L, v: V, n: usize, w: *const f32) -> f32 {
    // SAFETY: forwarded from the caller; the backend token proves the ISA.
    unsafe { dispatch!(b, dot, dot, <L, V>, (l, v, n, w)) }
}

/// # Safety
/// As [`dot`], for each of the eight vectors.
#[inline]
pub(crate) unsafe fn dot8<L: Layout, V: Values>(b: Backend, l: L, v: V, n: usize, ws: &[*const f32; 8]) -> [f32; 8] {
    // SAFETY: forwarded from the caller; the backend token proves the ISA.
    unsafe { dispatch!(b, dot8, dot8, <L, V>, (l, v, n, ws)) }
}

/// # Safety
/// As [`dot`], with `t` covering `dim × 8` floats.
#[inline]
pub(crate) unsafe fn dot_t8<L: Layout, V: Values>(b: Backend, l: L, v: V, n: usize, t: *const f32) -> [f32; 8] {
    // SAFETY: forwarded from the caller; the backend token proves the ISA.
    unsafe { dispatch!(b, dot_t8, dot_t8, <L, V>, (l, v, n, t)) }
}

/// # Safety
/// As [`dot`], with `w` writable.
#[inline]
pub(crate) unsafe fn axpy<L: Layout, V: Values>(b: Backend, l: L, v: V, n: usize, alpha: f32, w: *mut f32) {
    // SAFETY: forwarded from the caller; the backend token proves the ISA.
    unsafe { dispatch!(b, axpy, axpy, <L, V>, (l, v, n, alpha, w)) }
}

/// # Safety
/// As [`axpy`], for both `w` and `u`.
#[inline]
#[allow(clippy::too_many_arguments)]
pub(crate) unsafe fn axpy2<L: Layout, V: Values>(
    b: Backend,
    l: L,
    v: V,
    n: usize,
    a: f32,
    w: *mut f32,
    c: f32,
    u: *mut f32,
) {
    // SAFETY: forwarded from the caller; the backend token proves the ISA.
    unsafe { dispatch!(b, axpy2, axpy2, <L, V>, (l, v, n, a, w, c, u)) }
}

/// # Safety
/// As `kernel::adagrad`.
#[inline]
pub(crate) unsafe fn adagrad<L: Layout, V: Values>(b: Backend, l: L, v: V, n: usize, st: AdagradStep) {
    // SAFETY: forwarded from the caller; the backend token proves the ISA.
    unsafe { dispatch!(b, adagrad, adagrad, <L, V>, (l, v, n, st)) }
}

/// # Safety
/// The row has `n` stored values.
#[inline]
pub(crate) unsafe fn norm_sq<V: Values>(b: Backend, v: V, n: usize) -> f32 {
    // SAFETY: forwarded from the caller; the backend token proves the ISA.
    unsafe { dispatch!(b, norm_sq, norm_sq, <V>, (v, n)) }
}

#[cfg(target_arch = "x86_64")]
mod x86 {
    //! The generic kernels instantiated for AVX2+FMA, gathering by scalar
    //! loads (`HW = false`) or `vgatherdps` (`HW = true`).
    use crate::kernel::{self, AdagradStep, Layout};
    use crate::simd::Avx2Fma;
    use crate::values::Values;

    /// # Safety
    /// As `kernel::dot`, and the CPU has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn dot<const HW: bool, L: Layout, V: Values>(l: L, v: V, n: usize, w: *const f32) -> f32 {
        // SAFETY: forwarded from the caller.
        unsafe { kernel::dot::<Avx2Fma<HW>, L, V>(l, v, n, w) }
    }

    /// # Safety
    /// As `kernel::dot8`, and the CPU has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn dot8<const HW: bool, L: Layout, V: Values>(
        l: L,
        v: V,
        n: usize,
        ws: &[*const f32; 8],
    ) -> [f32; 8] {
        // SAFETY: forwarded from the caller.
        unsafe { kernel::dot8::<Avx2Fma<HW>, L, V>(l, v, n, ws) }
    }

    /// # Safety
    /// As `kernel::dot_t8`, and the CPU has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn dot_t8<const HW: bool, L: Layout, V: Values>(l: L, v: V, n: usize, t: *const f32) -> [f32; 8] {
        // SAFETY: forwarded from the caller.
        unsafe { kernel::dot_t8::<Avx2Fma<HW>, L, V>(l, v, n, t) }
    }

    /// # Safety
    /// As `kernel::axpy`, and the CPU has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn axpy<const HW: bool, L: Layout, V: Values>(l: L, v: V, n: usize, alpha: f32, w: *mut f32) {
        // SAFETY: forwarded from the caller.
        unsafe { kernel::axpy::<Avx2Fma<HW>, L, V>(l, v, n, alpha, w) }
    }

    /// # Safety
    /// As `kernel::axpy2`, and the CPU has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn axpy2<const HW: bool, L: Layout, V: Values>(
        l: L,
        v: V,
        n: usize,
        a: f32,
        w: *mut f32,
        b: f32,
        u: *mut f32,
    ) {
        // SAFETY: forwarded from the caller.
        unsafe { kernel::axpy2::<Avx2Fma<HW>, L, V>(l, v, n, a, w, b, u) }
    }

    /// # Safety
    /// As `kernel::adagrad`, and the CPU has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn adagrad<const HW: bool, L: Layout, V: Values>(l: L, v: V, n: usize, st: AdagradStep) {
        // SAFETY: forwarded from the caller.
        unsafe { kernel::adagrad::<Avx2Fma<HW>, L, V>(l, v, n, st) }
    }

    /// # Safety
    /// As `kernel::norm_sq`, and the CPU has AVX2 and FMA.
    #[target_feature(enable = "avx2,fma")]
    pub(super) unsafe fn norm_sq<const HW: bool, V: Values>(v: V, n: usize) -> f32 {
        // SAFETY: forwarded from the caller.
        unsafe { kernel::norm_sq::<Avx2Fma<HW>, V>(v, n) }
    }
}
