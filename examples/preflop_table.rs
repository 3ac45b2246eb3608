//! Generates `src/holdem/equity/data/preflop_hu.bin`, the exact heads-up preflop
//! equity table (format in `src/holdem/equity/preflop.rs`): every class of
//! matchups up to suit renaming and player order, each enumerated over all
//! 1,712,304 boards by the exact board enumerator, on every core.
//!
//! `cargo run --release --example preflop_table -- src/holdem/equity/data/preflop_hu.bin`
//! (prints the class count, the build time and the file size).

use std::time::Instant;

use anyhow::Context;
use cardsim::holdem::equity::preflop::{all_keys, compute, encode, key_hands};
use cardsim::holdem::eval::tables;
use rayon::prelude::*;

fn main() -> anyhow::Result<()> {
    let path = std::env::args()
        .nth(1)
        .context("usage: preflop_table OUTPUT_FILE")?;
    let start = Instant::now();
    let t = tables();
    let keys = all_keys();
    let classes = start.elapsed();
    let entries: Vec<_> = keys
        .par_iter()
        .map(|&k| {
            let (a, b) = key_hands(k);
            (k, compute(t, a, b))
        })
        .collect();
    let built = start.elapsed();
    let bytes = encode(&entries);
    std::fs::write(&path, &bytes).with_context(|| format!("writing {path}"))?;
    println!(
        "{} classes (found in {:.2} s), enumerated in {:.1} s on {} threads; {} bytes written to {path}",
        keys.len(),
        classes.as_secs_f64(),
        (built - classes).as_secs_f64(),
        rayon::current_num_threads(),
        bytes.len()
    );
    Ok(())
}
