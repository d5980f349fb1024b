//! `rosenblatt bench serve`: the model served in this process on a
//! loopback port, and clients on their own threads sending the data's
//! lines, `--pipeline` at a time per connection, optionally paced to
//! `--rate`; every reply is checked against `predict`'s line for its row.
//! Bounded by `--requests` and `--seconds`.

use crate::args::BenchServeArgs;
use crate::ui::{Ui, outln};
use anyhow::Context;
use rosenblatt::serve::net::Listener;
use rosenblatt::serve::{ServeOptions, Server};
use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::sync::Arc;
use std::time::{Duration, Instant};

/// One connection's record.
#[derive(Default)]
struct Client {
    answered: u64,
    wrong: u64,
    /// Each request's latency, in microseconds.
    latencies: Vec<f32>,
    first_wrong: Option<String>,
}

pub fn run(a: BenchServeArgs, ui: Ui) -> anyhow::Result<()> {
    let model = crate::ui::load_model(&a.model)?;
    let text = std::fs::read(&a.data).with_context(|| format!("{}: cannot read", a.data.display()))?;
    // The lines that are rows (predict passes over blank and comment lines).
    let lines: Vec<&[u8]> = text
        .split(|&b| b == b'\n')
        .map(|l| l.strip_suffix(b"\r").unwrap_or(l))
        .filter(|l| l.iter().any(|b| !b.is_ascii_whitespace()) && !l.trim_ascii_start().starts_with(b"#"))
        .collect();
    let expected: Vec<String> = rosenblatt::predict::predict_path(&model, &a.model, &a.data, None)?
        .predictions
        .iter()
        .map(|p| format!("{} {}", p.label, p.score))
        .collect();
    if lines.is_empty() || lines.len() != expected.len() {
        anyhow::bail!("{}: {} request lines but {} rows predicted", a.data.display(), lines.len(), expected.len());
    }
    let mut opts = ServeOptions::default();
    if let Some(t) = a.threads {
        opts.workers = t as usize;
    }
    let server = Arc::new(Server::new(&a.model, opts)?);
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let addr = listener.local_addr()?;
    let running = {
        let server = server.clone();
        std::thread::spawn(move || Listener::Tcp(listener).run(&server))
    };
    let (conns, k) = (a.connections as u64, a.pipeline as u64);
    let deadline = Instant::now() + Duration::from_secs_f64(a.seconds.max(0.0));
    let start = Instant::now();
    let clients: Vec<anyhow::Result<Client>> = std::thread::scope(|s| {
        let handles: Vec<_> = (0..conns)
            .map(|c| {
                let (lines, expected) = (&lines, &expected);
                let (n, rate) = (a.requests, a.rate);
                s.spawn(move || client(addr, c, conns, n, k, rate, deadline, start, lines, expected))
            })
            .collect();
        handles.into_iter().map(|h| h.join().unwrap_or_else(|_| Err(anyhow::anyhow!("a client failed")))).collect()
    });
    let elapsed = start.elapsed().as_secs_f64();
    server.stop();
    let _ = running.join();
    let clients = clients.into_iter().collect::<anyhow::Result<Vec<_>>>()?;
    let answered: u64 = clients.iter().map(|c| c.answered).sum();
    let wrong: u64 = clients.iter().map(|c| c.wrong).sum();
    let mut lat: Vec<f32> = clients.iter().flat_map(|c| c.latencies.iter().copied()).collect();
    lat.sort_unstable_by(f32::total_cmp);
    let pct = |q: f64| lat.get(((lat.len() as f64 * q).ceil() as usize).saturating_sub(1)).copied().unwrap_or(0.0);
    let rate = answered as f64 / elapsed;
    if ui.json {
        crate::ui::json(&serde_json::json!({
            "model": a.model, "data": a.data, "connections": conns, "pipeline": k, "rate_asked": a.rate,
            "requests": answered, "wrong": wrong, "seconds": elapsed, "requests_per_second": rate,
            "latency_us": { "p50": pct(0.5), "p90": pct(0.9), "p99": pct(0.99), "max": pct(1.0) },
        }))?;
    } else {
        outln!(
            "{answered} requests on {conns} connections, {k} in flight each, in {elapsed:.2} s: {rate:.0} a second"
        )?;
        outln!("latency (µs): p50 {:.0}  p90 {:.0}  p99 {:.0}  max {:.0}", pct(0.5), pct(0.9), pct(0.99), pct(1.0))?;
        outln!("replies equal to predict's: {} of {answered}", answered - wrong)?;
    }
    if let Some(w) = clients.iter().find_map(|c| c.first_wrong.clone()) {
        anyhow::bail!("{wrong} replies differ from predict's; the first: {w}");
    }
    Ok(())
}

/// Connection `c` of `conns`: requests c, c + conns, … below `n` (the
/// lines taken in turn), `k` sent before their replies are read.
#[allow(clippy::too_many_arguments)]
fn client(
    addr: std::net::SocketAddr,
    c: u64,
    conns: u64,
    n: u64,
    k: u64,
    rate: Option<f64>,
    deadline: Instant,
    start: Instant,
    lines: &[&[u8]],
    expected: &[String],
) -> anyhow::Result<Client> {
    let stream = TcpStream::connect(addr)?;
    stream.set_nodelay(true)?;
    stream.set_read_timeout(Some(Duration::from_secs(30)))?;
    let mut reader = BufReader::new(stream.try_clone()?);
    let mut writer = stream;
    let mut rec = Client::default();
    let (mut next, mut window, mut reply, mut sent) = (c, 0u64, String::new(), Vec::new());
    let mut out = Vec::new();
    while next < n && Instant::now() < deadline {
        if let Some(r) = rate {
            // This window's turn: windows of all connections spread evenly.
            let due = start + Duration::from_secs_f64(((window * conns + c) * k) as f64 / r);
            if let Some(wait) = due.checked_duration_since(Instant::now()) {
                std::thread::sleep(wait);
            }
        }
        window += 1;
        out.clear();
        sent.clear();
        while sent.len() < k as usize && next < n {
            let line = (next % lines.len() as u64) as usize;
            out.extend_from_slice(lines[line]);
            out.push(b'\n');
            sent.push(line);
            next += conns;
        }
        let t = Instant::now();
        writer.write_all(&out)?;
        for &line in &sent {
            reply.clear();
            if reader.read_line(&mut reply)? == 0 {
                anyhow::bail!("the server closed connection {c}");
            }
            rec.latencies.push(t.elapsed().as_secs_f32() * 1e6);
            rec.answered += 1;
            let got = reply.trim_end_matches('\n');
            let want = &expected[line];
            if !(got == want || got.strip_prefix(want.as_str()).is_some_and(|t| t.starts_with(' '))) {
                rec.wrong += 1;
                rec.first_wrong.get_or_insert_with(|| format!("line {}: {got:?}, predict: {want:?}", line + 1));
            }
        }
    }
    Ok(rec)
}
