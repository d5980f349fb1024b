//! `rosenblatt serve`: the library's server ([`rosenblatt::serve`]) on a
//! TCP port, a Unix socket or standard input, with the signals and the
//! file watch that reload or stop it.

use crate::args::ServeArgs;
use crate::ui::{Ui, outln};
use rosenblatt::serve::net::{Listener, POLL};
use rosenblatt::serve::{Reloaded, ServeOptions, Server};
use std::io::Read;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, SystemTime};

pub fn run(a: ServeArgs, ui: Ui) -> anyhow::Result<()> {
    let mut opts = ServeOptions {
        max_line: a.max_line as usize,
        max_connections: a.max_connections as usize,
        ..ServeOptions::default()
    };
    if let Some(t) = a.threads {
        opts.workers = t as usize;
    }
    let server = Arc::new(Server::new(&a.model, opts)?);
    let (stop, hup) = (Arc::new(AtomicBool::new(false)), Arc::new(AtomicBool::new(false)));
    for sig in [signal_hook::consts::SIGTERM, signal_hook::consts::SIGINT] {
        signal_hook::flag::register(sig, stop.clone())?;
    }
    signal_hook::flag::register(signal_hook::consts::SIGHUP, hup.clone())?;
    {
        let (server, model, watch) = (server.clone(), a.model.clone(), a.watch);
        std::thread::spawn(move || housekeeping(&server, &model, watch, &stop, &hup, ui));
    }
    if a.stdio {
        let stdout = std::io::stdout().lock();
        return Ok(server.serve_stream(stdin_chunks(), stdout)?);
    }
    let (listener, addr) = match &a.unix {
        Some(path) => {
            if path.exists() {
                anyhow::bail!(
                    "{}: already exists; remove it (a socket left by a server that died?) or choose another path",
                    path.display()
                );
            }
            let l = std::os::unix::net::UnixListener::bind(path)
                .map_err(|e| anyhow::anyhow!("{}: cannot listen there: {e}", path.display()))?;
            (Listener::Unix(l), path.display().to_string())
        }
        None => {
            let l = std::net::TcpListener::bind((a.host.as_str(), a.port))
                .map_err(|e| anyhow::anyhow!("{}:{}: cannot listen there: {e}", a.host, a.port))?;
            let addr = l.local_addr()?.to_string();
            (Listener::Tcp(l), addr)
        }
    };
    if let Some(f) = &a.port_file {
        let mut file = rosenblatt::loader::fs::AtomicFile::create(f)?;
        std::io::Write::write_all(&mut file, format!("{addr}\n").as_bytes())
            .map_err(|source| rosenblatt::loader::LoadError::Io { path: f.clone(), source })?;
        file.commit()?;
    }
    if ui.json {
        crate::ui::json(&serde_json::json!({ "listening": addr, "model": a.model }))?;
    } else {
        outln!("listening on {addr}")?;
    }
    let ran = listener.run(&server);
    if let Some(path) = &a.unix {
        let _ = std::fs::remove_file(path);
    }
    ran?;
    if !ui.quiet {
        eprintln!("serve: stopped after {} requests ({} answered ERR)", server.stats.requests(), server.stats.errors());
    }
    Ok(())
}

/// Turns the signals' flags (and, with `watch`, a change of the model
/// file) into stops and reloads, saying what each reload did.
fn housekeeping(server: &Server, model: &Path, watch: bool, stop: &AtomicBool, hup: &AtomicBool, ui: Ui) {
    let stamp = |p: &Path| std::fs::metadata(p).ok().map(|m| (m.len(), m.modified().unwrap_or(SystemTime::UNIX_EPOCH)));
    let mut seen = stamp(model);
    let mut last_look = std::time::Instant::now();
    loop {
        std::thread::sleep(Duration::from_millis(20));
        if stop.load(Ordering::SeqCst) {
            server.stop();
            return;
        }
        let mut reload = hup.swap(false, Ordering::SeqCst);
        if watch && last_look.elapsed() >= Duration::from_millis(500) {
            last_look = std::time::Instant::now();
            let now = stamp(model);
            if now.is_some() && now != seen {
                seen = now;
                reload = true;
            }
        }
        if reload {
            match server.reload() {
                Ok(Reloaded::Swapped { crc32 }) if !ui.quiet => {
                    eprintln!("serve: now serving {} (crc32 {crc32:08x})", model.display())
                }
                Ok(_) => {}
                Err(e) => eprintln!("serve: kept the model being served: {e}"),
            }
        }
    }
}

/// Standard input as a reader whose reads time out (every [`POLL`]), so
/// that a server waiting on a silent pipe still sees a stop: a thread
/// reads, a one-slot channel hands the bytes over.
fn stdin_chunks() -> impl Read {
    let (tx, rx) = std::sync::mpsc::sync_channel::<std::io::Result<Vec<u8>>>(1);
    std::thread::spawn(move || {
        let mut stdin = std::io::stdin().lock();
        loop {
            let mut buf = vec![0u8; 64 << 10];
            match stdin.read(&mut buf) {
                Ok(0) => return,
                Ok(n) => {
                    buf.truncate(n);
                    if tx.send(Ok(buf)).is_err() {
                        return;
                    }
                }
                Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                Err(e) => {
                    let _ = tx.send(Err(e));
                    return;
                }
            }
        }
    });
    Chunks { rx, chunk: Vec::new(), at: 0 }
}

struct Chunks {
    rx: std::sync::mpsc::Receiver<std::io::Result<Vec<u8>>>,
    chunk: Vec<u8>,
    at: usize,
}

impl Read for Chunks {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        if self.at == self.chunk.len() {
            match self.rx.recv_timeout(POLL) {
                Ok(chunk) => (self.chunk, self.at) = (chunk?, 0),
                Err(std::sync::mpsc::RecvTimeoutError::Timeout) => return Err(std::io::ErrorKind::TimedOut.into()),
                Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => return Ok(0),
            }
        }
        let n = buf.len().min(self.chunk.len() - self.at);
        buf[..n].copy_from_slice(&self.chunk[self.at..self.at + n]);
        self.at += n;
        Ok(n)
    }
}
