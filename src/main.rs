//! The `cardsim` binary: parse, run, map errors to exit codes. Nothing else.

use std::process::ExitCode;

fn main() -> ExitCode {
    cardsim::cli::main()
}
