//! Deformed MNIST digits in the manner of the "infinite MNIST" sets: row
//! `r` is training digit `r mod 60,000` under a random small affine map
//! (rotation, scaling, translation) and a smooth elastic distortion
//! (Simard, Steinkraus & Platt 2003: a field of uniform random
//! displacements smoothed by a Gaussian of width `sigma` and scaled by
//! `alpha`), resampled bilinearly onto the same 28×28 grid, rounded to a
//! byte and stored as `k/255`, exactly as the MNIST converter stores the
//! originals. The label is the source digit's (or ±1 against a target).
//!
//! Row `r`'s deformation comes from a generator seeded by `(seed, r)`
//! alone, so a dataset is the same bytes whatever the thread count, and any
//! row can be regenerated on its own ([`deformed_row`]).

use crate::error::{GenError, param};
use rand::rngs::Xoshiro256PlusPlus;
use rand::{RngExt, SeedableRng};
use rayon::prelude::*;
use rosenblatt_loader::format::{Encoding, LabelKind, Layout, ValueEncoding};
use rosenblatt_loader::idx::{PIXEL_SCALE, read_idx};
use rosenblatt_loader::{DatasetWriter, LoadError, Manifest, Rows};
use std::path::Path;

/// Source digits: MNIST training images (bytes, row-major) and labels.
#[derive(Clone, Debug)]
pub struct Digits {
    /// Image height in pixels.
    pub height: usize,
    /// Image width in pixels.
    pub width: usize,
    /// `len() × height × width` pixel bytes.
    pub pixels: Vec<u8>,
    /// One digit 0..=9 per image.
    pub labels: Vec<u8>,
}

impl Digits {
    /// Reads an IDX images file and its labels file (gzipped or not).
    pub fn read(images: &Path, labels: &Path) -> Result<Digits, GenError> {
        let img = read_idx(images, 3)?;
        let lab = read_idx(labels, 1)?;
        if lab.dims[0] != img.dims[0] {
            return Err(LoadError::IdxMismatch {
                images: images.to_path_buf(),
                image_count: u64::from(img.dims[0]),
                labels: labels.to_path_buf(),
                label_count: u64::from(lab.dims[0]),
            }
            .into());
        }
        if let Some(&bad) = lab.data.iter().find(|&&l| l > 9) {
            let reason = format!("label {bad} is not a digit 0..=9");
            return Err(LoadError::Idx { path: labels.to_path_buf(), reason }.into());
        }
        let d =
            Digits { height: img.dims[1] as usize, width: img.dims[2] as usize, pixels: img.data, labels: lab.data };
        if d.is_empty() || d.height == 0 || d.width == 0 || d.height * d.width > 1 << 16 {
            let reason =
                format!("{} images of {}×{}; need at least one, at most 2^16 pixels each", d.len(), d.height, d.width);
            return Err(LoadError::Idx { path: images.to_path_buf(), reason }.into());
        }
        Ok(d)
    }

    /// Number of images.
    pub fn len(&self) -> usize {
        self.labels.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.labels.is_empty()
    }

    /// Image `i`'s pixels.
    pub fn image(&self, i: usize) -> &[u8] {
        let n = self.height * self.width;
        &self.pixels[i * n..(i + 1) * n]
    }
}

/// The random deformation's ranges.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Deformation {
    /// Translation, uniform in ±`shift` pixels on each axis.
    pub shift: f32,
    /// Rotation, uniform in ±`rotate` degrees.
    pub rotate: f32,
    /// Scaling factor, uniform in 1 ± `scale`.
    pub scale: f32,
    /// Elastic distortion strength (pixels per unit of smoothed field).
    pub alpha: f32,
    /// Width of the Gaussian that smooths the elastic field, in pixels.
    pub sigma: f32,
}

impl Default for Deformation {
    /// ±2 pixels, ±10°, ±10%, and an elastic field of Simard et al.'s
    /// width (σ = 4) at half their strength (α = 16 rather than 34): on top
    /// of the affine part, their full strength leaves a digit, measured by
    /// the cosine of blurred images, as far from its source as another
    /// writer's same digit (crates/datasets/tests/ocr.rs measures the default).
    fn default() -> Self {
        Deformation { shift: 2.0, rotate: 10.0, scale: 0.1, alpha: 16.0, sigma: 4.0 }
    }
}

impl Deformation {
    /// No deformation: every row is its source digit.
    pub const NONE: Deformation = Deformation { shift: 0.0, rotate: 0.0, scale: 0.0, alpha: 0.0, sigma: 1.0 };

