//! `cardsim solve` (being built; see the open issue).

use clap::Args;

#[derive(Debug, Args)]
pub struct SolveArgs {}

pub fn run(_args: SolveArgs) -> anyhow::Result<()> {
    Err(super::bad_input("'cardsim solve' is not built yet"))
}
