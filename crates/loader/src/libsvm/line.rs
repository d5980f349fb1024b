//! One line of LIBSVM text into a row: the label (or label set), the
//! optional query id, and each `index:value`, with the fast path for plain
//! features and every refusal's kind and column.

use super::*;

pub(crate) struct LineParser<'o> {
    pub(super) opts: &'o ParseOptions,
    /// (index, value, column) of the current row, for sorting.
    scratch: Vec<(u32, f32, usize)>,
}

impl<'o> LineParser<'o> {
    pub(crate) fn new(opts: &'o ParseOptions) -> Self {
        LineParser { opts, scratch: Vec::new() }
    }

    /// Parses one line (without its line end). On error nothing is appended.
    pub(crate) fn line(&mut self, line: &[u8], rows: &mut Rows, entries: &mut impl Entries) -> LineResult {
        // A CR anywhere but in CRLF would be a line end to another reader.
        if let Some(c) = memchr::memchr2(b'\r', 0, line) {
            return Err((if line[c] == 0 { ParseErrorKind::Nul } else { ParseErrorKind::LoneCr }, c));
        }
        // Everything after '#' is a comment, whatever its bytes.
        let body = match memchr::memchr(b'#', line) {
            Some(h) => &line[..h],
            None => line,
        };
        let mut toks = Tokens { s: body, i: 0 };
        let Some((lc, label)) = toks.next() else { return Ok(()) };

        let mark = (rows.labels.len(), rows.multilabels.len(), entries.len());
        let r = self.row(lc, label, &mut toks, rows, entries);
        if r.is_err() {
            // Roll back whatever the bad row appended.
            rows.labels.truncate(mark.0);
            rows.multilabels.truncate(mark.1);
            entries.truncate(mark.2);
        }
        r
    }

    pub(super) fn row(
        &mut self,
        lc: usize,
        label: &[u8],
        toks: &mut Tokens<'_>,
        rows: &mut Rows,
        entries: &mut impl Entries,
    ) -> LineResult {
        // A first token that is a feature: a row with no label, which
        // scikit-learn's multi-label reader (and writer) takes for an empty
        // label set.
        if label.contains(&b':') && !label.starts_with(b"qid:") {
            if self.opts.unlabeled_rows && !self.opts.multilabel {
                // A row to predict: the label is a stand-in.
                rows.labels.push(1.0);
            } else if !self.opts.multilabel {
                return Err((ParseErrorKind::MissingLabel, lc));
            }
            toks.i = lc;
        } else if self.opts.multilabel {
            for (off, part) in split_commas(label) {
                let id = parse_uint(part).ok_or((ParseErrorKind::BadClassId, lc + off))?;
                let id = u32::try_from(id).map_err(|_| (ParseErrorKind::BadClassId, lc + off))?;
                rows.multilabels.push(id);
            }
        } else {
            let v = parse_f32(label).map_err(|e| (label_error(label, e), lc + error_offset(e)))?;
            rows.labels.push(v);
        }

        let mut qid = NO_QID;
        let mut first = true;
        let mut prev: Option<u32> = None;
        let mut unsorted = false;
        self.scratch.clear();
        loop {
            // Plain `digits:decimal` features take the one-pass path; anything
            // else (qid, exponents, every error) goes through the general one.
            let (col, index, v) = if let Some((col, raw, v, end)) = toks.fast_feature() {
                toks.i = end;
                (col, self.index_from(raw).map_err(|k| (k, col))?, v)
            } else {
                let Some((col, tok)) = toks.next() else { break };
                match self.general_feature(col, tok, toks, &mut first, &mut qid)? {
                    Some((index, v)) => (col, index, v),
                    None => continue,
                }
            };
            first = false;
            if let Some(p) = prev
                && index <= p
            {
                if index == p {
                    return Err((ParseErrorKind::DuplicateIndex { index: self.external(index) }, col));
                }
                if !self.opts.sort_indices {
                    return Err((
                        ParseErrorKind::UnsortedIndex { index: self.external(index), previous: self.external(p) },
                        col,
                    ));
                }
                unsorted = true;
            }
            prev = Some(prev.map_or(index, |p| p.max(index)));
            if self.opts.sort_indices {
                // Zeros stay until after sorting, so they still count as duplicates.
                self.scratch.push((index, v, col));
            } else if v != 0.0 {
                entries.push(index, v);
            }
        }
        if unsorted {
            self.scratch.sort_unstable_by_key(|e| e.0);
            for w in self.scratch.windows(2) {
                if w[0].0 == w[1].0 {
                    return Err((ParseErrorKind::DuplicateIndex { index: self.external(w[1].0) }, w[0].2.max(w[1].2)));
                }
            }
        }
        for &(i, v, _) in self.scratch.iter().filter(|e| e.1 != 0.0) {
            entries.push(i, v);
        }
        rows.offsets.push(entries.len() as u64);
        if let Some(p) = prev {
            rows.dim = rows.dim.max(u64::from(p) + 1);
        }
        if self.opts.multilabel {
            rows.label_offsets.push(rows.multilabels.len() as u64);
        }
        rows.qids.push(qid);
        Ok(())
    }

