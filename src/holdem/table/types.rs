//! The table's vocabulary: its configuration and forced bets, the actions
//! and what is legal, streets, seats, and the typed errors of an illegal
//! action or table. Plain data; the rules that use it are in the parent.

use thiserror::Error;

use super::pots::OddChips;
use crate::cards::Card;
use crate::holdem::variant::Game;

/// The most hole cards a seat holds (PLO6).
pub const MAX_HOLE: usize = 6;

/// A seat's hole cards: two in hold'em and short deck, 4 to 6 in Omaha.
/// Reads as a slice of cards (`&hole[..]`, `hole[0]`, `hole.len()`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub struct HoleCards {
    cards: [Card; MAX_HOLE],
    len: u8,
}

impl HoleCards {
    /// `cards` (at most [`MAX_HOLE`]).
    pub fn new(cards: &[Card]) -> HoleCards {
        let mut h = HoleCards::filled(cards.first().copied().unwrap_or(Card::from_index(0)), 0);
        h.cards[..cards.len()].copy_from_slice(cards);
        h.len = cards.len() as u8;
        h
    }

    /// `len` copies of `card`, to be dealt over.
    pub(super) fn filled(card: Card, len: usize) -> HoleCards {
        HoleCards {
            cards: [card; MAX_HOLE],
            len: len as u8,
        }
    }

    pub(super) fn set(&mut self, k: usize, card: Card) {
        self.cards[k] = card;
    }
}

impl std::ops::Deref for HoleCards {
    type Target = [Card];
    fn deref(&self) -> &[Card] {
        &self.cards[..usize::from(self.len)]
    }
}

impl std::fmt::Debug for HoleCards {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}

impl PartialEq<&[Card]> for HoleCards {
    fn eq(&self, other: &&[Card]) -> bool {
        **self == **other
    }
}

/// What the others must match when the big blind is all-in for less than a
/// full big blind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ShortBigBlind {
    /// The full big blind (the rules' default).
    #[default]
    FullBlind,
    /// Only what was posted (PokerKit's behaviour).
    Posted,
}

impl ShortBigBlind {
    /// The name in summaries and hand histories (`full_blind`).
    pub fn key(self) -> &'static str {
        match self {
            ShortBigBlind::FullBlind => "full_blind",
            ShortBigBlind::Posted => "posted",
        }
    }

    /// The switch named by [`ShortBigBlind::key`].
    pub fn from_key(key: &str) -> Option<ShortBigBlind> {
        [ShortBigBlind::FullBlind, ShortBigBlind::Posted]
            .into_iter()
            .find(|o| o.key() == key)
    }
}

/// How large a bet or raise may be.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Betting {
    /// Up to the whole stack (the rules' default).
    #[default]
    NoLimit,
    /// Up to the pot: a raise to at most the bet to match plus the pot as
    /// it would be after calling (every chip put in this hand, the street's
    /// bets included, plus the call). PokerKit's pot-limit rule.
    PotLimit,
}

impl Betting {
    /// The name in summaries and on the command line (`no_limit`).
    pub fn key(self) -> &'static str {
        match self {
            Betting::NoLimit => "no_limit",
            Betting::PotLimit => "pot_limit",
        }
    }

    /// The structure named by [`Betting::key`].
    pub fn from_key(key: &str) -> Option<Betting> {
        [Betting::NoLimit, Betting::PotLimit]
            .into_iter()
            .find(|b| b.key() == key)
    }
}

/// The table and the hand's stakes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Config {
    /// Starting stacks, seat 0 first (2 to 10 seats, all positive).
    pub stacks: Vec<u64>,
    pub button: usize,
    pub small_blind: u64,
    pub big_blind: u64,
    pub ante: u64,
    /// How antes enter the pots. `true` (cardsim's rule, and PHH's
    /// `ante_trimming_status = true`): an ante is a contribution like any
    /// bet, so a stack all-in for less than the ante wins only as much from
    /// each opponent. `false` (PHH's and PokerKit's default): the antes are
    /// dead money in one pot that every player still in the hand can win,
    /// whatever ante each could post.
    pub ante_trimming: bool,
    pub odd_chips: OddChips,
    pub short_big_blind: ShortBigBlind,
    /// No-limit or pot-limit.
    pub betting: Betting,
    /// The game dealt and ranked at showdown: hold'em (two hole cards),
    /// Omaha (4 to 6, exactly two of them with three of the board) or
    /// short deck (36 cards, its own ranking).
    pub game: Game,
}

impl Config {
    /// A no-limit Texas hold'em table by the rules' defaults: no ante,
    /// antes trimmed, odd chips left of the button, a short big blind
    /// matched in full.
    pub fn holdem(stacks: Vec<u64>, button: usize, small_blind: u64, big_blind: u64) -> Config {
        Config {
            stacks,
            button,
            small_blind,
            big_blind,
            ante: 0,
            ante_trimming: true,
            odd_chips: OddChips::LeftOfButton,
            short_big_blind: ShortBigBlind::FullBlind,
            betting: Betting::NoLimit,
            game: Game::Holdem,
        }
    }
}

/// Forced bets as hand histories record them, beyond one ante for all and
/// two blinds: an ante per seat (a big-blind ante), a blind or straddle per
/// seat (a dead blind posted out of position, a straddle), and the seat
/// that opens the preflop betting. Replays of real hand histories need
/// them; the simulator never does.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ForcedBets {
    /// Each seat's ante (capped at its stack when posted).
    pub antes: Vec<u64>,
    /// Each seat's blind or straddle (capped at what the ante leaves).
    pub blinds: Vec<u64>,
    /// The first seat asked to act preflop (the next one able to act).
    pub opener: usize,
}

