//! Texas hold'em: the hand evaluator, equity, the table engine, agents,
//! hand histories and the simulation.
//!
//! Layers, bottom up: [`eval`] ranks 5 to 7 cards; [`range`] parses the
//! ranges players write; [`equity`] enumerates or samples showdowns
//! ([`board_enum`] counts every board by rank pattern); [`table`] is the
//! no-limit betting state machine with its pots; [`agents`] play it;
//! [`allin`] measures all-in equity; [`phh`] writes and replays hand
//! histories; [`sim`] is the `holdem` runner game.

pub mod agents;
pub mod allin;
pub mod batch_eval;
pub mod board_enum;
pub mod board_major;
pub mod equity;
pub mod eval;
pub mod phh;
pub mod preflop;
pub mod range;
pub mod sim;
pub mod table;

/// Two hole cards from text, for unit tests (`"As Kd"`).
#[cfg(test)]
pub(crate) fn test_hole(text: &str) -> [crate::cards::Card; 2] {
    let c = crate::cards::parse_cards(text).expect("two valid cards");
    [c[0], c[1]]
}
