//! Progress on stderr while a run plays: a bar on a terminal, plain lines
//! when forced elsewhere, nothing otherwise.
//!
//! A resumed run starts its bar at the game it resumes at, and its rate and
//! ETA count only the games played since: the games of the interrupted run
//! took no time in this process, and counting them would show a rate far too
//! high and an ETA far too short.

use std::io::{self, IsTerminal, Write};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressState, ProgressStyle};

use super::report::grouped;
use super::runner::RunConfig;

/// Progress on stderr: an indicatif bar on a terminal, a plain line every few
/// seconds when forced with `--progress` elsewhere, nothing otherwise.
pub(crate) struct Progress {
    bar: Option<ProgressBar>,
    lines: bool,
    /// The first game of the run (or shard).
    pub(crate) first: u64,
    /// Games in the run (or shard).
    total: u64,
    /// Games done, counted from `first`, including those of an interrupted
    /// run this one resumes.
    pub(crate) done: u64,
    /// Games that were already done when this process started.
    resumed: u64,
    started: Instant,
    last_line: Instant,
}

/// Games per second over the games this process played.
fn rate(new_games: u64, elapsed: Duration) -> f64 {
    new_games as f64 / elapsed.as_secs_f64().max(1e-9)
}

/// `47,788 games/s`: the rate without decimals, thousands grouped.
fn rate_text(rate: f64) -> String {
    format!("{} games/s", grouped(rate.round() as u64))
}

/// The time left at `rate`, as `1h02m03s`, `2m03s` or `3s`; `?` before the
/// first game.
fn eta_text(remaining: u64, rate: f64) -> String {
    if rate <= 0.0 {
        return "?".into();
    }
    let s = (remaining as f64 / rate).ceil().min(1e9) as u64;
    match (s / 3600, s / 60 % 60, s % 60) {
        (0, 0, sec) => format!("{sec}s"),
        (0, min, sec) => format!("{min}m{sec:02}s"),
        (h, min, sec) => format!("{h}h{min:02}m{sec:02}s"),
    }
}

impl Progress {
    pub(crate) fn new(config: &RunConfig, first: u64, total: u64, done: u64) -> Progress {
        let tty = io::stderr().is_terminal();
        let show = !config.quiet && (tty || config.progress);
        let bar = (show && tty).then(|| Self::bar(total, done));
        Progress {
            bar,
            lines: show && !tty,
            first,
            total,
            done,
            resumed: done,
            started: Instant::now(),
            last_line: Instant::now(),
        }
    }

    /// The terminal bar; its rate and ETA are computed here (not by
    /// indicatif's estimator) so they leave out the resumed games.
    fn bar(total: u64, resumed: u64) -> ProgressBar {
        let bar = ProgressBar::new(total);
        let style = ProgressStyle::with_template(
            "{elapsed_precise} [{wide_bar}] {human_pos}/{human_len} games, {rate}, ETA {left}",
        )
        .expect("the progress template is valid")
        .progress_chars("=> ")
        .with_key(
            "rate",
            move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let r = rate(s.pos().saturating_sub(resumed), s.elapsed());
                let _ = w.write_str(&rate_text(r));
            },
        )
        .with_key(
            "left",
            move |s: &ProgressState, w: &mut dyn std::fmt::Write| {
                let r = rate(s.pos().saturating_sub(resumed), s.elapsed());
                let remaining = s.len().unwrap_or(0).saturating_sub(s.pos());
                let _ = w.write_str(&eta_text(remaining, r));
            },
        );
        bar.set_style(style);
        bar.set_position(resumed);
        bar
    }

    /// The plain progress line printed every few seconds off a terminal.
    fn line(&self, elapsed: Duration) -> String {
        let r = rate(self.done - self.resumed, elapsed);
        format!(
            "progress: {}/{} games ({:.1}%), {}, ETA {}",
            grouped(self.done),
            grouped(self.total),
            100.0 * self.done as f64 / self.total.max(1) as f64,
            rate_text(r),
            eta_text(self.total - self.done, r)
        )
    }

    pub(crate) fn advance(&mut self, games: u64) {
        self.done += games;
        if let Some(bar) = &self.bar {
            bar.set_position(self.done);
        } else if self.lines && self.last_line.elapsed() >= Duration::from_secs(5) {
            self.last_line = Instant::now();
            let _ = writeln!(io::stderr(), "{}", self.line(self.started.elapsed()));
        }
    }

    pub(crate) fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn resumed_at(done: u64, total: u64) -> Progress {
        let mut config = RunConfig::new(total, 1);
        config.quiet = true;
        Progress::new(&config, 0, total, done)
    }

    #[test]
    fn a_resumed_run_counts_only_its_own_games() {
        // Resumed at 311,296 of 3,000,000, then 100,000 games in 2 s: the
        // rate is 50,000 games/s, not (411,296 / 2); the ETA is the
        // 2,588,704 games left at that rate, 52 s.
        let mut p = resumed_at(311_296, 3_000_000);
        p.done += 100_000;
        assert_eq!(
            p.line(Duration::from_secs(2)),
            "progress: 411,296/3,000,000 games (13.7%), 50,000 games/s, ETA 52s"
        );
    }

    #[test]
    fn rates_and_etas_read_at_a_glance() {
        assert_eq!(rate_text(47_788.4), "47,788 games/s");
        assert_eq!(rate_text(0.2), "0 games/s");
        assert_eq!(eta_text(10, 0.0), "?");
        assert_eq!(eta_text(125, 1.0), "2m05s");
        assert_eq!(eta_text(3_723, 1.0), "1h02m03s");
        assert_eq!(eta_text(1, 3.0), "1s");
    }
}
