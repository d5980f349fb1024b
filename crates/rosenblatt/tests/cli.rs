//! The `rosenblatt` binary, run as a user runs it.

use std::process::Command;

fn rosenblatt() -> Command {
    Command::new(env!("CARGO_BIN_EXE_rosenblatt"))
}

#[test]
fn version_names_the_simd_level() {
    let out = rosenblatt().arg("--version").env_remove("ROSENBLATT_SIMD").output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.starts_with(concat!("rosenblatt ", env!("CARGO_PKG_VERSION"))), "{text}");
    let best = rosenblatt::kernels::Backend::best().name();
    assert!(text.contains(&format!("simd: {best};")), "{text}");
    assert!(text.contains(rosenblatt::kernels::build_level()), "{text}");
}

#[test]
fn simd_can_be_forced_portable() {
    let out = rosenblatt().arg("--version").env("ROSENBLATT_SIMD", "portable").output().unwrap();
    let text = String::from_utf8(out.stdout).unwrap();
    assert!(text.contains("simd: portable;"), "{text}");
}

#[test]
fn unknown_flag_is_an_error_not_a_panic() {
    let out = rosenblatt().arg("--no-such-flag").output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("--no-such-flag") && !err.contains("panicked"), "{err}");
}
