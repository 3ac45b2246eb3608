//! What a deal is played with and what it produces: the faces, the rule
//! switches, the outcome and record of a game, and the errors of a given
//! deal.

use thiserror::Error;

/// A card of the fishing game: its rank code, 0 (deuce) to 12 (ace), 13 for
/// a joker. Suits do not matter.
pub type Face = u8;
/// Rank code of the joker.
pub const JOKER: Face = 13;
/// Rank code of the jack, the hook.
pub const JACK: Face = 9;
/// Number of distinct faces.
pub const FACES: usize = 14;
/// Largest deal the engine holds (piles are 64-slot ring buffers).
pub const MAX_CARDS: usize = 64;
/// Most players a deal can have.
pub const MAX_PLAYERS: usize = 8;

pub(super) const NONE: u8 = u8::MAX;

/// The rule switches; `Rules::default()` is the seed's game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Number of players (2 by default). The deck is cut into contiguous
    /// piles of `54 / players` cards; the first `54 % players` players get
    /// one card more.
    pub players: usize,
    /// A J played on an empty row captures itself (off by default).
    pub jack_captures_empty_row: bool,
    /// Captured cards go to the pile in reverse row order (off by default).
    pub reverse_captures: bool,
}

impl Default for Rules {
    fn default() -> Rules {
        Rules {
            players: 2,
            jack_captures_empty_row: false,
            reverse_captures: false,
        }
    }
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Player `winner` (from 0) holds every card left; the others ran out.
    Win { winner: usize },
    /// The game never ends: from card `start` on, the states repeat every
    /// `length` cards.
    Cycle { start: u64, length: u64 },
    /// Neither: the game was stopped at the card limit before it ended or
    /// repeated a state. Never counted as a win or a draw.
    Unresolved,
}

/// What one game produced.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Record {
    pub outcome: Outcome,
    /// Cards played: to the end of the game, for a cycle up to the first
    /// repeated state (`start + length`), or the card limit.
    pub cards_played: u64,
    /// Captures per player.
    pub captures: [u32; MAX_PLAYERS],
    /// Captures made by a J.
    pub jack_captures: u32,
    /// Most cards taken in one capture.
    pub longest_capture: u32,
    /// Largest pile any player held.
    pub max_pile: u32,
}

/// Errors in a given deal.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum DealError {
    #[error(
        "bad card '{0}' in the deal: expected a rank (2-9, T or 10, J, Q, K, A) or a joker (W)"
    )]
    BadToken(String),
    #[error("the deal has {got} cards, a fishing deck has {expected}")]
    Count { got: usize, expected: usize },
    #[error("the deal has {got} {name}, a fishing deck has {expected}")]
    Repeated {
        name: String,
        got: usize,
        expected: usize,
    },
    #[error("{0} players cannot share the deal (2 to 8, at most one per card)")]
    Players(usize),
}