    fn check(&self) -> Result<(), GenError> {
        let ok = |v: f32, hi: f32| v.is_finite() && (0.0..=hi).contains(&v);
        if !ok(self.shift, 14.0) {
            return Err(param("shift", self.shift, "between 0 and 14 pixels"));
        }
        if !ok(self.rotate, 180.0) {
            return Err(param("rotate", self.rotate, "between 0 and 180 degrees"));
        }
        if !ok(self.scale, 0.5) {
            return Err(param("scale", self.scale, "between 0 and 0.5"));
        }
        if !ok(self.alpha, 100.0) {
            return Err(param("alpha", self.alpha, "between 0 and 100"));
        }
        if !(self.sigma.is_finite() && (0.5..=10.0).contains(&self.sigma)) {
            return Err(param("sigma", self.sigma, "between 0.5 and 10 pixels"));
        }
        Ok(())
    }
}

/// An affine map about the image centre: the output pixel at `p` samples
/// the source at `R(−angle)·(p − c − shift)/scale + c`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Affine {
    /// Rotation in radians (counter-clockwise in x-right, y-down pixels).
    pub angle: f32,
    /// Scaling factor (> 1 enlarges).
    pub scale: f32,
    /// Translation in pixels (x, y).
    pub shift: (f32, f32),
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct OcrSpec {
    /// Rows.
    pub rows: u64,
    /// Seed of every row's deformation.
    pub seed: u64,
    /// `Some(d)`: label +1 for digit `d`, −1 for the rest; `None`: the digit.
    pub target: Option<u8>,
    /// The deformation's ranges.
    pub deformation: Deformation,
    /// Rows per shard.
    pub shard_rows: usize,
}

impl Default for OcrSpec {
    fn default() -> Self {
        OcrSpec { rows: 1_000_000, seed: 0, target: None, deformation: Deformation::default(), shard_rows: 1 << 16 }
    }
}

/// The source digit of row `row`.
pub fn source_of(row: u64, sources: usize) -> usize {
    (row % sources as u64) as usize
}

/// Reusable buffers for [`deform`].
#[derive(Clone, Debug, Default)]
pub struct Scratch {
    dx: Vec<f32>,
    dy: Vec<f32>,
    tmp: Vec<f32>,
    kernel: Vec<f32>,
    kernel_sigma: f32,
}

/// Smooths `f` (h×w, zero outside) by a normalised Gaussian of width
/// `sigma`, truncated at 3σ, one axis after the other.
fn smooth(f: &mut [f32], tmp: &mut Vec<f32>, kernel: &[f32], h: usize, w: usize) {
    let r = kernel.len() / 2;
    tmp.clear();
    tmp.resize(h * w, 0.0);
    for y in 0..h {
        let (src, dst) = (&f[y * w..(y + 1) * w], &mut tmp[y * w..(y + 1) * w]);
        for (k, &g) in kernel.iter().enumerate() {
            // dst[x] += g · src[x + k − r] where that lies inside the row.
            let (lo, hi) = (r.saturating_sub(k), (w + r).saturating_sub(k).min(w));
            if lo < hi {
                let s = lo + k - r;
                dst[lo..hi].iter_mut().zip(&src[s..s + hi - lo]).for_each(|(d, &v)| *d += g * v);
            }
        }
    }
    f.fill(0.0);
    for y in 0..h {
        for (k, &g) in kernel.iter().enumerate() {
            let sy = y + k;
            if sy < r || sy - r >= h {
                continue;
            }
            let src = &tmp[(sy - r) * w..(sy - r + 1) * w];
            f[y * w..(y + 1) * w].iter_mut().zip(src).for_each(|(d, &v)| *d += g * v);
        }
    }
}

/// Resamples `src` (h×w bytes) into `out` under `affine` and, if given,
/// the displacement field `(dx, dy)` (pixels, one per output pixel, added
/// before the affine map): bilinear interpolation, zero outside the image,
/// rounded to the nearest byte.
pub fn deform(src: &[u8], h: usize, w: usize, affine: &Affine, field: Option<(&[f32], &[f32])>, out: &mut [u8]) {
    let (cx, cy) = ((w as f32 - 1.0) / 2.0, (h as f32 - 1.0) / 2.0);
    let (sin, cos) = affine.angle.sin_cos();
    let inv = 1.0 / affine.scale;
    let px = |x: isize, y: isize| -> f32 {
        if x < 0 || y < 0 || x >= w as isize || y >= h as isize {
            0.0
        } else {
            f32::from(src[y as usize * w + x as usize])
        }
    };
    for y in 0..h {
        for x in 0..w {
            let i = y * w + x;
            let (ex, ey) = field.map_or((0.0, 0.0), |(dx, dy)| (dx[i], dy[i]));
            let (u, v) = (x as f32 + ex - cx - affine.shift.0, y as f32 + ey - cy - affine.shift.1);
            // R(−angle) = [[cos, sin], [−sin, cos]]
            let sx = (cos * u + sin * v) * inv + cx;
            let sy = (-sin * u + cos * v) * inv + cy;
            let (x0, y0) = (floor(sx), floor(sy));
            let (fx, fy) = (sx - x0 as f32, sy - y0 as f32);
            let top = px(x0, y0) * (1.0 - fx) + px(x0 + 1, y0) * fx;
            let bottom = px(x0, y0 + 1) * (1.0 - fx) + px(x0 + 1, y0 + 1) * fx;
            out[i] = round_byte(top * (1.0 - fy) + bottom * fy);
        }
    }
}

