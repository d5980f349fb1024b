//! Text read one line at a time, each line's fate told to the caller: for
//! a program that answers every line it is sent (a prediction server),
//! where a bad line is an answer, not the end of the input.
//!
//! The lines go through the same line readers as a whole file does
//! (LIBSVM's and VW's), so a line gives here the row it gives there.

use crate::error::ParseErrorKind;
use crate::libsvm::{Columns, LineParser, ParseOptions, Rows};
use crate::vw::{Compiled, Labels, Notes};

/// What one line came to.
#[derive(Clone, Debug, PartialEq)]
pub enum LineRead {
    /// A row, appended to the rows.
    Row,
    /// Nothing but white space (or a comment): no row.
    Blank,
    /// A bad line: what is wrong, at its 1-based byte column.
    Bad(ParseErrorKind, u64),
}

/// How the lines are read: LIBSVM text, or VW text hashed as compiled.
#[derive(Clone, Debug)]
pub enum LineFormat {
    /// LIBSVM text.
    Libsvm(ParseOptions),
    /// VW text.
    Vw(Box<Compiled>, Labels),
}

impl LineFormat {
    /// What a reply to `line` echoes: LIBSVM's comment (after `#`, white
    /// space trimmed), VW's tag; none if empty.
    pub fn tag<'a>(&self, line: &'a [u8]) -> Option<&'a [u8]> {
        let t = match self {
            LineFormat::Libsvm(_) => memchr::memchr(b'#', line).map(|h| line[h + 1..].trim_ascii())?,
            LineFormat::Vw(..) => crate::vw::tag(crate::vw::rows::trim_end(line))?,
        };
        (!t.is_empty()).then_some(t)
    }

    /// Reads each of `lines` (without its line end), appending a row to
    /// `rows` for each good one and pushing onto `out` what each came to,
    /// in order. A bad line appends nothing.
    pub fn read(&self, lines: &[&[u8]], rows: &mut Rows, out: &mut Vec<LineRead>) {
        match self {
            LineFormat::Libsvm(opts) => {
                let mut p = LineParser::new(opts);
                let mut cols =
                    Columns { indices: std::mem::take(&mut rows.indices), values: std::mem::take(&mut rows.values) };
                for line in lines {
                    let line = line.strip_suffix(b"\r").unwrap_or(line);
                    let before = rows.len();
                    out.push(match p.line(line, rows, &mut cols) {
                        Ok(()) if rows.len() > before => LineRead::Row,
                        Ok(()) => LineRead::Blank,
                        Err((kind, col)) => LineRead::Bad(kind, col as u64 + 1),
                    });
                }
                (rows.indices, rows.values) = (cols.indices, cols.values);
            }
            LineFormat::Vw(c, labels) => {
                let (mut scratch, mut entries, mut notes) =
                    (Vec::new(), crate::vw::Entries::default(), Notes::default());
                for line in lines {
                    let line = crate::vw::rows::trim_end(line);
                    if line.iter().all(|b| matches!(b, b' ' | b'\t')) {
                        out.push(LineRead::Blank);
                        continue;
                    }
                    scratch.clear();
                    out.push(
                        match crate::vw::rows::read_row(line, c, *labels, &mut scratch, &mut entries, rows, &mut notes)
                        {
                            Ok(()) => LineRead::Row,
                            Err((col, kind)) => LineRead::Bad(kind, col),
                        },
                    );
                }
            }
        }
    }
}
