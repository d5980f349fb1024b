//! The `rosenblatt` command-line tool. It parses flags ([`args`]), calls
//! the library for each command ([`commands`]) and prints; the work itself
//! lives in the `rosenblatt` library and the crates under it.
//!
//! Exit codes: 0 success (also when the reader of standard output went
//! away), 1 a refused request or bad data (one `error:` line), 2 a command
//! line the parser rejects.

mod args;
mod commands;
mod flags;
mod hashing;
mod hyper;
mod procs;
mod source;
mod ui;

use clap::Parser;

fn main() {
    let cli = args::Cli::parse();
    let procs = match procs::Procs::start() {
        Ok(p) => p,
        Err((rank, why)) => {
            if rank == 0 {
                eprintln!("error: {why}");
            }
            std::process::exit(1);
        }
    };
    if let Err(e) = commands::run(cli, &procs) {
        // The library errors already print their cause; add only causes
        // that say something new.
        let mut line = e.to_string();
        for cause in e.chain().skip(1) {
            let c = cause.to_string();
            if !line.contains(&c) {
                line = format!("{line}: {c}");
            }
        }
        procs.fail(&e, &flags::worded(&line));
    }
}
