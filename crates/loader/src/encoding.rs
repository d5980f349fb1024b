//! A dataset's encoding: the most compact lossless one for its rows
//! ([`choose_encoding`]), values checked and encoded as bytes times a scale
//! in lanes, and the statistics that decide it, gathered as rows come.

use crate::EncodingKind;
use crate::error::LoadError;
use crate::format::{Encoding, LabelKind, Layout, ValueEncoding};
use crate::libsvm::Rows;
use crate::writer::WriteOptions;

/// Data density from which the dense layout is chosen. Measured on the
/// project machine (docs/shard-format.md): per row, dense u8 beats a sparse
/// u16/u8 gather from about 18% density for `dot` and 15% for the fused
/// update; a dot pass over MNIST (19% non-zero) costs the same either way.
pub const DENSE_MIN_DENSITY: f64 = 0.15;

/// The u8 scale that decodes every value exactly, if there is one: values
/// in `1..=255 × scale`, checked bit for bit.
pub fn find_u8_scale(values: &[f32]) -> Option<f32> {
    let mut range = ValueRange::EMPTY;
    range.add(values);
    range.u8_scale(&mut |s| u8_exact(values, s))
}

/// What the value encodings depend on, over the values seen so far.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ValueRange {
    min: f32,
    max: f32,
    /// Every value > 0; every value 1; at least one value.
    positive: bool,
    binary: bool,
    any: bool,
}

impl ValueRange {
    const EMPTY: ValueRange = ValueRange { min: f32::INFINITY, max: 0.0, positive: true, binary: true, any: false };

    /// Takes `values` into the range in one sweep of `wide` lanes: masks
    /// and selects, the same on every target (with `<` and `>` a NaN
    /// leaves min and max alone, as `f32::min`/`max` do, and is not
    /// positive). One value at a time this was 5% of a conversion, and
    /// eight plain-Rust lanes of `bool`s and `if`s still 6% of its
    /// instructions (LLVM kept them scalar).
    pub(crate) fn add(&mut self, values: &[f32]) {
        use wide::f32x4;
        let (mut min, mut max) = ([f32x4::splat(self.min); 2], [f32x4::splat(self.max); 2]);
        let yes = f32x4::splat(f32::from_bits(u32::MAX)); // a mask lane that is true
        let (mut ones, mut positive) = ([yes; 2], [yes; 2]);
        let (blocks, tail) = values.as_chunks::<8>();
        for b in blocks {
            for (l, q) in b.as_chunks::<4>().0.iter().enumerate() {
                let v = f32x4::new(*q);
                min[l] = v.simd_lt(min[l]).select(v, min[l]);
                max[l] = v.simd_gt(max[l]).select(v, max[l]);
                ones[l] &= v.simd_eq(f32x4::ONE);
                positive[l] &= v.simd_gt(f32x4::ZERO);
            }
        }
        let lanes = |x: [f32x4; 2]| x.into_iter().flat_map(|x| x.to_array());
        let (mut min, mut max) = (lanes(min).fold(f32::INFINITY, f32::min), lanes(max).fold(0.0, f32::max));
        // A lane is all ones (true) or all zeros: its sign bit says which.
        let (mut binary, mut positive) = (
            self.binary && lanes(ones).all(|m| m.is_sign_negative()),
            self.positive && lanes(positive).all(|m| m.is_sign_negative()),
        );
        for &v in tail {
            min = if v < min { v } else { min };
            max = if v > max { v } else { max };
            binary &= v == 1.0;
            positive &= v > 0.0;
        }
        (self.min, self.max) = (min, max);
        (self.binary, self.positive) = (binary, positive);
        self.any |= !values.is_empty();
    }

    /// [`ValueRange::add`] in blocks spread over the current rayon pool
    /// (one thread, or called outside any pool: the plain sweep, and no
    /// global pool started). Minimum, maximum and the flags merge exactly,
    /// so the range is the same bit for bit.
    pub(crate) fn add_par(&mut self, values: &[f32]) {
        self.add_blocks(values, PAR_VALUES);
    }

