//! Hand histories in PHH, the open poker hand history format PokerKit reads
//! (TOML: `variant = 'NT'`, `antes`, `blinds_or_straddles`, `min_bet`,
//! `starting_stacks`, `actions`, ...), and their replay through the engine.
//! Variants: `NT` (no-limit hold'em), `PO` (pot-limit Omaha: PLO4 to PLO6
//! by the hole cards dealt) and `NS` (no-limit short deck).
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
//!
//! Real histories (the public PHH dataset of online and WSOP hands) need
//! more, read as PokerKit reads them: decimal amounts and `inf` stacks
//! ([`amount`]), an ante and a blind or straddle per player (a negative
//! blind is a dead one: posted, but it does not choose who opens), folds
//! where a check was possible, unknown hole cards (`????`). A pot that
//! unknown cards decide is settled from the file's `winnings` when it has
//! them ([`Outcome::Settled`]), else the hand is [`Outcome::Undetermined`];
//! `winnings` and `finishing_stacks` are compared with the engine's pot
//! shares, and a difference that only a rake explains is told apart
//! ([`Verdict::Rake`]).

mod actions;
pub mod amount;
mod export;
pub mod fields;
pub mod stream;
mod verdict;

pub use export::{export, export_many, export_section};
pub use verdict::{Convention, Verdict};

use thiserror::Error;

use self::actions::{deck_of, parse_action, Kind, Parsed};
use self::amount::{format_units, read_document, Amount};
use self::export::cards_text;
use self::fields::{Fields, Val};
use super::table::pots::OddChips;
use super::table::{
    Action, Betting, Config, Extras, ForcedBets, HandState, ShortBigBlind, TableError, MAX_CHIPS,
};
use super::variant::Game;
use crate::cards::CardSet;

/// Why a hand history cannot be read or replayed.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PhhError {
    #[error("not a PHH file: {0}")]
    Toml(String),
    #[error("field '{0}' is missing")]
    Missing(&'static str),
    #[error("field '{field}': {why}")]
    Field { field: &'static str, why: String },
    #[error("variant '{0}' is not supported (only 'NT', 'PO' and 'NS': no-limit hold'em, pot-limit Omaha, no-limit short deck)")]
    Variant(String),
    #[error("action {index} ('{action}'): {why}")]
    Action {
        index: usize,
        action: String,
        why: String,
    },
    #[error("the history ends before the hand does (p{0} is to act)")]
    Unfinished(usize),
    #[error("the table: {}", players_named(.0, 0))]
    Table(TableError),
    #[error("the hand reaches a showdown with {dealt} board card(s) in the file; it needs 5 ('d db' actions)")]
    MissingBoard { dealt: usize },
}

impl PhhError {
    /// The kind of refusal, for counts by cause: the message with its
    /// numbers, players and quoted text left out.
    pub fn cause(&self) -> String {
        let text = match self {
            PhhError::Action { why, .. } => format!("action: {why}"),
            PhhError::Toml(_) => "not a PHH file".into(),
            other => other.to_string(),
        };
        let mut out = String::new();
        let mut quoted = false;
        let mut last = ' ';
        for c in text.chars() {
            if c == '\'' {
                quoted = !quoted;
                if quoted {
                    out.push_str("'…'");
                }
                continue;
            }
            if quoted {
                continue;
            }
            let d = if c.is_ascii_digit() { 'N' } else { c };
            if !(d == 'N' && (last == 'N' || last == '.')) {
                out.push(d);
            }
            last = d;
        }
        out.replace("pN", "p").replace("N.N", "N")
    }
}

/// Switches a replay may be told to use; `None` takes the file's
/// `_cardsim_*` fields, else the rules' defaults.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReplayOptions {
    pub odd_chips: Option<OddChips>,
    pub short_big_blind: Option<ShortBigBlind>,
}

