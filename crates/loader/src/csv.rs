//! CSV with a header into rows of hashed features, as VW text would give
//! them: a row `y,age,city` → `1,34,Paris` is the VW line
//! `1 | age:34 city=Paris` — a numeric cell is a feature named by its
//! column with the number as its value, any other cell the feature
//! `column=cell` with value 1, an empty cell missing — hashed with the
//! same settings ([`crate::vw::Hashing`]: bits, seed, interactions of the
//! default namespace). The label column's name is recorded with them.
//!
//! Fields are read as RFC 4180 says (the `csv` crate): quoted fields with
//! commas, doubled quotes and line ends inside. A row with another number
//! of fields than the header, a missing label, or a label that is not one
//! is an error naming the line and the column.

use crate::error::LoadError;
use crate::libsvm::Rows;
use crate::vw::{Compiled, Labels, Notes};
use std::path::Path;

/// Reads CSV `text` (from `path`, for messages) into rows, its label in
/// the column `label` (binary −1/1, 0 read as −1; or with `multiclass`
/// class ids 1..k, stored as 0..k−1), the other columns hashed as `c` says.
/// Unlabelled rows (an empty label cell, or no label column at all) are
/// allowed only if `labels` says so (they get the stand-in +1, or class 0).
pub fn parse(path: &Path, text: &[u8], label: &str, c: &Compiled, labels: Labels) -> Result<(Rows, Notes), LoadError> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let mut reader = ::csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(text);
    let fail = |line: u64, column: Option<&[u8]>, reason: String| LoadError::Csv {
        path: path.to_path_buf(),
        line,
        column: column.map(|c| String::from_utf8_lossy(c).into_owned()),
        reason,
    };
    let header = reader.byte_headers().map_err(|e| fail(1, None, e.to_string()))?.clone();
    if header.is_empty() {
        return Err(fail(1, None, "no header line (CSV input needs one naming its columns)".into()));
    }
    let at = header.iter().position(|h| h == label.as_bytes());
    if at.is_none() && labels == Labels::Required {
        let names: Vec<String> = header.iter().map(|h| format!("\"{}\"", String::from_utf8_lossy(h))).collect();
        return Err(fail(
            1,
            None,
            format!("no column named \"{label}\" for the label; the columns: {}", names.join(", ")),
        ));
    }
    let multiclass = c.settings().multiclass;
    let (mut rows, mut notes) = (Rows::empty(), Notes::default());
    let mut record = ::csv::ByteRecord::new();
    let mut owned: Vec<Vec<u8>> = Vec::new();
    let mut entries = crate::vw::Entries::default();
    loop {
        match reader.read_byte_record(&mut record) {
            Ok(false) => break,
            Ok(true) => {}
            Err(e) => {
                let line = e.position().map_or(0, |p| p.line());
                return Err(fail(line, None, e.to_string()));
            }
        }
        let line = record.position().map_or(0, |p| p.line());
        if record.len() != header.len() {
            return Err(fail(
                line,
                None,
                format!("{} fields, and the header names {} columns", record.len(), header.len()),
            ));
        }
        let cell = at.map(|k| record[k].trim_ascii()).filter(|c| !c.is_empty());
        let y = match (cell, labels) {
            (Some(cell), _) => {
                let text = String::from_utf8_lossy(cell);
                let v: Option<f32> = text.parse().ok().filter(|v: &f32| v.is_finite());
                let bad = |why: &str| fail(line, Some(label.as_bytes()), format!("label \"{text}\": {why}"));
                match v {
                    None => return Err(bad("not a number")),
                    Some(v) if multiclass => {
                        if !(v >= 1.0 && v.fract() == 0.0 && v < 16_777_216.0) {
                            return Err(bad("give a class id from 1 to 16777215"));
                        }
                        v - 1.0
                    }
                    Some(0.0) => {
                        notes.zero_labels += 1;
                        -1.0
                    }
                    Some(v) if v == 1.0 || v == -1.0 => v,
                    Some(_) => {
                        return Err(bad("binary data takes -1 or 1 (0 is read as -1); class ids with `multiclass`"));
                    }
                }
            }
            (None, Labels::Optional) => 1.0,
            (None, Labels::Required) => return Err(fail(line, Some(label.as_bytes()), "no label".into())),
        };
        // Each other non-empty cell: a number under its column's name, or
        // the word `column=cell`.
        owned.clear();
        // In column order: (column, its number) or (column, NAN: its word
        // is the next of `owned`).
        let mut cells: Vec<(usize, f32)> = Vec::new();
        for (k, (name, cell)) in header.iter().zip(record.iter()).enumerate() {
            if Some(k) == at || cell.is_empty() {
                continue;
            }
            let number = std::str::from_utf8(cell.trim_ascii()).ok().and_then(|t| t.parse::<f32>().ok());
            match number {
                Some(v) if !v.is_finite() => {
                    return Err(fail(
                        line,
                        Some(name),
                        format!("value \"{}\" is not finite", String::from_utf8_lossy(cell)),
                    ));
                }
                Some(v) => cells.push((k, v)),
                None => {
                    let mut word = name.to_vec();
                    word.push(b'=');
                    word.extend_from_slice(cell);
                    owned.push(word);
                    cells.push((k, f32::NAN));
                }
            }
        }
        let mut words = owned.iter();
        let named: Vec<(&[u8], f32)> = cells
            .iter()
            .map(
                |&(k, v)| if v.is_nan() { (words.next().map_or(&[][..], Vec::as_slice), 1.0) } else { (&header[k], v) },
            )
            .collect();
        entries.clear();
        c.named_features(&named, &mut |i, v| entries.push(i, v));
        if !crate::vw::push_row(&mut rows, y, &mut entries) {
            return Err(fail(line, None, "a feature's values sum to a number too large for 32 bits".into()));
        }
    }
    Ok((rows, notes))
}
