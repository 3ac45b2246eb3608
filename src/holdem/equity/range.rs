//! Hold'em ranges in the notation players write: `AA`, `AKs`, `AKo`, `AK`,
//! `QQ+`, `A2s+`, `KTo-K7o`, `22-55`, exact hands (`AhAs`), `random`,
//! weights (`QQ:0.5`), joined by commas.
//!
//! A range is a list of weighted two-card combinations with no combination
//! listed twice: when a later token names a combination again, its weight
//! replaces the earlier one (so `random,AA:0.5` is every hand with aces at
//! half weight).

use thiserror::Error;

use crate::cards::{parse_cards, Card, CardSet, Rank, Suit};

/// Two hole cards, the higher card index first.
pub type Combo = [Card; 2];

/// The smallest weight a range accepts. Smaller weights (down to subnormal
/// numbers such as 4.9e-324) cannot be sampled in any useful time and
/// underflow in products, so they are refused rather than silently treated
/// as 0 or as 1.
pub const MIN_WEIGHT: f64 = 1e-6;

/// A weighted combination of a range.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Weighted {
    pub cards: Combo,
    /// In (0, 1].
    pub weight: f64,
}

/// A parsed range: distinct combinations with weights, in a fixed order
/// (by card indices), so everything computed from it is reproducible.
#[derive(Clone, Debug, PartialEq)]
pub struct Range {
    /// The text the range was parsed from, for output.
    pub text: String,
    pub combos: Vec<Weighted>,
}

/// Errors from reading a range; each names the token at fault.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum RangeError {
    #[error("bad range token '{token}' in '{range}': {reason}")]
    Token {
        token: String,
        range: String,
        reason: String,
    },
    #[error("empty range")]
    Empty,
}

impl Range {
    /// Parses a comma-separated range; a lone pair of cards (`Ah As`,
    /// `AhAs`) is the one-combination range of that hand.
    pub fn parse(text: &str) -> Result<Range, RangeError> {
        let trimmed = text.trim();
        if trimmed.is_empty() {
            return Err(RangeError::Empty);
        }
        let mut weights = [0f64; 52 * 52];
        let mut any = false;
        let pieces: Vec<&str> = if !trimmed.contains(',') && parse_cards(trimmed).is_ok() {
            vec![trimmed] // "Ah As": one exact hand written with a space
        } else {
            trimmed.split(',').map(str::trim).collect()
        };
        for piece in pieces {
            let err = |reason: &str| RangeError::Token {
                token: crate::text::quote(piece),
                range: crate::text::quote(trimmed),
                reason: reason.to_string(),
            };
            if piece.is_empty() {
                return Err(err("empty item (two commas in a row?)"));
            }
            let (body, weight) = match piece.split_once(':') {
                Some((b, w)) => {
                    let w: f64 = w
                        .trim()
                        .parse()
                        .map_err(|_| err("the weight after ':' must be a number"))?;
                    if !(MIN_WEIGHT..=1.0).contains(&w) {
                        return Err(err(
                            "the weight must be from 0.000001 to 1 (smaller weights would \
                             never be drawn, or underflow)",
                        ));
                    }
                    (b.trim(), w)
                }
                None => (piece, 1.0),
            };
            let combos = token_combos(body).map_err(|r| err(&r))?;
            for c in combos {
                weights[combo_slot(c)] = weight;
                any = true;
            }
        }
        if !any {
            return Err(RangeError::Empty);
        }
        let combos = (0..52 * 52)
            .filter(|&i| weights[i] > 0.0)
            .map(|i| Weighted {
                cards: [
                    Card::from_index((i / 52) as u8),
                    Card::from_index((i % 52) as u8),
                ],
                weight: weights[i],
            })
            .collect();
        Ok(Range {
            text: trimmed.to_string(),
            combos,
        })
    }

