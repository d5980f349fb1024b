//! MNIST IDX files: a big-endian header (magic `00 00 08 NDIM`, then NDIM
//! u32 dimensions) and unsigned bytes. Images are 3-dimensional
//! (count × rows × columns), labels 1-dimensional.

use crate::error::LoadError;
use crate::input::read_input;
use crate::libsvm::{NO_QID, Rows};
use std::path::Path;

/// The decode factor of MNIST pixels: a pixel `p` is `p as f32 * PIXEL_SCALE`.
pub const PIXEL_SCALE: f32 = 1.0 / 255.0;

/// An IDX file's unsigned-byte payload and its dimensions.
pub struct Idx {
    /// The dimensions from the header.
    pub dims: Vec<u32>,
    /// The payload (product of dims bytes).
    pub data: Vec<u8>,
}

/// Reads an IDX file of unsigned bytes with `ndim` dimensions (gzipped or
/// not), checking magic, dimensions and size.
pub fn read_idx(path: &Path, ndim: u8) -> Result<Idx, LoadError> {
    let bad = |reason: String| LoadError::Idx { path: path.to_path_buf(), reason };
    // 2^34 bytes is far above any IDX set; the reader grows only with real data.
    let bytes = read_input(path, 1 << 34)?;
    if bytes.len() < 4 {
        return Err(bad(format!("{} bytes, too short for the 4-byte magic", bytes.len())));
    }
    if bytes[0] != 0 || bytes[1] != 0 {
        return Err(bad(format!("magic {:02x?} does not start with two zero bytes", &bytes[..4])));
    }
    if bytes[2] != 0x08 {
        return Err(bad(format!("element type {:#04x}; only unsigned bytes (0x08) are supported", bytes[2])));
    }
    if bytes[3] != ndim {
        return Err(bad(format!(
            "{} dimension(s), expected {ndim}: an images file has 3, a labels file 1, and the images file comes first",
            bytes[3]
        )));
    }
    let head = 4 + 4 * usize::from(ndim);
    if bytes.len() < head {
        return Err(bad(format!("{} bytes, too short for a {ndim}-dimensional header", bytes.len())));
    }
    let dims: Vec<u32> = (0..usize::from(ndim))
        .map(|d| u32::from_be_bytes(bytes[4 + 4 * d..8 + 4 * d].try_into().expect("4")))
        .collect();
    let count = dims.iter().try_fold(1u64, |acc, &d| acc.checked_mul(u64::from(d)));
    let payload = (bytes.len() - head) as u64;
    if count != Some(payload) {
        let need = count.map_or_else(|| "more than 2^64".to_string(), |c| c.to_string());
        return Err(bad(format!("header dimensions {dims:?} need {need} bytes but {payload} follow the header")));
    }
    Ok(Idx { dims, data: bytes[head..].to_vec() })
}

/// MNIST images and labels as rows and their dimension (rows × columns of
/// an image): pixels scaled by [`PIXEL_SCALE`] (zeros not stored), labels
/// the digit, or ±1 for one-vs-rest with `target`.
pub fn read_mnist(images: &Path, labels: &Path, target: Option<u8>) -> Result<(Rows, u64), LoadError> {
    let img = read_idx(images, 3)?;
    let lab = read_idx(labels, 1)?;
    let (n, h, w) = (img.dims[0] as usize, img.dims[1] as usize, img.dims[2] as usize);
    if n == 0 || h == 0 || w == 0 {
        let reason = format!("{n} images of {h}×{w} pixels: nothing to convert");
        return Err(LoadError::Idx { path: images.to_path_buf(), reason });
    }
    if lab.dims[0] as usize != n {
        return Err(LoadError::IdxMismatch {
            images: images.to_path_buf(),
            image_count: n as u64,
            labels: labels.to_path_buf(),
            label_count: u64::from(lab.dims[0]),
        });
    }
    if let Some(&bad) = lab.data.iter().find(|&&l| l > 9) {
        return Err(LoadError::Idx { path: labels.to_path_buf(), reason: format!("label {bad} is not a digit 0..=9") });
    }
    let dim = h * w;
    let mut rows = Rows { offsets: Vec::with_capacity(n + 1), dim: dim as u64, ..Default::default() };
    rows.offsets.push(0);
    for r in 0..n {
        for (i, &p) in img.data[r * dim..(r + 1) * dim].iter().enumerate() {
            if p != 0 {
                rows.indices.push(i as u32);
                rows.values.push(f32::from(p) * PIXEL_SCALE);
            }
        }
        rows.offsets.push(rows.indices.len() as u64);
        let l = lab.data[r];
        rows.labels.push(match target {
            Some(t) if l == t => 1.0,
            Some(_) => -1.0,
            None => f32::from(l),
        });
        rows.qids.push(NO_QID);
    }
    Ok((rows, dim as u64))
}
