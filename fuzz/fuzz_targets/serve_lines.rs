//! A server's connection loop on any bytes, under a line limit drawn from
//! the first byte: never a panic; one reply line per request line (a last
//! line without its `\n` too), each a prediction or `ERR`; and the same
//! replies when the bytes arrive in two reads split anywhere.
#![no_main]

use libfuzzer_sys::fuzz_target;
use rosenblatt::prelude::*;
use rosenblatt::serve::{ServeOptions, Server};
use std::io::Read;
use std::sync::OnceLock;

/// Servers of one small linear model, with line limits of 16, 64 and 4096
/// bytes.
fn servers() -> &'static [Server] {
    static SERVERS: OnceLock<Vec<Server>> = OnceLock::new();
    SERVERS.get_or_init(|| {
        let (indptr, indices, values) = ([0u64, 2, 3, 5], [0u32, 7, 3, 1, 9], [1.0f32, 0.5, -2.0, 1.0, 3.0]);
        let rows = Rows::csr(&indptr, &indices, &values, 10).unwrap().with_labels(&[1.0, -1.0, 1.0]).unwrap();
        let model = Config::from_name("logistic").unwrap().passes(2.0).fit(&rows).unwrap();
        let path = std::env::temp_dir().join(format!("rosenblatt-fuzz-serve-{}.model", std::process::id()));
        model.save(&path).unwrap();
        [16, 64, 4096]
            .into_iter()
            .map(|max_line| Server::new(&path, ServeOptions { max_line, workers: 1, max_connections: 1 }).unwrap())
            .collect()
    })
}

/// `bytes` in two reads, the first of `first` bytes.
struct Two<'a> {
    bytes: &'a [u8],
    at: usize,
    first: usize,
}

impl Read for Two<'_> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        let end = if self.at < self.first { self.first } else { self.bytes.len() };
        let n = buf.len().min(end - self.at);
        buf[..n].copy_from_slice(&self.bytes[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}

fuzz_target!(|data: &[u8]| {
    let Some((&knob, text)) = data.split_first() else { return };
    let server = &servers()[usize::from(knob) % 3];
    let mut whole = Vec::new();
    server.serve_stream(text, &mut whole).unwrap();
    let requests = text.split(|&b| b == b'\n').count() - usize::from(text.is_empty() || text.ends_with(b"\n"));
    let replies: Vec<&[u8]> = whole.split(|&b| b == b'\n').collect();
    assert_eq!(replies.len() - 1, requests, "one reply per line");
    assert!(replies.last().is_some_and(|l| l.is_empty()), "every reply ends with its line end");
    for r in &replies[..requests] {
        // A prediction's label and score (then whatever bytes the line's
        // comment held).
        let ok = r.starts_with(b"ERR ") || r.starts_with(b"{") || {
            let mut f = r.splitn(3, |&b| b == b' ').map(|w| std::str::from_utf8(w).unwrap_or(""));
            f.next().is_some_and(|l| l == "1" || l == "-1") && f.next().is_some_and(|v| v.parse::<f32>().is_ok())
        };
        assert!(ok, "{:?}", String::from_utf8_lossy(r));
    }
    // The `#stats` reply carries the time: the rest must not move.
    if !text.windows(6).any(|w| w == b"#stats") {
        let first = usize::from(knob).wrapping_mul(7919) % (text.len() + 1);
        let mut split = Vec::new();
        server.serve_stream(Two { bytes: text, at: 0, first }, &mut split).unwrap();
        assert_eq!(whole, split, "split after {first} bytes");
    }
});