    /// One token by the general rules: a qid (returns `None`), a feature,
    /// or the precise error.
    #[inline(never)]
    pub(super) fn general_feature(
        &self,
        col: usize,
        tok: &[u8],
        toks: &Tokens<'_>,
        first: &mut bool,
        qid: &mut u64,
    ) -> Result<Option<(u32, f32)>, (ParseErrorKind, usize)> {
        {
            let Some(colon) = memchr::memchr(b':', tok) else {
                let kind = if toks.peek_starts_with(b":") || tok == b":" {
                    ParseErrorKind::SpaceAroundColon
                } else {
                    ParseErrorKind::ExpectedFeature
                };
                return Err((kind, col));
            };
            let (name, value) = (&tok[..colon], &tok[colon + 1..]);
            if name.starts_with(b"qid") {
                if name != b"qid" {
                    return Err((ParseErrorKind::BadQid, col));
                }
                if !*first {
                    return Err((ParseErrorKind::MisplacedQid, col));
                }
                *qid = parse_uint(value).filter(|&q| q != NO_QID).ok_or((ParseErrorKind::BadQid, col + 4))?;
                *first = false;
                return Ok(None);
            }
            if name.is_empty() {
                return Err((ParseErrorKind::MissingIndex, col));
            }
            if value.is_empty() {
                return Err((
                    if toks.peek_is_number() { ParseErrorKind::SpaceAroundColon } else { ParseErrorKind::MissingValue },
                    col + colon + 1,
                ));
            }
            let index = self.index(name).map_err(|k| (k, col))?;
            let v = parse_f32(value).map_err(|e| (value_error(e), col + colon + 1 + error_offset(e)))?;
            Ok(Some((index, v)))
        }
    }

    /// A feature index token, converted to zero-based.
    #[inline]
    pub(super) fn index(&self, name: &[u8]) -> Result<u32, ParseErrorKind> {
        // One pass for the common case: up to 19 digits cannot overflow u64.
        let mut v = 0u64;
        let mut digits = !name.is_empty() && name.len() <= 19;
        for &b in name {
            let d = b.wrapping_sub(b'0');
            digits &= d < 10;
            v = v.wrapping_mul(10).wrapping_add(u64::from(d));
        }
        if !digits {
            return Err(self.index_error(name));
        }
        self.index_from(v)
    }

    /// The zero-based index of an index the file wrote as `v`.
    #[inline(always)]
    pub(super) fn index_from(&self, v: u64) -> Result<u32, ParseErrorKind> {
        let i = if self.opts.zero_based { v } else { v.checked_sub(1).ok_or(ParseErrorKind::ZeroIndexOneBased)? };
        u32::try_from(i).map_err(|_| ParseErrorKind::IndexTooLarge)
    }

    #[cold]
    pub(super) fn index_error(&self, name: &[u8]) -> ParseErrorKind {
        if name.iter().all(u8::is_ascii_digit) {
            ParseErrorKind::IndexTooLarge // more than 19 digits
        } else if name[0] == b'-' {
            ParseErrorKind::NegativeIndex
        } else if name.iter().any(|&b| b == b'.' || b == b'e' || b == b'E') && parse_f32(name).is_ok() {
            ParseErrorKind::FloatIndex
        } else {
            ParseErrorKind::BadIndex
        }
    }

    /// A zero-based index as the file wrote it.
    pub(super) fn external(&self, i: u32) -> u64 {
        u64::from(i) + u64::from(!self.opts.zero_based)
    }
}

pub(super) fn label_error(label: &[u8], e: NumberError) -> ParseErrorKind {
    match e {
        NumberError::NonFinite => ParseErrorKind::NonFiniteLabel,
        _ if label.contains(&b',') => ParseErrorKind::CommaSeparated,
        NumberError::NotANumber if label[0].is_ascii_alphabetic() => ParseErrorKind::TextLabel,
        _ => ParseErrorKind::BadLabel,
    }
}

