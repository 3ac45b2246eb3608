//! The poker variants cardsim knows, by the names the command line uses:
//! what a player holds, which deck is dealt and how a showdown is ranked.

use crate::cards::{Card, CardSet};
use crate::holdem::eval::{tables, Hand, Strength};
use crate::holdem::{omaha, shortdeck};

/// A hold'em-family game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Game {
    /// Texas hold'em: two hole cards, the best five of seven.
    Holdem,
    /// Omaha with 4, 5 or 6 hole cards: exactly two of them and three of
    /// the board ([`omaha`]).
    Plo4,
    Plo5,
    Plo6,
    /// Short-deck (6+) hold'em: 36 cards, a flush beats a full house
    /// ([`shortdeck`]).
    ShortDeck,
}

impl Game {
    pub const ALL: [Game; 5] = [
        Game::Holdem,
        Game::Plo4,
        Game::Plo5,
        Game::Plo6,
        Game::ShortDeck,
    ];

    /// The name on the command line and in JSON (`plo4`).
    pub fn name(self) -> &'static str {
        match self {
            Game::Holdem => "holdem",
            Game::Plo4 => "plo4",
            Game::Plo5 => "plo5",
            Game::Plo6 => "plo6",
            Game::ShortDeck => "shortdeck",
        }
    }

    /// The game named `text` (case-insensitive; `omaha` is `plo4`, `6+`
    /// and `short-deck` are `shortdeck`).
    pub fn parse(text: &str) -> Option<Game> {
        let t = text.trim().to_ascii_lowercase();
        match t.as_str() {
            "omaha" | "plo" => Some(Game::Plo4),
            "6+" | "short-deck" | "short_deck" | "sixplus" => Some(Game::ShortDeck),
            "nlhe" | "hold'em" => Some(Game::Holdem),
            _ => Game::ALL.into_iter().find(|g| g.name() == t),
        }
    }

    /// Hole cards a player holds.
    pub fn hole_cards(self) -> usize {
        match self {
            Game::Holdem | Game::ShortDeck => 2,
            Game::Plo4 => 4,
            Game::Plo5 => 5,
            Game::Plo6 => 6,
        }
    }

    /// The cards dealt from.
    pub fn deck(self) -> CardSet {
        match self {
            Game::ShortDeck => shortdeck::DECK,
            _ => CardSet::FULL52,
        }
    }

    pub fn is_omaha(self) -> bool {
        matches!(self, Game::Plo4 | Game::Plo5 | Game::Plo6)
    }

    /// The showdown strength of `hole` with a full `board` of five cards,
    /// by the fast evaluators (higher wins, equal ties; comparable within
    /// one game only). Cards must be distinct and from [`Self::deck`].
    pub fn strength(self, hole: &[Card], board: &[Card]) -> Strength {
        let hand = || Hand::from_cards(hole).combine(Hand::from_cards(board));
        match self {
            Game::Holdem => tables().strength(hand()),
            Game::ShortDeck => shortdeck::strength(hand()),
            _ => omaha::Board::new(board).strength(&omaha::Hole::new(hole)),
        }
    }

    /// [`Self::strength`] by the slow reference evaluators.
    pub fn reference_strength(self, hole: &[Card], board: &[Card]) -> Strength {
        let all: Vec<Card> = hole.iter().chain(board).copied().collect();
        match self {
            Game::Holdem => crate::holdem::eval::reference::evaluate(&all),
            Game::ShortDeck => shortdeck::reference::evaluate(&all),
            _ => omaha::reference::evaluate(hole, board),
        }
    }
}

impl std::fmt::Display for Game {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}
