//! Conversions to and from `sprs::CsMat<f32>` (compressed sparse rows).

use crate::error::LoadError;
use crate::libsvm::{NO_QID, Rows};

/// The feature matrix of `rows` as a CSR matrix with `dim` columns.
pub fn to_csmat(rows: &Rows, dim: usize) -> Result<sprs::CsMat<f32>, LoadError> {
    let indptr: Vec<usize> = rows.offsets.iter().map(|&o| o as usize).collect();
    let indices: Vec<usize> = rows.indices.iter().map(|&i| i as usize).collect();
    sprs::CsMat::try_new((rows.len(), dim), indptr, indices, rows.values.clone())
        .map_err(|(_, _, _, e)| LoadError::Invalid(format!("rows do not form a valid CSR matrix: {e}")))
}

/// Rows from a CSR (or CSC, converted) matrix and one label per row.
/// Explicit zeros are dropped, as the parsers drop them.
pub fn from_csmat(m: &sprs::CsMat<f32>, labels: &[f32]) -> Result<Rows, LoadError> {
    if labels.len() != m.rows() {
        return Err(LoadError::Invalid(format!("{} labels for a matrix of {} rows", labels.len(), m.rows())));
    }
    if m.cols() > 1 << 32 {
        return Err(LoadError::Invalid(format!("{} columns exceed 2^32", m.cols())));
    }
    let csr = m.to_csr();
    let mut rows = Rows { offsets: vec![0], dim: m.cols() as u64, ..Default::default() };
    for (r, row) in csr.outer_iterator().enumerate() {
        for (i, &v) in row.iter() {
            if !v.is_finite() {
                return Err(LoadError::Invalid(format!("row {r}, column {i}: value {v} is not finite")));
            }
            if v != 0.0 {
                rows.indices.push(i as u32);
                rows.values.push(v);
            }
        }
        rows.offsets.push(rows.indices.len() as u64);
        rows.qids.push(NO_QID);
    }
    rows.labels = labels.to_vec();
    Ok(rows)
}
