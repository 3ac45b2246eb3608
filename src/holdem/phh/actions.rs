//! PHH actions (`d dh`, `d db`, `f`, `cc`, `cbr`, `sm`) and the deck a
//! replay deals from so that the engine deals the history's cards.

use super::amount::Amount;
use super::{action_error, PerPlayer, PhhError};
use arrayvec::ArrayVec;

use crate::cards::{card_words, Card, CardSet, JokerPolicy};
use crate::holdem::table::TableError;
use crate::holdem::variant::Game;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Kind {
    Fold,
    CheckCall,
    RaiseTo(Amount),
}

/// The cards of one action, kept inline (every action of every hand is
/// parsed): at most a PLO6 hand; a board deal is at most three.
pub(super) type ActionCards<T> = ArrayVec<T, { crate::holdem::omaha::MAX_HOLE }>;

/// A `d dh` card word read: how many cards it names, and the cards when
/// that many fit in an action.
type HoleWord = (usize, Option<ActionCards<Option<Card>>>);

#[derive(Clone, Debug, PartialEq, Eq)]
pub(super) enum Parsed {
    /// Hole cards dealt to a player, one or two at a time; `None` for a
    /// card the history does not know (`??`).
    DealHole(usize, ActionCards<Option<Card>>),
    DealBoard(ActionCards<Card>),
    Act(usize, Kind),
    Show(usize, Option<ActionCards<Card>>),
    /// A no-operation (an empty action or a comment).
    Skip,
}

/// Each card `w` names, in order, refusing a card named twice (as
/// [`crate::cards::parse_cards`] does, without its `Vec`).
fn each_card(w: &str, mut f: impl FnMut(Card) -> Result<(), String>) -> Result<(), String> {
    let mut seen = CardSet::EMPTY;
    for c in card_words(w, JokerPolicy::Reject) {
        let c = c.map_err(|e| e.to_string())?;
        if seen.contains(c) {
            return Err(crate::cards::CardError::Repeated(c.to_string()).to_string());
        }
        seen.insert(c);
        f(c)?;
    }
    Ok(())
}