    /// The range without combinations that use a card of `used`.
    pub fn without(&self, used: CardSet) -> Range {
        Range {
            text: self.text.clone(),
            combos: self
                .combos
                .iter()
                .filter(|w| !used.contains(w.cards[0]) && !used.contains(w.cards[1]))
                .copied()
                .collect(),
        }
    }

    /// The single exact hand, when the range is one combination of weight 1.
    pub fn exact_hand(&self) -> Option<Combo> {
        match self.combos.as_slice() {
            [w] => Some(w.cards),
            _ => None,
        }
    }
}

/// Slot of a combination in a 52x52 table: the higher card index first.
fn combo_slot(c: Combo) -> usize {
    let (hi, lo) = if c[0].index() > c[1].index() {
        (c[0], c[1])
    } else {
        (c[1], c[0])
    };
    hi.index() as usize * 52 + lo.index() as usize
}

/// Suitedness of a two-rank token.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Suitedness {
    Any,
    Suited,
    Offsuit,
}

/// A hand class such as `AKs` or `77`: the higher rank first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Class {
    hi: Rank,
    lo: Rank,
    suited: Suitedness,
}

/// The combinations of one token (without its weight).
fn token_combos(token: &str) -> Result<Vec<Combo>, String> {
    if token.eq_ignore_ascii_case("random") || token.eq_ignore_ascii_case("any") {
        let all = (0..52u8).map(Card::from_index).collect::<Vec<_>>();
        let mut out = Vec::with_capacity(1326);
        for (i, &a) in all.iter().enumerate() {
            for &b in &all[..i] {
                out.push([a, b]);
            }
        }
        return Ok(out);
    }
    if let Ok(cards) = parse_cards(token) {
        return match cards.as_slice() {
            [a, b] => Ok(vec![[*a, *b]]),
            _ => Err(format!("an exact hand has 2 cards, got {}", cards.len())),
        };
    }
    if let Some((from, to)) = token.split_once('-') {
        let (a, b) = (parse_class(from)?, parse_class(to)?);
        return dash_classes(a, b).map(|cs| cs.into_iter().flat_map(class_combos).collect());
    }
    if let Some(base) = token.strip_suffix('+') {
        let c = parse_class(base)?;
        return Ok(plus_classes(c).into_iter().flat_map(class_combos).collect());
    }
    Ok(class_combos(parse_class(token)?))
}

fn parse_class(text: &str) -> Result<Class, String> {
    let chars: Vec<char> = text.trim().chars().collect();
    let rank = |c: char| {
        Rank::parse(&c.to_string()).map_err(|_| {
            format!(
                "'{}' is not a rank (2-9, T, J, Q, K, A); expected a hand like AKs, QQ, T9o",
                crate::text::quote(&c.to_string())
            )
        })
    };
    let (r1, r2, suited) = match chars.as_slice() {
        [a, b] => (rank(*a)?, rank(*b)?, Suitedness::Any),
        [a, b, 's' | 'S'] => (rank(*a)?, rank(*b)?, Suitedness::Suited),
        [a, b, 'o' | 'O'] => (rank(*a)?, rank(*b)?, Suitedness::Offsuit),
        _ => return Err("expected a hand like AKs, AKo, AK, QQ, QQ+, A2s+, 22-55 or AhKh".into()),
    };
    let (hi, lo) = if r1 >= r2 { (r1, r2) } else { (r2, r1) };
    if hi == lo && suited != Suitedness::Any {
        return Err("a pair cannot be suited or offsuit".into());
    }
    Ok(Class { hi, lo, suited })
}

/// `QQ+`: QQ to AA; `A2s+`: A2s to AKs (the kicker rises to one below).
fn plus_classes(c: Class) -> Vec<Class> {
    if c.hi == c.lo {
        (c.hi.index()..13)
            .map(|r| Class {
                hi: Rank::new(r),
                lo: Rank::new(r),
                suited: Suitedness::Any,
            })
            .collect()
    } else {
        (c.lo.index()..c.hi.index())
            .map(|r| Class {
                lo: Rank::new(r),
                ..c
            })
            .collect()
    }
}