    /// [`ValueRange::add_par`] in blocks of `block` values.
    pub(crate) fn add_blocks(&mut self, values: &[f32], block: usize) {
        use rayon::prelude::*;
        if rayon::current_thread_index().is_none() || rayon::current_num_threads() == 1 || values.len() <= block {
            return self.add(values);
        }
        let part = |c: &[f32]| {
            let mut r = ValueRange::EMPTY;
            r.add(c);
            r
        };
        let r = values.par_chunks(block).map(part).reduce(|| ValueRange::EMPTY, ValueRange::merge);
        *self = self.merge(r);
    }

    /// The range of both sets of values.
    pub(crate) fn merge(self, o: ValueRange) -> ValueRange {
        ValueRange {
            min: if o.min < self.min { o.min } else { self.min },
            max: if o.max > self.max { o.max } else { self.max },
            positive: self.positive && o.positive,
            binary: self.binary && o.binary,
            any: self.any || o.any,
        }
    }

    /// The candidate u8 scales, in the order they are tried: pixels
    /// (1/255), small integers (1), a full byte range (max/255), and a grid
    /// whose step is the smallest value (0.5, 1, 2 → 0.5).
    pub(crate) fn scale_candidates(&self) -> [f32; 4] {
        [1.0f32 / 255.0, 1.0, self.max / 255.0, self.min]
    }

    /// The first candidate scale for which `exact(scale)` says every value
    /// is a byte times it; none unless every value is positive.
    fn u8_scale(&self, exact: &mut dyn FnMut(f32) -> bool) -> Option<f32> {
        if !self.positive || !self.any {
            return None;
        }
        self.scale_candidates().into_iter().find(|&s| s.is_finite() && s > 0.0 && exact(s))
    }
}

/// `v / scale` as the byte `k` with `k·scale == v` exactly, if there is one
/// in 1..=255.
#[inline(always)]
pub(crate) fn u8_of(v: f32, scale: f32, inv: f32) -> Option<u8> {
    // Multiplying by the reciprocal is fast but may round to the wrong
    // neighbour; the exact test decides, and a miss is tried once more
    // with the division.
    // `as i32` truncates: for positive quotients, +0.5 makes it the nearest
    // integer, with no call into libm (the baseline x86-64 has no rounding
    // instruction); non-positive ones end up outside 1..=255.
    let fits = |k: f32| (1.0..=255.0).contains(&k) && (k * scale).to_bits() == v.to_bits();
    let k = ((v * inv) + 0.5) as i32 as f32;
    if fits(k) {
        return Some(k as u8);
    }
    let k = ((v / scale) + 0.5) as i32 as f32;
    fits(k).then_some(k as u8)
}

/// Values per block of [`encode_u8`] and [`u8_exact`].
const U8_LANES: usize = 16;