/// How a hand that was read ended.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Outcome {
    /// Played to the end by the engine, every pot decided by known cards.
    Replayed,
    /// A pot only unknown cards could decide, paid as the file's
    /// `winnings` say.
    Settled,
    /// A pot only unknown cards could decide and no `winnings`: the pot,
    /// in minor units, and its contenders (p1 = 0).
    Undetermined { pot: u64, players: Vec<usize> },
    /// The history stops with a player to act and its stacks are `inf`
    /// (iPoker): every action recorded was legal, but the file holds no
    /// result. `to_act` is that player (p1 = 0), `pot` the chips put in.
    Incomplete { to_act: usize, pot: u64 },
}

impl Outcome {
    pub fn key(&self) -> &'static str {
        match self {
            Outcome::Replayed => "replayed",
            Outcome::Settled => "settled",
            Outcome::Undetermined { .. } => "undetermined",
            Outcome::Incomplete { .. } => "incomplete",
        }
    }

    /// Whether the hand's result is known: replayed or settled.
    pub fn is_determined(&self) -> bool {
        matches!(self, Outcome::Replayed | Outcome::Settled)
    }
}

/// Stands for an `inf` amount in minor units (a stack no bet can empty).
pub const INF: u64 = u64::MAX;

/// A replayed hand.
#[derive(Clone, Debug)]
pub struct Replay {
    /// The `hand` field, when present.
    pub hand: Option<i64>,
    /// The finishing stacks, p1 first, in minor units ([`INF`] for an
    /// `inf` stack).
    pub finishing_stacks: Vec<u64>,
    /// The file's `finishing_stacks`, p1 first, when present.
    pub expected: Option<Vec<u64>>,
    /// The file's `winnings`, p1 first, when present.
    pub winnings: Option<Vec<u64>>,
    /// What each player took from the pots (the uncalled bet given back
    /// is not a share).
    pub won: Vec<u64>,
    /// The uncalled bet given back to each player.
    pub returned: Vec<u64>,
    /// The chips in the pots.
    pub pot: u64,
    /// Decimal places of the minor unit (0: whole chips).
    pub decimals: u32,
    pub outcome: Outcome,
    /// Actions the history left out that the replay supplied as PokerKit
    /// does (a check where one is possible, else a fold).
    pub inferred: usize,
    /// Whether the `inf` stacks were read as all-ins for what each live
    /// player put in (the history stopped with a player to act; see
    /// [`replay`]).
    pub all_in_reading: bool,
    /// The hand as the engine played it (cardsim seat k is player p(k+1),
    /// the button the last seat).
    pub state: HandState,
}

impl Replay {
    /// An amount in the file's unit (`200.30`, `inf`).
    pub fn amount(&self, units: u64) -> String {
        if units == INF {
            "inf".into()
        } else {
            format_units(units, self.decimals)
        }
    }

    /// The finishing stacks against the file's `finishing_stacks`.
    pub fn stacks_verdict(&self) -> Option<Verdict> {
        let exp = self.expected.as_ref()?;
        Some(verdict::compare(&self.finishing_stacks, exp, &self.won))
    }

    /// The pot shares against the file's `winnings`, and which convention
    /// the file follows.
    pub fn winnings_verdict(&self) -> Option<(Verdict, Convention)> {
        let w = self.winnings.as_ref()?;
        Some(verdict::compare_winnings(w, &self.won, &self.returned))
    }

    /// The rake the file implies: from `finishing_stacks` when present,
    /// else from `winnings`.
    pub fn rake(&self) -> Option<u64> {
        if !self.outcome.is_determined() {
            return None;
        }
        if self.outcome == Outcome::Settled {
            return self.pot.checked_sub(self.won.iter().sum());
        }
        let v = self
            .stacks_verdict()
            .or_else(|| self.winnings_verdict().map(|w| w.0))?;
        match v {
            Verdict::Match => Some(0),
            Verdict::Rake(r) => Some(r),
            Verdict::Differs => None,
        }
    }
}

/// Reads every hand of a `.phh` (one hand) or `.phhs` (hands under `[k]`
/// table headers) text, in file order.
pub fn parse_all(text: &str) -> Result<Vec<toml::Table>, PhhError> {
    Ok(parse_sections(text)?.into_iter().map(|(_, t)| t).collect())
}