/// `22-55` (pairs) or `KTo-K7o` (same top card and suitedness).
fn dash_classes(a: Class, b: Class) -> Result<Vec<Class>, String> {
    if a.hi == a.lo && b.hi == b.lo {
        let (x, y) = (
            a.hi.index().min(b.hi.index()),
            a.hi.index().max(b.hi.index()),
        );
        return Ok((x..=y)
            .map(|r| Class {
                hi: Rank::new(r),
                lo: Rank::new(r),
                suited: Suitedness::Any,
            })
            .collect());
    }
    if a.hi != b.hi || a.suited != b.suited || a.hi == a.lo || b.hi == b.lo {
        return Err(
            "a span joins two pairs (22-55) or two hands with the same top card and suitedness (KTo-K7o)"
                .into(),
        );
    }
    let (x, y) = (
        a.lo.index().min(b.lo.index()),
        a.lo.index().max(b.lo.index()),
    );
    Ok((x..=y)
        .map(|r| Class {
            lo: Rank::new(r),
            ..a
        })
        .collect())
}

fn class_combos(c: Class) -> Vec<Combo> {
    let mut out = Vec::new();
    for s1 in Suit::ALL {
        for s2 in Suit::ALL {
            let same = s1 == s2;
            let keep = if c.hi == c.lo {
                s1.index() < s2.index()
            } else {
                match c.suited {
                    Suitedness::Any => true,
                    Suitedness::Suited => same,
                    Suitedness::Offsuit => !same,
                }
            };
            if keep {
                out.push([Card::new(c.hi, s1), Card::new(c.lo, s2)]);
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    fn count(text: &str) -> usize {
        Range::parse(text).unwrap().combos.len()
    }

    #[test]
    fn class_sizes() {
        assert_eq!(count("AA"), 6);
        assert_eq!(count("AKs"), 4);
        assert_eq!(count("AKo"), 12);
        assert_eq!(count("AK"), 16);
        assert_eq!(count("QQ+"), 18);
        assert_eq!(count("A2s+"), 48);
        assert_eq!(count("KTo-K7o"), 48);
        assert_eq!(count("K7o-KTo"), 48);
        assert_eq!(count("22-55"), 24);
        assert_eq!(count("random"), 1326);
        assert_eq!(count("AhAs"), 1);
        assert_eq!(count("Ah As"), 1);
        assert_eq!(count("AA, KK, AKs"), 16);
        // Listing a combination twice keeps one copy.
        assert_eq!(count("AA,AhAs,QQ+"), 18);
    }

    #[test]
    fn later_weights_replace_earlier_ones() {
        let r = Range::parse("random,AA:0.5").unwrap();
        assert_eq!(r.combos.len(), 1326);
        let aces = r
            .combos
            .iter()
            .filter(|w| w.cards[0].rank() == Rank::ACE && w.cards[1].rank() == Rank::ACE);
        assert!(aces.clone().count() == 6 && aces.clone().all(|w| w.weight == 0.5));
    }

    #[test]
    fn bad_tokens_are_named() {
        for (text, token) in [
            ("QQ+,AKx", "AKx"),
            ("AA:2", "AA:2"),
            ("AAs", "AAs"),
            ("KTo-Q7o", "KTo-Q7o"),
            ("AA,,KK", ""),
            ("Ah", "Ah"),
        ] {
            match Range::parse(text) {
                Err(RangeError::Token { token: t, .. }) => assert_eq!(t, token, "{text}"),
                other => panic!("{text}: {other:?}"),
            }
        }
        assert_eq!(Range::parse("  "), Err(RangeError::Empty));
    }

    #[test]
    fn dead_cards_remove_combinations() {
        let r = Range::parse("AA").unwrap();
        let used: CardSet = parse_cards("As").unwrap().into_iter().collect();
        assert_eq!(r.without(used).combos.len(), 3);
    }
}
