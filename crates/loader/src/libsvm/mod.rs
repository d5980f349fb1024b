//! LIBSVM/svmlight text: `<label> [qid:<integer>] <index>:<value> ... [# comment]`.
//!
//! The parser works on bytes, not strings (comments may hold any bytes), one
//! line at a time, into a columnar [`Rows`] block. Large inputs are split at
//! line boundaries and the pieces parsed in parallel ([`parse_parallel`]);
//! the result is the same as a whole-input parse for every split point.
//!
//! Decisions (see `docs/libsvm.md`): explicit zeros (`3:0`) are validated
//! and then dropped, since they change no dot product; a UTF-8 byte-order
//! mark at the very start of the input is skipped; an input with no rows is
//! an error at conversion (`LoadError::Empty`), not here.

use crate::error::{ParseError, ParseErrorKind};
use crate::number::{NumberError, parse_f32};
use rayon::prelude::*;

mod line;
mod write;

pub(crate) use line::LineParser;
pub use write::{format_f32, write_row, write_rows};

/// How to read the text.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ParseOptions {
    /// Indices start at 0 (the default is 1).
    pub zero_based: bool,
    /// Sort each row's features by index instead of rejecting unsorted rows.
    /// Duplicates are still an error.
    pub sort_indices: bool,
    /// Labels are comma-separated lists of non-negative integer class ids.
    pub multilabel: bool,
    /// Skip malformed lines (each is counted and reported) instead of
    /// stopping at the first.
    pub skip_bad_lines: bool,
    /// A line whose first token is a feature is a row without a label
    /// (rows to predict), given the stand-in label +1, instead of an error.
    pub unlabeled_rows: bool,
}

/// The index base recorded for data that never was text (MNIST, generated
/// sets): the LIBSVM convention, so that `export` writes such data as
/// LIBSVM tools expect and `convert` reads it back unchanged.
pub const DEFAULT_BASE: u8 = 1;

/// No `qid` on this row.
pub const NO_QID: u64 = u64::MAX;

/// Parsed rows in columnar form: row `r` has features
/// `indices[offsets[r]..offsets[r+1]]` (zero-based, strictly increasing) with
/// `values` alongside.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Rows {
    /// One label per row (single-label mode).
    pub labels: Vec<f32>,
    /// Multi-label mode: row `r`'s classes are
    /// `multilabels[label_offsets[r]..label_offsets[r+1]]`.
    pub label_offsets: Vec<u64>,
    /// Multi-label mode: the class ids.
    pub multilabels: Vec<u32>,
    /// One group id per row, [`NO_QID`] where the row has none.
    pub qids: Vec<u64>,
    /// One importance weight per row (finite, ≥ 0), or none: every row's
    /// is 1 (formats without weights leave it empty).
    pub weights: Vec<f32>,
    /// Row starts into `indices`/`values`, one more than there are rows.
    pub offsets: Vec<u64>,
    /// Feature indices, zero-based.
    pub indices: Vec<u32>,
    /// Feature values, finite and non-zero.
    pub values: Vec<f32>,
    /// Lines skipped with `skip_bad_lines`, with their errors.
    pub skipped: Vec<ParseError>,
    /// The dimension the source declared (0: none), at least one past the
    /// largest index: for text, the largest index it wrote, explicit zeros
    /// included (they are not stored, so text can state its dimension with
    /// a zero at the last feature, as `export` does); for MNIST the image
    /// size; for a matrix its columns.
    pub dim: u64,
}

impl Rows {
    fn new(multilabel: bool) -> Self {
        Rows { offsets: vec![0], label_offsets: if multilabel { vec![0] } else { Vec::new() }, ..Default::default() }
    }

    /// No rows, single-label.
    pub fn empty() -> Self {
        Rows::new(false)
    }

