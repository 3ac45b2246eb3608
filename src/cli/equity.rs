//! `cardsim equity` (being built; see the open issue).

use clap::Args;

#[derive(Debug, Args)]
pub struct EquityArgs {}

pub fn run(_args: EquityArgs) -> anyhow::Result<()> {
    Err(super::bad_input("'cardsim equity' is not built yet"))
}
