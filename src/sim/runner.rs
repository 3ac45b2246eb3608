//! Runs a game N times (being built).

use std::path::PathBuf;

use thiserror::Error;

/// Shard `index` of `count`: games `[index*N/count, (index+1)*N/count)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: u64,
    pub count: u64,
}

/// Everything a run needs besides the game.
#[derive(Clone, Debug)]
pub struct RunConfig {
    pub games: u64,
    pub seed: u64,
    pub threads: Option<usize>,
    pub shard: Option<Shard>,
    pub out: Option<PathBuf>,
    pub summary: Option<PathBuf>,
    pub hist: Option<PathBuf>,
    pub quiet: bool,
    pub progress: bool,
    pub resume: bool,
}

/// The result of a run.
#[derive(Debug)]
pub struct RunOutcome {}

#[derive(Debug, Error)]
pub enum RunError {
    #[error("{0}")]
    Input(String),
    #[error("output closed")]
    BrokenPipe,
}

impl RunError {
    pub fn is_bad_input(&self) -> bool {
        matches!(self, RunError::Input(_))
    }
    pub fn is_broken_pipe(&self) -> bool {
        matches!(self, RunError::BrokenPipe)
    }
}

pub fn run<G: super::Game>(_game: &G, _config: &RunConfig) -> Result<RunOutcome, RunError> {
    Err(RunError::Input("runner not built yet".into()))
}
