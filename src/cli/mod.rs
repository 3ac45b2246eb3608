//! The command line: clap definitions, dispatch, and the mapping of errors to
//! exit codes (2 for bad usage or input, 1 for a failure while running).
//!
//! Each subcommand lives in its own file with its arguments (`*Args`, raw as
//! typed) and a `run` that checks them, calls the library and prints.

pub mod equity;
mod eval;
mod fishing;
mod holdem;
mod merge;
pub mod numbers;
mod replay;
pub mod sim_args;
mod solve;
mod stats;
mod sweep;
mod tienlen;
mod verify;

use std::fmt;
use std::io::Write;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

/// Seeded, parallel simulation of card games, with statistics you can trust.
#[derive(Debug, Parser)]
#[command(
    name = "cardsim",
    version,
    about,
    max_term_width = 100,
    after_help = "The rules of every game, with every rule switch: docs/rules.md in the \
                  repository.\nEach command's --help ends with examples."
)]
pub struct Cli {
    #[command(subcommand)]
    pub command: Command,
}

#[derive(Debug, Subcommand)]
pub enum Command {
    /// Strength and category of a 5-, 6- or 7-card hold'em hand.
    Eval(eval::EvalArgs),
    /// Equity of 2 to 10 hold'em hands or ranges, exact or Monte Carlo.
    Equity(equity::EquityArgs),
    /// Simulate no-limit hold'em hands at a table of agents.
    Holdem(holdem::HoldemArgs),
    /// Replay PHH hand histories through the table engine.
    Replay(replay::ReplayArgs),
    /// Player statistics (VPIP, PFR, 3-bet, c-bet, AF, WTSD, bb/100...)
    /// over PHH hand histories.
    Stats(stats::StatsArgs),
    /// Simulate fishing-game (金钩钓鱼) matches.
    Fishing(fishing::FishingArgs),
    /// Simulate Tiến lên games among agents, or use its rules engine.
    Tienlen(tienlen::TienlenArgs),
    /// Solve a two-player shedding endgame with perfect play.
    #[command(long_about = solve::LONG_ABOUT)]
    Solve(solve::SolveArgs),
    /// Run a grid of simulations from one spec into one folder with a tidy
    /// table of results.
    Sweep(sweep::SweepArgs),
    /// Join the outputs of shards into the output of the whole run.
    Merge(merge::MergeArgs),
    /// Check a summary's files, or rerun its command and compare.
    Verify(verify::VerifyArgs),
}

/// Runs the binary: parses the command line, runs the command, prints a
/// one-line error and picks the exit code.
pub fn main() -> ExitCode {
    let cli = match parse_from(std::env::args_os()) {
        Ok(cli) => cli,
        Err(e) => return clap_exit(e),
    };
    match run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            let code = signal_exit_status(&e).unwrap_or(if is_bad_input(&e) { 2 } else { 1 });
            // The last guard: one line, control characters escaped, short
            // even when a message joins several quoted pieces.
            let line: String = format!("{e:#}")
                .chars()
                .flat_map(|c| match c {
                    '\n' | '\r' | '\t' => vec![' '],
                    c if c.is_control() => c.escape_default().collect(),
                    c => vec![c],
                })
                .collect();
            let line = crate::text::cut_line(&line, 500);
            let _ = writeln!(std::io::stderr(), "error: {line}");
            ExitCode::from(code)
        }
    }
}

/// Parses a command line (program name first) as the binary does: negative
/// numbers are values in every command, so `--seed -1` reaches `--seed`'s
/// parser and is told it must not be negative, instead of clap calling `-1`
/// an unexpected argument.
pub fn parse_from<I, T>(args: I) -> Result<Cli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory, FromArgMatches};
    fn allow_negatives(cmd: clap::Command) -> clap::Command {
        let mut cmd = cmd.allow_negative_numbers(true);
        for sub in cmd.get_subcommands_mut() {
            *sub = allow_negatives(std::mem::take(sub));
        }
        cmd
    }
    let mut matches = allow_negatives(Cli::command()).try_get_matches_from(args)?;
    Cli::from_arg_matches_mut(&mut matches)
}

