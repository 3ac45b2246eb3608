//! The one view every agent the user brings sees, and the one language it
//! answers in: PHH actions (`f`, `cc`, `cbr AMOUNT`). The same field names
//! serve Rust, the JSON lines an `exec:` agent reads and the dictionary a
//! Python agent gets, so docs/agents.md documents them once.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::cards::Card;
use crate::holdem::table::{Action, HandState, Legal, Street};

/// What the seat to act is allowed to answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LegalView {
    /// `f` is legal (only when facing a bet: a fold that could check is not).
    pub fold: bool,
    /// The chips `cc` adds: 0 when it checks, else the call (capped at the
    /// stack, so a short call is all-in).
    pub to_call: u64,
    /// The smallest and largest total `cbr` may raise (or bet) to on this
    /// street; `None` (JSON `null`) when no raise is allowed.
    pub min_raise_to: Option<u64>,
    pub max_raise_to: Option<u64>,
}

impl From<Legal> for LegalView {
    fn from(l: Legal) -> LegalView {
        LegalView {
            fold: l.can_fold,
            to_call: l.call.unwrap_or(0),
            min_raise_to: l.raise.map(|r| r.0),
            max_raise_to: l.raise.map(|r| r.1),
        }
    }
}

impl fmt::Display for LegalView {
    /// `f, cc (call 40), cbr 80..1000`: what an error line says was legal.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.fold {
            f.write_str("f, ")?;
        }
        if self.to_call == 0 {
            f.write_str("cc (check)")?;
        } else {
            write!(f, "cc (call {})", self.to_call)?;
        }
        if let (Some(lo), Some(hi)) = (self.min_raise_to, self.max_raise_to) {
            write!(f, ", cbr {lo}..{hi}")?;
        }
        Ok(())
    }
}

/// The table as the seat to act sees it: everything public and its own
/// hole cards. Seats are numbered from 1 (as the CSV's `_s1` columns);
/// the per-seat lists are in seat order (index 0 is seat 1).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AgentView {
    /// The hand's index in the run (the CSV's `game` column).
    pub hand: u64,
    /// A seed of this hand's own, for an agent that wants randomness: a
    /// function of the run's seed and the hand, so its choices replay.
    pub seed: u64,
    /// The seat to act (1-based).
    pub seat: usize,
    /// Seats at the table.
    pub players: usize,
    /// The button's seat (1-based).
    pub button: usize,
    pub small_blind: u64,
    pub big_blind: u64,
    pub ante: u64,
    /// The game, as `--variant` names it: `nlhe`, `plo4`, `plo5`, `plo6`
    /// or `shortdeck` (absent from a view written before games had
    /// names: hold'em).
    #[serde(default = "nlhe")]
    pub variant: String,
    /// `preflop`, `flop`, `turn` or `river`.
    pub street: String,
    /// This seat's hole cards, e.g. `AsKd` (two in hold'em and short
    /// deck, 4 to 6 in Omaha).
    pub hole: String,
    /// The board so far, e.g. `7h8s9c` (empty preflop).
    pub board: String,
    /// Every chip put in this hand so far, bets on this street included.
    pub pot: u64,
    /// Chips behind, per seat.
    pub stacks: Vec<u64>,
    /// Chips in front of each seat on this street.
    pub bets: Vec<u64>,
    /// Chips each seat has put in this hand (antes and blinds included).
    pub contributed: Vec<u64>,
    pub folded: Vec<bool>,
    pub legal: LegalView,
    /// The hand so far in PHH notation, `pN` being seat N: `p3 cbr 6`,
    /// `p4 f`, `p1 cc`, and the board's deals `d db 7h8s9c`. No hole cards.
    pub actions: Vec<String>,
}

fn nlhe() -> String {
    variant_name(crate::holdem::variant::Game::Holdem).into()
}

/// A game's name as `--variant` spells it (hold'em is `nlhe`).
pub fn variant_name(game: crate::holdem::variant::Game) -> &'static str {
    match game {
        crate::holdem::variant::Game::Holdem => "nlhe",
        g => g.name(),
    }
}

fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect()
}