/// Every hand of a `.phh` or `.phhs` text with its name: the section header
/// (`[10]`) of a `.phhs`, `1` for a lone `.phh` hand. Sections keep the
/// file's order (not the text order of their names: `[2]` before `[10]`).
/// Numbers keep their text ([`amount::read_document`]).
pub fn parse_sections(text: &str) -> Result<Vec<(String, toml::Table)>, PhhError> {
    let table = read_document(text).map_err(|e| PhhError::Toml(crate::text::quote(&e)))?;
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

/// A `.phhs` text whose TOML does not parse as a whole, cut at its section
/// headers (`[k]` alone on a line) so that every sound section is still
/// read; each piece is the section name and its text or why it is not
/// TOML. `None` when the text has no such header.
pub fn split_sections(text: &str) -> Option<Vec<(String, Result<toml::Table, PhhError>)>> {
    let mut starts = Vec::new();
    let mut at = 0;
    for line in text.split_inclusive('\n') {
        if let Some(name) = stream::header(line) {
            starts.push((at, name.to_string()));
        }
        at += line.len();
    }
    if starts.is_empty() {
        return None;
    }
    let mut out = Vec::new();
    for (k, (start, name)) in starts.iter().enumerate() {
        let end = starts.get(k + 1).map_or(text.len(), |s| s.0);
        let body = &text[*start..end];
        let body = &body[body.find('\n').map_or(body.len(), |i| i + 1)..];
        let name = format!("[{}]", crate::text::quote(name));
        out.push((
            name,
            read_document(body).map_err(|e| PhhError::Toml(crate::text::quote(&e))),
        ));
    }
    Some(out)
}

/// A hand's values of one field, kept inline: a table has at most
/// [`MOST_PLAYERS`] players (one allocation fewer per field of every hand).
type PerPlayer<T> = arrayvec::ArrayVec<T, MOST_PLAYERS>;

/// The most players a PHH hand may have here.
const MOST_PLAYERS: usize = 10;

/// An amount field: one value or a list, each an amount. More values than
/// a table has players: the table error for `starting_stacks` (which
/// counts the players), else as [`per_player`] says it.
fn amounts(t: &Fields, field: &'static str) -> Result<PerPlayer<Amount>, PhhError> {
    let v = t.get(field).ok_or(PhhError::Missing(field))?;
    let one = |x: &Val| {
        x.amount()
            .unwrap_or_else(|| Err("expected amounts (numbers)".into()))
            .map_err(|why| PhhError::Field { field, why })
    };
    let mut out = PerPlayer::new();
    match v {
        Val::Array(a) if a.len() > MOST_PLAYERS => {
            return Err(match field {
                "starting_stacks" => PhhError::Table(TableError::Seats(a.len())),
                _ => PhhError::Field {
                    field,
                    why: format!("{} values for at most {MOST_PLAYERS} players", a.len()),
                },
            })
        }
        Val::Array(a) => {
            for x in a {
                out.push(one(x)?);
            }
        }
        other => out.push(one(other)?),
    }
    Ok(out)
}

/// Expands a field that is one value or one per player.
fn per_player<T: Copy>(
    v: PerPlayer<T>,
    n: usize,
    field: &'static str,
) -> Result<PerPlayer<T>, PhhError> {
    match v.len() {
        1 => Ok((0..n).map(|_| v[0]).collect()),
        k if k == n => Ok(v),
        k => Err(PhhError::Field {
            field,
            why: format!("{k} values for {n} players"),
        }),
    }
}

/// The amounts of one field in minor units: `inf` (where `inf_ok`) as
/// [`INF`], a negative amount (where `negative_ok`) by its magnitude.
fn to_units(
    v: &[Amount],
    decimals: u32,
    field: &'static str,
    inf_ok: bool,
    negative_ok: bool,
) -> Result<PerPlayer<u64>, PhhError> {
    let bad = |why: &str| PhhError::Field {
        field,
        why: why.to_string(),
    };
    v.iter()
        .map(|a| match a {
            Amount::Inf if inf_ok => Ok(INF),
            Amount::Inf => Err(bad("'inf' is allowed only for stacks")),
            a if a.is_negative() && !negative_ok => Err(bad("a negative amount")),
            a => a
                .units(decimals, MAX_CHIPS)
                .ok_or_else(|| bad("an amount larger than the table's limit of 2^40 units")),
        })
        .collect()
}

fn string_list<'t>(t: &'t Fields, field: &'static str) -> Result<Vec<&'t str>, PhhError> {
    match t.get(field) {
        Some(Val::Array(a)) => {
            // Sized once: a collect through `Result` grows the list step
            // by step (this runs for every hand).
            let mut out = Vec::with_capacity(a.len());
            for x in a {
                match x {
                    Val::Str(s) => out.push(s.as_ref()),
                    _ => {
                        return Err(PhhError::Field {
                            field,
                            why: "every action must be a string".into(),
                        })
                    }
                }
            }
            Ok(out)
        }
        Some(_) => Err(PhhError::Field {
            field,
            why: "expected a list of strings".into(),
        }),
        None => Err(PhhError::Missing(field)),
    }
}

/// Replays one hand (a table from [`parse_all`]) through the engine.
///
/// An `inf` stack plays as the table's largest. When the history stops
/// with players still to act and some of them have `inf` stacks (iPoker
/// writes every stack so, and stops when the real stacks ran out), each
/// such live player is taken as all-in for what it put in, and the hand is
/// played again to its showdown (the checks iPoker writes for all-in
/// players on the streets after are read as no actions). When that
/// reading fails too (the history
/// just stops, with later streets' actions that the capped stacks could
/// not have made), the hand is [`Outcome::Incomplete`]: every recorded
/// action was legal, and the file holds no result.
pub fn replay(t: &toml::Table, opts: ReplayOptions) -> Result<Replay, PhhError> {
    replay_fields(&Fields::from_table(t), opts)
}

/// [`replay`] of a hand's [`Fields`] (read by [`Fields::read`]).
pub fn replay_fields(t: &Fields, opts: ReplayOptions) -> Result<Replay, PhhError> {
    match replay_capped(t, opts, None)? {
        Ok(r) => Ok(r),
        Err(stopped) => match replay_capped(t, opts, Some(&stopped.caps)) {
            Ok(Ok(r)) => Ok(r),
            _ => Ok(stopped.partial),
        },
    }
}

/// A history of `inf` stacks that stops with a player to act: the hand as
/// far as it goes ([`Outcome::Incomplete`]) and the caps to try.
struct Stopped {
    partial: Replay,
    /// Per player, in minor units: what a live `inf` player put in (0 for
    /// the others).
    caps: Vec<u64>,
}

/// [`replay`] with the `inf` stacks of some players replaced (`caps`, in
/// minor units, 0 for none). `Ok(Err(stopped))`: the history stopped
/// with `inf` stacks to act; play again with its caps.
fn replay_capped(
    t: &Fields,
    opts: ReplayOptions,
    caps: Option<&[u64]>,
) -> Result<Result<Replay, Stopped>, PhhError> {
    let variant = match t.get("variant") {
        Some(Val::Str(s)) => s.as_ref(),
        Some(_) => {
            return Err(PhhError::Field {
                field: "variant",
                why: "expected a string".into(),
            })
        }
        None => return Err(PhhError::Missing("variant")),
    };
    let Some((game, mut betting)) = variant_rules(variant) else {
        return Err(PhhError::Variant(crate::text::quote(variant)));
    };
    // cardsim's own exports name a structure the code does not imply.
    match t.get("_cardsim_betting") {
        None => {}
        Some(v) => {
            betting = v
                .as_str()
                .and_then(Betting::from_key)
                .ok_or_else(|| PhhError::Field {
                    field: "_cardsim_betting",
                    why: "expected 'no_limit' or 'pot_limit'".into(),
                })?
        }
    }
    let stacks_raw = amounts(t, "starting_stacks")?;
    let n = stacks_raw.len();
    if !(2..=10).contains(&n) {
        return Err(PhhError::Table(TableError::Seats(n)));
    }
    let antes_raw = per_player(amounts(t, "antes")?, n, "antes")?;
    let blinds_raw = per_player(amounts(t, "blinds_or_straddles")?, n, "blinds_or_straddles")?;
    let min_bet_raw = amounts(t, "min_bet")?;
    let [min_bet_raw] = min_bet_raw.as_slice() else {
        return Err(PhhError::Field {
            field: "min_bet",
            why: "expected one amount".into(),
        });
    };
    let finishing_raw = match t.get("finishing_stacks") {
        None => None,
        Some(_) => Some(amounts(t, "finishing_stacks")?),
    };
    let winnings_raw = match t.get("winnings") {
        None => None,
        Some(_) => Some(amounts(t, "winnings")?),
    };
    let actions = string_list(t, "actions")?;
    let mut parsed = Vec::with_capacity(actions.len());
    for (i, a) in actions.iter().enumerate() {
        parsed.push(parse_action(a, n, game).map_err(|why| action_error(i, a, why))?);
    }
    // 'PO' names pot-limit Omaha of any hand size: the cards dealt say
    // which (PokerKit's own 'PO' deals four).
    let game = if game.is_omaha() {
        omaha_game(&parsed, n)?
    } else {
        game
    };
    // The minor unit: the most decimal places any amount of the hand has.
    let decimals = stacks_raw
        .iter()
        .chain(&antes_raw)
        .chain(&blinds_raw)
        .chain([min_bet_raw])
        .chain(finishing_raw.iter().flatten())
        .chain(winnings_raw.iter().flatten())
        .map(Amount::scale)
        .chain(parsed.iter().map(|p| match p {
            Parsed::Act(_, Kind::RaiseTo(a)) => a.scale(),
            _ => 0,
        }))
        .max()
        .unwrap_or(0);
    let starting = to_units(&stacks_raw, decimals, "starting_stacks", true, false)?;
    // An `inf` stack plays as the table's largest.
    let stacks: Vec<u64> = starting
        .iter()
        .enumerate()
        .map(|(p, &s)| match caps.map(|c| c[p]) {
            Some(c) if c > 0 && s == INF => c,
            _ if s == INF => MAX_CHIPS,
            _ => s,
        })
        .collect();
    let antes = to_units(&antes_raw, decimals, "antes", false, false)?;
    let blinds = to_units(&blinds_raw, decimals, "blinds_or_straddles", false, true)?;
    let min_bet = to_units(&[*min_bet_raw], decimals, "min_bet", false, false)?[0];
    let expected = match &finishing_raw {
        Some(f) => Some(
            per_player(
                to_units(f, decimals, "finishing_stacks", true, false)?,
                n,
                "finishing_stacks",
            )?
            .to_vec(),
        ),
        None => None,
    };
    let winnings = match &winnings_raw {
        Some(w) => Some(
            per_player(
                to_units(w, decimals, "winnings", false, false)?,
                n,
                "winnings",
            )?
            .to_vec(),
        ),
        None => None,
    };
    // All zeros is no record (iPoker's files write it for every hand).
    let winnings = winnings.filter(|w| w.iter().any(|&x| x > 0));
    let text_field = |name: &str| t.get(name).and_then(Val::as_str);
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
    let (deck, unknown) = deck_of(&parsed, &actions, n, game)?;
    // PHH's default (and PokerKit's) is no trimming: dead antes.
    let ante_trimming = match t.get("ante_trimming_status") {
        None => false,
        Some(Val::Bool(b)) => *b,
        Some(_) => {
            return Err(PhhError::Field {
                field: "ante_trimming_status",
                why: "expected true or false".into(),
            })
        }
    };
    // The rules' table when the forced bets are one ante for all and two
    // blinds with the big blind as the minimum bet; else PokerKit's
    // reading of per-player forced bets.
    let standard = antes.iter().all(|&a| a == antes[0])
        && blinds[2..].iter().all(|&b| b == 0)
        && !blinds_raw.iter().any(Amount::is_negative)
        && min_bet == blinds[1]
        && blinds[1] > 0;
    // Player p(k+1) sits at seat k; the button is the last seat.
    let mut config = Config {
        ante_trimming,
        stacks,
        button: n - 1,
        small_blind: blinds[0],
        big_blind: blinds[1],
        ante: antes[0],
        odd_chips,
        short_big_blind,
        betting,
        game,
    };
    let forced = (!standard).then(|| {
        config.small_blind = 0;
        config.big_blind = min_bet;
        config.ante = 0;
        forced_bets(&config.stacks, &antes, &blinds, &blinds_raw)
    });
    // Players whose cards stay unknown: they win no pot a known hand
    // contests; a pot only they contest is undetermined.
    let hidden = unknown
        .iter()
        .enumerate()
        .fold(0u16, |m, (p, &u)| m | (u16::from(u) << p));
    let extras = Extras {
        forced,
        hidden,
        needless_folds: true,
        pokerkit_reopening: true,
        ..Extras::default()
    };
    let mut h = HandState::new_with(config, &deck, extras).map_err(PhhError::Table)?;
    let mut board_seen = 0;
    let mut implicit_used = false;
    let mut inferred = 0usize;
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
                // iPoker writes a check for every all-in player on each
                // street left: with `inf` stacks capped (the second
                // reading), those checks are no actions. (Once the board
                // is run out the hand is paid, so a stack is no longer 0.)
                let seat = &h.seats()[p];
                let all_in = seat.stack == 0 || h.legal().is_none();
                if caps.is_some() && kind == Kind::CheckCall && !seat.folded && all_in {
                    continue;
                }
                let Some(legal) = h.legal() else {
                    return Err(err("the hand is over".into()));
                };
                let first = legal.seat;
                let mut legal = legal;
                // PokerKit's reading of omitted actions (hand transcripts
                // leave out folds): while another player is to act, it
                // checks when it can, else folds. Counted in `inferred`.
                while legal.seat != p {
                    let fill = if legal.can_check {
                        Action::Check
                    } else {
                        Action::Fold
                    };
                    h.apply(fill)
                        .map_err(|e| err(players_named(&e, decimals)))?;
                    inferred += 1;
                    legal = match h.legal() {
                        Some(l) => l,
                        None => return Err(err(format!("out of turn: p{} is to act", first + 1))),
                    };
                }
                let action = match kind {
                    Kind::Fold => Action::Fold,
                    Kind::CheckCall if legal.can_check => Action::Check,
                    Kind::CheckCall => Action::Call,
                    Kind::RaiseTo(to) => Action::RaiseTo(
                        to.units(decimals, MAX_CHIPS)
                            .ok_or_else(|| err("an amount beyond the table's limit".into()))?,
                    ),
                };
                h.apply(action)
                    .map_err(|e| err(players_named(&e, decimals)))?;
            }
            Parsed::Skip => {}
        }
    }
    let hand = match t.get("hand") {
        Some(Val::Int(i)) => Some(*i),
        _ => None,
    };
    if let Some(seat) = h
        .to_act()
        .filter(|_| caps.is_none() && starting.contains(&INF))
    {
        let caps: Vec<u64> = h
            .seats()
            .iter()
            .zip(&starting)
            .map(|(s, &st)| {
                if st == INF && !s.folded {
                    s.contributed.max(1)
                } else {
                    0
                }
            })
            .collect();
        let finishing_stacks = h
            .seats()
            .iter()
            .zip(&starting)
            .map(|(s, &st)| if st == INF { INF } else { s.stack })
            .collect();
        let pot = h.seats().iter().map(|s| s.contributed).sum();
        let partial = Replay {
            hand,
            finishing_stacks,
            expected,
            winnings,
            won: vec![0; n],
            returned: vec![0; n],
            pot,
            decimals,
            outcome: Outcome::Incomplete { to_act: seat, pot },
            inferred,
            all_in_reading: false,
            state: h,
        };
        return Ok(Err(Stopped { partial, caps }));
    }
    if let Some(seat) = h.to_act() {
        // A trailing implicit check is the last thing PokerKit asks for.
        return Err(PhhError::Unfinished(seat + 1));
    }
    // Every board card the engine dealt must come from the file: it never
    // invents the cards that decide a pot.
    // The pots as the engine keeps them (seat masks): the spelled-out
    // `Payout` would cost a dozen allocations a hand.
    let settled = h.settled().ok_or(PhhError::Unfinished(0))?;
    if settled.showdown && h.board().len() > board_seen {
        let known_contest = settled
            .pots()
            .iter()
            .any(|p| (p.eligible & !hidden).count_ones() >= 2);
        if known_contest || hidden == 0 {
            return Err(PhhError::MissingBoard { dealt: board_seen });
        }
    }
    let mut won = settled.won().to_vec();
    let returned = h.returned().to_vec();
    let pot: u64 = settled.pots().iter().map(|p| p.amount).sum();
    // A pot is undetermined when a contender's cards are unknown and no
    // contender showed a hand: on a real table only a shown hand wins, so a
    // pot with a shown hand goes to the best shown (or known) hand.
    let shown = parsed.iter().fold(0u16, |m, a| match a {
        Parsed::Show(p, Some(_)) => m | 1 << p,
        _ => m,
    });
    let undetermined = settled.showdown.then(|| {
        settled.pots().iter().find(|p| {
            let unknown_in = p.eligible & hidden != 0;
            let shown_in = p.eligible & shown & !hidden != 0;
            p.eligible.count_ones() > 1 && unknown_in && !shown_in
        })
    });
    let mut finishing_stacks: Vec<u64> = h.seats().iter().map(|s| s.stack).collect();
    let outcome = match undetermined.flatten() {
        None => Outcome::Replayed,
        Some(p) => match &winnings {
            Some(w) => {
                // The file's winnings pay the pots; some sites count the
                // uncalled bet given back as won.
                let total: u64 = w.iter().sum();
                let with_uncalled = total > pot;
                for (k, s) in h.seats().iter().enumerate() {
                    let back = if with_uncalled { returned[k] } else { 0 };
                    won[k] = w[k].saturating_sub(back);
                    finishing_stacks[k] = h.config().stacks[k] - s.contributed + won[k];
                }
                Outcome::Settled
            }
            None => Outcome::Undetermined {
                pot: p.amount,
                players: (0..n).filter(|&s| p.eligible & (1 << s) != 0).collect(),
            },
        },
    };
    for (k, &s) in starting.iter().enumerate() {
        if s == INF {
            finishing_stacks[k] = INF;
        }
    }
    Ok(Ok(Replay {
        hand,
        finishing_stacks,
        expected,
        winnings,
        won,
        returned,
        pot,
        decimals,
        outcome,
        inferred,
        all_in_reading: caps.is_some(),
        state: h,
    }))
}