/// Parses one PHH action of a hand with `n` players of `game` (Omaha: any
/// hand size, up to 6 hole cards).
pub(super) fn parse_action(text: &str, n: usize, game: Game) -> Result<Parsed, String> {
    // What comes before a comment, found by a byte loop: an action is a
    // few bytes, too short for the general searcher to pay for itself.
    let body = &text[..text.bytes().position(|b| b == b'#').unwrap_or(text.len())];
    // At most four words make an action; a fifth is kept only to refuse
    // the line (no allocation: this runs for every action read).
    let mut slots = [""; 5];
    let mut count = 0;
    for w in body.split_whitespace().take(slots.len()) {
        slots[count] = w;
        count += 1;
    }
    let words = &slots[..count];
    let player = |w: &str| -> Result<usize, String> {
        let k: usize = w
            .strip_prefix('p')
            .and_then(|d| d.parse().ok())
            .ok_or_else(|| format!("'{}' is not a player (p1 to p{n})", crate::text::quote(w)))?;
        if k == 0 || k > n {
            return Err(format!(
                "'{}' is not a player (p1 to p{n})",
                crate::text::quote(w)
            ));
        }
        Ok(k - 1)
    };
    let most = crate::holdem::omaha::MAX_HOLE;
    let cards = |w: &str| -> Result<ActionCards<Card>, String> {
        if w.contains('?') {
            return Err("the board's cards must be known (no '?')".into());
        }
        let mut out = ActionCards::new();
        each_card(w, |c| {
            out.try_push(c)
                .map_err(|_| format!("more than {most} cards in one action"))
        })?;
        Ok(out)
    };
    // Hole cards: known cards and `??` for each unknown one; `None` when
    // there are more than an action holds, with how many there are.
    let hole = |w: &str| -> Result<HoleWord, String> {
        let mut out = ActionCards::new();
        let mut count = 0;
        let mut push = |c: Option<Card>| {
            count += 1;
            out.try_push(c).is_ok()
        };
        let mut fits = true;
        let mut rest = w;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("??") {
                fits &= push(None);
                rest = r;
                continue;
            }
            let end = rest.find('?').unwrap_or(rest.len());
            if end == 0 {
                return Err("an unknown card is written '??'".into());
            }
            each_card(&rest[..end], |c| {
                fits &= push(Some(c));
                Ok(())
            })?;
            rest = &rest[end..];
        }
        Ok((count, fits.then_some(out)))
    };
    match words {
        [] => Ok(Parsed::Skip),
        ["d", "dh", p, c] => {
            let (count, c) = hole(c)?;
            let most = if game.is_omaha() {
                crate::holdem::omaha::MAX_HOLE
            } else {
                game.hole_cards()
            };
            match c {
                Some(c) if (1..=most).contains(&count) => Ok(Parsed::DealHole(player(p)?, c)),
                _ => {
                    let words = match game {
                        Game::Holdem => "hold'em deals",
                        Game::ShortDeck => "short deck deals",
                        _ => "Omaha deals at most",
                    };
                    Err(format!("{words} {most} hole cards, got {count}"))
                }
            }
        }
        ["d", "db", c] => Ok(Parsed::DealBoard(cards(c)?)),
        [p, "f"] => Ok(Parsed::Act(player(p)?, Kind::Fold)),
        [p, "cc"] => Ok(Parsed::Act(player(p)?, Kind::CheckCall)),
        [p, "cbr", amount] => {
            let to = Amount::parse(amount)?;
            if to == Amount::Inf || to.is_negative() {
                return Err(format!(
                    "'{}' is not an amount to bet",
                    crate::text::quote(amount)
                ));
            }
            Ok(Parsed::Act(player(p)?, Kind::RaiseTo(to)))
        }
        [p, "sm"] | [p, "sm", "-"] => Ok(Parsed::Show(player(p)?, None)),
        [p, "sm", c] if c.contains('?') => Ok(Parsed::Show(player(p)?, None)),
        [p, "sm", c] => Ok(Parsed::Show(player(p)?, Some(cards(c)?))),
        _ => Err("not a hold'em action (d dh, d db, f, cc, cbr, sm)".into()),
    }
}

