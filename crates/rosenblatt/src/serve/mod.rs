//! A prediction server's engine, for `rosenblatt serve` and for programs
//! that embed one: request lines in (LIBSVM text, or VW text for a model
//! trained on it), one reply line out for each, in order — `label score`
//! with the line's id or tag, exactly as `predict` prints that row, or
//! `ERR` and why.
//!
//! - [`Server`]: the model being served, swapped whole on
//!   [`Server::reload`] (a file that does not load, or would answer
//!   another task, is refused and the old model serves on), the counters,
//!   and the stop flag.
//! - [`Server::serve_stream`] answers one connection (or standard input)
//!   batch by batch: every complete line read is answered before the next
//!   read, so a client that does not read its replies stops being read
//!   (back-pressure), and memory stays bounded by the longest line
//!   allowed.
//! - [`net`]: listening on TCP or a Unix socket, a thread per connection.
//! - The binary turns signals into [`Server::reload`] and
//!   [`Server::stop`], and words the options as flags.

mod answer;
mod conn;
pub mod net;
mod stats;

pub use answer::STATS_LINE;
pub use stats::Stats;

use crate::error::Error;
use crate::model::Model;
use rosenblatt_loader::lines::LineFormat;
use rosenblatt_loader::vw::Labels;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Condvar, Mutex, RwLock};

/// How a server answers.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServeOptions {
    /// The longest request line, in bytes: a longer one is refused with
    /// `ERR` and skipped to its end without being kept.
    pub max_line: usize,
    /// How many connections may be scoring at once (the others wait).
    pub workers: usize,
    /// How many connections are served at once: one more is told `ERR`
    /// and closed.
    pub max_connections: usize,
}

impl Default for ServeOptions {
    fn default() -> Self {
        ServeOptions {
            max_line: 1 << 20,
            workers: std::thread::available_parallelism().map_or(1, |n| n.get()),
            max_connections: 256,
        }
    }
}

/// A model as served: the model, how its request lines are read, and the
/// file it came from with the file's checksum.
pub struct Served {
    /// The model.
    pub model: Model,
    pub(crate) format: LineFormat,
    /// The model file.
    pub path: PathBuf,
    /// The model file's CRC-32 (of all but its last 4 bytes, which hold it).
    pub crc32: u32,
}

impl Served {
    /// Loads the model file at `path` and how its requests are read.
    pub fn load(path: &Path) -> Result<Served, Error> {
        let bytes = std::fs::read(path)
            .map_err(|e| Error::Load(rosenblatt_loader::LoadError::Io { path: path.into(), source: e }))?;
        let model = Model::decode(path, &bytes)?;
        let format = match &model.meta.hashing {
            None => LineFormat::Libsvm(crate::predict::libsvm_options(model.meta.index_base, Labels::Optional)),
            Some(h) if h.label_column.is_some() => {
                return Err(Error::Model {
                    path: path.into(),
                    reason: "was trained on CSV: a server reads LIBSVM or VW lines, which a CSV model cannot".into(),
                });
            }
            Some(h) => {
                LineFormat::Vw(Box::new(h.compile().map_err(|e| Error::Input(e.to_string()))?), Labels::Optional)
            }
        };
        // The file ends with its own CRC-32 of the rest, which decoding
        // checked (a CRC over the whole file would be CRC-32's constant
        // residue, the same for every model).
        let crc32 = bytes.last_chunk::<4>().map_or(0, |c| u32::from_le_bytes(*c));
        Ok(Served { model, format, path: path.into(), crc32 })
    }

    /// Why `next` cannot take this model's place, if it cannot: it would
    /// read requests otherwise (features counted from another base, hashed
    /// otherwise, of another dimension) or answer with other labels.
    pub fn refuses(&self, next: &Served) -> Option<String> {
        let (a, b) = (&self.model.meta, &next.model.meta);
        if a.dim != b.dim {
            return Some(format!("its dimension is {}, the served model's {}", b.dim, a.dim));
        }
        if a.classes != b.classes {
            return Some(format!("its labels are {:?}, the served model's {:?}", b.classes, a.classes));
        }
        if a.hashing != b.hashing {
            return Some("it hashes features otherwise than the served model".into());
        }
        if a.index_base != b.index_base {
            return Some(format!("it counts features from {}, the served model from {}", b.index_base, a.index_base));
        }
        None
    }
}