/// The game and betting structure of a PHH variant code, for the codes
/// cardsim plays: `NT` (no-limit Texas hold'em), `PO` (pot-limit Omaha,
/// its hand size read from the deal) and `NS` (no-limit short deck).
pub fn variant_rules(code: &str) -> Option<(Game, Betting)> {
    match code {
        "NT" => Some((Game::Holdem, Betting::NoLimit)),
        "PO" => Some((Game::Plo4, Betting::PotLimit)),
        "NS" => Some((Game::ShortDeck, Betting::NoLimit)),
        _ => None,
    }
}

/// The Omaha game of a 'PO' hand: the number of hole cards dealt to the
/// player dealt the most (4 to 6; [`deck_of`] then asks that of every
/// player).
fn omaha_game(parsed: &[Parsed], n: usize) -> Result<Game, PhhError> {
    let mut dealt = vec![0usize; n];
    for a in parsed {
        if let Parsed::DealHole(p, c) = a {
            dealt[*p] += c.len();
        }
    }
    match dealt.iter().max().copied().unwrap_or(0) {
        0..=4 => Ok(Game::Plo4),
        5 => Ok(Game::Plo5),
        6 => Ok(Game::Plo6),
        k => Err(PhhError::Field {
            field: "actions",
            why: format!("Omaha deals 4 to 6 hole cards, a player is dealt {k}"),
        }),
    }
}

