//! The compact encodings a row's indices and values come in.
//!
//! Rows are read straight out of memory-mapped shards, so the kernels take the
//! stored form and decode it in registers: `u16` or `u32` indices; `f32`
//! values, `u8` values times one per-dataset scale (lossless for 8-bit sources
//! such as pixels), or no values at all for binary rows.

use core::fmt::Debug;

mod sealed {
    pub trait Sealed {}
    impl Sealed for u16 {}
    impl Sealed for u32 {}
    impl Sealed for &[f32] {}
    impl Sealed for super::U8Values<'_> {}
    impl Sealed for super::Ones {}
}

/// A feature-index type: `u16` (dimension at most 65,536) or `u32`.
pub trait Index: Copy + Ord + Debug + Send + Sync + bytemuck::Pod + sealed::Sealed + 'static {
    /// The largest dimension whose indices this type can hold.
    const MAX_DIM: u64;
    /// Width in bits (16 or 32); the kernels pick their gather by it.
    const BITS: u32;
    /// The index as a `usize`.
    fn to_usize(self) -> usize;
    /// The index `i`, if it fits this type.
    fn from_usize(i: usize) -> Option<Self>;
}

impl Index for u16 {
    const MAX_DIM: u64 = 1 << 16;
    const BITS: u32 = 16;
    #[inline(always)]
    fn to_usize(self) -> usize {
        self as usize
    }
    #[inline]
    fn from_usize(i: usize) -> Option<Self> {
        u16::try_from(i).ok()
    }
}

impl Index for u32 {
    const MAX_DIM: u64 = 1 << 32;
    const BITS: u32 = 32;
    #[inline(always)]
    fn to_usize(self) -> usize {
        self as usize
    }
    #[inline]
    fn from_usize(i: usize) -> Option<Self> {
        u32::try_from(i).ok()
    }
}

/// How a value encoding is stored; the kernels branch on it at compile time.
#[doc(hidden)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueKind {
    /// `f32` per stored entry.
    F32,
    /// `u8` per stored entry, times a scale.
    U8,
    /// No stored values: every value is 1.
    Ones,
}

/// The values of a row's stored entries.
///
/// The decoded value of entry `k` is `raw(k) * scale()`; kernels accumulate
/// `raw` and multiply by the scale once.
pub trait Values: Copy + Send + Sync + sealed::Sealed {
    #[doc(hidden)]
    const KIND: ValueKind;
    /// Number of stored values, or `None` when values are implicit (all 1).
    fn stored_len(&self) -> Option<usize>;
    /// The factor every raw value is multiplied by.
    fn scale(&self) -> f32;
    /// The raw (unscaled) value of entry `k`. Panics if `k` is out of range.
    fn raw(&self, k: usize) -> f32;
    /// The decoded value of entry `k`: `raw(k) * scale()`.
    #[inline]
    fn decode(&self, k: usize) -> f32 {
        self.raw(k) * self.scale()
    }
    #[doc(hidden)]
    fn as_ptr(&self) -> *const u8;
}

impl Values for &[f32] {
    const KIND: ValueKind = ValueKind::F32;
    #[inline(always)]
    fn stored_len(&self) -> Option<usize> {
        Some(self.len())
    }
    #[inline(always)]
    fn scale(&self) -> f32 {
        1.0
    }
    #[inline]
    fn raw(&self, k: usize) -> f32 {
        self[k]
    }
    #[inline]
    fn decode(&self, k: usize) -> f32 {
        self[k]
    }
    #[inline(always)]
    fn as_ptr(&self) -> *const u8 {
        <[f32]>::as_ptr(self).cast()
    }
}

/// Bytes that decode as `byte as f32 * scale`.
///
/// Lossless for 8-bit sources: MNIST pixels are stored as the bytes of the
/// IDX file with `scale = 1/255`.
#[derive(Clone, Copy, Debug)]
pub struct U8Values<'a> {
    data: &'a [u8],
    scale: f32,
}

impl<'a> U8Values<'a> {
    /// Bytes `data` decoding as `data[k] as f32 * scale`.
    #[inline]
    pub fn new(data: &'a [u8], scale: f32) -> Self {
        U8Values { data, scale }
    }
    /// The stored bytes.
    #[inline]
    pub fn bytes(&self) -> &'a [u8] {
        self.data
    }
}

impl Values for U8Values<'_> {
    const KIND: ValueKind = ValueKind::U8;
    #[inline(always)]
    fn stored_len(&self) -> Option<usize> {
        Some(self.data.len())
    }
    #[inline(always)]
    fn scale(&self) -> f32 {
        self.scale
    }
    #[inline]
    fn raw(&self, k: usize) -> f32 {
        f32::from(self.data[k])
    }
    #[inline(always)]
    fn as_ptr(&self) -> *const u8 {
        self.data.as_ptr()
    }
}

/// Binary rows: every stored entry has value 1, and nothing is stored.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Ones;

impl Values for Ones {
    const KIND: ValueKind = ValueKind::Ones;
    #[inline(always)]
    fn stored_len(&self) -> Option<usize> {
        None
    }
    #[inline(always)]
    fn scale(&self) -> f32 {
        1.0
    }
    #[inline(always)]
    fn raw(&self, _k: usize) -> f32 {
        1.0
    }
    #[inline(always)]
    fn as_ptr(&self) -> *const u8 {
        core::ptr::null()
    }
}

/// Values that are stored one per entry, so they alone define a dense row.
pub trait StoredValues: Values {
    /// Number of stored values.
    fn len(&self) -> usize;
    /// Whether there are no stored values.
    fn is_empty(&self) -> bool {
        self.len() == 0
    }
}

impl StoredValues for &[f32] {
    #[inline(always)]
    fn len(&self) -> usize {
        <[f32]>::len(self)
    }
}

impl StoredValues for U8Values<'_> {
    #[inline(always)]
    fn len(&self) -> usize {
        self.data.len()
    }
}
