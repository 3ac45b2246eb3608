//! Hand histories in PHH, the open poker hand history format PokerKit reads
//! (TOML: `variant = 'NT'`, `antes`, `blinds_or_straddles`, `min_bet`,
//! `starting_stacks`, `actions`, ...), and their replay through the engine.
//!
//! Players are numbered `p1..pn` from the seat left of the button to the
//! button, as PHH and PokerKit do (heads-up, p1 is the big blind). Export
//! writes every action, the hole cards (`d dh`), the board (`d db`), the
//! hands shown at showdown (`sm`, when betting closes for good, so before
//! an all-in's run-out, as PokerKit orders it), and the finishing stacks.
//! One convention: when preflop betting closes with only one player able
//! to act who has not acted and faces no bet, RULES.md deals on, but
//! PokerKit still asks that player to check; the export writes that check
//! and the replay accepts it (and nothing else) as a no-op.

use std::fmt::Write as _;

use thiserror::Error;

use super::table::pots::OddChips;
use super::table::{Action, Config, HandState, ShortBigBlind, TableError};
use crate::cards::{parse_cards, Card, CardSet};

/// The PHH player number (0-based) of cardsim seat `seat`.
fn player_of(seat: usize, button: usize, n: usize) -> usize {
    (seat + n - button - 1) % n
}

fn cards_text(cards: &[Card]) -> String {
    cards.iter().map(|c| c.to_string()).collect()
}

fn list(values: impl Iterator<Item = u64>) -> String {
    let v: Vec<String> = values.map(|x| x.to_string()).collect();
    format!("[{}]", v.join(", "))
}

/// The PHH text of a finished (or unfinished) hand. `index` becomes the
/// `hand` field. The rule switches are kept as user-defined fields
/// (`_cardsim_odd_chips`, `_cardsim_short_big_blind`) so a replay uses them.
pub fn export(h: &HandState, index: Option<u64>) -> String {
    let c = h.config();
    let n = c.stacks.len();
    // Seat of each PHH player.
    let seat_of: Vec<usize> = (0..n).map(|i| (c.button + 1 + i) % n).collect();
    let p = |seat: usize| player_of(seat, c.button, n) + 1;
    let mut actions: Vec<String> = Vec::new();
    for (i, &s) in seat_of.iter().enumerate() {
        actions.push(format!(
            "d dh p{} {}",
            i + 1,
            cards_text(&h.seats()[s].hole)
        ));
    }
    let dealt = h.dealt_after();
    let board = h.board();
    let deal_at = |k: usize, actions: &mut Vec<String>| {
        for (street, at) in dealt.iter().enumerate() {
            if *at == Some(k) {
                let cards = match street {
                    0 => &board[0..3],
                    1 => &board[3..4],
                    _ => &board[4..5],
                };
                actions.push(format!("d db {}", cards_text(cards)));
            }
        }
    };
    let history = h.history();
    // Deals after the last action are an all-in's run-out (or nothing);
    // the shows come before them.
    let showdown = h.payout().is_some_and(|pay| pay.showdown);
    for k in 0..=history.len() {
        if let Some((seat, at)) = h.implicit_check() {
            if at == k {
                actions.push(format!("p{} cc", p(seat)));
            }
        }
        if k == history.len() {
            if showdown {
                for &s in &seat_of {
                    let seat = &h.seats()[s];
                    if !seat.folded {
                        actions.push(format!("p{} sm {}", p(s), cards_text(&seat.hole)));
                    }
                }
            }
            deal_at(k, &mut actions);
            break;
        }
        deal_at(k, &mut actions);
        let (seat, action) = history[k];
        actions.push(match action {
            Action::Fold => format!("p{} f", p(seat)),
            Action::Check | Action::Call => format!("p{} cc", p(seat)),
            Action::RaiseTo(to) => format!("p{} cbr {to}", p(seat)),
        });
    }
    let mut blinds = vec![0u64; n];
    blinds[0] = c.small_blind;
    blinds[1] = c.big_blind;
    let mut out = String::new();
    let _ = writeln!(out, "variant = 'NT'");
    let _ = writeln!(out, "ante_trimming_status = {}", c.ante_trimming);
    let _ = writeln!(out, "antes = {}", list((0..n).map(|_| c.ante)));
    let _ = writeln!(out, "blinds_or_straddles = {}", list(blinds.into_iter()));
    let _ = writeln!(out, "min_bet = {}", c.big_blind);
    let _ = writeln!(
        out,
        "starting_stacks = {}",
        list(seat_of.iter().map(|&s| c.stacks[s]))
    );
    let _ = writeln!(out, "actions = [");
    for a in &actions {
        let _ = writeln!(out, "  '{a}',");
    }
    let _ = writeln!(out, "]");
    if let Some(i) = index {
        let _ = writeln!(out, "hand = {i}");
    }
    let _ = writeln!(
        out,
        "seats = {}",
        list(seat_of.iter().map(|&s| s as u64 + 1))
    );
    if h.payout().is_some() {
        let _ = writeln!(
            out,
            "finishing_stacks = {}",
            list(seat_of.iter().map(|&s| h.seats()[s].stack))
        );
    }
    let _ = writeln!(out, "_cardsim_odd_chips = '{}'", c.odd_chips.key());
    let _ = writeln!(
        out,
        "_cardsim_short_big_blind = '{}'",
        c.short_big_blind.key()
    );
    out
}

