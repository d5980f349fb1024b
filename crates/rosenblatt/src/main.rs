//! The `rosenblatt` command-line tool.

use clap::Parser;

/// Online linear classification at memory speed.
#[derive(Parser, Debug)]
#[command(name = "rosenblatt", version = rosenblatt::version_line(), about)]
struct Cli {}

fn main() -> anyhow::Result<()> {
    let _cli = Cli::parse();
    println!("rosenblatt {}", rosenblatt::version_line());
    Ok(())
}
