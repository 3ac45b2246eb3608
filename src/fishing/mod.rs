//! The fishing game (金钩钓鱼, seed 002): a deterministic capture game.
//!
//! Rules (`spec/RULES.md` §2): 54 cards (suits do not matter, two jokers),
//! shuffled and cut into contiguous piles, player 1 first. A turn plays the
//! front card of the mover's pile onto the end of the row. A J on a non-empty
//! row captures the whole row; otherwise a card whose rank is already in the
//! row captures from that card to the end. Captured cards go to the back of
//! the capturer's pile in row order, and the capturer plays again; without a
//! capture the turn passes. A player whose pile is empty after a turn loses.
//!
//! A deal either ends or cycles forever. Cycles are detected exactly with
//! Brent's algorithm over the states just after each capture (every endless
//! game captures infinitely often, so it cycles if and only if that
//! subsequence does); the entry point is then found by replaying the deal
//! twice, one copy a period ahead. Nothing is ever capped.
//!
//! [`play()`] is the fast engine; [`reference`] is a slow, obviously correct
//! twin (queues, linear search, a set of every state) the tests compare it
//! with.
//!
//! The parts: [`rules`] (faces, switches, records, errors), [`deal`] (the
//! deck and its notation), [`table`] (a deal in play, card by card),
//! [`cycle`] (Brent's check and the entry point), [`play`](mod@play) (the play loop,
//! with `duel`, the faster two-player engine of its unchecked phase),
//! [`trace`], [`reference`] and [`game`] (the runner game).

mod cycle;
mod deal;
mod duel;
mod game;
mod play;
pub mod reference;
mod rules;
mod table;
mod trace;

pub use deal::{deck, face_char, parse_deal};
pub use game::FishingGame;
pub use play::{play, CHECK_FROM_CARD, DEFAULT_CARD_LIMIT};
pub use rules::{
    DealError, Face, Outcome, Record, Rules, FACES, JACK, JOKER, MAX_CARDS, MAX_PLAYERS,
};
pub use table::{Step, Table};
pub use trace::{trace, TraceError};

#[cfg(test)]
mod tests;
