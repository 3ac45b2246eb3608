//! `cardsim equity`: equity of 2 to 10 hands or ranges, exact or Monte Carlo.

use crate::sim::runner::{start_pool, worker_threads};
use std::io::{self, IsTerminal, Write};
use std::sync::atomic::AtomicBool;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use clap::Args;

use crate::cards::{parse_cards, CardSet};
use crate::holdem::equity::range::Range;
use crate::holdem::equity::variants::{hands::HandList, VariantQuery};
use crate::holdem::equity::{self, EquityResult, Hooks, Method, Progress, Query, Stop};
use crate::holdem::variant::Game;

#[derive(Debug, Args)]
#[command(after_help = "Examples:
  cardsim equity AsAh KsKd
  cardsim equity \"QQ+,AKs\" random \"T9s,22-55\" --board \"Ah 7d 2c\"
  cardsim equity AKs QQ --trials 1000000 --seed 7 --json
  cardsim equity --game plo4 AsKsQhJh 7c7d8c9d --board \"2s 7h Tc\"
  cardsim equity --game plo5 AsKsQhJh9c random --trials 1000000
  cardsim equity --game shortdeck AKs \"99+\" --board \"6s 9h Tc\"")]
pub struct EquityArgs {
    /// Each player's hole cards (`AhAs`) or range (`QQ+,AKs`, `KTo-K7o`,
    /// `22-55`, `random`, weights as `QQ:0.5`); 2 to 10 players.
    #[arg(value_name = "HAND_OR_RANGE", num_args = 1.., required = true)]
    pub players: Vec<String>,
    /// The game: `holdem`, `plo4`, `plo5`, `plo6` (Omaha with 4, 5 or 6
    /// hole cards: exactly two of them and three of the board) or
    /// `shortdeck` (6+ hold'em: 36 cards, a flush beats a full house). An
    /// Omaha player is an exact hand (`AsKsQhJh`), a list of them with
    /// optional weights (`AsKsQhJh,AcAdKcKd:0.5`) or `random`; a
    /// short-deck player is written as in hold'em (hands with a card below
    /// six left out).
    #[arg(long, short = 'g', default_value = "holdem", value_name = "GAME",
          value_parser = parse_game)]
    pub game: Game,
    /// Board cards already dealt: 0, 3, 4 or 5 (`"Ah 7d 2c"`).
    #[arg(long, short = 'b', default_value = "", value_name = "CARDS")]
    pub board: String,
    /// Cards known to be out of the deck.
    #[arg(long, short = 'd', default_value = "", value_name = "CARDS")]
    pub dead: String,
    /// Enumerate every deal (the default when that takes about a second or
    /// less; otherwise Monte Carlo to a standard error of 0.0005).
    #[arg(long, conflicts_with_all = ["trials", "stderr", "time"])]
    pub exact: bool,
    /// Monte Carlo with exactly N trials.
    #[arg(long, value_name = "N", value_parser = super::numbers::positive,
          conflicts_with_all = ["stderr", "time"])]
    pub trials: Option<u64>,
    /// Monte Carlo until every player's standard error is at most E.
    #[arg(long, value_name = "E", conflicts_with = "time")]
    pub stderr: Option<f64>,
    /// Monte Carlo for this many seconds (the one mode whose answer depends
    /// on the machine).
    #[arg(long, value_name = "SECONDS")]
    pub time: Option<f64>,
    /// Seed of the Monte Carlo draws (the answer never depends on threads).
    #[arg(long, default_value_t = super::sim_args::DEFAULT_SEED, value_name = "S",
          value_parser = super::numbers::any_u64)]
    pub seed: u64,
    /// Worker threads [default: all cores].
    #[arg(long, short = 'j', value_name = "T", value_parser = super::numbers::threads)]
    pub threads: Option<u64>,
    /// One JSON object instead of the table.
    #[arg(long)]
    pub json: bool,
    /// Show the expected time and progress of a long run on stderr even
    /// when stderr is not a terminal (on a terminal they are shown anyway).
    #[arg(long)]
    pub progress: bool,
}

fn parse_game(text: &str) -> Result<Game, String> {
    Game::parse(text).ok_or_else(|| {
        format!("unknown game '{text}': expected holdem, plo4, plo5, plo6 or shortdeck")
    })
}

pub fn run(args: EquityArgs) -> anyhow::Result<()> {
    let shown = args.progress || io::stderr().is_terminal();
    let printer = ProgressLine::new();
    let report = |p: Progress| printer.report(p);
    let hooks = Hooks {
        cancel: None,
        progress: shown.then_some(&report as &(dyn Fn(Progress) + Sync)),
    };
    let computed = compute(&args, hooks);
    printer.finish();
    let (result, elapsed) = computed?;
    let mut out = io::stdout().lock();
    if args.json {
        writeln!(
            out,
            "{}",
            to_json(args.game, &args.players, &result, elapsed)
        )?;
    } else {
        write_table(&mut out, args.game, &args.players, &result, elapsed)?;
    }
    out.flush()?;
    Ok(())
}

