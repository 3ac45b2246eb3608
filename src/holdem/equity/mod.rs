//! All-in equity of 2 to 10 hands or ranges: exact enumeration of every
//! deal, or seeded Monte Carlo.
//!
//! Definitions: the players' hole cards are dealt jointly from their ranges,
//! each combination with its weight, conditioned on no card being used twice
//! (nor being on the board or dead); the board is then completed uniformly
//! from the rest of the deck. A player's *equity* is the expected share of
//! the pot (a k-way tie pays 1/k), *win* the chance to win alone, *tie* the
//! chance to share the best hand.
//!
//! Exact enumeration counts in integers: every share is a multiple of
//! 1/2520 (2520 is divisible by every tie size 1..10), so the sums are exact
//! and the only rounding is the final division. Deals that differ only by a
//! renaming of suits that fixes the board and the dead cards have the same
//! outcome, so each class of combinations is enumerated once (AA vs KK: 3
//! classes instead of 36 pairs), and each class's boards are enumerated by
//! rank pattern with flush corrections ([`board_enum`]). Heads-up
//! before the flop with no dead cards, those counts are read from the
//! generated table of every such matchup ([`preflop`]). With a flop,
//! turn or river out (and each range's weights equal) there is seldom any
//! suit symmetry left, and the enumeration runs board by board instead
//! ([`board_major`]): each completion once, each player's hands once
//! on it, combinations joined by their cards.
//!
//! Monte Carlo runs in batches of [`BATCH`] accepted trials; batch `b` draws
//! from `game_rng(seed, b)`, and batches are added up as integers, so the
//! answer depends on the seed and the stopping rule only, never on threads.
//!
//! The parts, each depending only on those listed before it: [`range`]
//! (the notation players write) and [`types`] (limits, answer types,
//! errors); [`board_enum`] and [`board_major`] (the two exact board
//! enumerators) and [`preflop`] (the heads-up table made with the first);
//! [`feasible`] (which deals can be valid), [`query`] (checking a question); [`classes`] (suit classes of deals);
//! [`exact`]; [`tally`], [`sampler`], [`direct`] and [`monte_carlo`]; [`reference`]
//! (the slow twin for tests); and [`allin`], the table's all-in equity.
//! [`variants`] answers the same questions in Omaha and short deck, on
//! [`types`] and [`tally`].

pub mod allin;
pub mod board_enum;
pub mod board_major;
mod classes;
mod direct;
mod exact;
mod feasible;
mod monte_carlo;
pub mod preflop;
mod query;
pub mod range;
mod reference;
mod sampler;
mod tally;
mod types;
pub mod variants;

pub use exact::{exact, exact_enumerated, exact_with_hooks};
pub use monte_carlo::{monte_carlo, monte_carlo_with, DIRECT_FROM_DEALS};
pub use query::{Prepared, Query};
pub use reference::reference_exact;
pub use types::{
    EquityError, EquityResult, Hooks, Method, PlayerEquity, Progress, Stop, BATCH, MAX_DEALS,
    MAX_EXACT_WORK, MAX_PLAYERS, UNITS,
};
