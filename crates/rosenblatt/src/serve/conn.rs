//! One connection (or standard input) served: bytes read into a buffer,
//! every complete line in it answered and the replies written before the
//! next read. A line over the limit is answered `ERR` as soon as the limit
//! is passed, and the rest of it is read and dropped, never kept.

use super::Server;
use super::answer::{Batch, refuse_long};
use std::io::{ErrorKind, Read, Write};
use std::time::Instant;

/// Bytes asked of each read.
const READ: usize = 64 << 10;

impl Server {
    /// Answers the request lines read from `input` on `output` until the
    /// input ends (a last line without its `\n` is answered too), the
    /// server stops (the lines already read are answered first), or the
    /// connection fails. A read that times out only checks for a stop.
    pub fn serve_stream(&self, mut input: impl Read, mut output: impl Write) -> std::io::Result<()> {
        let max_line = self.opts.max_line;
        let mut buf = vec![0u8; READ.min(max_line + 1)];
        // buf[..len] is read and not yet answered: the start of a line.
        let mut len = 0usize;
        // Inside a line over the limit, already answered: drop to its end.
        let mut skipping = false;
        let (mut batch, mut out) = (Batch::default(), Vec::new());
        loop {
            if len == buf.len() {
                // Room for a whole line of the limit and a read after it.
                buf.resize((buf.len() * 2).min(max_line + 1 + READ).max(len + READ), 0);
            }
            let n = match input.read(&mut buf[len..]) {
                Ok(n) => n,
                Err(e) if matches!(e.kind(), ErrorKind::WouldBlock | ErrorKind::TimedOut | ErrorKind::Interrupted) => {
                    if self.stopping() {
                        return output.flush();
                    }
                    continue;
                }
                Err(e) => return Err(e),
            };
            let read_at = Instant::now();
            let eof = n == 0;
            let mut start = 0usize;
            if skipping {
                match memchr::memchr(b'\n', &buf[len..len + n]) {
                    Some(i) => {
                        skipping = false;
                        start = len + i + 1;
                    }
                    None => {
                        if eof {
                            return output.flush();
                        }
                        continue;
                    }
                }
            }
            let filled = len + n;
            // The complete lines: up to the last `\n` (all of it at the end).
            let end =
                if eof { filled } else { memchr::memrchr(b'\n', &buf[start..filled]).map_or(start, |i| start + i + 1) };
            out.clear();
            let mut lines: Vec<&[u8]> = buf[start..end].split(|&b| b == b'\n').collect();
            if !eof || lines.last().is_some_and(|l| l.is_empty()) {
                lines.pop();
            }
            let (mut answered, mut bad) = (0, 0);
            if !lines.is_empty() {
                let served = self.served();
                let stats = |o: &mut Vec<u8>| {
                    o.extend_from_slice(self.stats_line().as_bytes());
                    o.push(b'\n');
                };
                (answered, bad) = self.scoring(|| batch.answer(&served, &lines, max_line, &stats, &mut out));
            }
            // What is left is the start of a line: over the limit already, it
            // is answered now and its rest dropped as it comes.
            let rest = filled - end;
            let mut refused = 0;
            if rest > max_line {
                refuse_long(rest, max_line, &mut out);
                (skipping, refused) = (true, 1);
                len = 0;
            } else {
                buf.copy_within(end..filled, 0);
                len = rest;
            }
            if !out.is_empty() {
                output.write_all(&out)?;
                output.flush()?;
                self.stats.answered(answered + refused, bad + refused, read_at.elapsed());
            }
            if eof || self.stopping() {
                return output.flush();
            }
        }
    }
}
