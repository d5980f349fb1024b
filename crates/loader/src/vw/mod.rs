//! Vowpal Wabbit's text format, read as VW reads it, into rows of hashed
//! feature indices: `label [importance [initial]] ['tag]|namespace[:scale]
//! feature[:value] …`. A feature's index is VW's: MurmurHash3 of its name
//! seeded with its namespace's hash (digits-only names taken as numbers
//! under the default `strings` rule), interactions combined with the FNV
//! prime, masked to `bits` bits. So a VW user's file lands on the weight
//! indices VW gives it (`rosenblatt inspect --audit` prints them as VW's
//! `--audit` does); collisions within a row are summed, as VW's dot
//! product sums them. VW's constant feature is not made: the learner's
//! bias stands for it.
//!
//! The settings ([`Hashing`]) are recorded in the dataset and in models
//! trained on it, so that text predicted later is hashed the same way.

mod hash;
mod interactions;
mod line;
mod number;

pub use hash::{FNV_PRIME, hash_all, hash_strings, murmur3_32};
pub use line::Feature;
pub use number::parse_float;

use crate::error::{ParseError, ParseErrorKind};
use crate::libsvm::Rows;
use line::{Hasher, Head, parse_line};
use rayon::prelude::*;
use serde::{Deserialize, Serialize};

/// How VW text is hashed and which features a row gets: VW's `-b`,
/// `--hash_seed`, `--hash`, `-q`, `--cubic`, `--interactions`,
/// `--ignore`, `--ignore_linear`, `--keep`, and whether labels are class
/// ids (`--oaa`).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Hashing {
    /// Index bits: indices are masked to `bits` bits (VW's `-b`, 18).
    pub bits: u8,
    /// The hash seed (VW's `--hash_seed`, 0).
    pub hash_seed: u32,
    /// Hash every name, digits-only ones too (VW's `--hash all`).
    pub hash_all: bool,
    /// Pairs of namespace letters crossed (`-q ab`; `:` any namespace).
    pub quadratic: Vec<String>,
    /// Triples crossed (`--cubic abc`).
    pub cubic: Vec<String>,
    /// Interactions of any order (`--interactions abcd`).
    pub interactions: Vec<String>,
    /// Namespaces dropped.
    pub ignore: String,
    /// Namespaces kept only in interactions.
    pub ignore_linear: String,
    /// Namespaces kept, the rest dropped (empty: all kept).
    pub keep: String,
    /// Labels are class ids 1..k (VW's `--oaa`), not ±1.
    pub multiclass: bool,
    /// CSV: the label column's name (the data was CSV with a header, its
    /// other columns hashed as VW features: [`crate::csv`]).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub label_column: Option<String>,
}

impl Default for Hashing {
    fn default() -> Self {
        Hashing {
            bits: 18,
            hash_seed: 0,
            hash_all: false,
            quadratic: Vec::new(),
            cubic: Vec::new(),
            interactions: Vec::new(),
            ignore: String::new(),
            ignore_linear: String::new(),
            keep: String::new(),
            multiclass: false,
            label_column: None,
        }
    }
}

impl std::fmt::Display for Hashing {
    /// The settings as `name = value`, VW's defaults left out but `bits`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let d = Hashing::default();
        let mut parts = vec![format!("bits = {}", self.bits)];
        if self.hash_seed != d.hash_seed {
            parts.push(format!("hash-seed = {}", self.hash_seed));
        }
        if self.hash_all {
            parts.push("hash = all".into());
        }
        for (name, list) in
            [("quadratic", &self.quadratic), ("cubic", &self.cubic), ("interactions", &self.interactions)]
        {
            parts.extend(list.iter().map(|s| format!("{name} = {s}")));
        }
        for (name, s) in [("ignore", &self.ignore), ("ignore-linear", &self.ignore_linear), ("keep", &self.keep)] {
            if !s.is_empty() {
                parts.push(format!("{name} = {s}"));
            }
        }
        if self.multiclass {
            parts.push("`multiclass`".into());
        }
        if let Some(c) = &self.label_column {
            parts.push(format!("CSV with label column \"{c}\""));
        }
        f.write_str(&parts.join(", "))
    }
}

/// A setting of [`Hashing`] that cannot be used.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum HashingError {
    /// Bits outside 1..=32.
    #[error("bits = {0}: give 1 to 32 (the dimension is 2^bits)")]
    Bits(u8),
    /// An interaction spec of the wrong length or with a bad escape.
    #[error("{setting} = {spec}: {why}")]
    Spec {
        /// `quadratic`, `cubic` or `interactions`.
        setting: &'static str,
        /// The spec.
        spec: String,
        /// What is wrong.
        why: String,
    },
}

