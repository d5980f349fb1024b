//! What the command-line tests share: the binary, a run of it, a path as
//! an argument, and the bundled MNIST files. Each test file uses some.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `rosenblatt` binary under test.
pub fn rosenblatt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rosenblatt"))
}

/// Runs the binary with `args`: (exit code, stdout, stderr).
pub fn run(args: &[&str]) -> (i32, String, String) {
    let out = rosenblatt().args(args).output().unwrap();
    (out.status.code().unwrap_or(-1), String::from_utf8(out.stdout).unwrap(), String::from_utf8(out.stderr).unwrap())
}

/// `x` as an argument.
pub fn p(x: &Path) -> &str {
    x.to_str().unwrap()
}

/// The bundled MNIST IDX files' folder.
pub fn mnist() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../../datasets/mnist")
}