/// PokerKit's reading of per-player forced bets: each player posts its
/// ante, then its blind or straddle (heads-up the list is read backwards:
/// p1, the big blind, posts the second value); the first to act preflop
/// sits after the largest bet of a positive (live) blind, the last such
/// player on a tie. A negative blind is dead: posted (its magnitude) but
/// not counted in that choice.
fn forced_bets(stacks: &[u64], antes: &[u64], blinds: &[u64], raw: &[Amount]) -> ForcedBets {
    let n = stacks.len();
    let at = |p: usize| if n == 2 { 1 - p } else { p };
    let seat_blinds: Vec<u64> = (0..n).map(|p| blinds[at(p)]).collect();
    let antes: Vec<u64> = (0..n).map(|p| antes[at(p)]).collect();
    let mut best = (i128::MIN, 0usize);
    for p in 0..n {
        let posted = seat_blinds[p].min(stacks[p] - antes[p].min(stacks[p]));
        let sign: i128 = match raw[at(p)] {
            a if a.is_negative() => -1,
            _ if seat_blinds[p] == 0 => 0,
            _ => 1,
        };
        let key = i128::from(posted) * sign;
        if key >= best.0 {
            best = (key, p);
        }
    }
    ForcedBets {
        antes,
        blinds: seat_blinds,
        opener: (best.1 + 1) % n,
    }
}