/// `v.floor()` as an integer, for |v| < 2^23 (every sample point of a
/// 28×28 image under the checked ranges). Baseline x86-64 has no rounding
/// instruction, so `f32::floor` is a libm call per pixel; this is exact
/// and inlines (SPEED.md#generators).
#[inline(always)]
fn floor(v: f32) -> isize {
    let t = v as isize; // towards zero
    t - isize::from((t as f32) > v)
}

/// `v.round().clamp(0.0, 255.0) as u8` without the libm call: clamping
/// first gives the same byte, and below 256 `v − trunc(v)` is exact, so
/// comparing it with one half rounds half away from zero exactly as
/// `f32::round` does.
#[inline(always)]
fn round_byte(v: f32) -> u8 {
    let v = v.clamp(0.0, 255.0);
    let t = v as u8;
    t + u8::from(v - f32::from(t) >= 0.5)
}

/// Row `row`'s generator: seeded by `(seed, row)` through SplitMix64.
fn row_rng(seed: u64, row: u64) -> Xoshiro256PlusPlus {
    let mut z = seed ^ row.wrapping_mul(0x9e37_79b9_7f4a_7c15).wrapping_add(0xd1b5_4a32_d192_ed03);
    z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
    Xoshiro256PlusPlus::seed_from_u64(z ^ (z >> 31))
}

/// The normalised Gaussian of width `sigma`, truncated at 3σ.
fn gaussian(sigma: f32) -> Vec<f32> {
    let r = (3.0 * sigma).ceil() as usize;
    let g: Vec<f32> = (0..=2 * r).map(|k| (-((k as f32 - r as f32).powi(2)) / (2.0 * sigma * sigma)).exp()).collect();
    let s: f32 = g.iter().sum();
    g.iter().map(|v| v / s).collect()
}

/// Smooths the h×w field `f` in place by the normalised Gaussian of width
/// `sigma` truncated at 3σ, taking the field as zero outside the image —
/// the step that makes the elastic distortion smooth.
pub fn smooth_field(f: &mut [f32], h: usize, w: usize, sigma: f32) {
    assert_eq!(f.len(), h * w, "a field of h × w values");
    smooth(f, &mut Vec::new(), &gaussian(sigma), h, w);
}

/// Writes row `row` of the dataset `spec` describes into `out` (one byte
/// per pixel) and returns its source digit's index.
pub fn deformed_row(digits: &Digits, spec: &OcrSpec, row: u64, scratch: &mut Scratch, out: &mut [u8]) -> usize {
    let (h, w) = (digits.height, digits.width);
    let d = &spec.deformation;
    let source = source_of(row, digits.len());
    let mut rng = row_rng(spec.seed, row);
    let mut sym = |m: f32| if m > 0.0 { rng.random_range(-m..=m) } else { 0.0 };
    let affine =
        Affine { angle: sym(d.rotate).to_radians(), scale: 1.0 + sym(d.scale), shift: (sym(d.shift), sym(d.shift)) };
    if d.alpha > 0.0 {
        if scratch.kernel.is_empty() || scratch.kernel_sigma != d.sigma {
            scratch.kernel = gaussian(d.sigma);
            scratch.kernel_sigma = d.sigma;
        }
        let Scratch { dx, dy, tmp, kernel, .. } = scratch;
        for f in [&mut *dx, &mut *dy] {
            f.clear();
            f.extend((0..h * w).map(|_| rng.random_range(-1.0f32..=1.0)));
            smooth(f, tmp, kernel, h, w);
            f.iter_mut().for_each(|v| *v *= d.alpha);
        }
        deform(digits.image(source), h, w, &affine, Some((dx, dy)), out);
    } else {
        deform(digits.image(source), h, w, &affine, None, out);
    }
    source
}

fn check(digits: &Digits, spec: &OcrSpec) -> Result<(), GenError> {
    spec.deformation.check()?;
    if spec.rows == 0 || spec.rows > u64::from(u32::MAX) {
        return Err(param("rows", spec.rows, "between 1 and 2^32 − 1"));
    }
    if spec.target.is_some_and(|t| t > 9) {
        return Err(param("target", spec.target.unwrap_or(0), "a digit 0..=9"));
    }
    if spec.shard_rows == 0 || spec.shard_rows.saturating_mul(digits.height * digits.width) > 1 << 30 {
        return Err(param("shard_rows", spec.shard_rows, "at least 1, at most 1 GiB of pixels per shard"));
    }
    Ok(())
}

