//! `cardsim fishing`.
use clap::Args;
#[derive(Debug, Args)]
pub struct FishingArgs {}
pub fn run(_args: FishingArgs) -> anyhow::Result<()> {
    Err(super::bad_input("not built yet"))
}