/// Dispatches a parsed command line.
pub fn run(cli: Cli) -> anyhow::Result<()> {
    match cli.command {
        Command::Eval(a) => eval::run(a),
        Command::Equity(a) => equity::run(a),
        Command::Holdem(a) => holdem::run(a),
        Command::Replay(a) => replay::run(a),
        Command::Stats(a) => stats::run(a),
        Command::Fishing(a) => fishing::run(a),
        Command::Tienlen(a) => tienlen::run(a),
        Command::Solve(a) => solve::run(a),
        Command::Sweep(a) => sweep::run(a),
        Command::Merge(a) => merge::run(a),
        Command::Verify(a) => verify::run(a),
    }
}

/// Help and version go to stdout with exit 0; a usage error is one line on
/// stderr (see [`usage_line`]), exit 2.
fn clap_exit(e: clap::Error) -> ExitCode {
    use clap::error::ErrorKind;
    match e.kind() {
        ErrorKind::DisplayHelp | ErrorKind::DisplayVersion => {
            let _ = e.print();
            ExitCode::SUCCESS
        }
        // `cardsim` alone, or a command group without its command: the help
        // is what the user needs, but it is still a usage error.
        ErrorKind::DisplayHelpOnMissingArgumentOrSubcommand => {
            let _ = e.print();
            ExitCode::from(2)
        }
        _ => {
            let line = usage_line(&e.render().to_string());
            let _ = writeln!(std::io::stderr(), "error: {line}");
            ExitCode::from(2)
        }
    }
}

/// A usage error as one line, as every other error is: clap's message, its
/// tips and the usage, joined; every quoted piece of the user's input cut
/// to [`crate::text::QUOTE_CHARS`] characters, control characters escaped.
///
/// clap writes `error: WHAT` (sometimes continued on indented lines), blank
/// lines, `tip: ...` lines, `Usage: ...` and a pointer to `--help`.
pub fn usage_line(rendered: &str) -> String {
    let mut what = Vec::new();
    let mut tips = Vec::new();
    let mut usage = None;
    for line in rendered.lines().map(str::trim).filter(|l| !l.is_empty()) {
        if let Some(tip) = line.strip_prefix("tip:") {
            tips.push(tip.trim().to_string());
        } else if let Some(u) = line.strip_prefix("Usage:") {
            usage = Some(u.trim().to_string());
        } else if line.starts_with("For more information") {
            continue;
        } else {
            what.push(
                line.strip_prefix("error:")
                    .unwrap_or(line)
                    .trim()
                    .to_string(),
            );
        }
    }
    let mut out = what.join(" ");
    for tip in tips {
        out.push_str(&format!(" (tip: {tip})"));
    }
    if let Some(u) = usage {
        out.push_str(&format!("; usage: {u}; more with --help"));
    }
    crate::text::cut_line(&crate::text::cut_quoted(&out), 500)
}

/// Marks an error as bad usage or bad input (exit status 2).
#[derive(Debug)]
pub struct BadInput(pub String);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for BadInput {}

/// Wraps any error as bad input (exit status 2), keeping its message.
pub fn bad_input(e: impl fmt::Display) -> anyhow::Error {
    anyhow::Error::new(BadInput(e.to_string()))
}

fn is_bad_input(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.is::<BadInput>()
            || c.is::<crate::cards::CardError>()
            || c.downcast_ref::<crate::sim::runner::RunError>()
                .is_some_and(|r| r.is_bad_input())
            || c.downcast_ref::<crate::sweep::SweepError>()
                .is_some_and(|r| r.is_bad_input())
    })
}

/// 128 + the signal for a run stopped by Ctrl-C or SIGTERM.
fn signal_exit_status(e: &anyhow::Error) -> Option<u8> {
    e.chain().find_map(|c| {
        c.downcast_ref::<crate::sim::runner::RunError>()
            .and_then(|r| r.signal_exit_status())
    })
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|c| {
        c.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
            || c.downcast_ref::<crate::sim::runner::RunError>()
                .is_some_and(|r| r.is_broken_pipe())
    })
}