    /// Checks what the writers rely on, for rows built by hand rather than
    /// by a parser: offsets start at 0 and never decrease, and end at the
    /// number of entries; one value per index; indices strictly increasing
    /// within a row; one label (and one query id, if any) per row, or label
    /// sets by offsets in multi-label mode; values finite and non-zero.
    pub fn check_structure(&self) -> Result<(), String> {
        let o = &self.offsets;
        if o.first() != Some(&0) {
            return Err("row offsets do not start at 0".into());
        }
        if let Some(w) = o.windows(2).position(|w| w[1] < w[0]) {
            return Err(format!("row offsets decrease at row {w}"));
        }
        if o[o.len() - 1] != self.indices.len() as u64 || self.values.len() != self.indices.len() {
            return Err(format!(
                "offsets end at {} but there are {} indices and {} values",
                o[o.len() - 1],
                self.indices.len(),
                self.values.len()
            ));
        }
        let n = self.len();
        for r in 0..n {
            let row = &self.indices[o[r] as usize..o[r + 1] as usize];
            if let Some(k) = row.windows(2).position(|w| w[1] <= w[0]) {
                return Err(format!("row {r}: index {} follows {} (indices must increase)", row[k + 1], row[k]));
            }
        }
        // Counted without a branch per value (it vectorises: a conversion
        // checks every batch it writes); searched only when one is bad.
        let bad = |v: &f32| u32::from(!(v.is_finite() & (*v != 0.0)));
        if self.values.chunks(1 << 20).any(|c| c.iter().map(bad).sum::<u32>() > 0)
            && let Some(v) = self.values.iter().find(|v| bad(v) == 1)
        {
            return Err(format!("value {v} (values must be finite and non-zero)"));
        }
        if self.label_offsets.is_empty() {
            if self.labels.len() != n {
                return Err(format!("{} labels for {n} rows", self.labels.len()));
            }
        } else {
            let lo = &self.label_offsets;
            if lo.len() != n + 1
                || lo[0] != 0
                || lo.windows(2).any(|w| w[1] < w[0])
                || lo[n] != self.multilabels.len() as u64
            {
                return Err("label-set offsets do not match the rows and class ids".into());
            }
        }
        if !self.qids.is_empty() && self.qids.len() != n {
            return Err(format!("{} query ids for {n} rows", self.qids.len()));
        }
        if !self.weights.is_empty() && self.weights.len() != n {
            return Err(format!("{} weights for {n} rows", self.weights.len()));
        }
        if let Some(r) = self.weights.iter().position(|w| !(w.is_finite() && *w >= 0.0)) {
            return Err(format!("row {r}: weight {} (weights must be finite and >= 0)", self.weights[r]));
        }
        Ok(())
    }

    /// Number of rows.
    pub fn len(&self) -> usize {
        self.offsets.len() - 1
    }

    /// Whether there are no rows.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Whether any row has a `qid`.
    pub fn has_qids(&self) -> bool {
        self.qids.iter().any(|&q| q != NO_QID)
    }

    /// Whether any row's importance weight is not 1.
    pub fn has_weights(&self) -> bool {
        self.weights.iter().any(|&w| w != 1.0)
    }

    /// Row `r`'s importance weight.
    pub fn weight(&self, r: usize) -> f32 {
        self.weights.get(r).copied().unwrap_or(1.0)
    }

    /// One past the largest index (stored, or mentioned by an explicit
    /// zero), 0 for no features.
    pub fn min_dim(&self) -> u64 {
        let mut d = self.dim;
        for r in 0..self.len() {
            let (s, e) = (self.offsets[r] as usize, self.offsets[r + 1] as usize);
            if e > s {
                d = d.max(u64::from(self.indices[e - 1]) + 1);
            }
        }
        d
    }

    /// Empties the rows, keeping the buffers' capacity (for rows read
    /// batch by batch into the same buffers).
    pub fn clear(&mut self, multilabel: bool) {
        self.offsets.clear();
        self.offsets.push(0);
        self.label_offsets.clear();
        if multilabel {
            self.label_offsets.push(0);
        }
        self.labels.clear();
        self.multilabels.clear();
        self.qids.clear();
        self.weights.clear();
        self.indices.clear();
        self.values.clear();
        self.skipped.clear();
        self.dim = 0;
    }