/// [`Hashing`] checked and compiled.
#[derive(Clone, Debug)]
pub struct Compiled {
    settings: Hashing,
    hasher: Hasher,
    /// The interaction specs, wildcards unexpanded.
    specs: Vec<Vec<u8>>,
    /// The specs compiled once, when none has a wildcard.
    fixed: Option<Vec<Vec<u8>>>,
    ignore: [bool; 256],
    ignore_linear: [bool; 256],
    keep: Option<[bool; 256]>,
    /// Whether `ignore` or `keep` drop anything.
    filters: bool,
}

fn letters(s: &str, setting: &'static str) -> Result<[bool; 256], HashingError> {
    let bytes = interactions::parse_spec(s).map_err(|why| HashingError::Spec { setting, spec: s.into(), why })?;
    let mut set = [false; 256];
    bytes.iter().for_each(|&b| set[b as usize] = true);
    Ok(set)
}

impl Hashing {
    /// The dimension rows hashed this way have: 2^bits.
    pub fn dim(&self) -> u64 {
        1u64 << self.bits
    }

    /// Checks the settings and compiles them.
    pub fn compile(&self) -> Result<Compiled, HashingError> {
        if !(1..=32).contains(&self.bits) {
            return Err(HashingError::Bits(self.bits));
        }
        let mut specs = Vec::new();
        for (setting, list, ok, want) in [
            ("quadratic", &self.quadratic, 2..=2, "two namespace letters"),
            ("cubic", &self.cubic, 3..=3, "three namespace letters"),
            ("interactions", &self.interactions, 2..=usize::MAX, "at least two namespace letters"),
        ] {
            for spec in list {
                let s = interactions::parse_spec(spec).map_err(|why| HashingError::Spec {
                    setting,
                    spec: spec.clone(),
                    why,
                })?;
                if !ok.contains(&s.len()) {
                    return Err(HashingError::Spec { setting, spec: spec.clone(), why: format!("give {want}") });
                }
                specs.push(s);
            }
        }
        let wild = specs.iter().any(|s| s.contains(&interactions::WILDCARD));
        let fixed = (!wild).then(|| interactions::compile(&specs));
        Ok(Compiled {
            hasher: Hasher { all: self.hash_all, seed: self.hash_seed, mask: self.dim() - 1 },
            specs,
            fixed,
            filters: !self.ignore.is_empty() || !self.keep.is_empty(),
            ignore: letters(&self.ignore, "ignore")?,
            ignore_linear: letters(&self.ignore_linear, "ignore-linear")?,
            keep: (!self.keep.is_empty()).then(|| letters(&self.keep, "keep")).transpose()?,
            settings: self.clone(),
        })
    }
}

/// One feature of a row, with where it came from: its namespaces' and
/// names' audit strings joined by `*` for an interaction.
#[derive(Clone, Debug, PartialEq)]
pub struct Audited {
    /// VW's audit name: `ns^name`, `ns^name^value`, `a^x*b^y`.
    pub name: String,
    /// The index (masked).
    pub index: u64,
    /// The value.
    pub value: f32,
}

/// What a line of text holds.
#[derive(Clone, Debug, PartialEq)]
pub struct Example {
    /// The label words as read (label, weight, initial value).
    pub label: Option<f32>,
    /// The importance weight (1 when none is written).
    pub weight: f32,
    /// Whether an initial value was written (read and ignored).
    pub initial: bool,
    /// The tag.
    pub tag: Option<Vec<u8>>,
}

impl Compiled {
    /// The settings compiled.
    pub fn settings(&self) -> &Hashing {
        &self.settings
    }

    /// The features of a row given as `(namespace letter, name, value)`
    /// in the default namespace (CSV's columns): each to `emit(index,
    /// value)`, as the VW line `| name:value …` would be (interactions
    /// too).
    pub(crate) fn named_features(&self, names: &[(&[u8], f32)], emit: &mut dyn FnMut(u64, f32)) {
        let channel = if self.hasher.seed == 0 { 0 } else { murmur3_32(b"", self.hasher.seed) };
        let mut scratch: Vec<Feature<'_>> = names
            .iter()
            .filter(|(_, v)| *v != 0.0)
            .map(|&(name, value)| Feature {
                ns: b' ',
                index: u64::from(self.hasher.hash(name, channel)) & self.hasher.mask,
                value,
                space: &[],
                name,
                string: &[],
            })
            .collect();
        // The same path as a parsed line's features from here on.
        self.emit_features(&mut scratch, &mut |i, v, _| emit(i, v), false);
    }