/// What a reload did.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reloaded {
    /// The new model serves.
    Swapped {
        /// Its file's checksum.
        crc32: u32,
    },
    /// The file's bytes are the served model's: nothing changed.
    Unchanged,
}

/// A running server's shared state.
pub struct Server {
    served: RwLock<Arc<Served>>,
    opts: ServeOptions,
    /// The counters.
    pub stats: Stats,
    stop: AtomicBool,
    /// Connections scoring now, at most `opts.workers`.
    scoring: Mutex<usize>,
    turn: Condvar,
}

impl Server {
    /// A server of the model file at `path`.
    pub fn new(path: &Path, opts: ServeOptions) -> Result<Server, Error> {
        if opts.max_line == 0 || opts.workers == 0 || opts.max_connections == 0 {
            return Err(Error::Input(format!(
                "a server needs a line limit, workers and connections above 0 (given {opts:?})"
            )));
        }
        let served = Served::load(path)?;
        Ok(Server {
            served: RwLock::new(Arc::new(served)),
            opts,
            stats: Stats::default(),
            stop: AtomicBool::new(false),
            scoring: Mutex::new(0),
            turn: Condvar::new(),
        })
    }

    /// The options.
    pub fn options(&self) -> &ServeOptions {
        &self.opts
    }

    /// The model serving now.
    pub fn served(&self) -> Arc<Served> {
        self.served.read().unwrap_or_else(|e| e.into_inner()).clone()
    }

    /// Loads the served model's file again and serves it from the next
    /// batch of each connection on (a batch in flight finishes on the model
    /// it started with). A file that does not load, or that
    /// [`Served::refuses`], is an error and the old model serves on.
    pub fn reload(&self) -> Result<Reloaded, Error> {
        let old = self.served();
        let next = Served::load(&old.path).inspect_err(|_| self.stats.refused_reload())?;
        if let Some(why) = old.refuses(&next) {
            self.stats.refused_reload();
            return Err(Error::Model { path: old.path.clone(), reason: format!("not served: {why}") });
        }
        if next.crc32 == old.crc32 && next.model == old.model {
            return Ok(Reloaded::Unchanged);
        }
        let crc32 = next.crc32;
        *self.served.write().unwrap_or_else(|e| e.into_inner()) = Arc::new(next);
        self.stats.reloads.fetch_add(1, Ordering::Relaxed);
        Ok(Reloaded::Swapped { crc32 })
    }

    /// Asks every connection to finish the lines it has read and close,
    /// and the listener to stop accepting.
    pub fn stop(&self) {
        self.stop.store(true, Ordering::SeqCst);
    }

    /// Whether [`Server::stop`] was called.
    pub fn stopping(&self) -> bool {
        self.stop.load(Ordering::SeqCst)
    }

    /// Runs `f` as one of at most `workers` connections scoring at once.
    fn scoring<T>(&self, f: impl FnOnce() -> T) -> T {
        let mut n = self.scoring.lock().unwrap_or_else(|e| e.into_inner());
        while *n >= self.opts.workers {
            n = self.turn.wait(n).unwrap_or_else(|e| e.into_inner());
        }
        *n += 1;
        drop(n);
        let out = f();
        *self.scoring.lock().unwrap_or_else(|e| e.into_inner()) -= 1;
        self.turn.notify_one();
        out
    }

    /// The `#stats` reply: one JSON line.
    pub fn stats_line(&self) -> String {
        let served = self.served();
        let s = &self.stats;
        let up = s.uptime().as_secs_f64();
        let v = serde_json::json!({
            "requests": s.requests(),
            "errors": s.errors(),
            "rows_per_second": if up > 0.0 { s.requests() as f64 / up } else { 0.0 },
            "latency_us": { "p50": s.percentile_us(0.50), "p99": s.percentile_us(0.99) },
            "connections": s.connections.load(Ordering::Relaxed),
            "connections_refused": s.refused.load(Ordering::Relaxed),
            "model": served.path,
            "model_crc32": format!("{:08x}", served.crc32),
            "reloads": s.reloads.load(Ordering::Relaxed),
            "reloads_refused": s.reloads_refused.load(Ordering::Relaxed),
            "uptime_s": up,
        });
        v.to_string()
    }
}