pub(super) fn value_error(e: NumberError) -> ParseErrorKind {
    match e {
        NumberError::NonFinite => ParseErrorKind::NonFiniteValue,
        NumberError::Hex => ParseErrorKind::HexFloat,
        NumberError::DigitSeparator => ParseErrorKind::DigitSeparator,
        NumberError::Garbage(_) => ParseErrorKind::TrailingGarbage,
        _ => ParseErrorKind::BadValue,
    }
}

pub(super) fn error_offset(e: NumberError) -> usize {
    if let NumberError::Garbage(at) = e { at } else { 0 }
}

/// A non-negative decimal integer of digits only, without overflow.
pub(super) fn parse_uint(s: &[u8]) -> Option<u64> {
    if s.is_empty() || !s.iter().all(u8::is_ascii_digit) {
        return None;
    }
    s.iter().try_fold(0u64, |acc, &d| acc.checked_mul(10)?.checked_add(u64::from(d - b'0')))
}

pub(super) fn split_commas(s: &[u8]) -> impl Iterator<Item = (usize, &[u8])> {
    let mut off = 0;
    s.split(|&b| b == b',').map(move |part| {
        let at = off;
        off += part.len() + 1;
        (at, part)
    })
}

/// Space- or tab-separated tokens with their byte columns.
pub(super) struct Tokens<'a> {
    s: &'a [u8],
    i: usize,
}

impl<'a> Tokens<'a> {
    pub(super) fn next(&mut self) -> Option<(usize, &'a [u8])> {
        let s = self.s;
        while self.i < s.len() && (s[self.i] == b' ' || s[self.i] == b'\t') {
            self.i += 1;
        }
        if self.i >= s.len() {
            return None;
        }
        let start = self.i;
        while self.i < s.len() && s[self.i] != b' ' && s[self.i] != b'\t' {
            self.i += 1;
        }
        Some((start, &s[start..self.i]))
    }

    /// The next token if it is a plain feature, `digits:[sign]digits[.digits]`
    /// with at most 19 index digits and a value the f32 fast path converts
    /// exactly: (column, index as written, value, end). `None` for anything
    /// else, including the end of the line; nothing is consumed.
    #[inline(always)]
    pub(super) fn fast_feature(&self) -> Option<(usize, u64, f32, usize)> {
        let s = self.s;
        let n = s.len();
        let mut i = self.i;
        while i < n && (s[i] == b' ' || s[i] == b'\t') {
            i += 1;
        }
        let col = i;
        let mut idx = 0u64;
        while i < n && s[i].is_ascii_digit() {
            idx = idx.wrapping_mul(10).wrapping_add(u64::from(s[i] - b'0'));
            i += 1;
        }
        if i == col || i - col > 19 || i >= n || s[i] != b':' {
            return None;
        }
        i += 1;
        let neg = i < n && s[i] == b'-';
        i += usize::from(i < n && (s[i] == b'-' || s[i] == b'+'));
        let (mut mant, mut frac, mut digits) = (0u64, 0usize, 0usize);
        while i < n && s[i].is_ascii_digit() {
            mant = mant.wrapping_mul(10).wrapping_add(u64::from(s[i] - b'0'));
            digits += 1;
            i += 1;
        }
        if i < n && s[i] == b'.' {
            i += 1;
            while i < n && s[i].is_ascii_digit() {
                mant = mant.wrapping_mul(10).wrapping_add(u64::from(s[i] - b'0'));
                digits += 1;
                frac += 1;
                i += 1;
            }
        }
        // Exact f32 arithmetic: mantissa below 2^24 (at most 19 digits so the
        // u64 did not wrap), power of ten at most 10^10.
        if digits == 0 || digits > 19 || mant >= 1 << 24 || frac > 10 || (i < n && s[i] != b' ' && s[i] != b'\t') {
            return None;
        }
        const POW10: [f32; 11] = [1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10];
        let v = mant as f32 / POW10[frac];
        Some((col, idx, if neg { -v } else { v }, i))
    }

    pub(super) fn peek(&self) -> Option<&'a [u8]> {
        let mut t = Tokens { s: self.s, i: self.i };
        t.next().map(|(_, tok)| tok)
    }

    pub(super) fn peek_starts_with(&self, p: &[u8]) -> bool {
        self.peek().is_some_and(|t| t.starts_with(p))
    }

    pub(super) fn peek_is_number(&self) -> bool {
        self.peek().is_some_and(|t| parse_f32(t).is_ok())
    }
}
