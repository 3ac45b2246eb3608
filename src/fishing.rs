//! The fishing game.
