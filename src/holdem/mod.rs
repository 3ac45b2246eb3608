//! Texas hold'em: the hand evaluator, equity, the table engine, agents,
//! hand histories and the simulation.
//!
//! Layers, bottom up: [`eval`] ranks 5 to 7 cards (one at a time or many
//! at once), [`omaha`] and [`shortdeck`] rank those variants' hands on
//! the same tables; [`equity`] parses the ranges players write and enumerates or
//! samples showdowns, and measures the table's all-in equity; [`table`] is
//! the no-limit betting state machine with its pots; [`agents`] play it;
//! [`phh`] writes and replays hand histories; [`sim`] is the `holdem`
//! runner game.

pub mod agents;
pub mod correction;
pub mod duplicate;
pub mod equity;
pub mod eval;
pub mod omaha;
pub mod phh;
pub mod shortdeck;
pub mod sim;
pub mod stats;
pub mod table;
pub mod variant;

/// Two hole cards from text, for unit tests (`"As Kd"`).
#[cfg(test)]
pub(crate) fn test_hole(text: &str) -> [crate::cards::Card; 2] {
    let c = crate::cards::parse_cards(text).expect("two valid cards");
    [c[0], c[1]]
}
