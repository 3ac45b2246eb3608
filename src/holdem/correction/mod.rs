//! Corrections that take luck out of a seat's result without changing its
//! mean: the variance-reduced estimators of docs/duplicate.md.
//!
//! - [`chance`]: the luck of the cards, deal by deal (AIVAT's chance
//!   correction with a check-down value);
//! - [`action`]: the luck of a mixed strategy's draws, where the
//!   probabilities are known (AIVAT's action correction);
//! - [`threshold`]: unbiased estimates of the chances of `tag`'s
//!   equity-threshold decisions, for the action correction;
//! - [`strength`]: what each deal made of a seat's hand, in buckets, for
//!   the learned baseline;
//! - [`baseline`]: learned weights for the chance correction's parts and
//!   the starting hands (MIVAT's learned value analysis).

pub mod action;
pub mod baseline;
pub mod chance;
pub mod strength;
pub mod threshold;
pub mod value;

pub use action::{action_correction, ActionCorrection, Policy};
pub use chance::{chance_correction, ChanceCorrection, CorrectionError};
