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
mod keysort;
mod line;
mod number;
pub(crate) mod rows;

pub use hash::{FNV_PRIME, hash_all, hash_strings, murmur3_32};
pub use line::{Feature, tag};
pub use number::parse_float;
pub(crate) use rows::{Entries, parse_block_into, push_row};
pub use rows::{Labels, Notes, Reading, parse, parse_in_pieces};

use crate::error::{ParseError, ParseErrorKind};
use line::{Hasher, Head, parse_line};
use rows::trim_end;
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
    /// Whether a row's features are its linear ones as written: nothing
    /// dropped, kept from the linear terms, or crossed.
    direct: bool,
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

    /// How rows hashed this way are written: zero-based indices below
    /// 2^bits (or `base`'s larger dimension), ±1 labels or class ids, the
    /// settings recorded; the rest as `base` says.
    pub fn write_options(&self, base: &crate::writer::WriteOptions) -> crate::writer::WriteOptions {
        crate::writer::WriteOptions {
            index_base: 0,
            dim: Some(base.dim.unwrap_or(0).max(self.dim())),
            label_kind: Some(if self.multiclass {
                crate::format::LabelKind::Classes
            } else {
                crate::format::LabelKind::Binary
            }),
            hashing: Some(self.clone()),
            ..base.clone()
        }
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
        let filters = !self.ignore.is_empty() || !self.keep.is_empty();
        Ok(Compiled {
            direct: !filters && specs.is_empty() && self.ignore_linear.is_empty(),
            hasher: Hasher { all: self.hash_all, seed: self.hash_seed, mask: self.dim() - 1 },
            specs,
            fixed,
            filters,
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

    /// Reads one line into `entries` (cleared first): its features, masked,
    /// in VW's order, as [`Compiled::features_of`] gives them. Where nothing
    /// is dropped or crossed they go straight from the parser into
    /// `entries`, unless a namespace comes back after another (VW's order
    /// then regroups them): that line is read again the general way.
    pub(crate) fn entries_of<'a>(
        &self,
        line: &'a [u8],
        scratch: &mut Vec<Feature<'a>>,
        entries: &mut Entries,
    ) -> Result<Head<'a>, (usize, ParseErrorKind)> {
        entries.clear();
        if self.direct {
            let mut sink = rows::Direct::new(entries, self.hasher.mask);
            let head = parse_line(line, &self.hasher, &mut sink)?;
            if !sink.regrouped() {
                return Ok(head);
            }
            entries.clear();
        }
        self.features_of(line, scratch, &mut |i, v, _| entries.push(i, v), false)
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
        let number = |&(w, col): &(&[u8], usize), bad: fn(&[u8]) -> ParseErrorKind| {
            let (v, n) = parse_float(w);
            if n != w.len() || !v.is_finite() { Err((col as u64, bad(w))) } else { Ok(v) }
        };
        let label = words.first().map(|w| number(w, |_| ParseErrorKind::BadLabel)).transpose()?;
        let weight = words
            .get(1)
            .map(|w| number(w, |w| ParseErrorKind::VwWeight(String::from_utf8_lossy(w).into_owned())))
            .transpose()?
            .unwrap_or(1.0);
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
