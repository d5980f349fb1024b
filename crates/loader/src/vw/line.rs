//! One line of VW text, read as VW's text parser reads it
//! (`parse_example_text.cc`): the label section before the first `|`
//! (label words and a tag), then namespaces and their features, hashed.
//! Where VW warns about a malformed line and reads on, this reader stops
//! with the line's column and what is wrong.

use super::hash::{hash_all, hash_strings, murmur3_32};
use super::number::parse_float;
use crate::error::ParseErrorKind;

/// A hashed feature of a line: its namespace's letter, its index (VW's
/// word hash, before the weight mask), its value, and its names for
/// auditing.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Feature<'a> {
    /// The namespace's first byte (b' ' for the default namespace).
    pub ns: u8,
    /// The hash.
    pub index: u64,
    /// The value (the namespace's scale applied).
    pub value: f32,
    /// The namespace's name, as written (empty for the default).
    pub space: &'a [u8],
    /// The feature's name, as written (empty for an anonymous feature).
    pub name: &'a [u8],
    /// A string value (`color:red`), empty if none.
    pub string: &'a [u8],
}

/// The label section of a line.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Head<'a> {
    /// The first four label words (label, importance weight, initial
    /// value, and one too many), each with its 1-based column.
    first: [(&'a [u8], usize); 4],
    /// How many label words there are.
    count: usize,
    /// The tag, without its quote.
    pub tag: Option<&'a [u8]>,
}

impl<'a> Head<'a> {
    /// The label words (at most the first four).
    pub fn words(&self) -> &[(&'a [u8], usize)] {
        &self.first[..self.count.min(4)]
    }
    /// How many label words there are.
    pub fn count(&self) -> usize {
        self.count
    }
}

/// How features are hashed.
#[derive(Clone, Copy, Debug)]
pub struct Hasher {
    /// `hash_all` (every name hashed) rather than `hash_strings`.
    pub all: bool,
    /// The hash seed.
    pub seed: u32,
    /// VW's parse mask: 2^bits − 1.
    pub mask: u64,
}

impl Hasher {
    /// VW's hasher of a name from `seed`.
    #[inline]
    pub fn hash(&self, name: &[u8], seed: u32) -> u32 {
        if self.all { hash_all(name, seed) } else { hash_strings(name, seed) }
    }
}

/// The bytes that end a name: white space, `|`, `:` (and the line's end).
const ENDS_NAME: [bool; 256] = {
    let mut t = [false; 256];
    t[b' ' as usize] = true;
    t[b'\t' as usize] = true;
    t[b'|' as usize] = true;
    t[b'\r' as usize] = true;
    t[b':' as usize] = true;
    t
};

/// A fault at a byte offset of the line.
pub type Fault = (usize, ParseErrorKind);

fn malformed(at: usize, what: &'static str) -> Fault {
    (at, ParseErrorKind::VwSyntax(what))
}

/// Where a line's features go as they are read, in the order written.
pub trait Sink<'a> {
    /// One feature (value not 0).
    fn push(&mut self, f: Feature<'a>);
}

impl<'a> Sink<'a> for Vec<Feature<'a>> {
    #[inline]
    fn push(&mut self, f: Feature<'a>) {
        Vec::push(self, f);
    }
}

/// Reads `line` (no line end) into its head, pushing its features onto
/// `out` in the order written.
pub fn parse_line<'a, S: Sink<'a>>(line: &'a [u8], h: &Hasher, out: &mut S) -> Result<Head<'a>, Fault> {
    let bar = memchr::memchr(b'|', line);
    let head = head(line, bar);
    if let Some(bar) = bar {
        Features { line, i: bar, h, out }.namespaces()?;
    }
    Ok(head)
}

/// The tag of `line`, if it has one (a prediction echoes it).
pub fn tag(line: &[u8]) -> Option<&[u8]> {
    head(line, memchr::memchr(b'|', line)).tag
}

/// The label section of `line`, whose first `|` is at `bar`.
fn head(line: &[u8], bar: Option<usize>) -> Head<'_> {
    let mut head = Head::default();
    if bar != Some(0) {
        let end = bar.unwrap_or(line.len());
        // A tab ends a prefix VW skips.
        let from = line[..end].iter().position(|&c| c == b'\t').map_or(0, |t| t + 1);
        let mut last = None;
        let mut i = from;
        while i < end {
            if line[i] == b' ' {
                i += 1;
                continue;
            }
            let s = i;
            while i < end && line[i] != b' ' {
                i += 1;
            }
            if head.count < 4 {
                head.first[head.count] = (&line[s..i], s + 1);
            }
            head.count += 1;
            last = Some((s, i));
        }
        // The last word is a tag if it touches the `|` (or the line's end)
        // or starts with a quote.
        if let Some((s, e)) = last
            && (e == end || line[s] == b'\'')
        {
            head.count -= 1;
            head.tag = Some(line[s..e].strip_prefix(b"'").unwrap_or(&line[s..e]));
        }
    }
    head
}

/// The feature section's reader: VW's `tc_parser`.
struct Features<'a, 'h, 'o, S> {
    line: &'a [u8],
    i: usize,
    h: &'h Hasher,
    out: &'o mut S,
}

