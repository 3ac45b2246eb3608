//! Every integration test, in one test binary.
//!
//! One binary instead of one per file: each test binary links the whole
//! library and its dependencies, so sixteen of them cost most of a clean
//! test build in linking alone, and cargo runs test binaries one after
//! another while the tests inside one binary run in parallel. Each file is a
//! module named as the file was (`cargo test --test suite cli_runner::`
//! runs one file's tests).

mod common;

mod bad_input;
mod cli_runner;
mod equity_rare_deals;
mod eval_equity_cli;
mod file_contract;
mod holdem_agents;
mod holdem_cli;
mod holdem_corrections;
mod holdem_duplicate;
mod holdem_equity;
mod holdem_eval_oracle;
mod holdem_exec;
mod holdem_mixed;
mod holdem_sim;
mod holdem_table;
mod output_integrity;
mod parquet;
mod parsers_fuzz;
mod phh_real;
mod player_stats;
mod pokerkit_crosscheck;
mod reference_scripts;
mod run_cancel;
mod solver_cli;
mod solver_reference;
mod sweep;
mod tienlen_cli;
mod tienlen_rules;
mod variants_agents;
mod variants_equity;
mod variants_eval;
mod variants_phh;