    /// Appends a copy of `other`'s rows after these.
    pub fn append(&mut self, other: &Rows) {
        let base = self.indices.len() as u64;
        self.indices.extend_from_slice(&other.indices);
        self.values.extend_from_slice(&other.values);
        self.append_rows(other, base);
    }

    /// Appends everything of `pieces` but their features, whose first ones
    /// are already at their `spans`' `to`: the per-row columns in
    /// parallel (on one thread this join of a block's rows was 9 ms of a
    /// 409 ms two-thread parse), the label sets in order.
    fn append_pieces(&mut self, pieces: &[Rows], spans: &[Span]) {
        let offsets: Vec<&[u64]> = pieces.iter().map(|p| &p.offsets[1..]).collect();
        par_append(&mut self.offsets, &offsets, |k, o| o + spans[k].to as u64);
        let labels: Vec<&[f32]> = pieces.iter().map(|p| &p.labels[..]).collect();
        par_append(&mut self.labels, &labels, |_, l| l);
        let qids: Vec<&[u64]> = pieces.iter().map(|p| &p.qids[..]).collect();
        par_append(&mut self.qids, &qids, |_, q| q);
        let mut before = self.len() - pieces.iter().map(Rows::len).sum::<usize>();
        for piece in pieces {
            self.append_weights(before, piece);
            self.append_label_sets(piece);
            before += piece.len();
        }
    }

    /// Appends everything of `other` but its features, whose first is
    /// already at `entry_base` of these columns.
    fn append_rows(&mut self, other: &Rows, entry_base: u64) {
        self.offsets.extend(other.offsets[1..].iter().map(|o| o + entry_base));
        self.labels.extend_from_slice(&other.labels);
        self.qids.extend_from_slice(&other.qids);
        self.append_weights(self.len() - other.len(), other);
        self.append_label_sets(other);
    }

    /// Appends `other`'s weights after the `before` rows that precede its
    /// own: the column stays empty while no row has a weight, and holds
    /// one per row once any has.
    fn append_weights(&mut self, before: usize, other: &Rows) {
        if self.weights.is_empty() && other.weights.is_empty() {
            return;
        }
        self.weights.resize(before, 1.0);
        match other.weights.is_empty() {
            true => self.weights.resize(before + other.len(), 1.0),
            false => self.weights.extend_from_slice(&other.weights),
        }
    }

    /// Appends `other`'s label sets, skipped lines and dimension: what
    /// follows its rows' own columns.
    fn append_label_sets(&mut self, other: &Rows) {
        if let Some(&lb) = self.label_offsets.last() {
            self.label_offsets.extend(other.label_offsets[1..].iter().map(|o| o + lb));
        }
        self.multilabels.extend_from_slice(&other.multilabels);
        self.skipped.extend_from_slice(&other.skipped);
        self.dim = self.dim.max(other.dim);
    }
}

/// Parses a whole input on one thread. `first_line` is the 1-based number of
/// the first line of `text` (for error positions).
pub fn parse(text: &[u8], opts: &ParseOptions) -> Result<Rows, ParseError> {
    let text = strip_bom(text);
    let mut rows = Rows::new(opts.multilabel);
    parse_lines_into(text, 1, &mut LineParser::new(opts), &mut rows)?;
    Ok(rows)
}

/// Splits `text` into pieces of about `chunk_bytes` at line boundaries,
/// parses them in parallel, each straight into its place in the result.
/// Errors name the same line and column as [`parse`] would; the first
/// error in input order wins.
pub fn parse_parallel(text: &[u8], opts: &ParseOptions, chunk_bytes: usize) -> Result<Rows, ParseError> {
    let text = strip_bom(text);
    let mut rows = Rows::new(opts.multilabel);
    parse_block_into(text, 1, opts, chunk_bytes, &mut rows, &mut Vec::new())?;
    Ok(rows)
}