/// One hand as a section of a `.phhs` text: under the table header
/// `[section]`, then a blank line. Sections may be concatenated as long as
/// their numbers differ.
pub fn export_section(h: &HandState, section: u64, index: Option<u64>) -> String {
    format!("[{section}]\n{}\n", export(h, index))
}

/// Several hands as one `.phhs` text, sections numbered from 1.
pub fn export_many<'a>(hands: impl Iterator<Item = (&'a HandState, Option<u64>)>) -> String {
    hands
        .zip(1..)
        .map(|((h, index), k)| export_section(h, k, index))
        .collect()
}

/// Why a hand history cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PhhError {
    #[error("not a PHH file: {0}")]
    Toml(String),
    #[error("field '{0}' is missing")]
    Missing(&'static str),
    #[error("field '{field}': {why}")]
    Field { field: &'static str, why: String },
    #[error("variant '{0}' is not supported (only 'NT', no-limit Texas hold'em)")]
    Variant(String),
    #[error("action {index} ('{action}'): {why}")]
    Action {
        index: usize,
        action: String,
        why: String,
    },
    #[error("the history ends before the hand does (p{0} is to act)")]
    Unfinished(usize),
    #[error("the table: {}", players_named(.0))]
    Table(TableError),
    #[error("the hand reaches a showdown with {dealt} board card(s) in the file; it needs 5 ('d db' actions)")]
    MissingBoard { dealt: usize },
    #[error("p{0}'s hole cards are unknown ('????') but p{0} is still in the hand at the end: its share of the pot cannot be known")]
    UnknownAtShowdown(usize),
}

/// Switches a replay may be told to use; `None` takes the file's
/// `_cardsim_*` fields, else the rules' defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    pub odd_chips: Option<OddChips>,
    pub short_big_blind: Option<ShortBigBlind>,
}

/// A replayed hand.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The `hand` field, when present.
    pub hand: Option<i64>,
    /// The engine's finishing stacks, p1 first.
    pub finishing_stacks: Vec<u64>,
    /// The file's `finishing_stacks`, p1 first, when present.
    pub expected: Option<Vec<u64>>,
    /// The hand as the engine played it (cardsim seat k is player p(k+1),
    /// the button the last seat).
    pub state: HandState,
}

/// Reads every hand of a `.phh` (one hand) or `.phhs` (hands under `[k]`
/// table headers) text, in file order.
pub fn parse_all(text: &str) -> Result<Vec<toml::Table>, PhhError> {
    Ok(parse_sections(text)?.into_iter().map(|(_, t)| t).collect())
}

/// Every hand of a `.phh` or `.phhs` text with its name: the section header
/// (`[10]`) of a `.phhs`, `1` for a lone `.phh` hand. Sections keep the
/// file's order (not the text order of their names: `[2]` before `[10]`).
pub fn parse_sections(text: &str) -> Result<Vec<(String, toml::Table)>, PhhError> {
    let table: toml::Table = text
        .parse()
        .map_err(|e: toml::de::Error| PhhError::Toml(crate::text::quote(e.message())))?;
    if table.contains_key("variant") || table.contains_key("actions") {
        return Ok(vec![("1".to_string(), table)]);
    }
    let mut hands = Vec::new();
    for (name, v) in table {
        match v {
            toml::Value::Table(t) => hands.push((format!("[{}]", crate::text::quote(&name)), t)),
            _ => return Err(PhhError::Missing("variant")),
        }
    }
    if hands.is_empty() {
        return Err(PhhError::Missing("variant"));
    }
    Ok(hands)
}