/// The `--json` object of a command line's equity (what `cardsim equity
/// --json` prints): one function for the CLI and for library callers (the
/// Python package), so both give the same numbers and the same errors.
pub fn json(args: &EquityArgs) -> anyhow::Result<serde_json::Value> {
    let (result, elapsed) = compute(args, Hooks::default())?;
    Ok(to_json(args.game, &args.players, &result, elapsed))
}

/// [`json`] that gives up with [`equity::EquityError::Interrupted`] (as the
/// error's source) soon after `cancel` is set: for callers that stop on
/// Ctrl-C.
pub fn json_cancellable(
    args: &EquityArgs,
    cancel: &AtomicBool,
) -> anyhow::Result<serde_json::Value> {
    let hooks = Hooks {
        cancel: Some(cancel),
        progress: None,
    };
    let (result, elapsed) = compute(args, hooks)?;
    Ok(to_json(args.game, &args.players, &result, elapsed))
}

/// The expected time and a progress line on stderr for a long run: the
/// expected time once, when it is a second or more, then the units done,
/// redrawn at most five times a second; nothing for a short run.
struct ProgressLine {
    start: Instant,
    state: Mutex<(bool, Option<Instant>)>,
}

impl ProgressLine {
    fn new() -> ProgressLine {
        ProgressLine {
            start: Instant::now(),
            state: Mutex::new((false, None)),
        }
    }

    fn report(&self, p: Progress) {
        let Ok(mut state) = self.state.lock() else {
            return;
        };
        let (drawn, last) = &mut *state;
        if let Some(expected) = p.expected_seconds {
            if expected >= 1.0 {
                let of = p
                    .total
                    .map_or(String::new(), |t| format!(" for {t} {}", p.unit));
                eprintln!("equity: expected to take about {expected:.0} s{of}");
            }
            return;
        }
        let elapsed = self.start.elapsed();
        if elapsed < Duration::from_secs(1)
            || last.is_some_and(|l| l.elapsed() < Duration::from_millis(200))
        {
            return;
        }
        *last = Some(Instant::now());
        *drawn = true;
        let of = p.total.map_or(String::new(), |t| format!(" of {t}"));
        eprint!(
            "\r{}{of} {} done, {:.1} s",
            p.done,
            p.unit,
            elapsed.as_secs_f64()
        );
    }

    /// Ends the progress line, if one was drawn.
    fn finish(&self) {
        if let Ok(state) = self.state.lock() {
            if state.0 {
                eprintln!();
            }
        }
    }
}

/// Checks the arguments, runs the equity and times it.
fn compute(args: &EquityArgs, hooks: Hooks<'_>) -> anyhow::Result<(EquityResult, Duration)> {
    let ranges = if args.game == Game::Holdem {
        args.players
            .iter()
            .enumerate()
            .map(|(i, text)| {
                Range::parse(text).map_err(|e| super::bad_input(format!("player {}: {e}", i + 1)))
            })
            .collect::<anyhow::Result<Vec<_>>>()?
    } else {
        Vec::new()
    };
    let board = parse_cards(&args.board).map_err(|e| super::bad_input(format!("--board: {e}")))?;
    let dead: CardSet = parse_cards(&args.dead)
        .map_err(|e| super::bad_input(format!("--dead: {e}")))?
        .into_iter()
        .collect();
    let stop = match (args.trials, args.stderr, args.time) {
        (Some(n), _, _) => Some(Stop::Trials(n)),
        (_, Some(e), _) => Some(Stop::StdErr(e)),
        (_, _, Some(t)) if t.is_finite() && t > 0.0 && t < 1e7 => {
            Some(Stop::Time(Duration::from_secs_f64(t)))
        }
        (_, _, Some(t)) => {
            return Err(super::bad_input(format!(
                "--time must be a positive number of seconds, got {t}"
            )))
        }
        _ => None,
    };
    if args.game != Game::Holdem {
        return compute_variant(args, board, dead, stop, hooks);
    }
    let query = Query {
        ranges,
        board,
        dead,
    };
    let prepared = query.prepare().map_err(super::bad_input)?;
    let threads = worker_threads(args.threads.map(|t| t as usize))?;
    let pool = start_pool(threads)?;
    let start = Instant::now();
    let result = pool.install(|| match stop {
        Some(stop) => equity::monte_carlo_with(&prepared, args.seed, stop, hooks),
        None if args.exact => prepared.exact_checked_with(hooks),
        None if prepared.exact_is_cheap() => equity::exact_with_hooks(&prepared, hooks),
        None => match equity::monte_carlo_with(&prepared, args.seed, Stop::StdErr(0.0005), hooks) {
            // Valid deals too rare to sample: enumerate them if that fits.
            Err(equity::EquityError::RareDeals { .. })
                if prepared.exact_work() <= equity::MAX_EXACT_WORK =>
            {
                equity::exact_with_hooks(&prepared, hooks)
            }
            other => other,
        },
    });
    let result = result.map_err(super::bad_input)?;
    Ok((result, start.elapsed()))
}

