//! cardsim: seeded, parallel simulation of card games with statistics that
//! analysts can trust.
//!
//! The rules engines ([`holdem`], [`fishing`], [`tienlen`], [`solver`]) are
//! libraries without I/O. The runner ([`sim`]) plays any [`sim::Game`] N
//! times from one seed and writes CSV, histograms and summaries. The [`cli`]
//! module is the command line the `cardsim` binary wraps.

pub mod cards;
pub mod cli;
pub mod fishing;
pub mod holdem;
pub mod rng;
pub mod sim;
pub mod solver;
pub mod sweep;
pub mod text;
pub mod tienlen;