/// [`parse_parallel`] on a piece of a larger input that starts at line
/// `first_line` (1-based) and at a line start (a byte-order mark is not
/// stripped: only the input's first piece may have one), appending the
/// rows to `out` (a streaming conversion's batch). Errors and skipped lines
/// carry the input's line numbers. `pieces` holds each piece's per-row
/// columns (kept by the caller, buffers and all, for the next block).
/// Returns the number of line ends in `text` (counted by the parse: no
/// pass of its own). After an error `out` holds part of the block, as
/// after a one-thread parse stopped at the bad line: callers drop it.
///
/// On more than one thread the features, nearly all of the output, are
/// parsed straight into `out`: each piece gets a place there as long as
/// its count of `:` (every stored feature is written with its own), the
/// places are filled in parallel, then closed up where a piece held fewer
/// features (explicit zeros, `qid:`, colons in comments). So the features
/// are written once, as on one thread; a join would copy them again, into
/// fresh pages, which cost this machine 110–127 ms of 637 on 512 MB.
pub(crate) fn parse_block_into(
    text: &[u8],
    first_line: u64,
    opts: &ParseOptions,
    chunk_bytes: usize,
    out: &mut Rows,
    pieces: &mut Vec<Rows>,
) -> Result<u64, ParseError> {
    if one_piece(text, chunk_bytes) {
        return parse_lines_into(text, first_line, &mut LineParser::new(opts), out);
    }
    let chunks = split_lines(text, chunk_bytes.max(1));
    // A stored feature is a token of at least three bytes ("1:1"), so a
    // piece's third bounds its features too: the bound that limits what a
    // text of nothing but colons (in comments) can ask for.
    let places: Vec<usize> = chunks.par_iter().map(|c| count_byte(c, b':').min(c.len() / 3)).collect();
    let base = out.indices.len();
    let end = base + places.iter().sum::<usize>();
    grow_zeroed(&mut out.indices, end);
    grow_zeroed(&mut out.values, end);
    pieces.resize_with(chunks.len(), Rows::default);
    let indices = consecutive(&mut out.indices[base..], places.iter().copied());
    let values = consecutive(&mut out.values[base..], places.iter().copied());
    let slots: Vec<Slot<'_>> =
        indices.into_iter().zip(values).map(|(indices, values)| Slot { indices, values, len: 0 }).collect();
    let results: Vec<Result<(u64, usize), ParseError>> = chunks
        .par_iter()
        .zip(pieces.par_iter_mut())
        .zip(slots.into_par_iter())
        .map(|((chunk, rows), mut slot)| {
            rows.clear(opts.multilabel);
            let lines = parse_lines(chunk, 1, &mut LineParser::new(opts), rows, &mut slot)?;
            Ok((lines, slot.len))
        })
        .collect();
    // Line numbers restart in every piece: each piece's count from its
    // parse places the next. The first error in input order wins (the
    // pieces before it were parsed whole, and are joined).
    let (mut lines, mut from, mut to) = (first_line - 1, base, base);
    let (mut spans, mut failed) = (Vec::with_capacity(pieces.len()), None);
    for ((piece, result), place) in pieces.iter_mut().zip(results).zip(places) {
        match result {
            Ok((n, len)) => {
                piece.skipped.iter_mut().for_each(|e| e.line += lines);
                lines += n;
                spans.push(Span { from, to, len });
                (from, to) = (from + place, to + len);
            }
            Err(mut e) => {
                e.line += lines;
                failed = Some(e);
                break;
            }
        }
    }
    close_up(&mut out.indices, &spans);
    close_up(&mut out.values, &spans);
    out.indices.truncate(to);
    out.values.truncate(to);
    out.append_pieces(&pieces[..spans.len()], &spans);
    match failed {
        Some(e) => Err(e),
        None => Ok(lines - (first_line - 1)),
    }
}