/// [`compute`] for Omaha and short deck.
fn compute_variant(
    args: &EquityArgs,
    board: Vec<crate::cards::Card>,
    dead: CardSet,
    stop: Option<Stop>,
    hooks: Hooks<'_>,
) -> anyhow::Result<(EquityResult, Duration)> {
    use crate::holdem::equity::variants;
    let players = args
        .players
        .iter()
        .enumerate()
        .map(|(i, text)| {
            HandList::parse(args.game, text)
                .map_err(|e| super::bad_input(format!("player {}: {e}", i + 1)))
        })
        .collect::<anyhow::Result<Vec<_>>>()?;
    let query = VariantQuery {
        game: args.game,
        players,
        board,
        dead,
    };
    let prepared = query.prepare().map_err(super::bad_input)?;
    let threads = worker_threads(args.threads.map(|t| t as usize))?;
    let pool = start_pool(threads)?;
    let start = Instant::now();
    let cancel = hooks.cancel;
    let result = pool.install(|| match stop {
        Some(stop) => variants::monte_carlo(&prepared, args.seed, stop, cancel),
        None if args.exact => prepared.exact_checked(cancel),
        None if prepared.exact_is_cheap() => variants::exact(&prepared, cancel),
        None => variants::monte_carlo(&prepared, args.seed, Stop::StdErr(0.0005), cancel),
    });
    let result = result.map_err(super::bad_input)?;
    Ok((result, start.elapsed()))
}

fn describe(game: Game, method: &Method) -> String {
    match *method {
        Method::Exact {
            combinations,
            boards,
            ..
        } if game != Game::Holdem => format!(
            "{game} exact: {combinations} deal(s) of hole cards, {boards} board(s) each"
        ),
        Method::MonteCarlo { trials, seed } if game != Game::Holdem => {
            format!("{game} Monte Carlo: {trials} trials, seed {seed}")
        }
        Method::Exact {
            combinations,
            classes,
            boards,
        } => format!(
            "exact: {combinations} hole-card combination(s) in {classes} suit class(es), {boards} board(s) each"
        ),
        Method::MonteCarlo { trials, seed } => {
            format!("Monte Carlo: {trials} trials, seed {seed}")
        }
    }
}

fn write_table(
    out: &mut impl Write,
    game: Game,
    names: &[String],
    r: &EquityResult,
    elapsed: Duration,
) -> io::Result<()> {
    writeln!(
        out,
        "{} ({:.3} s)",
        describe(game, &r.method),
        elapsed.as_secs_f64()
    )?;
    let width = names.iter().map(|n| n.len()).max().unwrap_or(4).max(5);
    let mc = matches!(r.method, Method::MonteCarlo { .. });
    write!(
        out,
        "{:<6} {:<width$} {:>9} {:>9} {:>9}",
        "player", "hands", "equity", "win", "tie"
    )?;
    if mc {
        write!(out, " {:>9}", "stderr")?;
    }
    writeln!(out)?;
    for (i, (name, p)) in names.iter().zip(&r.players).enumerate() {
        write!(
            out,
            "{:<6} {:<width$} {:>8.4}% {:>8.4}% {:>8.4}%",
            i + 1,
            name,
            100.0 * p.equity,
            100.0 * p.win,
            100.0 * p.tie
        )?;
        if let Some(se) = p.stderr {
            write!(out, " {:>8.4}%", 100.0 * se)?;
        }
        writeln!(out)?;
    }
    Ok(())
}

fn to_json(game: Game, names: &[String], r: &EquityResult, elapsed: Duration) -> serde_json::Value {
    let (method, trials, seed) = match r.method {
        Method::Exact { .. } => ("exact", None, None),
        Method::MonteCarlo { trials, seed } => ("monte_carlo", Some(trials), Some(seed)),
    };
    let boards = match r.method {
        Method::Exact { boards, .. } => Some(boards),
        Method::MonteCarlo { .. } => None,
    };
    let mut v = serde_json::json!({
        "method": method,
        "trials": trials,
        "seed": seed,
        "boards": boards,
        "seconds": elapsed.as_secs_f64(),
        "players": names.iter().zip(&r.players).map(|(n, p)| serde_json::json!({
            "hands": n,
            "equity": p.equity,
            "win": p.win,
            "tie": p.tie,
            "stderr": p.stderr,
        })).collect::<Vec<_>>(),
    });
    // Hold'em's object is as it always was; a variant names its game.
    if game != Game::Holdem {
        v["game"] = serde_json::json!(game.name());
    }
    v
}