impl<'a, S: Sink<'a>> Features<'a, '_, '_, S> {
    fn at(&self) -> Option<u8> {
        self.line.get(self.i).copied()
    }
    /// At the end, or at a byte that ends a name or a value.
    fn at_break(&self) -> bool {
        matches!(self.at(), None | Some(b' ' | b'\t' | b'|' | b'\r'))
    }

    fn namespaces(&mut self) -> Result<(), Fault> {
        while self.at() == Some(b'|') {
            self.i += 1;
            self.namespace()?;
        }
        match self.at() {
            None => Ok(()),
            Some(b'\r') => Err(malformed(self.i, "a carriage return inside the line")),
            Some(_) => Err(malformed(self.i, "`|` or the line's end expected")),
        }
    }

    fn namespace(&mut self) -> Result<(), Fault> {
        let (ns, space, channel, scale) = if self.at_break() {
            let channel = if self.h.seed == 0 { 0 } else { murmur3_32(b"", self.h.seed) };
            (b' ', &self.line[..0], channel, 1.0f32)
        } else if self.at() == Some(b':') {
            return Err(malformed(self.i, "a namespace name expected after `|`, not `:`"));
        } else {
            let ns = self.line[self.i];
            let name = self.name();
            let channel = self.h.hash(name, self.h.seed);
            let scale = if self.at() == Some(b':') {
                self.i += 1;
                let (v, n) = parse_float(&self.line[self.i..]);
                if n == 0 {
                    return Err((self.i, ParseErrorKind::BadValue));
                }
                if !v.is_finite() {
                    return Err((self.i, ParseErrorKind::NonFiniteValue));
                }
                self.i += n;
                v
            } else {
                1.0
            };
            (ns, name, channel, scale)
        };
        let mut anonymous = 0u64;
        while matches!(self.at(), Some(b' ' | b'\t')) {
            self.i += 1;
            if self.at_break() {
                continue;
            }
            let name = self.name();
            let (value, string) = self.value()?;
            let value = if string.is_some() { 1.0 } else { scale * value };
            let index = match string.filter(|s| !s.is_empty()) {
                Some(s) => u64::from(self.h.hash(s, self.h.hash(name, channel))) & self.h.mask,
                None if !name.is_empty() => u64::from(self.h.hash(name, channel)) & self.h.mask,
                None => {
                    anonymous += 1;
                    u64::from(channel) + anonymous - 1
                }
            };
            if value != 0.0 {
                self.out.push(Feature { ns, index, value, space, name, string: string.unwrap_or(&[]) });
            }
        }
        if !self.at_break() {
            return Err(malformed(self.i, "a space, `|` or the line's end expected"));
        }
        Ok(())
    }

    /// A name: up to a space, tab, `:`, `|` or the end.
    fn name(&mut self) -> &'a [u8] {
        let s = self.i;
        let rest = &self.line[s..];
        let n = rest.iter().position(|&c| ENDS_NAME[c as usize]).unwrap_or(rest.len());
        self.i += n;
        &rest[..n]
    }

    /// A feature's value: 1 when none is written, the number after `:`, or
    /// a string value (`:red`, everything up to white space).
    fn value(&mut self) -> Result<(f32, Option<&'a [u8]>), Fault> {
        if self.at() != Some(b':') {
            return Ok((1.0, None));
        }
        self.i += 1;
        let (v, n) = parse_float(&self.line[self.i..]);
        if n == 0 {
            let rest = &self.line[self.i..];
            let skip = rest.iter().take_while(|c| matches!(c, b' ' | b'\t' | b'\r' | b'\n')).count();
            let len = rest[skip..].iter().take_while(|c| !matches!(c, b' ' | b'\t' | b'\r' | b'\n')).count();
            self.i += skip + len;
            return Ok((1.0, Some(&rest[skip..skip + len])));
        }
        if !v.is_finite() {
            return Err((self.i, ParseErrorKind::NonFiniteValue));
        }
        self.i += n;
        Ok((v, None))
    }
}
