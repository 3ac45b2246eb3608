//! Long calls that Ctrl-C can stop.
//!
//! CPython runs a signal's Python handler (the one that raises
//! `KeyboardInterrupt`) only when the main thread is back in the
//! interpreter, so a call that works for minutes inside Rust would keep a
//! Ctrl-C waiting until it returns. Here the work runs on a thread of its
//! own while the calling thread, without the GIL, waits for it in short
//! slices and asks the interpreter for pending signals between them. When a
//! handler raises, the work's [`Cancel`] token is set, the work (which polls
//! the token between batches) is waited for, so that no thread of it
//! outlives the call or writes into a directory the caller removes next,
//! and the handler's exception is raised.

use std::sync::mpsc;
use std::thread;
use std::time::Duration;

use cardsim::sim::interrupt::Cancel;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;

/// How long the caller waits between two looks at pending signals: the
/// bound on the delay a Ctrl-C adds before the work is asked to stop.
const POLL: Duration = Duration::from_millis(50);

/// Stack of the work's thread: that of a main thread, so that the work has
/// the room it would have when called directly.
const STACK: usize = 8 << 20;

/// Runs `work` (which polls `cancel`) on its own thread and returns its
/// result, or the exception a signal handler raised while it ran (having
/// cancelled it and waited for it to end).
pub fn run<T: Send>(
    py: Python<'_>,
    cancel: &Cancel,
    work: impl FnOnce() -> T + Send,
) -> PyResult<T> {
    thread::scope(|scope| {
        let (tx, mut rx) = mpsc::channel();
        let worker = thread::Builder::new()
            .name("cardsim".into())
            .stack_size(STACK)
            .spawn_scoped(scope, move || {
                // The receiver lives as long as the scope: cannot fail.
                let _ = tx.send(work());
            })
            .map_err(|e| PyRuntimeError::new_err(format!("cannot start a thread: {e}")))?;
        loop {
            // The receiver goes with the wait (it may not be shared with it).
            let (got, back) = py.detach(move || (rx.recv_timeout(POLL), rx));
            rx = back;
            match got {
                Ok(value) => return Ok(value),
                Err(mpsc::RecvTimeoutError::Timeout) => {
                    if let Err(raised) = py.check_signals() {
                        cancel.cancel();
                        // The work's own answer (a "cancelled" error, or a
                        // result it finished just then) gives way to the
                        // handler's exception.
                        let _ = py.detach(|| worker.join());
                        return Err(raised);
                    }
                }
                Err(mpsc::RecvTimeoutError::Disconnected) => {
                    // The work panicked before sending: carry its panic on
                    // (pyo3 turns it into a `PanicException`).
                    return match worker.join() {
                        Err(panic) => std::panic::resume_unwind(panic),
                        Ok(()) => Err(PyRuntimeError::new_err("the work ended without an answer")),
                    };
                }
            }
        }
    })
}
