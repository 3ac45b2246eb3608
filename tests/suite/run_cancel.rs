//! A library caller stops a run with a `Cancel` token (what the Python
//! package does on Ctrl-C): the run fails with `RunError::Cancelled` soon
//! after, however many games it was asked for, and none of its threads
//! outlives it.

use std::time::{Duration, Instant};

use cardsim::fishing::{FishingGame, Rules};
use cardsim::sim::interrupt::Cancel;
use cardsim::sim::{run, RunConfig, RunError};
use tempfile::TempDir;

fn endless_run(dir: &TempDir, cancel: &Cancel) -> RunConfig {
    let mut config = RunConfig::new(1_000_000_000_000, 7);
    config.threads = Some(2);
    config.out = Some(dir.path().join("games.csv"));
    config.summary = Some(dir.path().join("summary.json"));
    // Checkpoints in flight while it is cancelled: the run must wait for them.
    config.checkpoint_every = Duration::from_millis(20);
    config.cancel = Some(cancel.clone());
    config
}

#[test]
fn a_cancelled_run_of_a_trillion_games_stops_within_a_second() {
    let dir = TempDir::new().expect("temp dir");
    let cancel = Cancel::new();
    let config = endless_run(&dir, &cancel);
    let game = FishingGame::new(Rules::default());
    let canceller = {
        let cancel = cancel.clone();
        std::thread::spawn(move || {
            std::thread::sleep(Duration::from_millis(300));
            cancel.cancel();
            Instant::now()
        })
    };
    let result = run(&game, &config);
    let returned = Instant::now();
    let cancelled_at = canceller.join().expect("canceller");
    assert!(
        matches!(result, Err(RunError::Cancelled)),
        "expected Cancelled, got {result:?}"
    );
    let took = returned - cancelled_at;
    assert!(
        took < Duration::from_secs(1),
        "stopped {took:?} after the cancel"
    );
    // The summary is written only by a finished run.
    assert!(!dir.path().join("summary.json").exists());
    // Every file of the run is closed and no thread writes any more: the
    // directory can be removed and stays removed.
    let path = dir.path().to_path_buf();
    dir.close().expect("the run's directory is removable");
    std::thread::sleep(Duration::from_millis(100));
    assert!(
        !path.exists(),
        "a thread of the run wrote after it returned"
    );
}

#[test]
fn a_run_cancelled_before_it_starts_plays_nothing() {
    let dir = TempDir::new().expect("temp dir");
    let cancel = Cancel::new();
    cancel.cancel();
    let config = endless_run(&dir, &cancel);
    let game = FishingGame::new(Rules::default());
    let start = Instant::now();
    let result = run(&game, &config);
    assert!(matches!(result, Err(RunError::Cancelled)), "{result:?}");
    assert!(start.elapsed() < Duration::from_secs(1));
}