/// [`u8_of`]'s first try (the product by the reciprocal) on a block of
/// values, in lanes without a branch per value: the bytes, and whether the
/// try missed for any value (the caller then asks `u8_of` value by value).
#[inline(always)]
fn u8_block(block: &[f32; U8_LANES], scale: f32, inv: f32) -> ([u8; U8_LANES], bool) {
    use wide::{f32x4, i32x4};
    // 2^23: adding it rounds a float in [0, 2^23) to an integer, whose
    // value the low bits of the sum then hold.
    const MAGIC: f32 = 8_388_608.0;
    let (mut bytes, mut hits) = ([0u8; U8_LANES], true);
    let (quads, _) = block.as_chunks::<4>();
    for (q4, out) in quads.iter().zip(bytes.as_chunks_mut::<4>().0) {
        let v = f32x4::new(*q4);
        // `u8_of`'s candidate, `trunc(v·inv + 0.5)`, in float lanes alone
        // (a float-to-int conversion with Rust's saturation is scalar code):
        // clamped to [0, 256] (a clamped candidate misses there as here; a
        // NaN stays NaN or becomes 0 or 256, and misses either way), rounded
        // to the nearest integer, then one less if that rounded up.
        let q = (v * f32x4::splat(inv) + f32x4::splat(0.5)).fast_max(f32x4::ZERO).fast_min(f32x4::splat(256.0));
        let r = (q + f32x4::splat(MAGIC)) - f32x4::splat(MAGIC);
        let k = r - (r.simd_gt(q) & f32x4::ONE);
        let exact: i32x4 =
            bytemuck::cast::<f32x4, i32x4>(k * f32x4::splat(scale)).simd_eq(bytemuck::cast::<f32x4, i32x4>(v));
        let in_range = k.simd_ge(f32x4::ONE) & k.simd_le(f32x4::splat(255.0));
        hits &= (bytemuck::cast::<f32x4, i32x4>(in_range) & exact).all();
        let sums: [u32; 4] = bytemuck::cast(k + f32x4::splat(MAGIC));
        *out = sums.map(|b| b as u8);
    }
    (bytes, !hits)
}

/// Encodes `values` into `out` as [`u8_of`]'s bytes, or says the index of
/// the first value that is not `k × scale` for a `k` in 1..=255 (`out` then
/// holds an unfinished encoding).
pub(crate) fn encode_u8(values: &[f32], scale: f32, out: &mut Vec<u8>) -> Result<(), usize> {
    let inv = 1.0 / scale;
    out.clear();
    out.reserve(values.len());
    let (blocks, rest) = values.as_chunks::<U8_LANES>();
    for (b, block) in blocks.iter().enumerate() {
        let (mut bytes, miss) = u8_block(block, scale, inv);
        if miss {
            for (j, (o, &v)) in bytes.iter_mut().zip(block).enumerate() {
                *o = u8_of(v, scale, inv).ok_or(b * U8_LANES + j)?;
            }
        }
        out.extend_from_slice(&bytes);
    }
    let done = values.len() - rest.len();
    for (j, &v) in rest.iter().enumerate() {
        out.push(u8_of(v, scale, inv).ok_or(done + j)?);
    }
    Ok(())
}

/// Values per task of the sweeps spread over a pool ([`ValueRange::add_par`],
/// [`u8_exact_par`]): 256 KB, many times rayon's cost per task.
const PAR_VALUES: usize = 1 << 16;

/// [`u8_exact`] in blocks spread over the current rayon pool (called
/// outside any pool, on this thread).
pub(crate) fn u8_exact_par(values: &[f32], scale: f32) -> bool {
    u8_exact_blocks(values, scale, PAR_VALUES)
}

/// [`u8_exact_par`] in blocks of `block` values.
fn u8_exact_blocks(values: &[f32], scale: f32, block: usize) -> bool {
    use rayon::prelude::*;
    if rayon::current_thread_index().is_none() || rayon::current_num_threads() == 1 || values.len() <= block {
        return u8_exact(values, scale);
    }
    values.par_chunks(block).all(|c| u8_exact(c, scale))
}

/// Whether every value is `k × scale` for a `k` in 1..=255.
pub(crate) fn u8_exact(values: &[f32], scale: f32) -> bool {
    let inv = 1.0 / scale;
    let (blocks, rest) = values.as_chunks::<U8_LANES>();
    let exact = |v: &f32| u8_of(*v, scale, inv).is_some();
    blocks.iter().all(|block| !u8_block(block, scale, inv).1 || block.iter().all(exact)) && rest.iter().all(exact)
}

/// The most compact lossless encoding the kernels read.
pub fn choose_encoding(rows: &Rows, dim: u64) -> Encoding {
    Stats::of(rows).encoding(dim, &mut |scale| u8_exact(&rows.values, scale))
}