/// A table error with seats named as PHH names players: cardsim's seat `k`
/// is player `p(k+1)` in a replay.
fn players_named(e: &TableError, decimals: u32) -> String {
    let amount = |u: u64| format_units(u, decimals);
    match *e {
        TableError::EmptyStack(s) => format!("every stack must be positive (p{} has none)", s + 1),
        TableError::CannotCheck { seat, to_call } => {
            format!("p{} cannot check: {} to call", seat + 1, amount(to_call))
        }
        TableError::NothingToCall(s) => format!("p{} has nothing to call", s + 1),
        TableError::NeedlessFold(s) => format!("p{} cannot fold: it can check", s + 1),
        TableError::CannotRaise(s) => format!("p{} cannot raise now", s + 1),
        TableError::RaiseSize { to, min, max } => format!(
            "raise to {} is outside the legal range {}..={}",
            amount(to),
            amount(min),
            amount(max)
        ),
        ref other => other.to_string(),
    }
}

pub(super) fn action_error(index: usize, action: &str, why: String) -> PhhError {
    PhhError::Action {
        index,
        action: crate::text::quote(action),
        why,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn replay_text(text: &str) -> Result<Replay, PhhError> {
        replay_fields(&Fields::read(text).unwrap(), ReplayOptions::default())
    }

    #[test]
    fn more_values_than_a_table_has_players_are_refused_by_field() {
        let hand = |stacks: usize, antes: usize| {
            let list = |k: usize, v: &str| vec![v; k].join(", ");
            format!(
                "variant = 'NT'\nantes = [{}]\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
                 starting_stacks = [{}]\nactions = []\n",
                list(antes, "0"),
                list(stacks, "100")
            )
        };
        assert!(matches!(
            replay_text(&hand(11, 1)),
            Err(PhhError::Table(TableError::Seats(11)))
        ));
        let e = replay_text(&hand(3, 11)).unwrap_err().to_string();
        assert!(e.contains("11 values for at most 10 players"), "{e}");
        let e = replay_text(&hand(3, 4)).unwrap_err().to_string();
        assert!(e.contains("4 values for 3 players"), "{e}");
    }
}
