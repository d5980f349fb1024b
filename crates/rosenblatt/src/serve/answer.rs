//! A batch of request lines into reply lines: each line read as `predict`
//! reads text (the same line reader, the same rows made ready, the same
//! f32 sparse scoring), so a line's reply carries the bits `predict`
//! prints for it; a bad line is answered `ERR` and its neighbours are not
//! disturbed.

use super::Served;
use crate::model::Prediction;
use crate::online::CsrRows;
use rosenblatt_loader::Rows;
use rosenblatt_loader::lines::LineRead;
use std::io::Write;

/// The line that asks for the server's counters instead of a prediction.
pub const STATS_LINE: &[u8] = b"#stats";

/// What a batch's lines came to, kept from batch to batch for their
/// buffers.
#[derive(Default)]
pub(crate) struct Batch {
    rows: Rows,
    read: Vec<LineRead>,
    predictions: Vec<Prediction>,
}

/// One request line's kind before it is read.
enum Request<'a> {
    Line(&'a [u8]),
    TooLong(usize),
    Stats,
}

impl Batch {
    /// Appends to `out` one reply line for each of `lines` (each without
    /// its `\n`), scored by `served`; lines longer than `max_line` bytes
    /// are refused. `stats` writes the `#stats` reply. Returns how many
    /// requests were answered (`#stats` lines are not requests) and how
    /// many of them `ERR`.
    pub(crate) fn answer(
        &mut self,
        served: &Served,
        lines: &[&[u8]],
        max_line: usize,
        stats: &dyn Fn(&mut Vec<u8>),
        out: &mut Vec<u8>,
    ) -> (u64, u64) {
        let requests: Vec<Request<'_>> = lines
            .iter()
            .map(|&l| {
                let trimmed = l.strip_suffix(b"\r").unwrap_or(l);
                if l.len() > max_line {
                    Request::TooLong(l.len())
                } else if trimmed == STATS_LINE {
                    Request::Stats
                } else {
                    Request::Line(l)
                }
            })
            .collect();
        let text: Vec<&[u8]> =
            requests.iter().filter_map(|r| if let Request::Line(l) = r { Some(*l) } else { None }).collect();
        self.rows.clear(false);
        self.read.clear();
        served.format.read(&text, &mut self.rows, &mut self.read);
        crate::predict::ready_rows(&served.model, &mut self.rows);
        self.predictions.clear();
        self.predictions.resize(self.rows.len(), Prediction::default());
        let scored = if self.rows.is_empty() { Ok(()) } else { self.score(served) };
        let (mut row, mut line, mut bad) = (0usize, 0usize, 0u64);
        for r in &requests {
            match r {
                Request::Stats => stats(out),
                Request::TooLong(n) => {
                    bad += 1;
                    refuse_long(*n, max_line, out);
                }
                Request::Line(l) => {
                    match (&self.read[line], &scored) {
                        (LineRead::Row, Ok(())) => {
                            let p = self.predictions[row];
                            let _ = write!(out, "{} {}", p.label, p.score);
                            if let Some(tag) = served.format.tag(l) {
                                out.push(b' ');
                                out.extend_from_slice(tag);
                            }
                            out.push(b'\n');
                        }
                        (LineRead::Row, Err(e)) => {
                            bad += 1;
                            let _ = writeln!(out, "ERR {e}");
                        }
                        (LineRead::Blank, _) => {
                            bad += 1;
                            out.extend_from_slice(b"ERR an empty line: no row to predict\n");
                        }
                        (LineRead::Bad(kind, column), _) => {
                            bad += 1;
                            let _ = writeln!(out, "ERR column {column}: {kind}");
                        }
                    }
                    row += usize::from(self.read[line] == LineRead::Row);
                    line += 1;
                }
            }
        }
        let control = requests.iter().filter(|r| matches!(r, Request::Stats)).count();
        ((requests.len() - control) as u64, bad)
    }

    /// Every row's prediction, as `predict` scores text rows (sparse, f32).
    fn score(&mut self, served: &Served) -> Result<(), crate::Error> {
        let r = &self.rows;
        let dim = r.min_dim().max(served.model.dim() as u64) as usize;
        let csr = CsrRows::try_new(dim, &r.offsets, &r.indices, &r.values, None)?;
        served.model.weights.predictions_into(&served.model.meta.classes, &csr, &mut self.predictions)
    }
}

/// The reply to a line of `n` bytes, over the limit of `max_line`.
pub(crate) fn refuse_long(n: usize, max_line: usize, out: &mut Vec<u8>) {
    let _ = writeln!(out, "ERR the line is longer than {max_line} bytes ({n} or more): skipped");
}