fn int_list(t: &toml::Table, field: &'static str) -> Result<Vec<u64>, PhhError> {
    let v = t.get(field).ok_or(PhhError::Missing(field))?;
    let bad = |why: &str| PhhError::Field {
        field,
        why: why.to_string(),
    };
    match v {
        toml::Value::Integer(i) => Ok(vec![u64::try_from(*i).map_err(|_| bad("negative"))?]),
        toml::Value::Array(a) => a
            .iter()
            .map(|x| match x {
                toml::Value::Integer(i) if *i >= 0 => Ok(*i as u64),
                toml::Value::Integer(_) => Err(bad("a negative amount")),
                _ => Err(bad("amounts must be whole numbers of chips")),
            })
            .collect(),
        _ => Err(bad("expected a list of whole numbers")),
    }
}

fn int(t: &toml::Table, field: &'static str) -> Result<u64, PhhError> {
    match t.get(field) {
        None => Err(PhhError::Missing(field)),
        Some(toml::Value::Integer(i)) if *i >= 0 => Ok(*i as u64),
        Some(_) => Err(PhhError::Field {
            field,
            why: "expected a whole number of chips".into(),
        }),
    }
}

/// Expands a field that is one number or one per player.
fn per_player(v: Vec<u64>, n: usize, field: &'static str) -> Result<Vec<u64>, PhhError> {
    match v.len() {
        1 => Ok(vec![v[0]; n]),
        k if k == n => Ok(v),
        k => Err(PhhError::Field {
            field,
            why: format!("{k} values for {n} players"),
        }),
    }
}

