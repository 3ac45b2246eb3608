//! Texas hold'em: evaluator, equity, table engine, agents, hand histories.
//!
//! Layers, bottom up: [`eval`] ranks 5 to 7 cards; [`range`] parses the
//! ranges players write; [`equity`] enumerates or samples showdowns; [`table`]
//! is the no-limit betting state machine with its pots; [`agents`] decide
//! actions from what one seat may see; [`phh`] reads and writes hand
//! histories; [`game`] is the simulated hand the runner plays.

pub mod agents;
pub mod equity;
pub mod eval;
pub mod game;
pub mod phh;
pub mod range;
pub mod table;
