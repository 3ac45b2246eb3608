//! Texas hold'em: the hand evaluator and the equity calculator.
//!
//! Layers, bottom up: [`eval`] ranks 5 to 7 cards; [`range`] parses the
//! ranges players write; [`equity`] enumerates or samples showdowns. (The
//! no-limit table engine, agents and hand histories are an open issue.)

pub mod board_enum;
pub mod equity;
pub mod eval;
pub mod range;