/// Replays one hand (a table from [`parse_all`]) through the engine.
pub fn replay(t: &toml::Table, opts: ReplayOptions) -> Result<Replay, PhhError> {
    let variant = match t.get("variant") {
        Some(toml::Value::String(s)) => s.clone(),
        Some(_) => {
            return Err(PhhError::Field {
                field: "variant",
                why: "expected a string".into(),
            })
        }
        None => return Err(PhhError::Missing("variant")),
    };
    if variant != "NT" {
        return Err(PhhError::Variant(crate::text::quote(&variant)));
    }
    let stacks = int_list(t, "starting_stacks")?;
    let n = stacks.len();
    if !(2..=10).contains(&n) {
        return Err(PhhError::Table(TableError::Seats(n)));
    }
    let antes = per_player(int_list(t, "antes")?, n, "antes")?;
    if antes.iter().any(|&a| a != antes[0]) {
        return Err(PhhError::Field {
            field: "antes",
            why: "cardsim plays one ante for every player".into(),
        });
    }
    let blinds = per_player(
        int_list(t, "blinds_or_straddles")?,
        n,
        "blinds_or_straddles",
    )?;
    if blinds[2..].iter().any(|&b| b != 0) {
        return Err(PhhError::Field {
            field: "blinds_or_straddles",
            why: "straddles are not supported (expected [small, big, 0, ...])".into(),
        });
    }
    let (small_blind, big_blind) = (blinds[0], blinds[1]);
    let min_bet = int(t, "min_bet")?;
    if min_bet != big_blind {
        return Err(PhhError::Field {
            field: "min_bet",
            why: format!("cardsim's minimum bet is the big blind ({big_blind}), got {min_bet}"),
        });
    }
    let actions: Vec<String> = match t.get("actions") {
        Some(toml::Value::Array(a)) => a
            .iter()
            .map(|x| match x {
                toml::Value::String(s) => Ok(s.clone()),
                _ => Err(PhhError::Field {
                    field: "actions",
                    why: "every action must be a string".into(),
                }),
            })
            .collect::<Result<_, _>>()?,
        Some(_) => {
            return Err(PhhError::Field {
                field: "actions",
                why: "expected a list of strings".into(),
            })
        }
        None => return Err(PhhError::Missing("actions")),
    };
    let text_field = |name: &str| match t.get(name) {
        Some(toml::Value::String(s)) => Some(s.as_str()),
        _ => None,
    };
    let odd_chips = opts.odd_chips.unwrap_or_else(|| {
        text_field("_cardsim_odd_chips")
            .and_then(OddChips::from_key)
            .unwrap_or_default()
    });
    let short_big_blind = opts.short_big_blind.unwrap_or_else(|| {
        text_field("_cardsim_short_big_blind")
            .and_then(ShortBigBlind::from_key)
            .unwrap_or_default()
    });

    let parsed = actions
        .iter()
        .enumerate()
        .map(|(i, a)| parse_action(a, n).map_err(|why| action_error(i, a, why)))
        .collect::<Result<Vec<_>, _>>()?;
    let (deck, unknown) = deck_of(&parsed, &actions, n)?;
    // Player p(k+1) sits at seat k; the button is the last seat.
    // PHH's default (and PokerKit's) is no trimming: dead antes.
    let ante_trimming = match t.get("ante_trimming_status") {
        None => false,
        Some(toml::Value::Boolean(b)) => *b,
        Some(_) => {
            return Err(PhhError::Field {
                field: "ante_trimming_status",
                why: "expected true or false".into(),
            })
        }
    };
    let config = Config {
        ante_trimming,
        stacks,
        button: n - 1,
        small_blind,
        big_blind,
        ante: antes[0],
        odd_chips,
        short_big_blind,
    };
    let mut h = HandState::new(config, &deck).map_err(PhhError::Table)?;
    let mut board_seen = 0;
    let mut implicit_used = false;
    for (i, (a, text)) in parsed.iter().zip(&actions).enumerate() {
        let err = |why: String| action_error(i, text, why);
        match *a {
            Parsed::DealHole(..) => {
                if !h.history().is_empty() {
                    return Err(err("hole cards dealt after the betting began".into()));
                }
            }
            Parsed::DealBoard(ref cards) => {
                board_seen += cards.len();
                if h.board().len() < board_seen {
                    return Err(err("the board is dealt before the betting closed".into()));
                }
            }
            Parsed::Show(p, ref cards) => {
                let seat = &h.seats()[p];
                if seat.folded {
                    return Err(err(format!("p{} has folded", p + 1)));
                }
                if let Some(c) = cards {
                    let shown: CardSet = c.iter().copied().collect();
                    let hole: CardSet = seat.hole.iter().copied().collect();
                    if shown != hole {
                        return Err(err(format!(
                            "p{} shows cards it was not dealt ({})",
                            p + 1,
                            cards_text(&seat.hole)
                        )));
                    }
                }
            }
            Parsed::Act(p, kind) => {
                // The check PokerKit asks for and RULES.md skips (see the
                // module notes): accepted once, where the engine skipped it.
                let skipped = h.implicit_check() == Some((p, h.history().len()));
                if kind == Kind::CheckCall && skipped && !implicit_used {
                    implicit_used = true;
                    continue;
                }
                let Some(legal) = h.legal() else {
                    return Err(err("the hand is over".into()));
                };
                if legal.seat != p {
                    return Err(err(format!("out of turn: p{} is to act", legal.seat + 1)));
                }
                let action = match kind {
                    Kind::Fold => Action::Fold,
                    Kind::CheckCall if legal.can_check => Action::Check,
                    Kind::CheckCall => Action::Call,
                    Kind::RaiseTo(to) => Action::RaiseTo(to),
                };
                h.apply(action).map_err(|e| err(players_named(&e)))?;
            }
            Parsed::Skip => {}
        }
    }
    if let Some(seat) = h.to_act() {
        // A trailing implicit check is the last thing PokerKit asks for.
        return Err(PhhError::Unfinished(seat + 1));
    }
    // Every board card the engine dealt must come from the file: it never
    // invents the cards that decide a pot.
    if h.board().len() > board_seen {
        return Err(PhhError::MissingBoard { dealt: board_seen });
    }
    let in_hand: Vec<usize> = (0..n).filter(|&p| !h.seats()[p].folded).collect();
    if in_hand.len() > 1 {
        if let Some(&p) = in_hand.iter().find(|&&p| unknown[p]) {
            return Err(PhhError::UnknownAtShowdown(p + 1));
        }
    }
    let expected = match t.get("finishing_stacks") {
        None => None,
        Some(_) => Some(int_list(t, "finishing_stacks")?),
    };
    let hand = match t.get("hand") {
        Some(toml::Value::Integer(i)) => Some(*i),
        _ => None,
    };
    Ok(Replay {
        hand,
        finishing_stacks: h.seats().iter().map(|s| s.stack).collect(),
        expected,
        state: h,
    })
}