/// Generates the dataset into `dir` as dense-u8 shards (scale 1/255, the
/// MNIST converter's encoding), shard by shard, rows in parallel;
/// `progress(rows)` is told the rows written so far after each shard.
///
/// Writing a shard (encoding, checksumming, syncing) runs on its own
/// thread while the pool deforms the next one, so at most two shards are
/// in memory; the bytes are the same as writing each shard in turn.
pub fn write(digits: &Digits, spec: &OcrSpec, dir: &Path, mut progress: impl FnMut(u64)) -> Result<Manifest, GenError> {
    check(digits, spec)?;
    let dim = digits.height * digits.width;
    let encoding = Encoding { layout: Layout::Dense, index_bytes: 0, values: ValueEncoding::U8 { scale: PIXEL_SCALE } };
    let kind = if spec.target.is_some() { LabelKind::Binary } else { LabelKind::Classes };
    let mut writer = DatasetWriter::create(dir, dim as u64, encoding, kind, rosenblatt_loader::libsvm::DEFAULT_BASE)?;
    std::thread::scope(|scope| {
        // A rendezvous channel: the writer takes shard k + 1 only once
        // shard k is on disk, so a returned `send` means k is written.
        let (tx, rx) = std::sync::mpsc::sync_channel::<Rows>(0);
        let written = scope.spawn(move || -> Result<DatasetWriter, LoadError> {
            for rows in rx {
                writer.write_shard(&rows)?;
            }
            Ok(writer)
        });
        let mut pixels = Vec::new();
        let mut start = 0u64;
        while start < spec.rows {
            let n = (spec.rows - start).min(spec.shard_rows as u64) as usize;
            let rows = shard_rows(digits, spec, start, n, &mut pixels);
            if tx.send(rows).is_err() {
                break; // the writer failed: its error is below
            }
            progress(start);
            start += n as u64;
        }
        drop(tx);
        let writer = written.join().unwrap_or_else(|p| std::panic::resume_unwind(p))?;
        progress(start);
        Ok(writer.finish()?)
    })
}

/// Rows `start..start + n`, deformed in parallel into `pixels`, as rows
/// with the zero pixels left out.
fn shard_rows(digits: &Digits, spec: &OcrSpec, start: u64, n: usize, pixels: &mut Vec<u8>) -> Rows {
    let dim = digits.height * digits.width;
    pixels.resize(n * dim, 0);
    let sources: Vec<usize> = pixels
        .par_chunks_mut(dim)
        .enumerate()
        .map_init(Scratch::default, |scratch, (i, out)| deformed_row(digits, spec, start + i as u64, scratch, out))
        .collect();
    let mut rows = Rows::empty();
    rows.indices.reserve(n * dim / 3);
    rows.values.reserve(n * dim / 3);
    for (img, &s) in pixels.chunks_exact(dim).zip(&sources) {
        for (i, &p) in img.iter().enumerate() {
            if p != 0 {
                rows.indices.push(i as u32);
                rows.values.push(f32::from(p) * PIXEL_SCALE);
            }
        }
        rows.offsets.push(rows.indices.len() as u64);
        let digit = digits.labels[s];
        rows.labels.push(match spec.target {
            Some(t) if digit == t => 1.0,
            Some(_) => -1.0,
            None => f32::from(digit),
        });
    }
    rows
}

#[cfg(test)]
mod tests {
    use super::{floor, round_byte};

    /// Every value near each integer and half-integer in the byte range
    /// (the neighbours one ulp either side included), and a sweep of steps.
    fn probes() -> Vec<f32> {
        let mut v = vec![-1e6, -3.5, -1.0, -0.5, -0.0, 0.0, 255.0, 255.49998, 255.5, 256.0, 300.0, 1e6];
        for k in -40..=600 {
            let x = k as f32 * 0.5;
            v.extend([x, f32::from_bits(x.to_bits() + 1), f32::from_bits(x.to_bits().wrapping_sub(1))]);
        }
        v.extend((0..100_000).map(|i| -50.0 + i as f32 * 0.003_7));
        v.retain(|x| x.is_finite());
        v
    }

    #[test]
    fn floor_is_f32_floor() {
        for x in probes() {
            assert_eq!(floor(x), x.floor() as isize, "{x:e}");
        }
    }

    #[test]
    fn round_byte_is_round_then_clamp() {
        for x in probes() {
            assert_eq!(round_byte(x), x.round().clamp(0.0, 255.0) as u8, "{x:e}");
        }
    }
}
