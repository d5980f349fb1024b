//! `serve`'s flags and `bench serve`'s.

use clap::Args;
use std::path::PathBuf;

/// `serve`.
#[derive(Args, Debug)]
pub struct ServeArgs {
    /// The model file to serve.
    pub model: PathBuf,
    /// Address to listen on.
    #[arg(long, default_value = "127.0.0.1", conflicts_with_all = ["unix", "stdio"])]
    pub host: String,
    /// TCP port; 0 takes a free one (printed, and written to --port-file).
    #[arg(long, default_value_t = 26542, conflicts_with_all = ["unix", "stdio"])]
    pub port: u16,
    /// Listen on this Unix socket instead of TCP (created; removed at exit).
    #[arg(long, conflicts_with = "stdio")]
    pub unix: Option<PathBuf>,
    /// Read requests on standard input and reply on standard output.
    #[arg(long)]
    pub stdio: bool,
    /// Write the address listened on to this file once listening.
    #[arg(long, conflicts_with = "stdio")]
    pub port_file: Option<PathBuf>,
    /// Connections scoring at once (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,
    /// Connections served at once; one more is told ERR and closed.
    #[arg(long, default_value_t = 256, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub max_connections: u32,
    /// The longest request line in bytes; a longer one is answered ERR and skipped.
    #[arg(long, default_value_t = 1 << 20, value_parser = clap::value_parser!(u64).range(16..=(1 << 30)))]
    pub max_line: u64,
    /// Load the model file again whenever it changes (checked twice a
    /// second), as on SIGHUP.
    #[arg(long)]
    pub watch: bool,
}

/// `bench serve`.
#[derive(Args, Debug)]
pub struct BenchServeArgs {
    /// The model file to serve.
    pub model: PathBuf,
    /// Text whose lines are the requests (LIBSVM, or VW for a VW model).
    pub data: PathBuf,
    /// Loopback connections.
    #[arg(long, default_value_t = 8, value_parser = clap::value_parser!(u32).range(1..=1024))]
    pub connections: u32,
    /// Requests in all (the data's lines, over and over).
    #[arg(long, default_value_t = 200_000, value_parser = clap::value_parser!(u64).range(1..=100_000_000))]
    pub requests: u64,
    /// Requests each connection sends before reading their replies.
    #[arg(long, default_value_t = 64, value_parser = clap::value_parser!(u32).range(1..=65536))]
    pub pipeline: u32,
    /// Stop sending after this many seconds, whatever is left.
    #[arg(long, default_value_t = 60.0)]
    pub seconds: f64,
    /// Send at this many requests a second in all (default: as fast as replies come).
    #[arg(long)]
    pub rate: Option<f64>,
    /// Connections scoring at once in the server (default: every core).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..=4096))]
    pub threads: Option<u32>,
}
