//! `cardsim tienlen` (being built; see the open issue).

use clap::Args;

#[derive(Debug, Args)]
pub struct TienlenArgs {}

pub fn run(_args: TienlenArgs) -> anyhow::Result<()> {
    Err(super::bad_input("'cardsim tienlen' is not built yet"))
}
