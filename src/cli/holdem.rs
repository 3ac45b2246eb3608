//! `cardsim holdem` (being built; see the open issue).

use clap::Args;

#[derive(Debug, Args)]
pub struct HoldemArgs {}

pub fn run(_args: HoldemArgs) -> anyhow::Result<()> {
    Err(super::bad_input("'cardsim holdem' is not built yet"))
}