/// Where a piece's features were parsed (`from`, its place) and where they
/// belong (`to`, right after the piece before it), `len` of them.
struct Span {
    from: usize,
    to: usize,
    len: usize,
}

/// Closes up the gaps a piece leaves when it stores fewer features than
/// its place holds, moving every later piece down by the gaps before it,
/// the pieces in parallel (one move of everything after the first gap,
/// on one thread, was 24 ms of a 428 ms two-thread parse of the bench's
/// text, whose explicit zeros leave such gaps). Each piece's destination
/// is its own slice; its source lies inside that slice except for its
/// last `min(from − to, len)` features, which the previous piece's
/// destination may cover: those are copied out first.
fn close_up<T: Copy + Send + Sync>(col: &mut [T], spans: &[Span]) {
    let Some(first) = spans.iter().position(|s| s.from != s.to) else { return };
    let spans = &spans[first..];
    let tails: Vec<Vec<T>> = spans
        .par_iter()
        .map(|s| {
            let end = s.from + s.len;
            col[end - (s.from - s.to).min(s.len)..end].to_vec()
        })
        .collect();
    let slots = consecutive(&mut col[spans[0].to..], spans.iter().map(|s| s.len));
    slots.into_par_iter().zip(spans).zip(&tails).for_each(|((slot, s), tail)| {
        let shift = s.from - s.to;
        if shift < s.len {
            slot.copy_within(shift.., 0);
        }
        let n = slot.len();
        slot[n - tail.len()..].copy_from_slice(tail);
    });
}

/// Appends the pieces' columns to `dst`, mapped by `f(piece, value)`, the
/// pieces in parallel.
fn par_append<T: Copy + Default + Send + Sync>(dst: &mut Vec<T>, parts: &[&[T]], f: impl Fn(usize, T) -> T + Sync) {
    let base = dst.len();
    grow_zeroed(dst, base + parts.iter().map(|p| p.len()).sum::<usize>());
    let slots = consecutive(&mut dst[base..], parts.iter().map(|p| p.len()));
    slots.into_par_iter().zip(parts).enumerate().for_each(|(k, (slot, part))| {
        slot.iter_mut().zip(part.iter()).for_each(|(d, &v)| *d = f(k, v));
    });
}

/// The first `lens` elements of `s` as consecutive slices of those
/// lengths, one for each, to fill in parallel.
fn consecutive<T>(mut s: &mut [T], lens: impl Iterator<Item = usize>) -> Vec<&mut [T]> {
    lens.map(|n| {
        let (slot, rest) = std::mem::take(&mut s).split_at_mut(n);
        s = rest;
        slot
    })
    .collect()
}

/// Where the parser puts a row's features.
pub(crate) trait Entries {
    fn len(&self) -> usize;
    fn push(&mut self, index: u32, value: f32);
    fn truncate(&mut self, len: usize);
}

/// The growing columns of one-thread parsing.
pub(crate) struct Columns {
    pub(crate) indices: Vec<u32>,
    pub(crate) values: Vec<f32>,
}

impl Entries for Columns {
    fn len(&self) -> usize {
        self.indices.len()
    }
    #[inline]
    fn push(&mut self, index: u32, value: f32) {
        self.indices.push(index);
        self.values.push(value);
    }
    fn truncate(&mut self, len: usize) {
        self.indices.truncate(len);
        self.values.truncate(len);
    }
}

/// A piece's place in the result, as long as the piece's bound on its
/// features: a push past it would be a bug in that bound, and panics on
/// the slice's own check.
struct Slot<'a> {
    indices: &'a mut [u32],
    values: &'a mut [f32],
    len: usize,
}