/// What choosing an encoding and a label kind needs to know of every row,
/// gathered batch by batch, so that rows can stream through a conversion
/// without being held all at once.
#[derive(Clone, Debug)]
pub(crate) struct Stats {
    pub(crate) rows: u64,
    pub(crate) nnz: u64,
    /// One past the largest index (explicit zeros included).
    pub(crate) dim: u64,
    pub(crate) values: ValueRange,
    /// Every label ±1; every label a class id.
    binary_labels: bool,
    class_labels: bool,
    multilabel: bool,
    pub(crate) qids: bool,
    /// Some row's importance weight is not 1.
    pub(crate) weights: bool,
}

impl Stats {
    pub(crate) fn new(multilabel: bool) -> Self {
        Stats {
            rows: 0,
            nnz: 0,
            dim: 0,
            values: ValueRange::EMPTY,
            binary_labels: true,
            class_labels: true,
            multilabel,
            qids: false,
            weights: false,
        }
    }

    pub(crate) fn of(rows: &Rows) -> Self {
        let mut s = Stats::new(!rows.label_offsets.is_empty());
        s.add(rows);
        s
    }

    pub(crate) fn add(&mut self, rows: &Rows) {
        self.add_from(rows, 0);
    }

    /// Adds rows `first..` of `rows` (those a block appended to a batch).
    pub(crate) fn add_from(&mut self, rows: &Rows, first: usize) {
        let (n, from) = (rows.len(), rows.offsets[first] as usize);
        self.rows += (n - first) as u64;
        self.nnz += (rows.indices.len() - from) as u64;
        // Indices are sorted within a row: its last is its largest.
        self.dim = self.dim.max(rows.dim);
        for r in first..n {
            let (s, e) = (rows.offsets[r] as usize, rows.offsets[r + 1] as usize);
            if e > s {
                self.dim = self.dim.max(u64::from(rows.indices[e - 1]) + 1);
            }
        }
        self.values.add_par(&rows.values[from..]);
        self.add_labels(rows.labels.get(first..).unwrap_or_default());
        self.qids |= rows.qids.get(first..).unwrap_or_default().iter().any(|&q| q != crate::libsvm::NO_QID);
        self.weights |= rows.weights.get(first..).unwrap_or_default().iter().any(|&w| w != 1.0);
    }

    pub(crate) fn add_labels(&mut self, labels: &[f32]) {
        for &l in labels {
            self.binary_labels &= l == 1.0 || l == -1.0;
            self.class_labels &= l >= 0.0 && l < (1 << 24) as f32 && l.fract() == 0.0;
        }
    }

    /// The kind of single labels `labels`, without reading the rows.
    pub(crate) fn label_kind_of(labels: &[f32]) -> LabelKind {
        let mut s = Stats::new(false);
        s.add_labels(labels);
        s.label_kind()
    }

    pub(crate) fn label_kind(&self) -> LabelKind {
        if self.multilabel {
            LabelKind::Multi
        } else if self.binary_labels {
            LabelKind::Binary
        } else if self.class_labels {
            LabelKind::Classes
        } else {
            LabelKind::Real
        }
    }

    /// The label kind and the encoding for rows over `dim` features: those
    /// `opts` forces (checked to hold the rows without loss) or else those
    /// the rows call for; `exact(scale)` says whether every value is a byte
    /// times `scale`.
    pub(crate) fn choose(
        &self,
        opts: &WriteOptions,
        dim: u64,
        exact: &mut dyn FnMut(f32) -> bool,
    ) -> Result<(LabelKind, Encoding), LoadError> {
        let kind = opts.label_kind.unwrap_or_else(|| self.label_kind());
        let encoding = match opts.encoding {
            Some(e) => self.check_forced(e, dim, exact)?,
            None => self.encoding(dim, exact),
        };
        Ok((kind, encoding))
    }