fn street_key(street: Street) -> &'static str {
    match street {
        Street::Preflop => "preflop",
        Street::Flop => "flop",
        Street::Turn => "turn",
        _ => "river",
    }
}

impl AgentView {
    /// The view of the seat to act in `hand`, hand `index` of the run, or
    /// `None` when the hand is over.
    pub fn of(hand: &HandState, index: u64, seed: u64) -> Option<AgentView> {
        let legal = hand.legal()?;
        let seats = hand.seats();
        let config = hand.config();
        Some(AgentView {
            hand: index,
            seed,
            seat: legal.seat + 1,
            players: seats.len(),
            button: config.button + 1,
            small_blind: config.small_blind,
            big_blind: config.big_blind,
            ante: config.ante,
            variant: variant_name(config.game).into(),
            street: street_key(hand.street()).into(),
            hole: cards_text(&seats[legal.seat].hole),
            board: cards_text(hand.board()),
            pot: seats.iter().map(|s| s.contributed).sum(),
            stacks: seats.iter().map(|s| s.stack).collect(),
            bets: seats.iter().map(|s| s.street_bet).collect(),
            contributed: seats.iter().map(|s| s.contributed).collect(),
            folded: seats.iter().map(|s| s.folded).collect(),
            legal: legal.into(),
            actions: actions_text(hand),
        })
    }
}

/// The hand's public actions so far in PHH notation (seat numbers from 1),
/// with the board's deals where they happened and the big blind's implicit
/// check as PHH writes it.
fn actions_text(hand: &HandState) -> Vec<String> {
    let history = hand.history();
    let dealt = hand.dealt_after();
    let board = hand.board();
    let mut out = Vec::with_capacity(history.len() + 3);
    for k in 0..=history.len() {
        if let Some((seat, at)) = hand.implicit_check() {
            if at == k {
                out.push(format!("p{} cc", seat + 1));
            }
        }
        for (street, at) in dealt.iter().enumerate() {
            if *at == Some(k) {
                let cards = match street {
                    0 => board.get(0..3),
                    1 => board.get(3..4),
                    _ => board.get(4..5),
                };
                if let Some(cards) = cards {
                    out.push(format!("d db {}", cards_text(cards)));
                }
            }
        }
        let Some(&(seat, action)) = history.get(k) else {
            break;
        };
        out.push(match action {
            Action::Fold => format!("p{} f", seat + 1),
            Action::Check | Action::Call => format!("p{} cc", seat + 1),
            Action::RaiseTo(to) => format!("p{} cbr {to}", seat + 1),
        });
    }
    out
}

/// An answer in PHH notation, before it is checked against the table.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Answer {
    /// `f`
    Fold,
    /// `cc`: check when nothing is to call, else call.
    CheckCall,
    /// `cbr AMOUNT`: bet or raise to AMOUNT chips in front of the seat on
    /// this street.
    RaiseTo(u64),
}

/// An answer that is not a PHH action (the text, quoted for an error line).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("answer '{0}' is not an action (expected f, cc or cbr AMOUNT)")]
pub struct NotAnAction(pub String);

impl Answer {
    /// Reads `f`, `cc` or `cbr AMOUNT` (whole chips), with any spaces
    /// around; the one parser of every agent's answers.
    pub fn parse(text: &str) -> Result<Answer, NotAnAction> {
        let bad = || NotAnAction(crate::text::quote(text.trim()));
        let mut words = text.split_whitespace();
        let answer = match (words.next(), words.next()) {
            (Some("f"), None) => Answer::Fold,
            (Some("cc"), None) => Answer::CheckCall,
            (Some("cbr"), Some(amount)) => {
                let digits = !amount.is_empty() && amount.bytes().all(|b| b.is_ascii_digit());
                match amount.parse::<u64>() {
                    Ok(to) if digits => Answer::RaiseTo(to),
                    _ => return Err(bad()),
                }
            }
            _ => return Err(bad()),
        };
        if words.next().is_some() {
            return Err(bad());
        }
        Ok(answer)
    }