    /// Reads one line (no line end): its example and its features in VW's
    /// order (linear, then interactions), each passed to `emit` with its
    /// audit strings when `audit`.
    fn features_of<'a>(
        &self,
        line: &'a [u8],
        scratch: &mut Vec<Feature<'a>>,
        emit: &mut dyn FnMut(u64, f32, Option<String>),
        audit: bool,
    ) -> Result<Head<'a>, (usize, ParseErrorKind)> {
        scratch.clear();
        let head = parse_line(line, &self.hasher, scratch)?;
        self.emit_features(scratch, emit, audit);
        Ok(head)
    }

    /// A row's features (as parsed, in the order written) to `emit`: the
    /// namespaces ignored or not kept dropped, the linear terms namespace
    /// by namespace, then the interactions.
    fn emit_features<'a>(
        &self,
        scratch: &mut Vec<Feature<'a>>,
        emit: &mut dyn FnMut(u64, f32, Option<String>),
        audit: bool,
    ) {
        if self.filters {
            let kept = |ns: u8| !self.ignore[ns as usize] && self.keep.is_none_or(|k| k[ns as usize]);
            scratch.retain(|f| kept(f.ns));
        }
        let mask = self.hasher.mask;
        let name = |f: &Feature<'_>| audit.then(|| audit_name(f));
        // VW's order: namespace by namespace, as each first appears. Most
        // lines write each namespace once: then it is the order written.
        let grouped = contiguous(scratch);
        if grouped {
            for f in scratch.iter().filter(|f| !self.ignore_linear[f.ns as usize]) {
                emit(f.index & mask, f.value, name(f));
            }
        } else {
            let mut first_seen: Vec<u8> = Vec::new();
            for f in scratch.iter() {
                if !first_seen.contains(&f.ns) {
                    first_seen.push(f.ns);
                }
            }
            for &ns in first_seen.iter().filter(|&&ns| !self.ignore_linear[ns as usize]) {
                for f in scratch.iter().filter(|f| f.ns == ns) {
                    emit(f.index & mask, f.value, name(f));
                }
            }
        }
        if self.specs.is_empty() {
            return;
        }
        // Each namespace's features in the order written.
        let mut present: Vec<u8> = scratch.iter().map(|f| f.ns).collect();
        present.sort_unstable();
        present.dedup();
        let of = |ns: u8| -> Vec<&Feature<'a>> { scratch.iter().filter(|f| f.ns == ns).collect() };
        let compiled;
        let list = match &self.fixed {
            Some(l) => l,
            None => {
                let interacting: Vec<u8> = present.iter().copied().filter(|&n| interactions::interacts(n)).collect();
                compiled = interactions::expand(&self.specs, &interacting);
                &compiled
            }
        };
        for spec in list {
            let groups: Vec<Vec<&Feature<'a>>> = spec.iter().map(|&ns| of(ns)).collect();
            let pairs: Vec<Vec<(u64, f32)>> =
                groups.iter().map(|g| g.iter().map(|f| (f.index, f.value)).collect()).collect();
            let spaces: Vec<&[(u64, f32)]> = pairs.iter().map(Vec::as_slice).collect();
            let same: Vec<bool> = (0..spec.len()).map(|t| t > 0 && spec[t] == spec[t - 1]).collect();
            interactions::generate(&spaces, &same, &mut |index, value, picks| {
                let name = audit.then(|| {
                    picks.iter().enumerate().map(|(t, &j)| audit_name(groups[t][j])).collect::<Vec<_>>().join("*")
                });
                emit(index & mask, value, name);
            });
        }
    }

    /// The features of `line` as VW's `--audit` lists them (linear, then
    /// interactions; not sorted), with the line's example.
    pub fn audit(&self, line: &[u8]) -> Result<(Example, Vec<Audited>), ParseError> {
        let line = trim_end(line);
        let mut scratch = Vec::new();
        let mut out = Vec::new();
        let head = self
            .features_of(
                line,
                &mut scratch,
                &mut |index, value, name| out.push(Audited { name: name.unwrap_or_default(), index, value }),
                true,
            )
            .map_err(|(at, kind)| ParseError { line: 1, column: at as u64 + 1, kind })?;
        let mut example = self.example(&head).map_err(|(column, kind)| ParseError { line: 1, column, kind })?;
        example.tag = head.tag.map(<[u8]>::to_vec);
        Ok((example, out))
    }

    /// The label words of `head` read: label (±1, or a class id with
    /// `multiclass`), weight, initial value.
    fn example(&self, head: &Head<'_>) -> Result<Example, (u64, ParseErrorKind)> {
        let words = head.words();
        if head.count() > 3 {
            return Err((words[3].1 as u64, ParseErrorKind::VwLabelWords));
        }
        let number = |&(w, col): &(&[u8], usize)| {
            let (v, n) = parse_float(w);
            if n != w.len() || !v.is_finite() { Err((col as u64, ParseErrorKind::BadLabel)) } else { Ok(v) }
        };
        let label = words.first().map(number).transpose()?;
        let weight = words.get(1).map(number).transpose()?.unwrap_or(1.0);
        Ok(Example { label, weight, initial: words.len() == 3, tag: None })
    }
}

