//! `cardsim merge`: join shard outputs into the output of the whole run.

use std::path::PathBuf;

use clap::Args;

use crate::sim::{merge, MergeConfig};

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim merge part*.json -o all.csv --summary all.json --hist hist/
  cardsim merge part*.json --pots all-pots.csv --phh all.phhs --summary all.json")]
pub struct MergeArgs {
    /// Summary files of the shards (`--summary` of each `--shard K/N` run),
    /// in any order.
    #[arg(required = true, value_name = "SHARD_SUMMARY")]
    pub shards: Vec<PathBuf>,
    /// Merged CSV (`-` for stdout), from the CSVs the shard summaries name;
    /// shards that wrote Parquet are joined into Parquet.
    #[arg(long, short = 'o', value_name = "PATH")]
    pub out: Option<PathBuf>,
    /// Merged pots CSV (hold'em), from the `--pots` files the shard
    /// summaries name.
    #[arg(long, value_name = "PATH")]
    pub pots: Option<PathBuf>,
    /// Merged `.phhs` hand histories (hold'em), from the `--phh FILE.phhs`
    /// files the shard summaries name.
    #[arg(long, value_name = "FILE.phhs")]
    pub phh: Option<PathBuf>,
    /// Merged summary JSON.
    #[arg(long, value_name = "PATH")]
    pub summary: Option<PathBuf>,
    /// Directory for the merged histograms (`.hgrm` and `.hdr`).
    #[arg(long, value_name = "DIR")]
    pub hist: Option<PathBuf>,
    /// Print nothing on stderr but errors.
    #[arg(long, short = 'q')]
    pub quiet: bool,
}

pub fn run(args: MergeArgs) -> anyhow::Result<()> {
    merge(&MergeConfig {
        shards: args.shards,
        out: args.out,
        side_out: args.pots,
        bundle_out: args.phh,
        summary: args.summary,
        hist: args.hist,
        quiet: args.quiet,
    })?;
    Ok(())
}
