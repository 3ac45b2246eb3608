//! The chunks of a run: claimed one at a time by the workers, played in any
//! order, handed to the writer in game order.
//!
//! There is no barrier between groups of chunks: a worker that finishes a
//! chunk claims the next one at once, so no core waits for the slowest
//! chunk of a group while the others idle. Memory stays bounded because a
//! worker may not start a chunk more than [`Window`]'s `ahead` chunks past
//! the last one handed to the writer.

use std::collections::BTreeMap;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::mpsc::Receiver;
use std::sync::{Condvar, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

/// How often a worker waiting for the writer looks at a stop request.
const POLL: Duration = Duration::from_millis(50);

/// What the workers and the writer share: which chunk is claimed next, and
/// how far the writer has come.
pub(super) struct Window {
    /// The next chunk number a worker claims (chunks numbered from 0).
    next_claim: AtomicU64,
    /// Chunks in the run.
    chunks: u64,
    /// How many chunks past the writer a worker may start.
    ahead: u64,
    /// Chunks handed to the writer so far.
    handed: Mutex<u64>,
    moved: Condvar,
    /// Set once the writer takes no more chunks (done, failed or stopped).
    closed: AtomicBool,
}

impl Window {
    /// A window over `chunks` chunks that lets the workers run `ahead`
    /// chunks (at least one) past the writer.
    pub(super) fn new(chunks: u64, ahead: u64) -> Window {
        Window {
            next_claim: AtomicU64::new(0),
            chunks,
            ahead: ahead.max(1),
            handed: Mutex::new(0),
            moved: Condvar::new(),
            closed: AtomicBool::new(false),
        }
    }

    fn handed(&self) -> MutexGuard<'_, u64> {
        self.handed.lock().unwrap_or_else(PoisonError::into_inner)
    }

    /// Claims the next chunk and waits until it is within the window.
    /// `None` when every chunk is claimed, when the writer takes no more, or
    /// when `stop` says so while waiting.
    ///
    /// Chunks are claimed in increasing order, so once chunk `k` is claimed
    /// every chunk before it is too, and a worker gives up a claimed chunk
    /// only when the writer will never reach it (closed) or the run stops:
    /// the writer never waits for a chunk no one plays.
    pub(super) fn claim(&self, stop: impl Fn() -> bool) -> Option<u64> {
        let k = self.next_claim.fetch_add(1, Ordering::Relaxed);
        if k >= self.chunks {
            return None;
        }
        let mut handed = self.handed();
        while k >= *handed + self.ahead {
            if self.closed.load(Ordering::Acquire) || stop() {
                return None;
            }
            handed = match self.moved.wait_timeout(handed, POLL) {
                Ok((guard, _)) => guard,
                Err(poisoned) => poisoned.into_inner().0,
            };
        }
        Some(k)
    }

    /// The writer has taken `n` chunks: workers may start up to `n + ahead`.
    fn hand_over(&self, n: u64) {
        *self.handed() = n;
        self.moved.notify_all();
    }

    /// The writer takes no more chunks: workers waiting to start give up.
    fn close(&self) {
        self.closed.store(true, Ordering::Release);
        let _guard = self.handed();
        self.moved.notify_all();
    }
}

/// The played chunks in chunk order, from the workers' `(number, chunk)`
/// pairs in any order; it ends when the workers are done, at the first
/// chunk that never came (a stopped run). Dropping it closes the window, so
/// no worker waits for a writer that has stopped (even by a panic).
pub(super) struct InOrder<'a, T> {
    rx: Receiver<(u64, T)>,
    /// Chunks that came before their turn.
    early: BTreeMap<u64, T>,
    next: u64,
    window: &'a Window,
}

impl<'a, T> InOrder<'a, T> {
    pub(super) fn new(rx: Receiver<(u64, T)>, window: &'a Window) -> InOrder<'a, T> {
        InOrder {
            rx,
            early: BTreeMap::new(),
            next: 0,
            window,
        }
    }
}

impl<T> Iterator for InOrder<'_, T> {
    type Item = T;

