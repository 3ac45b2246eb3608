//! Corrections that take luck out of a seat's result without changing its
//! mean: the variance-reduced estimators of docs/duplicate.md.
//!
//! - [`chance`]: the luck of the cards, deal by deal (AIVAT's chance
//!   correction with a check-down value);
//! - [`action`]: the luck of a mixed strategy's draws, where the
//!   probabilities are known (AIVAT's action correction);
//! - [`baseline`]: learned weights for the chance correction's parts and
//!   the starting hands (MIVAT's learned value analysis).

pub mod action;
pub mod baseline;
pub mod chance;
pub mod value;

pub use action::{action_correction, ActionCorrection, Policy};
pub use chance::{chance_correction, ChanceCorrection, CorrectionError};

/// A no-limit hold'em table with blinds 1/2 and no ante, for the tests.
#[cfg(test)]
fn test_config(stacks: &[u64], button: usize) -> crate::holdem::table::Config {
    use crate::holdem::table::{pots::OddChips, Betting, Config, ShortBigBlind};
    Config {
        stacks: stacks.to_vec(),
        button,
        small_blind: 1,
        big_blind: 2,
        ante: 0,
        ante_trimming: true,
        odd_chips: OddChips::LeftOfButton,
        short_big_blind: ShortBigBlind::FullBlind,
        betting: Betting::NoLimit,
        game: crate::holdem::variant::Game::Holdem,
    }
}