/// The deck the engine must deal from so that it deals the history's
/// cards: hole cards (seat k gets deck[k], deck[n + k], ... one per round),
/// then the board,
/// then every other card in order. A hole card the history does not know
/// (`??`) is taken from a later `sm` of that player when it shows, else
/// filled with an unused card; the players left with such placeholders are
/// returned (their cards must not decide a pot).
///
/// Only the deck is allocated (once, at its full size): every hand of a
/// `cardsim stats` run comes through here.
pub(super) fn deck_of(
    parsed: &[Parsed],
    texts: &[&str],
    n: usize,
    game: Game,
) -> Result<(Vec<Card>, PerPlayer<bool>), PhhError> {
    let holes_each = game.hole_cards();
    let cards = game.deck();
    let mut holes: PerPlayer<ActionCards<Option<Card>>> =
        (0..n).map(|_| ActionCards::new()).collect();
    let mut board: ArrayVec<Card, 5> = ArrayVec::new();
    let mut used = CardSet::EMPTY;
    let mut take = |c: Card, i: usize| -> Result<(), PhhError> {
        if !cards.contains(c) {
            return Err(action_error(
                i,
                texts[i],
                format!("card {c} is not in the {game} deck"),
            ));
        }
        if used.contains(c) {
            return Err(action_error(
                i,
                texts[i],
                format!("card {c} is dealt twice"),
            ));
        }
        used.insert(c);
        Ok(())
    };
    for (i, a) in parsed.iter().enumerate() {
        match a {
            Parsed::DealHole(p, c) => {
                if holes[*p].len() + c.len() > holes_each {
                    return Err(action_error(
                        i,
                        texts[i],
                        format!("p{} is dealt more than {holes_each} hole cards", p + 1),
                    ));
                }
                // Fits: at most `holes_each` (up to a PLO6 hand) by the check.
                holes[*p].extend(c.iter().copied());
                for &card in c.iter().flatten() {
                    take(card, i)?;
                }
            }
            Parsed::DealBoard(c) => {
                if board.len() + c.len() > 5 {
                    return Err(action_error(i, texts[i], "more than 5 board cards".into()));
                }
                if (board.is_empty() && c.len() != 3) || (!board.is_empty() && c.len() != 1) {
                    return Err(action_error(
                        i,
                        texts[i],
                        "the flop is 3 cards, the turn and river 1 each".into(),
                    ));
                }
                // Fits: at most 5 by the check above.
                board.extend(c.iter().copied());
                for &card in c {
                    take(card, i)?;
                }
            }
            _ => {}
        }
    }
    // Unknown hole cards revealed by a show.
    for (i, a) in parsed.iter().enumerate() {
        if let Parsed::Show(p, Some(shown)) = a {
            let hole = &mut holes[*p];
            if hole.len() == holes_each
                && hole.iter().any(Option::is_none)
                && shown.len() == holes_each
            {
                let known: ActionCards<Card> = hole.iter().flatten().copied().collect();
                if !known.iter().all(|k| shown.contains(k)) {
                    return Err(action_error(
                        i,
                        texts[i],
                        format!("p{} shows cards it was not dealt", p + 1),
                    ));
                }
                for &c in shown.iter().filter(|c| !known.contains(c)) {
                    take(c, i)?;
                }
                *hole = shown.iter().copied().map(Some).collect();
            }
        }
    }
    let mut unknown: PerPlayer<bool> = (0..n).map(|_| false).collect();
    let mut spare = cards.difference(used).iter();
    let mut deck = Vec::with_capacity(cards.len() as usize);
    deck.resize(holes_each * n, Card::from_index(0));
    for (p, h) in holes.iter().enumerate() {
        if h.len() != holes_each {
            return Err(PhhError::Field {
                field: "actions",
                why: format!(
                    "p{} is dealt {} hole card(s), not {holes_each} ('d dh p{} ...')",
                    p + 1,
                    h.len(),
                    p + 1
                ),
            });
        }
        for (k, c) in h.iter().enumerate() {
            let card = match c {
                Some(c) => *c,
                None => {
                    unknown[p] = true;
                    let c = spare
                        .next()
                        .ok_or(PhhError::Table(TableError::Deck(holes_each * n + 5)))?;
                    used.insert(c);
                    c
                }
            };
            deck[k * n + p] = card;
        }
    }
    deck.extend_from_slice(&board);
    deck.extend(cards.difference(used).iter());
    Ok((deck, unknown))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse_action_nt(text: &str, n: usize) -> Result<Parsed, String> {
        parse_action(text, n, Game::Holdem)
    }

    #[test]
    fn actions_parse_and_bad_ones_say_why() {
        assert_eq!(
            parse_action_nt("p2 cbr 300", 3),
            Ok(Parsed::Act(1, Kind::RaiseTo(Amount::parse("300").unwrap())))
        );
        assert_eq!(
            parse_action_nt("p1 f # tank", 3),
            Ok(Parsed::Act(0, Kind::Fold))
        );
        assert!(parse_action_nt("p4 f", 3).unwrap_err().contains("p1 to p3"));
        assert!(parse_action_nt("p1 cbr x", 3)
            .unwrap_err()
            .contains("not an amount"));
        assert_eq!(
            parse_action_nt("d dh p1 ????", 3),
            Ok(Parsed::DealHole(0, [None, None].into_iter().collect()))
        );
        assert_eq!(
            parse_action_nt("d dh p2 As", 3),
            Ok(Parsed::DealHole(
                1,
                [Some("As".parse().unwrap())].into_iter().collect()
            ))
        );
        assert!(parse_action_nt("d db ???????", 3).is_err());
        assert!(parse_action_nt("p1 xx", 3).is_err());
    }
}