    /// The most compact lossless encoding for rows over `dim` features;
    /// `exact(scale)` says whether every value is a byte times `scale`.
    pub(crate) fn encoding(&self, dim: u64, exact: &mut dyn FnMut(f32) -> bool) -> Encoding {
        let cells = self.rows.saturating_mul(dim);
        let density = if cells == 0 { 0.0 } else { self.nnz as f64 / cells as f64 };
        let values = if self.values.binary {
            ValueEncoding::Ones
        } else if let Some(scale) = self.values.u8_scale(exact) {
            ValueEncoding::U8 { scale }
        } else {
            ValueEncoding::F32
        };
        if density >= DENSE_MIN_DENSITY && self.rows > 0 {
            let values = if self.values.binary { ValueEncoding::U8 { scale: 1.0 } } else { values };
            return Encoding { layout: Layout::Dense, index_bytes: 0, values };
        }
        Encoding { layout: Layout::Sparse, index_bytes: if dim <= 1 << 16 { 2 } else { 4 }, values }
    }

    /// A forced encoding, if it holds the rows without loss (a u8 one with
    /// the scale that does).
    pub(crate) fn check_forced(
        &self,
        e: Encoding,
        dim: u64,
        exact: &mut dyn FnMut(f32) -> bool,
    ) -> Result<Encoding, LoadError> {
        if e.layout == Layout::Sparse && e.index_bytes == 2 && dim > 1 << 16 {
            return Err(LoadError::Invalid(format!("encoding {} cannot hold dimension {dim} (u16 indices)", e.name())));
        }
        match e.values {
            ValueEncoding::Ones if !self.values.binary => {
                Err(LoadError::Invalid(format!("encoding {} would lose values: not every value is 1", e.name())))
            }
            ValueEncoding::U8 { .. } => match self.values.u8_scale(exact) {
                Some(scale) => Ok(Encoding { values: ValueEncoding::U8 { scale }, ..e }),
                None if self.nnz == 0 => Ok(Encoding { values: ValueEncoding::U8 { scale: 1.0 }, ..e }),
                None => Err(LoadError::Invalid(format!(
                    "encoding {} would lose values: they are not all k × one scale for k in 1..=255",
                    e.name()
                ))),
            },
            _ => Ok(e),
        }
    }
}

/// Parses an encoding name as `--encoding` takes it; `values_hint` is the
/// scale for the u8 encodings (the writer finds the exact one).
pub fn parse_encoding(name: &str, values_hint: Option<f32>) -> Result<Encoding, LoadError> {
    name.parse::<EncodingKind>().map(|k| k.encoding(values_hint.unwrap_or(1.0)))
}

impl std::str::FromStr for EncodingKind {
    type Err = LoadError;
    fn from_str(name: &str) -> Result<Self, LoadError> {
        EncodingKind::ALL.iter().copied().find(|k| k.name() == name).ok_or_else(|| {
            let names: Vec<&str> = EncodingKind::ALL.iter().map(|k| k.name()).collect();
            LoadError::Invalid(format!("unknown encoding `{name}` (use {})", names.join(", ")))
        })
    }
}

