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

/// Agent `agent`'s estimator `estimator` in a hold'em summary's `agents`
/// table: its bb/100 and the half-width of its 95% interval.
pub fn agent_estimate(summary: &serde_json::Value, agent: &str, estimator: &str) -> (f64, f64) {
    let e = agent_estimator(summary, agent, estimator);
    let [lo, hi] = [0, 1].map(|k| e["ci95_bb_per_100"][k].as_f64().expect("a number"));
    (e["bb_per_100"].as_f64().expect("a number"), (hi - lo) / 2.0)
}

/// The entry of agent `agent`'s estimator `estimator` in a hold'em
/// summary's `agents` table.
pub fn agent_estimator<'a>(
    summary: &'a serde_json::Value,
    agent: &str,
    estimator: &str,
) -> &'a serde_json::Value {
    let find = |list: &'a serde_json::Value, key: &str, name: &str| {
        list.as_array()
            .expect("a list")
            .iter()
            .find(|x| x[key] == name)
            .unwrap_or_else(|| panic!("no {key} {name}"))
    };
    find(
        &find(&summary["agents"], "agent", agent)["estimators"],
        "estimator",
        estimator,
    )
}

/// The CSV bytes of a hold'em run of `hands` hands (seed 7) on `threads`
/// threads, written to `dir`.
pub fn holdem_csv(
    game: &cardsim::holdem::sim::HoldemGame,
    hands: u64,
    threads: usize,
    dir: &std::path::Path,
) -> Vec<u8> {
    let out = dir.join(format!("run-{threads}.csv"));
    let mut config = cardsim::sim::RunConfig::new(hands, 7);
    config.threads = Some(threads);
    config.out = Some(out.clone());
    cardsim::sim::run(game, &config).unwrap();
    std::fs::read(out).unwrap()
}

/// Chips on the table: stacks plus what is in front or in the pot.
pub fn chips_on_table(h: &cardsim::holdem::table::HandState) -> u64 {
    if h.street() == cardsim::holdem::table::Street::Done {
        h.seats().iter().map(|s| s.stack).sum()
    } else {
        h.seats().iter().map(|s| s.stack + s.contributed).sum()
    }
}
