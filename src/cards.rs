//! Cards, ranks, suits, card sets and the card notation shared by every game.
//!
//! A card is one byte: `rank * 4 + suit` for the 52 standard cards (so the
//! ranks of a sorted run of indices are grouped, which the evaluators rely on),
//! and 52 and 53 for the two jokers used by the fishing game. A [`CardSet`] is a
//! `u64` bit set indexed by that byte.
//!
//! Notation (input and output) follows `spec/RULES.md`: ranks `2..9 T J Q K A`
//! (`10` accepted for T, any case), suits `s h d c` (also `S H D C` and
//! `♠ ♥ ♦ ♣`), jokers `W` (also `X` and `joker`). Cards may be separated by
//! whitespace, commas or nothing at all.

use std::fmt;
use std::str::FromStr;

use thiserror::Error;

/// A rank, 0 for the deuce up to 12 for the ace (poker order).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Rank(u8);

impl Rank {
    /// Number of ranks in a standard deck.
    pub const COUNT: usize = 13;
    pub const TWO: Rank = Rank(0);
    pub const TEN: Rank = Rank(8);
    pub const JACK: Rank = Rank(9);
    pub const QUEEN: Rank = Rank(10);
    pub const KING: Rank = Rank(11);
    pub const ACE: Rank = Rank(12);

    /// The rank with poker index `i` (0 = deuce, 12 = ace).
    ///
    /// # Panics
    /// If `i >= 13`: a programming error, never a user-input path.
    pub const fn new(i: u8) -> Rank {
        assert!(i < 13, "rank index out of range");
        Rank(i)
    }

    /// Poker index, 0 for the deuce up to 12 for the ace.
    pub const fn index(self) -> u8 {
        self.0
    }

    /// The notation character (`2`..`9`, `T`, `J`, `Q`, `K`, `A`).
    pub const fn char(self) -> char {
        RANK_CHARS[self.0 as usize] as char
    }

    /// All 13 ranks, deuce first.
    pub fn all() -> impl DoubleEndedIterator<Item = Rank> + Clone {
        (0..13).map(Rank)
    }

    /// Parses one rank token (`2`..`9`, `10`, `T`, `J`, `Q`, `K`, `A`; any case).
    pub fn parse(token: &str) -> Result<Rank, CardError> {
        let mut chars = token.chars();
        match (chars.next(), chars.as_str()) {
            (Some(c), "") => rank_from_char(c).ok_or_else(|| CardError::bad(token)),
            _ if token == "10" => Ok(Rank::TEN),
            _ => Err(CardError::bad(token)),
        }
    }
}

impl fmt::Display for Rank {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

const RANK_CHARS: &[u8; 13] = b"23456789TJQKA";
const SUIT_CHARS: &[u8; 4] = b"shdc";

fn rank_from_char(c: char) -> Option<Rank> {
    let upper = c.to_ascii_uppercase() as u8;
    RANK_CHARS
        .iter()
        .position(|&r| r == upper)
        .map(|i| Rank(i as u8))
}

fn suit_from_char(c: char) -> Option<Suit> {
    match c {
        's' | 'S' | '♠' | '♤' => Some(Suit::Spades),
        'h' | 'H' | '♥' | '♡' => Some(Suit::Hearts),
        'd' | 'D' | '♦' | '♢' => Some(Suit::Diamonds),
        'c' | 'C' | '♣' | '♧' => Some(Suit::Clubs),
        _ => None,
    }
}

/// A suit. The discriminant is the notation order `s h d c`; games that rank
/// suits (Tiến lên) define their own order on top of it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Suit {
    Spades = 0,
    Hearts = 1,
    Diamonds = 2,
    Clubs = 3,
}

impl Suit {
    pub const ALL: [Suit; 4] = [Suit::Spades, Suit::Hearts, Suit::Diamonds, Suit::Clubs];

    pub const fn index(self) -> u8 {
        self as u8
    }

    pub const fn from_index(i: u8) -> Suit {
        Suit::ALL[(i & 3) as usize]
    }

    /// The notation character (`s`, `h`, `d`, `c`).
    pub const fn char(self) -> char {
        SUIT_CHARS[self as usize] as char
    }
}

impl fmt::Display for Suit {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.char())
    }
}

