//! What a player may hold in Omaha or short deck, as written on the
//! command line: for Omaha, exact hands of the game's hole-card count
//! joined by commas, each with an optional weight (`AsKsQhJh,AcAdKcKd:0.5`),
//! or `random`; for short deck, the hold'em range notation (`QQ+,AKs`,
//! `random`) with every combination holding a card below six left out.

use thiserror::Error;

use crate::cards::{check_distinct, parse_cards, Card, CardSet};
use crate::holdem::equity::range::{Range, MIN_WEIGHT};
use crate::holdem::variant::Game;

/// Most hole cards of any game.
pub const MAX_HOLE: usize = 6;

/// One hand a player may hold, with its weight.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Holding {
    cards: [Card; MAX_HOLE],
    len: u8,
    /// The cards as a 52-bit set.
    pub mask: u64,
    /// In (0, 1].
    pub weight: f64,
}

impl Holding {
    pub fn new(cards: &[Card], weight: f64) -> Holding {
        let mut c = [Card::from_index(0); MAX_HOLE];
        c[..cards.len()].copy_from_slice(cards);
        Holding {
            cards: c,
            len: cards.len() as u8,
            mask: cards.iter().fold(0, |m, c| m | c.bit()),
            weight,
        }
    }

    pub fn cards(&self) -> &[Card] {
        &self.cards[..self.len as usize]
    }
}

/// A player's hands: listed with weights, or every hand the deck allows
/// (drawn uniformly, or listed when enumerated).
#[derive(Clone, Debug, PartialEq)]
pub enum Hands {
    Listed(Vec<Holding>),
    Random,
}

/// A player's hands and the text they came from.
#[derive(Clone, Debug, PartialEq)]
pub struct HandList {
    pub text: String,
    pub hands: Hands,
}

#[derive(Clone, Debug, PartialEq, Eq, Error)]
#[error("bad {game} hand list '{text}': {reason}")]
pub struct HandsError {
    pub game: &'static str,
    pub text: String,
    pub reason: String,
}

impl HandList {
    /// Reads a player's hands for `game` (Omaha or short deck).
    pub fn parse(game: Game, text: &str) -> Result<HandList, HandsError> {
        let trimmed = text.trim();
        let err = |reason: String| HandsError {
            game: game.name(),
            text: crate::text::quote(trimmed),
            reason,
        };
        let hands = if game.is_omaha() {
            parse_omaha(game.hole_cards(), trimmed).map_err(err)?
        } else {
            parse_short(game, trimmed).map_err(err)?
        };
        Ok(HandList {
            text: trimmed.to_string(),
            hands,
        })
    }

    /// The one hand of a list of one hand of weight 1.
    pub fn exact_hand(&self) -> Option<&Holding> {
        match &self.hands {
            Hands::Listed(l) if l.len() == 1 => l.first(),
            _ => None,
        }
    }
}

fn parse_omaha(h: usize, text: &str) -> Result<Hands, String> {
    if text.eq_ignore_ascii_case("random") || text.eq_ignore_ascii_case("any") {
        return Ok(Hands::Random);
    }
    if text.is_empty() {
        return Err("empty".into());
    }
    let mut list: Vec<Holding> = Vec::new();
    for piece in text.split(',').map(str::trim) {
        let (body, weight) = match piece.split_once(':') {
            Some((b, w)) => {
                let w: f64 = w
                    .trim()
                    .parse()
                    .map_err(|_| format!("'{piece}': the weight after ':' must be a number"))?;
                if !(MIN_WEIGHT..=1.0).contains(&w) {
                    return Err(format!("'{piece}': the weight must be from 0.000001 to 1"));
                }
                (b.trim(), w)
            }
            None => (piece, 1.0),
        };
        let cards = parse_cards(body).map_err(|e| format!("'{piece}': {e}"))?;
        if cards.len() != h {
            return Err(format!(
                "'{piece}' has {} cards; each hand has {h} (Omaha ranges are lists of exact \
                 hands joined by commas, or random)",
                cards.len()
            ));
        }
        check_distinct(&cards).map_err(|e| format!("'{piece}': {e}"))?;
        let holding = Holding::new(&cards, weight);
        // A hand listed again takes the later weight, as in hold'em ranges.
        match list.iter_mut().find(|x| x.mask == holding.mask) {
            Some(x) => x.weight = weight,
            None => list.push(holding),
        }
    }
    Ok(Hands::Listed(list))
}

fn parse_short(game: Game, text: &str) -> Result<Hands, String> {
    let range = Range::parse(text).map_err(|e| e.to_string())?;
    let deck = game.deck();
    if let Some(hand) = range.exact_hand() {
        if let Some(c) = hand.iter().find(|&&c| !deck.contains(c)) {
            return Err(format!("{c} is not in the short deck (6 to A)"));
        }
    }
    let list: Vec<Holding> = range
        .combos
        .iter()
        .filter(|w| deck.contains(w.cards[0]) && deck.contains(w.cards[1]))
        .map(|w| Holding::new(&w.cards, w.weight))
        .collect();
    if list.is_empty() {
        return Err("no hand of it is in the short deck (6 to A)".into());
    }
    Ok(Hands::Listed(list))
}

/// Every hand of `h` cards from `available`, in lexicographic order of
/// card indices, weight 1.
pub fn all_hands(available: CardSet, h: usize) -> Vec<Holding> {
    let cards = available.to_vec();
    let mut out = Vec::new();
    let mut pick = Vec::with_capacity(h);
    fn go(cards: &[Card], h: usize, pick: &mut Vec<Card>, out: &mut Vec<Holding>) {
        if pick.len() == h {
            out.push(Holding::new(pick, 1.0));
            return;
        }
        let need = h - pick.len();
        for i in 0..cards.len() {
            if cards.len() - i < need {
                break;
            }
            pick.push(cards[i]);
            go(&cards[i + 1..], h, pick, out);
            pick.pop();
        }
    }
    go(&cards, h, &mut pick, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn omaha_lists_and_short_deck_ranges() {
        let l = HandList::parse(Game::Plo4, "AsKsQhJh, AcAdKcKd:0.5,AsKsQhJh:0.25").unwrap();
        let Hands::Listed(v) = &l.hands else {
            panic!("listed")
        };
        assert_eq!(v.len(), 2);
        assert_eq!((v[0].weight, v[1].weight), (0.25, 0.5));
        assert_eq!(
            HandList::parse(Game::Plo5, "random").unwrap().hands,
            Hands::Random
        );
        for bad in ["AsKsQh", "AsKsQhJh:2", "AsAsQhJh", "AsKsQhJh,,", ""] {
            assert!(HandList::parse(Game::Plo4, bad).is_err(), "{bad}");
        }
        // Short deck: 6 pairs of sixes, none of fives; random is 630.
        let count = |t: &str| match HandList::parse(Game::ShortDeck, t).unwrap().hands {
            Hands::Listed(v) => v.len(),
            Hands::Random => 0,
        };
        assert_eq!(count("55-66"), 6);
        assert_eq!(count("random"), 630);
        assert!(HandList::parse(Game::ShortDeck, "22-55").is_err());
        let e = HandList::parse(Game::ShortDeck, "As5s").unwrap_err();
        assert!(e.reason.contains("5s"), "{e}");
    }

    #[test]
    fn all_hands_counts() {
        assert_eq!(all_hands(CardSet(0xff), 4).len(), 70);
        assert_eq!(all_hands(crate::holdem::shortdeck::DECK, 2).len(), 630);
    }
}
