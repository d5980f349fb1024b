//! VW text into rows: lines read in parallel pieces (each its own buffer,
//! kept from block to block), each line's features hashed and crossed
//! ([`Compiled`]), its label read as the data asks (±1, 0 read as −1, or
//! class ids), and its entries sorted and summed into a row.

use super::{Compiled, Feature};
use crate::error::{ParseError, ParseErrorKind};
use crate::libsvm::Rows;
use rayon::prelude::*;

/// A line without its `\n` and one `\r` before it.
pub(crate) fn trim_end(line: &[u8]) -> &[u8] {
    let line = line.strip_suffix(b"\n").unwrap_or(line);
    line.strip_suffix(b"\r").unwrap_or(line)
}

/// What reading VW text noticed that the user should hear once.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Notes {
    /// Rows labelled 0, read as −1.
    pub zero_labels: u64,
    /// Rows with an initial value, read and ignored.
    pub initial_values: u64,
    /// Rows whose importance weight is not 1 (kept with the rows).
    pub weighted: u64,
    /// Rows of importance weight 0 (left out of training).
    pub weightless: u64,
}

impl Notes {
    /// What to tell the user, in sentences (with `multiclass`, how class
    /// labels are stored).
    pub fn sentences(&self, multiclass: bool) -> Vec<String> {
        let mut said = Vec::new();
        if multiclass {
            said.push("class labels 1..k are stored as the class ids 0..k-1".to_string());
        }
        if self.zero_labels > 0 {
            said.push(format!("{} row(s) labelled 0 were read as -1", self.zero_labels));
        }
        if self.initial_values > 0 {
            said.push(format!("{} row(s) gave an initial prediction; it is ignored", self.initial_values));
        }
        if self.weighted > 0 {
            said.push(format!(
                "{} row(s) carry an importance weight other than 1, which scales their updates{}",
                self.weighted,
                match self.weightless {
                    0 => String::new(),
                    n => format!(" ({n} of weight 0: left out of training)"),
                }
            ));
        }
        said
    }

    fn add(&mut self, o: Notes) {
        self.zero_labels += o.zero_labels;
        self.initial_values += o.initial_values;
        self.weighted += o.weighted;
        self.weightless += o.weightless;
    }
}

/// Whether rows must carry labels: to train and score on, yes; to
/// predict, no (a row without one gets a stand-in: 1, or class 0).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Labels {
    /// Every row has a label.
    Required,
    /// Labels are read where written, and not needed.
    Optional,
}

/// Reads VW text into rows (in parallel pieces), hashed as `c` says.
pub fn parse(text: &[u8], c: &Compiled, labels: Labels) -> Result<(Rows, Notes), ParseError> {
    parse_in_pieces(text, c, labels, 4 << 20)
}

/// [`parse`] in pieces of about `piece_bytes`: the same rows, or the same
/// error, whatever the size.
pub fn parse_in_pieces(
    text: &[u8],
    c: &Compiled,
    labels: Labels,
    piece_bytes: usize,
) -> Result<(Rows, Notes), ParseError> {
    let text = text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text);
    let (mut rows, mut notes) = (Rows::empty(), Notes::default());
    let reading = Reading { labels, skip_bad_lines: false };
    parse_block_into(text, 1, c, piece_bytes, reading, &mut rows, &mut Vec::new(), &mut notes)?;
    Ok((rows, notes))
}

/// How lines are read: whether labels are needed, and whether a bad line
/// is skipped (counted in the rows' `skipped`) rather than an error.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Reading {
    /// Whether rows must carry labels.
    pub labels: Labels,
    /// Skip bad lines, each recorded with its error.
    pub skip_bad_lines: bool,
}

