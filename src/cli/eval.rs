//! `cardsim eval` (being built; see the open issue).

use clap::Args;

#[derive(Debug, Args)]
pub struct EvalArgs {}

pub fn run(_args: EvalArgs) -> anyhow::Result<()> {
    Err(super::bad_input("'cardsim eval' is not built yet"))
}
