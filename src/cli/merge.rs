//! `cardsim merge`.
use clap::Args;
#[derive(Debug, Args)]
pub struct MergeArgs {}
pub fn run(_args: MergeArgs) -> anyhow::Result<()> {
    Err(super::bad_input("not built yet"))
}