/// One card: `rank * 4 + suit` for the 52 standard cards, 52 and 53 for jokers.
/// Transparent, so a slice of cards is a slice of their index bytes (the
/// batch evaluator loads hands as bytes).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
#[repr(transparent)]
pub struct Card(u8);

impl Card {
    /// Number of standard (non-joker) cards.
    pub const STANDARD: usize = 52;
    /// The first joker (index 52).
    pub const JOKER: Card = Card(52);
    /// The second joker (index 53).
    pub const JOKER2: Card = Card(53);

    pub const fn new(rank: Rank, suit: Suit) -> Card {
        Card(rank.0 * 4 + suit as u8)
    }

    /// The card with index `i` (0..54).
    ///
    /// # Panics
    /// If `i >= 54`: a programming error, never a user-input path.
    pub const fn from_index(i: u8) -> Card {
        assert!(i < 54, "card index out of range");
        Card(i)
    }

    pub const fn index(self) -> u8 {
        self.0
    }

    pub const fn is_joker(self) -> bool {
        self.0 >= 52
    }

    /// The rank of a standard card.
    ///
    /// # Panics
    /// On a joker; use [`Card::is_joker`] first where jokers can occur.
    pub const fn rank(self) -> Rank {
        assert!(self.0 < 52, "a joker has no rank");
        Rank(self.0 >> 2)
    }

    /// The suit of a standard card (a joker reports the suit bits of its index,
    /// which carry no meaning).
    pub const fn suit(self) -> Suit {
        Suit::from_index(self.0 & 3)
    }

    /// This card as a one-card set bit.
    pub const fn bit(self) -> u64 {
        1u64 << self.0
    }
}

impl fmt::Display for Card {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.is_joker() {
            f.write_str("W")
        } else {
            write!(f, "{}{}", self.rank().char(), self.suit().char())
        }
    }
}

impl FromStr for Card {
    type Err = CardError;

    /// Parses exactly one card, such as `As`, `10h`, `♠K` is not accepted
    /// (rank comes first), `W` for a joker.
    fn from_str(s: &str) -> Result<Card, CardError> {
        let cards = parse_cards_with(s, JokerPolicy::Allow)?;
        match cards.as_slice() {
            [one] => Ok(*one),
            _ => Err(CardError::bad(s.trim())),
        }
    }
}

/// Errors from reading card notation. Each names the offending token.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum CardError {
    #[error("bad card '{0}': expected a rank (2-9, T or 10, J, Q, K, A) followed by a suit (s, h, d, c)")]
    Bad(String),
    #[error("jokers are not allowed here: '{0}'")]
    Joker(String),
    #[error("card '{0}' appears twice")]
    Repeated(String),
    #[error("expected {expected} cards, got {got}")]
    Count { expected: String, got: usize },
}

impl CardError {
    fn bad(token: &str) -> CardError {
        CardError::Bad(crate::text::quote(token))
    }
}

/// Whether a parser accepts jokers (only the fishing game uses them).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum JokerPolicy {
    Allow,
    Reject,
}

/// Parses standard cards (no jokers), rejecting repeats: the form every
/// poker and Tiến lên command uses.
pub fn parse_cards(s: &str) -> Result<Vec<Card>, CardError> {
    let cards = parse_cards_with(s, JokerPolicy::Reject)?;
    check_distinct(&cards)?;
    Ok(cards)
}

/// Parses a set of distinct standard cards.
pub fn parse_card_set(s: &str) -> Result<CardSet, CardError> {
    Ok(parse_cards(s)?.into_iter().collect())
}

/// Fails with [`CardError::Repeated`] naming the first card seen twice.
pub fn check_distinct(cards: &[Card]) -> Result<(), CardError> {
    let mut seen = 0u64;
    for &c in cards {
        if seen & c.bit() != 0 && !c.is_joker() {
            return Err(CardError::Repeated(c.to_string()));
        }
        seen |= c.bit();
    }
    Ok(())
}

/// Tokenises card notation: a rank (`10` or one character) followed by a suit
/// character, or a joker word; separators are whitespace and commas. Repeats
/// are not checked here (a fishing deal has two jokers).
pub fn parse_cards_with(s: &str, jokers: JokerPolicy) -> Result<Vec<Card>, CardError> {
    card_words(s, jokers).collect()
}