/// Whether each namespace's features are written together (one run each).
fn contiguous(feats: &[Feature<'_>]) -> bool {
    let mut ended = [false; 256];
    for w in feats.windows(2) {
        if w[0].ns != w[1].ns {
            ended[w[0].ns as usize] = true;
            if ended[w[1].ns as usize] {
                return false;
            }
        }
    }
    true
}

/// VW's audit string of a feature.
fn audit_name(f: &Feature<'_>) -> String {
    let mut s = String::new();
    if !f.space.is_empty() {
        s.push_str(&String::from_utf8_lossy(f.space));
        s.push('^');
    }
    s.push_str(&String::from_utf8_lossy(f.name));
    if !f.string.is_empty() {
        s.push('^');
        s.push_str(&String::from_utf8_lossy(f.string));
    }
    s
}

/// A line without its `\n` and one `\r` before it.
fn trim_end(line: &[u8]) -> &[u8] {
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
}

impl Notes {
    fn add(&mut self, o: Notes) {
        self.zero_labels += o.zero_labels;
        self.initial_values += o.initial_values;
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
    let mut entries: Vec<(u64, f32)> = Vec::new();
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
fn read_row<'a>(
    line: &'a [u8],
    c: &Compiled,
    labels: Labels,
    scratch: &mut Vec<Feature<'a>>,
    entries: &mut Vec<(u64, f32)>,
    rows: &mut Rows,
    notes: &mut Notes,
) -> Result<(), (u64, ParseErrorKind)> {
    if let Some(at) = memchr::memchr(0, line) {
        return Err((at as u64 + 1, ParseErrorKind::Nul));
    }
    entries.clear();
    // Each entry keyed by its index then its place in the line (indices
    // are below 2^32): one sort key, and repeats summed as written.
    let head = c
        .features_of(line, scratch, &mut |i, v, _| entries.push((i << 32 | entries.len() as u64, v)), false)
        .map_err(|(at, k)| (at as u64 + 1, k))?;
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
    if ex.weight != 1.0 {
        return Err((head.words()[1].1 as u64, ParseErrorKind::VwWeight(ex.weight.to_string())));
    }
    notes.initial_values += u64::from(ex.initial);
    if !push_row(rows, label, entries) {
        return Err((1, ParseErrorKind::NonFiniteValue));
    }
    Ok(())
}

/// Appends a row of `entries` (any order, repeats allowed): sorted by
/// index, repeats summed in the order written, zero sums dropped; false
/// (nothing appended) if a sum overflows.
pub(crate) fn push_row(rows: &mut Rows, label: f32, entries: &mut [(u64, f32)]) -> bool {
    // Keys are the index, then the place written: by key is by index, in
    // the order written (with no allocation, unlike a stable sort).
    // Numbered features in order land in order but for one wrap past the
    // mask (number + namespace hash): rotated, they are sorted.
    if let Some(d) = entries.windows(2).position(|w| w[0].0 > w[1].0) {
        entries.rotate_left(d + 1);
        if !entries.is_sorted_by_key(|e| e.0) {
            entries.sort_unstable_by_key(|e| e.0);
        }
    }
    let mut k = 0;
    while k < entries.len() {
        let (key, mut sum) = entries[k];
        let index = key >> 32;
        k += 1;
        while k < entries.len() && entries[k].0 >> 32 == index {
            sum += entries[k].1;
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