impl std::fmt::Display for EncodingKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::{ValueRange, encode_u8, u8_exact, u8_exact_blocks, u8_of};
    use proptest::prelude::*;

    /// Values a u8 scale meets: exact multiples `k × scale` (k in 0..=256:
    /// the edges and one past each), their neighbours one ulp away, and any
    /// bit pattern at all (NaN, infinities, subnormals, negatives).
    fn value(scale: f32) -> impl Strategy<Value = f32> {
        prop_oneof![
            4 => (0u32..=256).prop_map(move |k| k as f32 * scale),
            1 => prop_oneof![Just(0.0), Just(-0.0), Just(256.0 * scale)],
            1 => ((1u32..=255), prop::bool::ANY).prop_map(move |(k, up)| {
                let v = (k as f32 * scale).to_bits();
                f32::from_bits(if up { v + 1 } else { v - 1 })
            }),
            1 => any::<u32>().prop_map(f32::from_bits),
        ]
    }

    /// A scale, and values of which many are not multiples of it, or (half
    /// the cases) few or none, so that a whole block of 16 can hold a
    /// single fault.
    /// Three threads: the blocks of a sweep spread over the pool run in
    /// any order.
    fn pool() -> rayon::ThreadPool {
        rayon::ThreadPoolBuilder::new().num_threads(3).build().unwrap()
    }

    fn case() -> impl Strategy<Value = (f32, Vec<f32>)> {
        prop_oneof![Just(1.0f32 / 255.0), Just(0.0625), Just(1.0), Just(0.1), Just(3.0e-39), (1e-6f32..1e6)]
            .prop_flat_map(|scale| {
                let mostly = prop_oneof![100 => (1u32..=255).prop_map(move |k| k as f32 * scale), 1 => value(scale)];
                let values =
                    prop_oneof![prop::collection::vec(value(scale), 0..80), prop::collection::vec(mostly, 0..80)];
                (Just(scale), values)
            })
    }

    proptest! {
        /// The range in lanes is the plain fold of every value (NaN leaves
        /// min and max alone and is not positive), taken at once or in two
        /// parts.
        #[test]
        fn the_value_range_in_lanes_is_the_plain_fold(
            values in prop_oneof![
                prop::collection::vec(
                    prop_oneof![Just(1.0f32), Just(0.0), Just(-0.0), Just(f32::NAN), -3.0f32..3.0, any::<u32>().prop_map(f32::from_bits)],
                    0..70,
                ),
                // Mostly ones (binary) or mostly positive, with a rare other.
                prop::collection::vec(prop_oneof![30 => Just(1.0f32), 1 => Just(2.0), 1 => Just(0.0), 1 => Just(f32::NAN)], 0..70),
                prop::collection::vec(prop_oneof![30 => 0.5f32..9.0, 1 => Just(0.0), 1 => Just(-1.0)], 0..70),
            ],
            cut in 0usize..70,
        ) {
            let (mut min, mut max, mut binary, mut positive) = (f32::INFINITY, 0.0f32, true, true);
            for &v in &values {
                min = if v < min { v } else { min };
                max = if v > max { v } else { max };
                binary &= v == 1.0;
                positive &= v > 0.0;
            }
            let (mut whole, mut parts) = (ValueRange::EMPTY, ValueRange::EMPTY);
            whole.add(&values);
            let cut = cut.min(values.len());
            parts.add(&values[..cut]);
            parts.add(&values[cut..]);
            // And in blocks of eight spread over a pool, merged.
            let mut blocks = ValueRange::EMPTY;
            pool().install(|| blocks.add_blocks(&values, 8));
            for r in [whole, parts, blocks] {
                // Equal as numbers: of a 0.0 and a −0.0 either may come
                // out (lanes meet in `f32::min`), and a zero is no scale.
                prop_assert!(r.min == min && r.max == max, "{:?} against {min}, {max}", (r.min, r.max));
                prop_assert_eq!((r.binary, r.positive, r.any), (binary, positive, !values.is_empty()));
            }
        }

        /// The blocks in lanes give `u8_of`'s bytes, and fail exactly where
        /// `u8_of` first finds no byte.
        #[test]
        fn the_block_encoder_is_u8_of_value_by_value((scale, values) in case()) {
            let inv = 1.0 / scale;
            let oracle: Vec<Option<u8>> = values.iter().map(|&v| u8_of(v, scale, inv)).collect();
            let first_bad = oracle.iter().position(Option::is_none);
            let mut out = vec![7u8; 3];
            match encode_u8(&values, scale, &mut out) {
                Ok(()) => {
                    prop_assert_eq!(first_bad, None);
                    prop_assert_eq!(out, oracle.iter().map(|k| k.unwrap()).collect::<Vec<u8>>());
                }
                Err(k) => prop_assert_eq!(Some(k), first_bad),
            }
            prop_assert_eq!(u8_exact(&values, scale), first_bad.is_none());
            prop_assert_eq!(pool().install(|| u8_exact_blocks(&values, scale, 16)), first_bad.is_none());
        }
    }
}