/// A table error with seats named as PHH names players: cardsim's seat `k`
/// is player `p(k+1)` in a replay.
fn players_named(e: &TableError) -> String {
    match *e {
        TableError::EmptyStack(s) => format!("every stack must be positive (p{} has none)", s + 1),
        TableError::CannotCheck { seat, to_call } => {
            format!("p{} cannot check: {to_call} to call", seat + 1)
        }
        TableError::NothingToCall(s) => format!("p{} has nothing to call", s + 1),
        TableError::NeedlessFold(s) => format!("p{} cannot fold: it can check", s + 1),
        TableError::CannotRaise(s) => format!("p{} cannot raise now", s + 1),
        ref other => other.to_string(),
    }
}

fn action_error(index: usize, action: &str, why: String) -> PhhError {
    PhhError::Action {
        index,
        action: crate::text::quote(action),
        why,
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Kind {
    Fold,
    CheckCall,
    RaiseTo(u64),
}

#[derive(Clone, Debug, PartialEq, Eq)]
enum Parsed {
    /// Hole cards dealt to a player, one or two at a time; `None` for a
    /// card the history does not know (`??`).
    DealHole(usize, Vec<Option<Card>>),
    DealBoard(Vec<Card>),
    Act(usize, Kind),
    Show(usize, Option<Vec<Card>>),
    /// A no-operation (an empty action or a comment).
    Skip,
}

/// Parses one PHH action of a hand with `n` players.
fn parse_action(text: &str, n: usize) -> Result<Parsed, String> {
    let body = text.split('#').next().unwrap_or("");
    let words: Vec<&str> = body.split_whitespace().collect();
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
    let cards = |w: &str| -> Result<Vec<Card>, String> {
        if w.contains('?') {
            return Err("the board's cards must be known (no '?')".into());
        }
        parse_cards(w).map_err(|e| e.to_string())
    };
    // Hole cards: known cards and `??` for each unknown one.
    let hole = |w: &str| -> Result<Vec<Option<Card>>, String> {
        let mut out = Vec::new();
        let mut rest = w;
        while !rest.is_empty() {
            if let Some(r) = rest.strip_prefix("??") {
                out.push(None);
                rest = r;
                continue;
            }
            let end = rest.find('?').unwrap_or(rest.len());
            if end == 0 {
                return Err("an unknown card is written '??'".into());
            }
            let known = parse_cards(&rest[..end]).map_err(|e| e.to_string())?;
            out.extend(known.into_iter().map(Some));
            rest = &rest[end..];
        }
        Ok(out)
    };
    match words.as_slice() {
        [] => Ok(Parsed::Skip),
        ["d", "dh", p, c] => {
            let c = hole(c)?;
            if !(1..=2).contains(&c.len()) {
                return Err(format!("hold'em deals 2 hole cards, got {}", c.len()));
            }
            Ok(Parsed::DealHole(player(p)?, c))
        }
        ["d", "db", c] => Ok(Parsed::DealBoard(cards(c)?)),
        [p, "f"] => Ok(Parsed::Act(player(p)?, Kind::Fold)),
        [p, "cc"] => Ok(Parsed::Act(player(p)?, Kind::CheckCall)),
        [p, "cbr", amount] => {
            let to: u64 = amount.parse().map_err(|_| {
                format!(
                    "'{}' is not a whole number of chips",
                    crate::text::quote(amount)
                )
            })?;
            Ok(Parsed::Act(player(p)?, Kind::RaiseTo(to)))
        }
        [p, "sm"] | [p, "sm", "-"] => Ok(Parsed::Show(player(p)?, None)),
        [p, "sm", c] if c.contains('?') => Ok(Parsed::Show(player(p)?, None)),
        [p, "sm", c] => Ok(Parsed::Show(player(p)?, Some(cards(c)?))),
        _ => Err("not a hold'em action (d dh, d db, f, cc, cbr, sm)".into()),
    }
}

/// The deck the engine must deal from so that it deals the history's
/// cards: hole cards (seat k gets deck[k] and deck[n + k]), then the board,
/// then every other card in order. A hole card the history does not know
/// (`??`) is taken from a later `sm` of that player when it shows, else
/// filled with an unused card; the players left with such placeholders are
/// returned (their cards must not decide a pot).
fn deck_of(
    parsed: &[Parsed],
    texts: &[String],
    n: usize,
) -> Result<(Vec<Card>, Vec<bool>), PhhError> {
    let mut holes: Vec<Vec<Option<Card>>> = vec![Vec::new(); n];
    let mut board = Vec::new();
    let mut used = CardSet::EMPTY;
    let mut take = |c: Card, i: usize| -> Result<(), PhhError> {
        if used.contains(c) {
            return Err(action_error(
                i,
                &texts[i],
                format!("card {c} is dealt twice"),
            ));
        }
        used.insert(c);
        Ok(())
    };
    for (i, a) in parsed.iter().enumerate() {
        match a {
            Parsed::DealHole(p, c) => {
                if holes[*p].len() + c.len() > 2 {
                    return Err(action_error(
                        i,
                        &texts[i],
                        format!("p{} is dealt more than 2 hole cards", p + 1),
                    ));
                }
                holes[*p].extend_from_slice(c);
                for &card in c.iter().flatten() {
                    take(card, i)?;
                }
            }
            Parsed::DealBoard(c) => {
                if board.len() + c.len() > 5 {
                    return Err(action_error(i, &texts[i], "more than 5 board cards".into()));
                }
                if (board.is_empty() && c.len() != 3) || (!board.is_empty() && c.len() != 1) {
                    return Err(action_error(
                        i,
                        &texts[i],
                        "the flop is 3 cards, the turn and river 1 each".into(),
                    ));
                }
                board.extend_from_slice(c);
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
            if hole.len() == 2 && hole.iter().any(Option::is_none) && shown.len() == 2 {
                let known: Vec<Card> = hole.iter().flatten().copied().collect();
                if !known.iter().all(|k| shown.contains(k)) {
                    return Err(action_error(
                        i,
                        &texts[i],
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
    let mut unknown = vec![false; n];
    let mut spare = CardSet::FULL52.difference(used).iter();
    let mut deck = vec![Card::from_index(0); 2 * n];
    for (p, h) in holes.iter().enumerate() {
        if h.len() != 2 {
            return Err(PhhError::Field {
                field: "actions",
                why: format!(
                    "p{} is dealt {} hole card(s), not 2 ('d dh p{} ...')",
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
                        .ok_or(PhhError::Table(TableError::Deck(2 * n + 5)))?;
                    used.insert(c);
                    c
                }
            };
            deck[k * n + p] = card;
        }
    }
    deck.extend_from_slice(&board);
    deck.extend(CardSet::FULL52.difference(used).iter());
    Ok((deck, unknown))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn player_numbers_start_left_of_the_button() {
        assert_eq!(player_of(3, 2, 6), 0);
        assert_eq!(player_of(2, 2, 6), 5);
        assert_eq!(player_of(0, 5, 6), 0);
    }

    #[test]
    fn actions_parse_and_bad_ones_say_why() {
        assert_eq!(
            parse_action("p2 cbr 300", 3),
            Ok(Parsed::Act(1, Kind::RaiseTo(300)))
        );
        assert_eq!(
            parse_action("p1 f # tank", 3),
            Ok(Parsed::Act(0, Kind::Fold))
        );
        assert!(parse_action("p4 f", 3).unwrap_err().contains("p1 to p3"));
        assert!(parse_action("p1 cbr x", 3)
            .unwrap_err()
            .contains("whole number"));
        assert_eq!(
            parse_action("d dh p1 ????", 3),
            Ok(Parsed::DealHole(0, vec![None, None]))
        );
        assert_eq!(
            parse_action("d dh p2 As", 3),
            Ok(Parsed::DealHole(1, vec![Some("As".parse().unwrap())]))
        );
        assert!(parse_action("d db ???????", 3).is_err());
        assert!(parse_action("p1 xx", 3).is_err());
    }
}