impl Entries for Slot<'_> {
    fn len(&self) -> usize {
        self.len
    }
    #[inline]
    fn push(&mut self, index: u32, value: f32) {
        self.indices[self.len] = index;
        self.values[self.len] = value;
        self.len += 1;
    }
    fn truncate(&mut self, len: usize) {
        self.len = len;
    }
}

/// Lengthens `v` to `len` with zeros. A fresh column is allocated zeroed,
/// which costs nothing until a page is first written (by the thread that
/// parses into it); a reused one is written over, on the pool.
fn grow_zeroed<T: Copy + Default + Send>(v: &mut Vec<T>, len: usize) {
    if v.is_empty() && v.capacity() < len {
        *v = vec![T::default(); len];
    } else {
        let more = len.saturating_sub(v.len());
        v.par_extend(rayon::iter::repeat_n(T::default(), more));
    }
}

/// How many bytes of `text` are `b`: counted in blocks of 255 into a byte,
/// which the compiler turns into vector compares and adds.
fn count_byte(text: &[u8], b: u8) -> usize {
    text.chunks(255).map(|c| usize::from(c.iter().fold(0u8, |n, &x| n + u8::from(x == b)))).sum()
}

/// Whether `text` is parsed in one piece: one thread, or a short text.
fn one_piece(text: &[u8], chunk_bytes: usize) -> bool {
    rayon::current_num_threads() == 1 || text.len() <= chunk_bytes
}

/// Splits `text` into consecutive pieces of at least `target` bytes (except
/// the last), each ending just after a `\n`, so no line is cut.
pub fn split_lines(text: &[u8], target: usize) -> Vec<&[u8]> {
    let mut out = Vec::new();
    let mut start = 0;
    while start < text.len() {
        let want = start.saturating_add(target);
        if want >= text.len() {
            out.push(&text[start..]);
            break;
        }
        match memchr::memchr(b'\n', &text[want..]) {
            Some(p) => {
                let end = want + p + 1;
                out.push(&text[start..end]);
                start = end;
            }
            None => {
                out.push(&text[start..]);
                break;
            }
        }
    }
    out
}

fn strip_bom(text: &[u8]) -> &[u8] {
    text.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(text)
}

/// [`parse_lines`] into `rows`' own feature columns.
fn parse_lines_into(text: &[u8], first_line: u64, p: &mut LineParser, rows: &mut Rows) -> Result<u64, ParseError> {
    let mut columns = Columns { indices: std::mem::take(&mut rows.indices), values: std::mem::take(&mut rows.values) };
    let lines = parse_lines(text, first_line, p, rows, &mut columns);
    (rows.indices, rows.values) = (columns.indices, columns.values);
    lines
}

/// Parses `text`'s lines into `rows`, numbering them from `first_line`;
/// returns the number of line ends (`\n`) it held, which places the text
/// that follows.
fn parse_lines(
    text: &[u8],
    first_line: u64,
    p: &mut LineParser,
    rows: &mut Rows,
    entries: &mut impl Entries,
) -> Result<u64, ParseError> {
    let mut line_no = first_line;
    let mut ends = 0u64;
    let mut start = 0;
    while start < text.len() {
        let end = memchr::memchr(b'\n', &text[start..]).map_or(text.len(), |p| start + p);
        // CRLF: the CR belongs to the line end only when a LF follows.
        let line = if end < text.len() {
            text[start..end].strip_suffix(b"\r").unwrap_or(&text[start..end])
        } else {
            &text[start..end]
        };
        if let Err(kind_col) = p.line(line, rows, entries) {
            let err = ParseError { line: line_no, column: kind_col.1 as u64 + 1, kind: kind_col.0 };
            if p.opts.skip_bad_lines {
                rows.skipped.push(err);
            } else {
                return Err(err);
            }
        }
        line_no += 1;
        ends += u64::from(end < text.len());
        start = end + 1;
    }
    Ok(ends)
}

pub(crate) type LineResult = Result<(), (ParseErrorKind, usize)>;