    fn next(&mut self) -> Option<T> {
        loop {
            if let Some(chunk) = self.early.remove(&self.next) {
                self.next += 1;
                self.window.hand_over(self.next);
                return Some(chunk);
            }
            let (k, chunk) = self.rx.recv().ok()?;
            self.early.insert(k, chunk);
        }
    }
}

impl<T> Drop for InOrder<'_, T> {
    fn drop(&mut self) {
        self.window.close();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::mpsc::channel;

    /// Workers playing chunks in a scrambled order: the writer sees every
    /// chunk once, in order, and no worker ever ran more than the window
    /// past it.
    #[test]
    fn chunks_reach_the_writer_in_order_within_the_window() {
        let (chunks, ahead) = (500u64, 6u64);
        let window = Window::new(chunks, ahead);
        let handed_max = AtomicU64::new(0);
        let (tx, rx) = channel::<(u64, u64)>();
        let seen: Vec<u64> = std::thread::scope(|s| {
            for w in 0..4u64 {
                let tx = tx.clone();
                let window = &window;
                let handed_max = &handed_max;
                s.spawn(move || {
                    while let Some(k) = window.claim(|| false) {
                        let handed = *window.handed();
                        assert!(k < handed + ahead, "chunk {k} started {handed} handed");
                        handed_max.fetch_max(k.saturating_sub(handed), Ordering::Relaxed);
                        // Uneven work, so chunks finish out of order.
                        std::thread::sleep(Duration::from_micros((k * 7 + w * 13) % 300));
                        tx.send((k, k * 10)).unwrap();
                    }
                });
            }
            drop(tx);
            InOrder::new(rx, &window).collect()
        });
        assert_eq!(seen, (0..chunks).map(|k| k * 10).collect::<Vec<_>>());
        assert!(handed_max.load(Ordering::Relaxed) < ahead);
    }

    /// A writer that stops early (a failed write) releases the workers
    /// waiting for room, and the run ends instead of hanging.
    #[test]
    fn a_writer_that_stops_releases_the_waiting_workers() {
        let window = Window::new(1_000, 2);
        let (tx, rx) = channel::<(u64, ())>();
        let taken = std::thread::scope(|s| {
            for _ in 0..3 {
                let tx = tx.clone();
                let window = &window;
                s.spawn(move || {
                    while let Some(k) = window.claim(|| false) {
                        if tx.send((k, ())).is_err() {
                            break;
                        }
                    }
                });
            }
            drop(tx);
            InOrder::new(rx, &window).take(5).count()
        });
        assert_eq!(taken, 5);
        assert!(window.next_claim.load(Ordering::Relaxed) < 1_000);
    }

    /// A stop request lets waiting workers give up their claimed chunk;
    /// the writer then ends at the first chunk that never came.
    #[test]
    fn a_stopped_run_ends_at_the_first_missing_chunk() {
        let window = Window::new(100, 3);
        let (tx, rx) = channel::<(u64, u64)>();
        let stopped = AtomicBool::new(false);
        // Chunks 0 and 2 are played; the claim of 1 is given up on a stop.
        let k0 = window.claim(|| false);
        let k1 = window.claim(|| false);
        let k2 = window.claim(|| false);
        assert_eq!((k0, k1, k2), (Some(0), Some(1), Some(2)));
        stopped.store(true, Ordering::Relaxed);
        // Chunk 3 is outside the window (nothing handed yet): a stop ends
        // the wait.
        assert_eq!(window.claim(|| stopped.load(Ordering::Relaxed)), None);
        tx.send((2, 2)).unwrap();
        tx.send((0, 0)).unwrap();
        drop(tx);
        let seen: Vec<u64> = InOrder::new(rx, &window).collect();
        assert_eq!(seen, vec![0]);
    }
}