/// The cards of `s` one at a time, as [`parse_cards_with`] reads them,
/// for a caller that keeps them without a `Vec` (stopping at the first
/// error).
pub fn card_words(
    s: &str,
    jokers: JokerPolicy,
) -> impl Iterator<Item = Result<Card, CardError>> + '_ {
    let mut words = s.split(|c: char| c.is_whitespace() || c == ',');
    let mut rest = "";
    std::iter::from_fn(move || {
        while rest.is_empty() {
            rest = words.next()?;
        }
        Some(parse_one(rest, jokers).map(|(card, used)| {
            rest = &rest[used..];
            card
        }))
    })
}

/// Reads one card from the front of `s` (no separators), returning it and the
/// number of bytes used.
fn parse_one(s: &str, jokers: JokerPolicy) -> Result<(Card, usize), CardError> {
    if let Some(len) = joker_prefix(s) {
        return match jokers {
            JokerPolicy::Allow => Ok((Card::JOKER, len)),
            JokerPolicy::Reject => Err(CardError::Joker(s.chars().take(len).collect())),
        };
    }
    let (rank, rank_len) = if s.starts_with("10") {
        (Rank::TEN, 2)
    } else {
        let c = s.chars().next().unwrap_or(' ');
        match rank_from_char(c) {
            Some(r) => (r, c.len_utf8()),
            None => return Err(CardError::bad(&token_at(s))),
        }
    };
    let suit_char = s[rank_len..].chars().next();
    match suit_char.and_then(suit_from_char) {
        Some(suit) => Ok((
            Card::new(rank, suit),
            rank_len + suit_char.map_or(0, char::len_utf8),
        )),
        None => Err(CardError::bad(&token_at(s))),
    }
}

/// The token that starts at `s`, for error messages: up to the next card
/// boundary (three characters at most, since no valid card is longer).
fn token_at(s: &str) -> String {
    s.chars().take(3).collect()
}

/// The length of a joker word (`joker`, `W`, `X`, any case) at the front
/// of `s`. Compares characters, never a byte slice that could end inside a
/// multi-byte character (`1234é` once panicked here).
pub(crate) fn joker_prefix(s: &str) -> Option<usize> {
    if s.get(..5).is_some_and(|w| w.eq_ignore_ascii_case("joker")) {
        return Some(5);
    }
    match s.chars().next() {
        Some('W' | 'w' | 'X' | 'x') => Some(1),
        _ => None,
    }
}

/// Formats cards with single spaces, e.g. `As Kd 7c`.
pub fn format_cards(cards: &[Card]) -> String {
    let mut s = String::with_capacity(cards.len() * 3);
    for (i, c) in cards.iter().enumerate() {
        if i > 0 {
            s.push(' ');
        }
        s.push_str(&c.to_string());
    }
    s
}

/// A set of cards as a bit set over card indices (jokers included).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct CardSet(pub u64);

impl CardSet {
    pub const EMPTY: CardSet = CardSet(0);
    /// The 52 standard cards.
    pub const FULL52: CardSet = CardSet((1u64 << 52) - 1);

    pub const fn contains(self, c: Card) -> bool {
        self.0 & c.bit() != 0
    }

    pub fn insert(&mut self, c: Card) {
        self.0 |= c.bit();
    }

    pub fn remove(&mut self, c: Card) {
        self.0 &= !c.bit();
    }

    pub const fn len(self) -> u32 {
        self.0.count_ones()
    }

    pub const fn is_empty(self) -> bool {
        self.0 == 0
    }

    pub const fn union(self, other: CardSet) -> CardSet {
        CardSet(self.0 | other.0)
    }

    pub const fn intersection(self, other: CardSet) -> CardSet {
        CardSet(self.0 & other.0)
    }

    pub const fn difference(self, other: CardSet) -> CardSet {
        CardSet(self.0 & !other.0)
    }

    /// The cards in index order (deuces first).
    pub fn iter(self) -> CardSetIter {
        CardSetIter(self.0)
    }

    /// Every non-empty subset, each once (largest first), by the standard
    /// walk over sub-masks: `sub = (sub - 1) & set`.
    pub fn subsets(self) -> impl Iterator<Item = CardSet> {
        let mut next = Some(self.0).filter(|&m| m != 0);
        std::iter::from_fn(move || {
            let sub = next?;
            let after = sub.wrapping_sub(1) & self.0;
            next = (after != 0).then_some(after);
            Some(CardSet(sub))
        })
    }

