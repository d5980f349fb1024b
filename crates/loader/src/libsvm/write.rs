//! Rows back as LIBSVM text (`export`), one-based unless told otherwise;
//! every value written so that it reads back as the same f32.

use super::*;

/// Formats `v` so that parsing the text gives back the same f32: the
/// shortest decimal that round-trips, in exponent form only for very small
/// or very large magnitudes.
pub fn format_f32(v: f32, out: &mut impl std::io::Write) -> std::io::Result<()> {
    if v == 0.0 || (1e-4..1e15).contains(&v.abs()) { write!(out, "{v}") } else { write!(out, "{v:e}") }
}

/// Writes one row as a LIBSVM line: the label (or `ids` joined by commas,
/// for a multi-label row), `qid:` if any, then `index:value` with indices
/// counted from `base` (1, the convention, or 0). A multi-label row with
/// nothing in it is written as an explicit zero (` 1:0`), not a blank line.
pub fn write_row(
    out: &mut impl std::io::Write,
    label: Result<f32, &[u32]>,
    qid: u64,
    entries: impl Iterator<Item = (usize, f32)>,
    base: u8,
) -> std::io::Result<()> {
    match label {
        Ok(l) => format_f32(l, out)?,
        Err(ids) => {
            for (k, id) in ids.iter().enumerate() {
                if k > 0 {
                    out.write_all(b",")?;
                }
                write!(out, "{id}")?;
            }
        }
    }
    if qid != NO_QID {
        write!(out, " qid:{qid}")?;
    }
    let mut empty = matches!(label, Err([])) && qid == NO_QID;
    for (i, v) in entries {
        write!(out, " {}:", i as u64 + u64::from(base))?;
        format_f32(v, out)?;
        empty = false;
    }
    if empty {
        // A multi-label row with no label, no qid and no feature would be a
        // blank line, which readers skip: an explicit zero keeps it a row.
        write!(out, " {base}:0")?;
    }
    out.write_all(b"\n")
}

/// Writes `rows` as LIBSVM text, indices counted from `base`; parsing the
/// text back with the same base gives the same rows.
pub fn write_rows(rows: &Rows, base: u8, out: &mut impl std::io::Write) -> std::io::Result<()> {
    for r in 0..rows.len() {
        let label = if rows.label_offsets.is_empty() {
            Ok(rows.labels[r])
        } else {
            Err(&rows.multilabels[rows.label_offsets[r] as usize..rows.label_offsets[r + 1] as usize])
        };
        let (s, e) = (rows.offsets[r] as usize, rows.offsets[r + 1] as usize);
        let qid = rows.qids.get(r).copied().unwrap_or(NO_QID);
        let entries = rows.indices[s..e].iter().zip(&rows.values[s..e]).map(|(&i, &v)| (i as usize, v));
        write_row(out, label, qid, entries, base)?;
    }
    Ok(())
}
