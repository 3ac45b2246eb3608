//! Texas hold'em: the hand evaluator and the equity calculator.
//!
//! Layers, bottom up: [`eval`] ranks 5 to 7 cards; [`range`] parses the
//! ranges players write; [`equity`] enumerates or samples showdowns
//! ([`board_enum`] counts every board by rank pattern); [`table`] is the
//! no-limit betting state machine with its pots. (Agents, hand histories and
//! the `holdem` simulation are still an open issue.)

pub mod board_enum;
pub mod equity;
pub mod eval;
pub mod range;
pub mod table;