/// Parses `text` (whole lines; `first_line` the number of its first) into
/// rows appended to `out`, in pieces of about `piece_bytes` in parallel,
/// each parsed into one of `pieces` (kept from block to block: fresh
/// buffers would cost a page fault per 4 KiB). Returns the lines read.
#[allow(clippy::too_many_arguments)]
pub(crate) fn parse_block_into(
    text: &[u8],
    first_line: u64,
    c: &Compiled,
    piece_bytes: usize,
    reading: Reading,
    out: &mut Rows,
    pieces: &mut Vec<Rows>,
    notes: &mut Notes,
) -> Result<u64, ParseError> {
    let chunks = crate::libsvm::split_lines(text, piece_bytes.max(1));
    pieces.resize_with(chunks.len().max(pieces.len()), Rows::default);
    let parsed: Vec<(Notes, u64, Option<ParseError>)> =
        chunks.par_iter().zip(pieces.par_iter_mut()).map(|(p, rows)| parse_piece(p, c, reading, rows)).collect();
    let mut line = first_line;
    for ((n, lines, error), rows) in parsed.into_iter().zip(pieces.iter_mut()) {
        // Lines count from each piece's first: placed after the ones before.
        rows.skipped.iter_mut().for_each(|e| e.line += line - 1);
        out.append(rows);
        if let Some(mut e) = error {
            e.line += line - 1;
            return Err(e);
        }
        notes.add(n);
        line += lines;
    }
    Ok(line - first_line)
}

/// One piece's rows into `rows` (cleared first); on a bad line, the rows
/// before it and the error (its line counted from the piece's first).
fn parse_piece(text: &[u8], c: &Compiled, reading: Reading, rows: &mut Rows) -> (Notes, u64, Option<ParseError>) {
    rows.clear(false);
    let mut notes = Notes::default();
    let mut scratch = Vec::new();
    let mut entries = Entries::default();
    let mut n = 0u64;
    let mut rest = text;
    while !rest.is_empty() {
        let end = memchr::memchr(b'\n', rest).map_or(rest.len(), |i| i + 1);
        let (raw, next) = rest.split_at(end);
        rest = next;
        n += 1;
        let line = trim_end(raw);
        if line.iter().all(|b| matches!(b, b' ' | b'\t')) {
            continue;
        }
        if let Err((column, kind)) = read_row(line, c, reading.labels, &mut scratch, &mut entries, rows, &mut notes) {
            let error = ParseError { line: n, column, kind };
            if reading.skip_bad_lines {
                rows.skipped.push(error);
                continue;
            }
            return (notes, n, Some(error));
        }
    }
    (notes, n, None)
}

/// One line's row appended to `rows`, or what is wrong and its column.
pub(crate) fn read_row<'a>(
    line: &'a [u8],
    c: &Compiled,
    labels: Labels,
    scratch: &mut Vec<Feature<'a>>,
    entries: &mut Entries,
    rows: &mut Rows,
    notes: &mut Notes,
) -> Result<(), (u64, ParseErrorKind)> {
    if let Some(at) = memchr::memchr(0, line) {
        return Err((at as u64 + 1, ParseErrorKind::Nul));
    }
    let head = c.entries_of(line, scratch, entries).map_err(|(at, k)| (at as u64 + 1, k))?;
    let ex = c.example(&head)?;
    let label = match (ex.label, labels) {
        (Some(l), _) => l,
        (None, Labels::Required) => return Err((1, ParseErrorKind::VwNoLabel)),
        // A stand-in: +1, or the first class.
        (None, Labels::Optional) => 1.0,
    };
    let column = head.words().first().map_or(1, |w| w.1 as u64);
    let label = if c.settings.multiclass {
        if !(label >= 1.0 && label.fract() == 0.0 && label < 16_777_216.0) {
            return Err((column, ParseErrorKind::VwClassLabel(label.to_string())));
        }
        // VW's classes 1..k are the class ids 0..k-1.
        label - 1.0
    } else if label == 0.0 {
        notes.zero_labels += 1;
        -1.0
    } else if label == 1.0 || label == -1.0 {
        label
    } else {
        return Err((column, ParseErrorKind::VwBinaryLabel(label.to_string())));
    };
    if !(ex.weight.is_finite() && ex.weight >= 0.0) {
        return Err((head.words()[1].1 as u64, ParseErrorKind::VwWeight(ex.weight.to_string())));
    }
    notes.initial_values += u64::from(ex.initial);
    if !push_row(rows, label, entries) {
        return Err((1, ParseErrorKind::NonFiniteValue));
    }
    // The weight column stays empty until a row's weight is not 1.
    notes.weighted += u64::from(ex.weight != 1.0);
    notes.weightless += u64::from(ex.weight == 0.0);
    if ex.weight != 1.0 || !rows.weights.is_empty() {
        rows.weights.resize(rows.len() - 1, 1.0);
        rows.weights.push(ex.weight);
    }
    Ok(())
}

