//! What every part of equity shares: the limits, how a Monte Carlo run
//! stops, the answer's types and the errors. It depends on nothing else in
//! equity, so every other part can use it without a cycle.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use thiserror::Error;

use crate::cards::{Card, CardSet};

use super::range::Combo;

/// Most players at a table.
pub const MAX_PLAYERS: usize = 10;
/// Tie shares are counted in units of 1/`UNITS` of a pot (2520 is
/// divisible by every tie size 1..=10).
pub const UNITS: u64 = 2520;
/// Accepted Monte Carlo trials per batch (one generator per batch).
pub const BATCH: u64 = 8192;
/// The most deals a Monte Carlo run may need to draw (at about 5 ns each,
/// some 15 seconds on two cores); beyond, the request is refused or
/// answered exactly.
pub const MAX_DEALS: f64 = 5e9;
/// The most work `--exact` takes on: hole-card deals times board
/// completions times players (about 10^8 a second per core).
pub const MAX_EXACT_WORK: u64 = 20_000_000_000;

/// Why an equity question cannot be answered.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum EquityError {
    #[error("equity needs 2 to {MAX_PLAYERS} players, got {0}")]
    PlayerCount(usize),
    #[error("a board has 0, 3, 4 or 5 cards, got {0}")]
    BoardSize(usize),
    #[error("card {0} is used twice (board, dead cards or exact hands)")]
    CardTwice(String),
    #[error("player {player}'s range '{range}' has no combination left once the board, dead cards and other players' hands are removed")]
    EmptyRange { player: usize, range: String },
    #[error("card {card} is not in the {game} deck")]
    NotInDeck { card: String, game: &'static str },
    #[error("no deal is possible: the ranges always share a card")]
    NoDeal,
    #[error(
        "{players} players, {board} board cards and {dead} dead cards need more than 52 cards"
    )]
    DeckTooSmall {
        players: usize,
        board: usize,
        dead: usize,
    },
    #[error("{game}: the hole cards, a full board and the dead cards need {need} cards, the deck has {deck}")]
    TooManyCards {
        game: &'static str,
        need: usize,
        deck: usize,
    },
    #[error("the standard-error target must be at least 0.00001, got {0}")]
    StdErrTooSmall(String),
    #[error(
        "only {:.2e}% of random deals are valid (the ranges share cards): {trials} trials would \
         need about {:.1e} deals, more than {MAX_DEALS:.0e}; ask for fewer trials, a larger \
         --stderr or a --time limit",
        rate * 100.0, (*trials as f64) / rate
    )]
    RareDeals { rate: f64, trials: u64 },
    #[error("interrupted before the answer was complete")]
    Interrupted,
    #[error(
        "exact enumeration would take about {work:.1e} showdown evaluations, more than the \
         limit of {MAX_EXACT_WORK:.0e}: use Monte Carlo (--trials N or --stderr E)",
        work = *work as f64
    )]
    ExactTooLarge { work: u64 },
}

/// How a Monte Carlo run stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// Exactly this many trials.
    Trials(u64),
    /// When every player's standard error is at most this (checked every
    /// `WAVE` batches, so the answer is still thread-independent).
    StdErr(f64),
    /// When the time is up (checked every wave; the only rule whose answer
    /// depends on the machine).
    Time(Duration),
}

/// One player's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerEquity {
    /// Expected share of the pot, 0..=1.
    pub equity: f64,
    /// Chance to win alone.
    pub win: f64,
    /// Chance to share the best hand.
    pub tie: f64,
    /// Standard error of `equity` (Monte Carlo only).
    pub stderr: Option<f64>,
}

/// How a result was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every deal: `classes` suit classes of combinations, each with
    /// `boards` board completions.
    Exact {
        combinations: u64,
        classes: u64,
        boards: u64,
    },
    MonteCarlo {
        trials: u64,
        seed: u64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct EquityResult {
    pub players: Vec<PlayerEquity>,
    pub method: Method,
}

/// The two cards of a combination as a set.
pub(crate) fn pair_set(c: Combo) -> CardSet {
    CardSet(c[0].bit() | c[1].bit())
}

/// C(n, k), for the small counts of board completions.
pub(crate) fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The deck without the used cards and the deal's hole cards, in index order.
pub(crate) fn deck_left(used: CardSet, deal: &[Combo]) -> Vec<Card> {
    let taken = deal.iter().fold(used, |s, &c| s.union(pair_set(c)));
    CardSet::FULL52.difference(taken).to_vec()
}

/// How a caller watches and stops a long equity run (both optional; the
/// default has neither, as [`super::exact`] and [`super::monte_carlo`] use).
#[derive(Clone, Copy, Default)]
pub struct Hooks<'a> {
    /// Polled every few thousand trials, and between enumerated classes or
    /// boards: once it is set, the run stops and returns
    /// [`EquityError::Interrupted`] (the Python package sets it on Ctrl-C).
    pub cancel: Option<&'a AtomicBool>,
    /// Told the expected time before the run and how far it is as it goes
    /// (possibly from several threads at once, so it must be `Sync`).
    pub progress: Option<&'a (dyn Fn(Progress) + Sync)>,
}

impl Hooks<'_> {
    /// Whether the caller asked to stop.
    pub(crate) fn cancelled(&self) -> bool {
        self.cancel.is_some_and(|c| c.load(Ordering::Relaxed))
    }

    pub(crate) fn report(&self, p: Progress) {
        if let Some(f) = self.progress {
            f(p);
        }
    }
}

/// How far a run is: `done` of `total` units (trials, suit classes or
/// boards; `total` is `None` for `--time` and an upper bound for
/// `--stderr`), and, in the first report, the expected seconds of the whole
/// run, measured on this machine.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Progress {
    pub done: u64,
    pub total: Option<u64>,
    pub unit: &'static str,
    pub expected_seconds: Option<f64>,
}