    /// The table action this answer is when `legal`, or `None`.
    pub fn resolve(self, legal: &Legal) -> Option<Action> {
        match self {
            Answer::Fold => legal.can_fold.then_some(Action::Fold),
            Answer::CheckCall if legal.can_check => Some(Action::Check),
            Answer::CheckCall => Some(Action::Call),
            Answer::RaiseTo(to) => {
                let (lo, hi) = legal.raise?;
                (lo..=hi).contains(&to).then_some(Action::RaiseTo(to))
            }
        }
    }
}

impl fmt::Display for Answer {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Answer::Fold => f.write_str("f"),
            Answer::CheckCall => f.write_str("cc"),
            Answer::RaiseTo(to) => write!(f, "cbr {to}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_parse_in_phh_notation() {
        assert_eq!(Answer::parse("f"), Ok(Answer::Fold));
        assert_eq!(Answer::parse(" cc \n"), Ok(Answer::CheckCall));
        assert_eq!(Answer::parse("cbr 600"), Ok(Answer::RaiseTo(600)));
        for bad in [
            "", "fold", "cbr", "cbr -3", "cbr 2.5", "cbr 6 7", "f f", "CC",
        ] {
            let e = Answer::parse(bad).unwrap_err();
            assert!(
                e.to_string().contains("expected f, cc or cbr AMOUNT"),
                "{e}"
            );
        }
        let long = "x".repeat(200);
        assert!(Answer::parse(&long).unwrap_err().to_string().len() < 140);
    }

    #[test]
    fn answers_resolve_against_the_legal_actions() {
        let facing = Legal {
            seat: 2,
            can_fold: true,
            can_check: false,
            call: Some(4),
            raise: Some((8, 200)),
        };
        assert_eq!(Answer::CheckCall.resolve(&facing), Some(Action::Call));
        assert_eq!(Answer::Fold.resolve(&facing), Some(Action::Fold));
        assert_eq!(
            Answer::RaiseTo(8).resolve(&facing),
            Some(Action::RaiseTo(8))
        );
        assert_eq!(Answer::RaiseTo(7).resolve(&facing), None);
        assert_eq!(Answer::RaiseTo(201).resolve(&facing), None);
        let free = Legal {
            can_fold: false,
            can_check: true,
            call: None,
            raise: None,
            ..facing
        };
        assert_eq!(Answer::CheckCall.resolve(&free), Some(Action::Check));
        assert_eq!(Answer::Fold.resolve(&free), None);
        assert_eq!(Answer::RaiseTo(8).resolve(&free), None);
        assert_eq!(
            LegalView::from(facing).to_string(),
            "f, cc (call 4), cbr 8..200"
        );
        assert_eq!(LegalView::from(free).to_string(), "cc (check)");
    }

    #[test]
    fn the_view_shows_the_hand_so_far() {
        use crate::holdem::table::Config;
        let deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        let config = Config::holdem(vec![200, 200, 200], 0, 1, 2);
        let mut hand = HandState::new(config, &deck).unwrap();
        // Seat 1 (button) raises to 6, seat 2 (small blind) folds, seat 3 calls.
        hand.apply(Action::RaiseTo(6)).unwrap();
        hand.apply(Action::Fold).unwrap();
        hand.apply(Action::Call).unwrap();
        let v = AgentView::of(&hand, 7, 99).unwrap();
        assert_eq!(v.hand, 7);
        assert_eq!(v.seat, 3);
        assert_eq!(v.button, 1);
        assert_eq!(v.street, "flop");
        assert_eq!(v.variant, "nlhe");
        assert_eq!(v.board.len(), 6);
        assert_eq!(v.pot, 13);
        assert_eq!(v.contributed, vec![6, 1, 6]);
        assert_eq!(v.folded, vec![false, true, false]);
        assert_eq!(
            v.actions,
            vec![
                "p1 cbr 6".to_string(),
                "p2 f".into(),
                "p3 cc".into(),
                format!("d db {}", v.board)
            ]
        );
        assert_eq!(v.legal.to_call, 0);
        assert_eq!(v.legal.min_raise_to, Some(2));
        let json = serde_json::to_string(&v).unwrap();
        let back: AgentView = serde_json::from_str(&json).unwrap();
        assert_eq!(back, v);
    }
}