/// A line's features before they become a row: each keyed by its index
/// then its place in the line (indices are below 2^32), so that one sort
/// of plain integers orders them by index and, among repeats, as written;
/// the values stay where they were pushed, found again by place (sorting
/// the keys alone, not (key, value) pairs, cost the sort less).
#[derive(Clone, Debug, Default)]
pub(crate) struct Entries {
    keys: Vec<u64>,
    values: Vec<f32>,
    sort: super::keysort::KeySort,
}

impl Entries {
    pub(crate) fn clear(&mut self) {
        self.keys.clear();
        self.values.clear();
    }
    #[inline]
    pub(crate) fn push(&mut self, index: u64, value: f32) {
        self.keys.push(index << 32 | self.keys.len() as u64);
        self.values.push(value);
    }
}

/// A line's features straight from the parser into [`Entries`], masked:
/// what [`Compiled::entries_of`] takes when nothing is dropped or crossed.
/// VW's order is namespace by namespace; it is the order written while
/// each namespace is one run, and `regrouped` says when one was not.
pub(crate) struct Direct<'e> {
    entries: &'e mut Entries,
    mask: u64,
    /// The namespace of the last feature (none yet: 256).
    ns: u16,
    /// The namespaces whose run has ended, as bits.
    ended: [u64; 4],
    regrouped: bool,
}

impl<'e> Direct<'e> {
    pub(crate) fn new(entries: &'e mut Entries, mask: u64) -> Self {
        Direct { entries, mask, ns: 256, ended: [0; 4], regrouped: false }
    }

    /// Whether a namespace came back after another's features.
    pub(crate) fn regrouped(&self) -> bool {
        self.regrouped
    }

    #[cold]
    fn next_namespace(&mut self, ns: u8) {
        if self.ns < 256 {
            self.ended[usize::from(self.ns >> 6)] |= 1 << (self.ns & 63);
        }
        self.regrouped |= self.ended[usize::from(ns >> 6)] & (1 << (ns & 63)) != 0;
        self.ns = u16::from(ns);
    }
}

impl<'a> super::line::Sink<'a> for Direct<'_> {
    #[inline]
    fn push(&mut self, f: Feature<'a>) {
        if self.ns != u16::from(f.ns) {
            self.next_namespace(f.ns);
        }
        self.entries.push(f.index & self.mask, f.value);
    }
}

/// Appends a row of `e` (any order, repeats allowed): sorted by
/// index, repeats summed in the order written, zero sums dropped; false
/// (nothing appended) if a sum overflows.
pub(crate) fn push_row(rows: &mut Rows, label: f32, e: &mut Entries) -> bool {
    // By key is by index, in the order written.
    e.sort.sort(&mut e.keys);
    let keys = &e.keys;
    let value = |key: u64| e.values[(key & 0xffff_ffff) as usize];
    let mut k = 0;
    while k < keys.len() {
        let key = keys[k];
        let (index, mut sum) = (key >> 32, value(key));
        k += 1;
        while k < keys.len() && keys[k] >> 32 == index {
            sum += value(keys[k]);
            k += 1;
        }
        if !sum.is_finite() {
            let start = *rows.offsets.last().unwrap_or(&0) as usize;
            rows.indices.truncate(start);
            rows.values.truncate(start);
            return false;
        }
        if sum != 0.0 {
            rows.indices.push(index as u32);
            rows.values.push(sum);
        }
    }
    rows.labels.push(label);
    rows.offsets.push(rows.indices.len() as u64);
    true
}
