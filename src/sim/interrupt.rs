//! Stopping a run cleanly on Ctrl-C (SIGINT) or SIGTERM, the signal Slurm and
//! Kubernetes send before they kill a job.
//!
//! While a run is *armed* (see [`Armed`]), the first signal only raises a
//! flag: the runner stops producing games, saves a checkpoint of every row
//! already written, and reports what it kept and how to resume (exit status
//! 128 + the signal: 130 for Ctrl-C, 143 for SIGTERM). A second signal, or a
//! signal while no run is armed, ends the process at once with that status,
//! as the default action would.
//!
//! The handlers are installed once per process, and only by runs that ask for
//! them ([`crate::sim::runner::RunConfig::catch_signals`], set by the
//! command-line tool): a library caller (a Python interpreter, a test
//! harness) keeps its own signal handling, and stops a run from outside
//! with a [`Cancel`] token instead.

use std::io;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::sync::{Arc, OnceLock};

use signal_hook::consts::{SIGINT, SIGTERM};
use signal_hook::flag;

/// The signal received by the armed run, 0 for none.
static RECEIVED: AtomicUsize = AtomicUsize::new(0);
/// True when the next signal must end the process at once: no run is
/// armed, or this is the second signal.
static EXIT_NOW: AtomicBool = AtomicBool::new(true);
/// Whether a run is armed now (between [`Armed::arm`] and its drop).
static ARMED: AtomicBool = AtomicBool::new(false);
/// Whether the handlers could be installed (once per process).
static INSTALLED: OnceLock<Result<(), String>> = OnceLock::new();

/// The signals a run stops cleanly on.
const SIGNALS: [i32; 2] = [SIGINT, SIGTERM];

/// Installs the handlers, once. Each signal gets, in this order: "exit with
/// 128 + signal if `EXIT_NOW`", "set `EXIT_NOW`" (so a second signal exits)
/// and "record the signal". All three only touch atomics or call `_exit`,
/// which is what a signal handler may do.
fn install() -> io::Result<()> {
    let installed = INSTALLED.get_or_init(|| {
        for sig in SIGNALS {
            flag::register_conditional_shutdown(sig, 128 + sig, &EXIT_NOW)
                .and_then(|_| flag::register(sig, &EXIT_NOW))
                .and_then(|_| flag::register_usize(sig, &RECEIVED, sig as usize))
                .map_err(|e| format!("cannot handle signal {sig}: {e}"))?;
        }
        Ok(())
    });
    installed.clone().map_err(io::Error::other)
}

/// A run that stops cleanly on a signal while this value lives; dropping it
/// restores "a signal ends the process at once".
#[derive(Debug)]
pub struct Armed(());

impl Armed {
    /// Arms the handlers for one run.
    pub fn arm() -> io::Result<Armed> {
        install()?;
        RECEIVED.store(0, Ordering::SeqCst);
        EXIT_NOW.store(false, Ordering::SeqCst);
        ARMED.store(true, Ordering::SeqCst);
        Ok(Armed(()))
    }

    /// The signal received since [`Armed::arm`], if any.
    pub fn received(&self) -> Option<i32> {
        match RECEIVED.load(Ordering::SeqCst) {
            0 => None,
            sig => i32::try_from(sig).ok(),
        }
    }
}

impl Drop for Armed {
    fn drop(&mut self) {
        ARMED.store(false, Ordering::SeqCst);
        EXIT_NOW.store(true, Ordering::SeqCst);
    }
}

/// Whether the armed run has received its signal: for work that waits
/// (an `exec:` agent's answer) to give up at once rather than at its
/// timeout.
pub fn signalled() -> bool {
    ARMED.load(Ordering::Relaxed) && RECEIVED.load(Ordering::Relaxed) != 0
}

/// A caller's request that work stop early, shared between the caller and
/// the work: the library's long loops poll it where they would poll a
/// signal (the runner between chunks, see
/// [`crate::sim::runner::RunConfig::cancel`]). The Python package sets one
/// when the interpreter has a pending Ctrl-C, because its signal handler
/// cannot run while the call holds the thread. Clones share one flag.
#[derive(Clone, Debug, Default)]
pub struct Cancel(Arc<AtomicBool>);

impl Cancel {
    /// A token nobody has cancelled yet.
    pub fn new() -> Cancel {
        Cancel::default()
    }

    /// Asks every holder of this token (or a clone) to stop.
    pub fn cancel(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether [`Cancel::cancel`] was called on this token or a clone.
    pub fn is_cancelled(&self) -> bool {
        self.0.load(Ordering::SeqCst)
    }

    /// The flag itself, for loops that poll a plain `AtomicBool` (equity's
    /// `Hooks::cancel`).
    pub fn flag(&self) -> &AtomicBool {
        &self.0
    }
}

/// A signal's name for messages: `SIGINT (Ctrl-C)`, `SIGTERM`.
pub fn signal_name(sig: i32) -> String {
    match sig {
        SIGINT => "Ctrl-C (SIGINT)".to_string(),
        SIGTERM => "SIGTERM".to_string(),
        other => format!("signal {other}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// One armed run at a time in this test binary: a raised signal is seen
    /// by the run that armed, and after it ends the flag is down again.
    #[test]
    fn an_armed_run_sees_a_signal_instead_of_dying() {
        let armed = Armed::arm().expect("handlers install");
        assert_eq!(armed.received(), None);
        signal_hook::low_level::raise(SIGTERM).expect("raise");
        assert_eq!(armed.received(), Some(SIGTERM));
        assert!(
            EXIT_NOW.load(Ordering::SeqCst),
            "a second signal would exit"
        );
        drop(armed);
        let again = Armed::arm().expect("re-arm");
        assert_eq!(again.received(), None, "a new run starts clean");
        assert!(!EXIT_NOW.load(Ordering::SeqCst));
    }

    /// A clone is the same request: cancelling either is seen by both, and
    /// a new token starts uncancelled.
    #[test]
    fn a_cancel_is_seen_by_every_clone() {
        let token = Cancel::new();
        let held_by_the_work = token.clone();
        assert!(!held_by_the_work.is_cancelled());
        token.cancel();
        assert!(held_by_the_work.is_cancelled());
        assert!(!Cancel::new().is_cancelled());
        assert!(
            held_by_the_work.flag().load(Ordering::SeqCst),
            "the flag is the token"
        );
    }

    #[test]
    fn names() {
        assert_eq!(signal_name(SIGINT), "Ctrl-C (SIGINT)");
        assert_eq!(signal_name(SIGTERM), "SIGTERM");
    }
}
