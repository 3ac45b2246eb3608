//! Progress on stderr while a run plays: a bar on a terminal, plain lines
//! when forced elsewhere, nothing otherwise.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::runner::RunConfig;

/// Progress on stderr: an indicatif bar on a terminal, a plain line every few
/// seconds when forced with `--progress` elsewhere, nothing otherwise.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    lines: bool,
    pub(crate) first: u64,
    total: u64,
    pub(crate) done: u64,
    started: Instant,
    last_line: Instant,
}

impl Progress {
    pub(crate) fn new(config: &RunConfig, first: u64, total: u64, done: u64) -> Progress {
        let tty = io::stderr().is_terminal();
        let show = !config.quiet && (tty || config.progress);
        let bar = (show && tty).then(|| {
            let bar = ProgressBar::new(total);
            bar.set_style(
                ProgressStyle::with_template(
                    "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games, {per_sec}, ETA {eta}",
                )
                .expect("the progress template is valid")
                .progress_chars("=> "),
            );
            bar.set_position(done);
            bar
        });
        Progress {
            bar,
            lines: show && !tty,
            first,
            total,
            done,
            started: Instant::now(),
            last_line: Instant::now(),
        }
    }

    pub(crate) fn advance(&mut self, games: u64) {
        self.done += games;
        if let Some(bar) = &self.bar {
            bar.set_position(self.done);
        } else if self.lines && self.last_line.elapsed() >= Duration::from_secs(5) {
            self.last_line = Instant::now();
            let rate = self.done as f64 / self.started.elapsed().as_secs_f64().max(1e-9);
            let eta = (self.total - self.done) as f64 / rate.max(1e-9);
            let _ = writeln!(
                io::stderr(),
                "progress: {}/{} games ({:.1}%), {:.0} games/s, ETA {:.0} s",
                self.done,
                self.total,
                100.0 * self.done as f64 / self.total as f64,
                rate,
                eta
            );
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}
