//! `cardsim replay` (being built; see the open issue).

use clap::Args;

#[derive(Debug, Args)]
pub struct ReplayArgs {}

pub fn run(_args: ReplayArgs) -> anyhow::Result<()> {
    Err(super::bad_input("'cardsim replay' is not built yet"))
}
