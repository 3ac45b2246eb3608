//! Generates the hand evaluator's lookup tables once per build, so that no
//! run of cardsim spends time on them (a one-shot `cardsim eval` used to
//! spend about 60 ms building them at first use).
//!
//! The generator is the library's own `src/holdem/eval/tablegen.rs`,
//! compiled here through `#[path]`: one generator, which the library's
//! tests also run to check that the included tables are what it gives.
//! The tables go to `OUT_DIR/eval_tables.bin` as little-endian `u16`s.

use std::path::PathBuf;

// The library uses more of the generator than the build does (its
// reference classification and multiset walk).
#[allow(dead_code)]
#[path = "src/holdem/eval/tablegen.rs"]
mod tablegen;

fn main() {
    println!("cargo::rerun-if-changed=build.rs");
    println!("cargo::rerun-if-changed=src/holdem/eval/tablegen.rs");
    let tables = tablegen::tables();
    assert_eq!(tables.len(), tablegen::TABLES_LEN);
    let bytes: Vec<u8> = tables.iter().flat_map(|s| s.to_le_bytes()).collect();
    let out = PathBuf::from(std::env::var_os("OUT_DIR").expect("cargo sets OUT_DIR"));
    std::fs::write(out.join("eval_tables.bin"), bytes).expect("OUT_DIR is writable");
}