/// What a replay of a hand history needs from the engine beyond a
/// [`Config`] (all off by default: the rules' table).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Extras {
    /// Per-seat forced bets in place of the config's ante and blinds.
    pub forced: Option<ForcedBets>,
    /// Seats whose hole cards the history does not know and who conceded
    /// at showdown: they win no pot a known hand contests (PokerKit's
    /// rule: a hand it cannot evaluate wins nothing).
    pub hidden: u16,
    /// Whether a fold is accepted when a check was possible (real sites
    /// allow it; the rules refuse it as needless).
    pub needless_folds: bool,
    /// Whether a raise PokerKit allows is accepted where the rules' reopening
    /// rule refuses it: PokerKit counts the first bet or raise of a street
    /// as a full raise whatever its size (so an all-in for less than the big
    /// blind's increment reopens the betting).
    pub pokerkit_reopening: bool,
    /// PokerKit's bookkeeping for that rule, kept during the hand (here,
    /// boxed with the extras, so the simulator's hands carry none of it).
    pub(crate) reopening: PokerKitReopening,
}

/// PokerKit's bookkeeping of who may raise after short all-ins, kept for
/// replays that accept its reopening rule ([`Extras::pokerkit_reopening`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct PokerKitReopening {
    /// Seats that acted since the last raise PokerKit counts as full.
    acted: u16,
    /// The largest bet or raise increment this street, 0 at its start: the
    /// first one of a street is full whatever its size.
    largest: u64,
    /// The all-in raises short of `largest` since the last full one, summed.
    short_sum: u64,
    short_any: bool,
}

impl PokerKitReopening {
    /// Whether PokerKit lets `seat` raise.
    pub(super) fn allows(&self, seat: usize) -> bool {
        !(self.short_any && self.short_sum < self.largest && self.acted & (1 << seat) != 0)
    }

    /// After `seat` acted: a raise of `increment`, leaving it all-in or not.
    pub(super) fn acted(&mut self, seat: usize, raise: Option<(u64, bool)>) {
        self.acted |= 1 << seat;
        let Some((increment, all_in)) = raise else {
            return;
        };
        if increment >= self.largest {
            self.acted = 1 << seat;
        }
        self.largest = self.largest.max(increment);
        if all_in {
            self.short_sum += increment;
            self.short_any = true;
        } else {
            (self.short_sum, self.short_any) = (0, false);
        }
        if self.short_sum >= self.largest {
            (self.short_sum, self.short_any) = (0, false);
        }
    }
}

/// Why a configuration or an action is refused.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum TableError {
    #[error("a table has 2 to 10 seats, got {0}")]
    Seats(usize),
    #[error("every stack must be positive (seat {0} has none)")]
    EmptyStack(usize),
    #[error("the big blind must be positive and at least the small blind")]
    Blinds,
    #[error("{what} of {amount} chips is more than the table's limit of 2^40 chips")]
    TooManyChips { what: &'static str, amount: u64 },
    #[error("the button must be a seat (0 to {0})")]
    Button(usize),
    #[error("the deck must hold at least {0} distinct cards")]
    Deck(usize),
    #[error("card {card} is not in the {game} deck")]
    NotInDeck { card: Card, game: Game },
    #[error("{game} deals at most {most} seats ({holes} hole cards each and a board of 5 from {deck} cards), got {seats}")]
    TooManySeats {
        game: Game,
        seats: usize,
        most: usize,
        holes: usize,
        deck: usize,
    },
    #[error("the hand is over")]
    HandOver,
    #[error("seat {seat} cannot check: {to_call} to call")]
    CannotCheck { seat: usize, to_call: u64 },
    #[error("seat {0} has nothing to call")]
    NothingToCall(usize),
    #[error("seat {0} cannot fold: it can check")]
    NeedlessFold(usize),
    #[error("seat {0} cannot raise now")]
    CannotRaise(usize),
    #[error("raise to {to} is outside the legal range {min}..={max}")]
    RaiseSize { to: u64, min: u64, max: u64 },
}

/// The most chips a stack, blind or ante may hold (the simulator's cap
/// too): with at most 10 seats every total stays below 2^44.
pub const MAX_CHIPS: u64 = 1 << 40;

/// A decision.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Action {
    Fold,
    Check,
    /// Call the bet (all-in for less when the stack is short).
    Call,
    /// Bet or raise to this total in front of the player on this street.
    RaiseTo(u64),
}

/// The actions open to the seat to act.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Legal {
    pub seat: usize,
    pub can_fold: bool,
    pub can_check: bool,
    /// Chips a call adds (capped at the stack), when facing a bet.
    pub call: Option<u64>,
    /// The smallest and largest raise-to, when a raise is allowed (equal when
    /// only an all-in raise is possible).
    pub raise: Option<(u64, u64)>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Street {
    Preflop,
    Flop,
    Turn,
    River,
    /// The hand is over and paid.
    Done,
}

/// One seat during the hand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Seat {
    pub stack: u64,
    /// Chips in front of the seat on this street.
    pub street_bet: u64,
    /// Chips put in this hand (antes and blinds included).
    pub contributed: u64,
    /// The ante it posted (part of `contributed`).
    pub ante: u64,
    pub folded: bool,
    pub hole: HoleCards,
    /// Whether the seat has acted on this street.
    pub(super) acted: bool,
    /// The bet it faced when it last acted (for the reopening rule).
    pub(super) faced: u64,
}

impl Seat {
    pub fn all_in(&self) -> bool {
        self.stack == 0 && !self.folded
    }
    /// Still in the hand and able to act.
    pub(super) fn active(&self) -> bool {
        !self.folded && self.stack > 0
    }
}