    pub fn to_vec(self) -> Vec<Card> {
        self.iter().collect()
    }
}

impl FromIterator<Card> for CardSet {
    fn from_iter<I: IntoIterator<Item = Card>>(iter: I) -> CardSet {
        let mut s = CardSet::EMPTY;
        for c in iter {
            s.insert(c);
        }
        s
    }
}

impl fmt::Display for CardSet {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_cards(&self.to_vec()))
    }
}

/// Iterator over a [`CardSet`] in index order.
#[derive(Clone, Debug)]
pub struct CardSetIter(u64);

impl Iterator for CardSetIter {
    type Item = Card;

    fn next(&mut self) -> Option<Card> {
        if self.0 == 0 {
            return None;
        }
        let i = self.0.trailing_zeros() as u8;
        self.0 &= self.0 - 1;
        Some(Card(i))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let n = self.0.count_ones() as usize;
        (n, Some(n))
    }
}

impl ExactSizeIterator for CardSetIter {}

/// Decks in a fixed, documented order (index order), to be shuffled with a
/// game's RNG.
pub mod deck {
    use super::Card;

    /// The 52 standard cards in index order.
    pub fn standard52() -> Vec<Card> {
        (0..52).map(Card::from_index).collect()
    }

    /// The 52 standard cards and two jokers, in index order.
    pub fn with_jokers54() -> Vec<Card> {
        (0..54).map(Card::from_index).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_card_round_trips_through_notation() {
        for c in deck::standard52() {
            let text = c.to_string();
            assert_eq!(text.parse::<Card>().unwrap(), c, "{text}");
        }
        assert_eq!("W".parse::<Card>().unwrap(), Card::JOKER);
    }

    #[test]
    fn accepts_the_separators_and_spellings_of_the_rules() {
        let want = vec![
            Card::new(Rank::ACE, Suit::Spades),
            Card::new(Rank::KING, Suit::Diamonds),
        ];
        for s in ["AsKd", "As Kd", "As,Kd", " as, KD ", "A♠K♦", "AS  kd"] {
            assert_eq!(parse_cards(s).unwrap(), want, "{s}");
        }
        assert_eq!(
            parse_cards("10h Th").unwrap_err(),
            CardError::Repeated("Th".into())
        );
        assert_eq!(
            parse_cards_with("W x joker JOKER", JokerPolicy::Allow)
                .unwrap()
                .len(),
            4
        );
    }

    #[test]
    fn rejects_bad_tokens_by_name() {
        assert_eq!(
            parse_cards("As Zz").unwrap_err(),
            CardError::Bad("Zz".into())
        );
        assert_eq!(parse_cards("As K").unwrap_err(), CardError::Bad("K".into()));
        assert_eq!(parse_cards("1s").unwrap_err(), CardError::Bad("1s".into()));
        assert_eq!(parse_cards("W").unwrap_err(), CardError::Joker("W".into()));
        assert_eq!(
            parse_cards("AsAs").unwrap_err(),
            CardError::Repeated("As".into())
        );
        let msg = parse_cards("Ax").unwrap_err().to_string();
        assert!(msg.contains("'Ax'"), "{msg}");
    }

    #[test]
    fn card_set_iterates_in_index_order() {
        let set = parse_card_set("Kd 2c As").unwrap();
        assert_eq!(set.len(), 3);
        assert_eq!(set.to_string(), "2c Kd As");
        assert!(set.contains("As".parse().unwrap()));
        assert_eq!(CardSet::FULL52.len(), 52);
    }

    #[test]
    fn subsets_visit_every_non_empty_subset_once() {
        let set = parse_card_set("As Kd 7c 2h").unwrap();
        let mut subs: Vec<u64> = set.subsets().map(|s| s.0).collect();
        assert_eq!(subs.len(), 15);
        assert!(subs.iter().all(|&s| s & !set.0 == 0 && s != 0));
        subs.sort_unstable();
        subs.dedup();
        assert_eq!(subs.len(), 15);
        assert_eq!(CardSet::EMPTY.subsets().count(), 0);
    }
}
