//! Helpers shared by the command-line tests: run the binary, expect success
//! or a one-line error with exit status 2.

#![allow(dead_code)] // each test file uses its own subset

use std::process::Command;

use assert_cmd::cargo::cargo_bin;

/// The `cardsim` binary, without `RUST_BACKTRACE` (so errors stay one line).
pub fn cardsim() -> Command {
    let mut c = Command::new(cargo_bin("cardsim"));
    c.env_remove("RUST_BACKTRACE");
    c
}

/// Runs to success and returns stdout as text.
pub fn ok(args: &[&str]) -> String {
    let out = cardsim().args(args).output().expect("cardsim runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

/// Runs, expects exit status 2 and an error that starts `error:` (no
/// panic) on exactly one line, usage errors included; returns it.
pub fn bad(args: &[&str]) -> String {
    let out = cardsim().args(args).output().expect("cardsim runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    assert!(!err.contains("panicked"), "{args:?}: {err}");
    err
}
