//! The fishing game (金钩钓鱼, seed 002): a deterministic capture game.
//!
//! Rules (`spec/RULES.md` §2): 54 cards (suits do not matter, two jokers),
//! shuffled and cut into contiguous piles, player 1 first. A turn plays the
//! front card of the mover's pile onto the end of the row. A J on a non-empty
//! row captures the whole row; otherwise a card whose rank is already in the
//! row captures from that card to the end. Captured cards go to the back of
//! the capturer's pile in row order, and the capturer plays again; without a
//! capture the turn passes. A player whose pile is empty after a turn loses.
//!
//! A deal either ends or cycles forever. Cycles are detected exactly with
//! Brent's algorithm over the states just after each capture (every endless
//! game captures infinitely often, so it cycles if and only if that
//! subsequence does); the entry point is then found by replaying the deal
//! twice, one copy a period ahead. Nothing is ever capped.
//!
//! [`play`] is the fast engine; [`reference`] is a slow, obviously correct
//! twin (queues, linear search, a set of every state) the tests compare it
//! with.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use rand::seq::SliceRandom;
use thiserror::Error;

use crate::rng::GameRng;
use crate::sim::{Game, Metric, Observations, Row};

mod duel;

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

const NONE: u8 = u8::MAX;

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

impl Record {
    /// The record of a game about to start at `t`: nothing played yet, the
    /// largest pile as dealt.
    fn at_start(t: &Table) -> Record {
        Record {
            outcome: Outcome::Win { winner: 0 },
            cards_played: 0,
            captures: [0; MAX_PLAYERS],
            jack_captures: 0,
            longest_capture: 0,
            max_pile: (0..t.rules.players)
                .map(|p| t.pile_len(p))
                .max()
                .unwrap_or(0) as u32,
        }
    }

    /// Counts a capture of `cards` cards by `mover` (with a J or not), who
    /// now holds the pile of `t`.
    #[inline]
    fn add_capture(&mut self, mover: usize, cards: u32, jack: bool, t: &Table) {
        self.captures[mover] += 1;
        self.jack_captures += u32::from(jack);
        self.longest_capture = self.longest_capture.max(cards);
        self.max_pile = self.max_pile.max(t.piles[mover].len as u32);
    }
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

/// The 54-card deck as faces, in a fixed order (to be shuffled).
pub fn deck() -> Vec<Face> {
    fresh_deck().to_vec()
}

/// The 54 faces in their fixed order: four of each rank, then two jokers.
fn fresh_deck() -> [Face; 54] {
    std::array::from_fn(|i| if i < 52 { (i / 4) as Face } else { JOKER })
}

/// Notation of a face: `2`..`9`, `T`, `J`, `Q`, `K`, `A`, `W`.
pub fn face_char(f: Face) -> char {
    b"23456789TJQKAW"[f as usize] as char
}

/// Parses a deal of faces (`A 7 W 10 ...`; a suit after a rank is allowed and
/// ignored; separators optional) and checks it is one fishing deck.
pub fn parse_deal(text: &str) -> Result<Vec<Face>, DealError> {
    let mut faces = Vec::new();
    for word in text.split(|c: char| c.is_whitespace() || c == ',') {
        let mut rest = word;
        while !rest.is_empty() {
            let (face, used) = parse_face(rest)?;
            faces.push(face);
            rest = &rest[used..];
        }
    }
    let full = deck();
    if faces.len() != full.len() {
        return Err(DealError::Count {
            got: faces.len(),
            expected: full.len(),
        });
    }
    let mut counts = [0usize; FACES];
    faces.iter().for_each(|&f| counts[f as usize] += 1);
    // Name a face there is too much of before one that is missing: a user
    // who typed a fifth ace wants to hear about the aces.
    let expected = |f: u8| if f == JOKER { 2 } else { 4 };
    let too_many = (0..FACES as u8).find(|&f| counts[f as usize] > expected(f));
    let too_few = (0..FACES as u8).find(|&f| counts[f as usize] < expected(f));
    if let Some(f) = too_many.or(too_few) {
        return Err(DealError::Repeated {
            name: plural_name(f),
            got: counts[f as usize],
            expected: expected(f),
        });
    }
    Ok(faces)
}

/// The plural name of a face for messages: `aces (A)`, `7s`.
fn plural_name(f: Face) -> String {
    match f {
        JOKER => "jokers (W)".into(),
        12 => "aces (A)".into(),
        11 => "kings (K)".into(),
        10 => "queens (Q)".into(),
        9 => "jacks (J)".into(),
        8 => "tens (T)".into(),
        _ => format!("{}s", face_char(f)),
    }
}

fn parse_face(s: &str) -> Result<(Face, usize), DealError> {
    let bad = || DealError::BadToken(crate::text::quote(&s.chars().take(3).collect::<String>()));
    if let Some(len) = crate::cards::joker_prefix(s).filter(|&n| n > 1) {
        return Ok((JOKER, len));
    }
    let (face, mut used) = if s.starts_with("10") {
        (8, 2)
    } else {
        let c = s.chars().next().ok_or_else(bad)?;
        let face = match c.to_ascii_uppercase() {
            'W' | 'X' => JOKER,
            u => b"23456789TJQKA"
                .iter()
                .position(|&r| r as char == u)
                .ok_or_else(bad)? as Face,
        };
        (face, c.len_utf8())
    };
    // An optional suit after a rank (ignored: suits do not matter here).
    if face != JOKER {
        if let Some(c) = s[used..].chars().next() {
            if "shdcSHDC♠♥♦♣".contains(c) {
                used += c.len_utf8();
            }
        }
    }
    Ok((face, used))
}

/// A pile: a ring buffer of faces, front = next card to play.
#[derive(Clone, Copy)]
struct Pile {
    buf: [Face; MAX_CARDS],
    head: usize,
    len: usize,
}

impl Pile {
    const EMPTY: Pile = Pile {
        buf: [0; MAX_CARDS],
        head: 0,
        len: 0,
    };

    #[inline]
    fn pop_front(&mut self) -> Face {
        let f = self.buf[self.head];
        self.head = (self.head + 1) % MAX_CARDS;
        self.len -= 1;
        f
    }

    #[inline]
    fn push_back(&mut self, f: Face) {
        self.buf[(self.head + self.len) % MAX_CARDS] = f;
        self.len += 1;
    }

    fn iter(&self) -> impl Iterator<Item = Face> + '_ {
        (0..self.len).map(move |i| self.buf[(self.head + i) % MAX_CARDS])
    }
}

/// What one play did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Step {
    /// The card stayed on the row; the turn passed.
    Placed,
    /// The mover captured `cards` cards (with a J if `jack`) and plays again.
    Captured { cards: u32, jack: bool },
    /// The game is over: `winner` holds all the remaining piles.
    Over { winner: usize },
}

/// The state of a deal in play: piles, row and the player to move.
#[derive(Clone)]
pub struct Table {
    rules: Rules,
    piles: [Pile; MAX_PLAYERS],
    row: [Face; MAX_CARDS],
    row_len: usize,
    /// Row position of each face, or `NONE`: the row never holds a face
    /// twice, because a second copy always captures.
    pos: [u8; FACES],
    mover: usize,
    alive: usize,
}

impl Table {
    /// Deals `deal` (front of the deck first) into contiguous piles.
    pub fn new(deal: &[Face], rules: Rules) -> Result<Table, DealError> {
        let n = rules.players;
        if !(2..=MAX_PLAYERS).contains(&n) || n > deal.len() || deal.len() > MAX_CARDS {
            return Err(DealError::Players(n));
        }
        let mut piles = [Pile::EMPTY; MAX_PLAYERS];
        let (base, extra) = (deal.len() / n, deal.len() % n);
        let mut cards = deal.iter();
        for (p, pile) in piles.iter_mut().enumerate().take(n) {
            let size = base + usize::from(p < extra);
            cards.by_ref().take(size).for_each(|&f| pile.push_back(f));
        }
        Ok(Table {
            rules,
            piles,
            row: [0; MAX_CARDS],
            row_len: 0,
            pos: [NONE; FACES],
            mover: 0,
            alive: n,
        })
    }

    /// Plays the mover's front card.
    #[inline]
    pub fn step(&mut self) -> Step {
        let p = self.mover;
        let card = self.piles[p].pop_front();
        let jack_hook = card == JACK && (self.row_len > 0 || self.rules.jack_captures_empty_row);
        let from = if jack_hook {
            0
        } else {
            self.pos[card as usize] as usize
        };
        if from == NONE as usize {
            self.pos[card as usize] = self.row_len as u8;
            self.row[self.row_len] = card;
            self.row_len += 1;
            return self.pass_turn();
        }
        let cards = (self.row_len - from + 1) as u32;
        let pile = &mut self.piles[p];
        let taken = &self.row[from..self.row_len];
        if self.rules.reverse_captures {
            pile.push_back(card);
            taken.iter().rev().for_each(|&f| pile.push_back(f));
            for &f in taken {
                self.pos[f as usize] = NONE;
            }
        } else {
            // The default rules' capture, in one pass: each taken card to
            // the pile's tail and out of the row's index, the pile's length
            // stored once.
            let mut tail = pile.head + pile.len;
            for &f in taken {
                pile.buf[tail % MAX_CARDS] = f;
                tail += 1;
                self.pos[f as usize] = NONE;
            }
            pile.buf[tail % MAX_CARDS] = card;
            pile.len += cards as usize;
        }
        self.row_len = from;
        Step::Captured {
            cards,
            jack: jack_hook,
        }
    }

    /// After a card stayed on the row: the mover may be out; the turn passes
    /// to the next player who still has cards.
    #[inline]
    fn pass_turn(&mut self) -> Step {
        let n = self.rules.players;
        if self.piles[self.mover].len == 0 {
            self.alive -= 1;
            if self.alive == 1 {
                let winner = (0..n).find(|&q| self.piles[q].len > 0).unwrap_or(0);
                return Step::Over { winner };
            }
        }
        loop {
            self.mover = (self.mover + 1) % n;
            if self.piles[self.mover].len > 0 {
                return Step::Placed;
            }
        }
    }

    pub fn mover(&self) -> usize {
        self.mover
    }

    pub fn pile_len(&self, p: usize) -> usize {
        self.piles[p].len
    }

    /// The pile of player `p`, front first.
    pub fn pile(&self, p: usize) -> Vec<Face> {
        self.piles[p].iter().collect()
    }

    pub fn row(&self) -> &[Face] {
        &self.row[..self.row_len]
    }

    /// A cheap fingerprint that equal states share (the mover, the row length
    /// and the first two pile lengths): full comparisons run only when it
    /// matches.
    #[inline]
    fn quick_key(&self) -> u64 {
        (self.mover as u64)
            | (self.row_len as u64) << 8
            | (self.piles[0].len as u64) << 16
            | (self.piles[1].len as u64) << 24
    }

    /// The whole state as bytes (mover, then each pile and the row, each
    /// length-prefixed): equal encodings mean equal states.
    fn encode(&self, out: &mut Vec<u8>) {
        out.clear();
        out.push(self.mover as u8);
        for pile in &self.piles[..self.rules.players] {
            out.push(pile.len as u8);
            out.extend(pile.iter());
        }
        out.push(self.row_len as u8);
        out.extend_from_slice(self.row());
    }

    fn same_state(&self, other: &Table) -> bool {
        self.quick_key() == other.quick_key() && {
            let (mut a, mut b) = (Vec::new(), Vec::new());
            self.encode(&mut a);
            other.encode(&mut b);
            a == b
        }
    }
}

/// Default card limit: about 4,500 times the longest default-rules game seen
/// in the 10^7 reference deals (22,022 cards), and about a second of play.
pub const DEFAULT_CARD_LIMIT: u64 = 100_000_000;

/// Plays a deal to its end or to its cycle, or stops it as
/// [`Outcome::Unresolved`] after `limit` cards.
///
/// Why a limit at all: cycle detection is exact but costs time in
/// proportion to the cycle's entry point plus its period, and under some
/// switches (a J capturing on an empty row) deals run past 10^9 cards
/// without repeating. A runner must never hang, and must never call such a
/// game a draw without proof, so it reports it as unresolved.
pub fn play(deal: &[Face], rules: Rules, limit: u64) -> Result<Record, DealError> {
    let table = Table::new(deal, rules)?;
    Ok(play_table(table, limit))
}

/// Brent's cycle finder over post-capture states: the saved state
/// (`tortoise`), the steps since it was saved (`lam`) and the power of two at
/// which it is replaced next.
struct Brent {
    tortoise: Vec<u8>,
    tortoise_key: u64,
    tortoise_cards: u64,
    power: u64,
    lam: u64,
    scratch: Vec<u8>,
}

impl Brent {
    fn new(start: &Table) -> Brent {
        let mut tortoise = Vec::with_capacity(MAX_CARDS + 16);
        start.encode(&mut tortoise);
        Brent {
            tortoise,
            tortoise_key: start.quick_key(),
            tortoise_cards: 0,
            power: 1,
            lam: 1,
            scratch: Vec::with_capacity(MAX_CARDS + 16),
        }
    }

    /// Sees the next post-capture state; returns the period in cards when it
    /// equals the saved one.
    #[inline]
    fn see(&mut self, table: &Table, cards: u64) -> Option<u64> {
        let key = table.quick_key();
        if key == self.tortoise_key {
            table.encode(&mut self.scratch);
            if self.scratch == self.tortoise {
                return Some(cards - self.tortoise_cards);
            }
        }
        if self.power == self.lam {
            table.encode(&mut self.tortoise);
            self.tortoise_key = key;
            self.tortoise_cards = cards;
            self.power *= 2;
            self.lam = 0;
        }
        self.lam += 1;
        None
    }
}

/// Cards a game is played without the cycle check before [`play_table`]
/// hands it to the checked [`play_checked`] (see there why this is exact).
/// Above the longest default-rules game in the 10^7 reference deals (22,022 cards;
/// the mean is about 1,300), so such a game is practically never replayed.
pub const CHECK_FROM_CARD: u64 = 1 << 15;

/// Plays a deal as [`play_checked`] does, with the same [`Record`] to the
/// byte, but without the cycle check for the first [`CHECK_FROM_CARD`]
/// cards, where almost every game ends.
///
/// Why this is exact: a state that repeats makes the game repeat forever
/// (play is deterministic), so a game that ends never repeats a state, and
/// the checked engine, which stops only at an end, a repeat or the limit,
/// plays such a game card for card as the unchecked loop does and returns
/// the same record. Any game still running at `min(CHECK_FROM_CARD,
/// limit)` cards (0 is read as 1: a game plays at least one card) is replayed from its first card by the checked engine:
/// whether it cycles, where the cycle starts and its length, and the
/// counts of a cycling game (which run to the card where Brent's check
/// proves the cycle) are then exactly today's. The replay costs
/// `CHECK_FROM_CARD` cards for the few games that long (under 0.1% of
/// default-rules deals, each at least that long anyway).
fn play_table(start: Table, limit: u64) -> Record {
    play_checking_from(start, limit, CHECK_FROM_CARD)
}

/// [`play_table`] with the threshold as a parameter (tests move it).
fn play_checking_from(start: Table, limit: u64, check_from: u64) -> Record {
    let stop = limit.min(check_from);
    if duel::covers(start.rules) {
        return match duel::play(&start, stop) {
            Some(rec) => rec,
            None => play_checked(start, limit),
        };
    }
    let mut t = start.clone();
    let mut rec = Record::at_start(&t);
    loop {
        let mover = t.mover;
        let step = t.step();
        rec.cards_played += 1;
        match step {
            Step::Placed => {
                if rec.cards_played >= stop {
                    return play_checked(start, limit);
                }
            }
            Step::Over { winner } => {
                rec.outcome = Outcome::Win { winner };
                return rec;
            }
            Step::Captured { cards, jack } => {
                rec.add_capture(mover, cards, jack, &t);
                if rec.cards_played >= stop {
                    return play_checked(start, limit);
                }
            }
        }
    }
}

/// Plays a deal with Brent's check after every capture from the first
/// card: the engine [`play_table`] reproduces, and falls back to.
fn play_checked(start: Table, limit: u64) -> Record {
    let mut t = start.clone();
    let mut rec = Record::at_start(&t);
    let mut brent = Brent::new(&t);
    loop {
        let mover = t.mover;
        let step = t.step();
        rec.cards_played += 1;
        match step {
            Step::Placed if rec.cards_played >= limit => {
                rec.outcome = Outcome::Unresolved;
                return rec;
            }
            Step::Placed => {}
            Step::Over { winner } => {
                rec.outcome = Outcome::Win { winner };
                return rec;
            }
            Step::Captured { cards, jack } => {
                rec.add_capture(mover, cards, jack, &t);
                if let Some(length) = brent.see(&t, rec.cards_played) {
                    let start_at = cycle_entry(&start, length);
                    rec.outcome = Outcome::Cycle {
                        start: start_at,
                        length,
                    };
                    rec.cards_played = start_at + length;
                    return rec;
                }
                if rec.cards_played >= limit {
                    rec.outcome = Outcome::Unresolved;
                    return rec;
                }
            }
        }
    }
}

/// The first card index from which the game repeats with period `length`:
/// replay two copies, one `length` cards ahead, until their states meet.
fn cycle_entry(start: &Table, length: u64) -> u64 {
    let mut behind = start.clone();
    let mut ahead = start.clone();
    for _ in 0..length {
        ahead.step();
    }
    let mut mu = 0;
    while !behind.same_state(&ahead) {
        behind.step();
        ahead.step();
        mu += 1;
    }
    mu
}

/// Why a trace stopped.
#[derive(Debug, Error)]
pub enum TraceError {
    #[error(transparent)]
    Deal(#[from] DealError),
    #[error("cannot write the trace: {0}")]
    Io(#[from] std::io::Error),
}

/// Plays a deal and describes every card, for checking a game by hand. The
/// trace is written line by line as the game is played (a game can run to
/// the card limit: 10^8 lines), so memory stays constant; a game that
/// never ends stops where its cycle is proven.
pub fn trace(
    deal: &[Face],
    rules: Rules,
    limit: u64,
    out: &mut impl std::io::Write,
) -> Result<(), TraceError> {
    let mut t = Table::new(deal, rules)?;
    let rec = play(deal, rules, limit)?;
    let faces = |fs: &[Face]| fs.iter().map(|&f| face_char(f)).collect::<String>();
    for p in 0..rules.players {
        writeln!(out, "P{} pile: {}", p + 1, faces(&t.pile(p)))?;
    }
    let limit = rec.cards_played;
    let mut piles = String::new();
    for n in 1..=limit {
        let mover = t.mover;
        let card = t.piles[mover].buf[t.piles[mover].head];
        let step = t.step();
        piles.clear();
        for p in 0..rules.players {
            if p > 0 {
                piles.push('/');
            }
            let _ = write!(piles, "{}", t.pile_len(p));
        }
        let what = match step {
            Step::Placed => "".to_string(),
            Step::Captured { cards, jack } => format!(
                "  captures {cards}{}",
                if jack { " with the J" } else { "" }
            ),
            Step::Over { winner } => format!("  P{} is out: P{} wins", mover + 1, winner + 1),
        };
        writeln!(
            out,
            "{n:>6} P{} plays {}  row: {:<15} piles: {piles}{what}",
            mover + 1,
            face_char(card),
            faces(t.row()),
        )?;
    }
    match rec.outcome {
        Outcome::Win { winner } => writeln!(out, "P{} wins after {limit} cards", winner + 1)?,
        Outcome::Cycle { start, length } => writeln!(
            out,
            "draw: the game never ends; from card {start} the states repeat every {length} cards"
        )?,
        Outcome::Unresolved => writeln!(
            out,
            "unresolved: stopped at the limit of {limit} cards without an end or a repeat"
        )?,
    }
    Ok(())
}

/// The slow, obviously correct twin of [`play`]: queues, a linear search of
/// the row, and a map from every state seen to the card count when it was
/// seen.
pub mod reference {
    use std::collections::{HashMap, VecDeque};

    use super::{Face, Outcome, Rules, JACK};

    /// Piles, row and the player to move.
    type State = (Vec<Vec<Face>>, Vec<Face>, usize);

    /// Outcome and cards played (as [`super::Record`] defines them).
    pub fn play(deal: &[Face], rules: Rules) -> (Outcome, u64) {
        let n = rules.players;
        let (base, extra) = (deal.len() / n, deal.len() % n);
        let mut piles: Vec<VecDeque<Face>> = Vec::new();
        let mut at = 0;
        for p in 0..n {
            let size = base + usize::from(p < extra);
            piles.push(deal[at..at + size].iter().copied().collect());
            at += size;
        }
        let mut row: Vec<Face> = Vec::new();
        let mut mover = 0;
        let mut seen: HashMap<State, u64> = HashMap::new();
        let mut played = 0u64;
        loop {
            let state = (
                piles.iter().map(|p| p.iter().copied().collect()).collect(),
                row.clone(),
                mover,
            );
            if let Some(&first) = seen.get(&state) {
                return (
                    Outcome::Cycle {
                        start: first,
                        length: played - first,
                    },
                    played,
                );
            }
            seen.insert(state, played);
            let card = piles[mover].pop_front().expect("the mover has cards");
            played += 1;
            let hook = card == JACK && (!row.is_empty() || rules.jack_captures_empty_row);
            let matched = row.iter().position(|&f| f == card);
            let from = if hook { Some(0) } else { matched };
            row.push(card);
            if let Some(from) = from {
                let mut taken: Vec<Face> = row.drain(from..).collect();
                if rules.reverse_captures {
                    taken.reverse();
                }
                piles[mover].extend(taken);
                continue;
            }
            if piles[mover].is_empty() {
                let left: Vec<usize> = (0..n).filter(|&q| !piles[q].is_empty()).collect();
                if left.len() == 1 {
                    return (Outcome::Win { winner: left[0] }, played);
                }
            }
            loop {
                mover = (mover + 1) % n;
                if !piles[mover].is_empty() {
                    break;
                }
            }
        }
    }
}

/// The fishing game as a runner game: each game shuffles the deck with its
/// own generator and plays it.
#[derive(Clone, Debug)]
pub struct FishingGame {
    pub rules: Rules,
    /// Card limit per game (see [`play`]).
    pub limit: u64,
}

impl FishingGame {
    pub fn new(rules: Rules) -> FishingGame {
        FishingGame {
            rules,
            limit: DEFAULT_CARD_LIMIT,
        }
    }

    /// The deal game `index` of a run with `seed` plays (front first).
    pub fn deal_of(&self, seed: u64, index: u64) -> Vec<Face> {
        let mut deck = deck();
        shuffle_fresh(&mut deck, &mut crate::rng::game_rng(seed, index));
        deck
    }
}

/// Puts `deck` in the fixed order, then shuffles it. Starting from the fixed
/// order every time matters: shuffling the previous game's deck would make
/// game i depend on which games the worker played before it (regression
/// test `a_game_does_not_depend_on_the_one_before`).
fn shuffle_fresh(deck: &mut Vec<Face>, rng: &mut GameRng) {
    deck.clear();
    deck.extend(fresh_deck());
    deck.shuffle(rng);
}

/// Metric order of [`FishingGame`].
const METRICS: [&str; 10] = [
    "cards_played",
    "p1_win",
    "draw",
    "unresolved",
    "captures",
    "jack_captures",
    "longest_capture",
    "max_pile",
    "cycle_length",
    "cycle_start",
];

impl Game for FishingGame {
    type Record = Record;
    type Scratch = Vec<Face>;

    fn name(&self) -> &'static str {
        "fishing"
    }

    fn options(&self) -> BTreeMap<String, String> {
        BTreeMap::from([
            ("players".to_string(), self.rules.players.to_string()),
            (
                "jack_captures_empty_row".to_string(),
                self.rules.jack_captures_empty_row.to_string(),
            ),
            (
                "reverse_captures".to_string(),
                self.rules.reverse_captures.to_string(),
            ),
            ("card_limit".to_string(), self.limit.to_string()),
        ])
    }

    fn columns(&self) -> Vec<String> {
        let mut cols = vec!["cards_played".to_string(), "winner".to_string()];
        cols.extend((1..=self.rules.players).map(|p| format!("captures_p{p}")));
        cols.extend(
            [
                "jack_captures",
                "longest_capture",
                "max_pile",
                "cycle_length",
                "cycle_start",
                "outcome",
            ]
            .map(String::from),
        );
        cols
    }

    fn metrics(&self) -> Vec<Metric> {
        METRICS
            .iter()
            .map(|&name| match name {
                "p1_win" | "draw" | "unresolved" => Metric::proportion(name),
                _ => Metric::integer(name),
            })
            .collect()
    }

    fn new_scratch(&self) -> Vec<Face> {
        deck()
    }

    fn play(&self, _index: u64, rng: &mut GameRng, deck: &mut Vec<Face>) -> Record {
        shuffle_fresh(deck, rng);
        play(deck, self.rules, self.limit).expect("a runner deal always fits the rules")
    }

    fn write_row(&self, r: &Record, row: &mut Row<'_>) {
        row.int(r.cards_played);
        match r.outcome {
            Outcome::Win { winner } => row.int(winner + 1),
            Outcome::Cycle { .. } => row.int(0),
            Outcome::Unresolved => row.empty(),
        }
        for p in 0..self.rules.players {
            row.int(r.captures[p]);
        }
        row.int(r.jack_captures);
        row.int(r.longest_capture);
        row.int(r.max_pile);
        match r.outcome {
            Outcome::Cycle { start, length } => {
                row.int(length);
                row.int(start);
            }
            _ => {
                row.empty();
                row.empty();
            }
        }
        row.text(match r.outcome {
            Outcome::Win { .. } => "win",
            Outcome::Cycle { .. } => "cycle",
            Outcome::Unresolved => "unresolved",
        });
    }

    fn observe(&self, r: &Record, obs: &mut Observations) {
        let flag = |b: bool| f64::from(u8::from(b));
        match r.outcome {
            Outcome::Win { .. } => obs.set(0, r.cards_played as f64),
            Outcome::Cycle { start, length } => {
                obs.set(8, length as f64);
                obs.set(9, start as f64);
            }
            Outcome::Unresolved => {}
        }
        obs.set(1, flag(r.outcome == Outcome::Win { winner: 0 }));
        obs.set(2, flag(matches!(r.outcome, Outcome::Cycle { .. })));
        obs.set(3, flag(r.outcome == Outcome::Unresolved));
        obs.set(4, f64::from(r.captures.iter().sum::<u32>()));
        obs.set(5, f64::from(r.jack_captures));
        obs.set(6, f64::from(r.longest_capture));
        obs.set(7, f64::from(r.max_pile));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::game_rng;

    fn faces(s: &str) -> Vec<Face> {
        s.chars()
            .filter(|c| !c.is_whitespace())
            .map(|c| {
                if c == 'W' {
                    JOKER
                } else {
                    b"23456789TJQKA"
                        .iter()
                        .position(|&r| r as char == c)
                        .unwrap() as Face
                }
            })
            .collect()
    }

    #[test]
    fn fast_engine_matches_the_reference_on_random_deals() {
        // The J-on-an-empty-row switch is left out: its deals run past 10^9
        // cards (see `a_card_limit_stops_a_game_as_unresolved`).
        let variants = [
            Rules::default(),
            Rules {
                reverse_captures: true,
                ..Rules::default()
            },
            Rules {
                players: 3,
                ..Rules::default()
            },
        ];
        for rules in variants {
            let game = FishingGame::new(rules);
            let mut d = deck();
            for i in 0..100 {
                let rec = game.play(i, &mut game_rng(7, i), &mut d);
                let (outcome, played) = reference::play(&d, rules);
                assert_eq!(rec.outcome, outcome, "deal {i} {rules:?}");
                assert_eq!(rec.cards_played, played, "deal {i} {rules:?}");
            }
        }
    }

    #[test]
    fn parse_deal_rejects_wrong_decks_by_name() {
        let good: String = deck().iter().map(|&f| face_char(f)).collect();
        assert_eq!(parse_deal(&good).unwrap(), deck());
        let err = parse_deal(&good[1..]).unwrap_err();
        assert_eq!(
            err,
            DealError::Count {
                got: 53,
                expected: 54
            }
        );
        let five_aces = good.replacen('2', "A", 1);
        assert!(parse_deal(&five_aces)
            .unwrap_err()
            .to_string()
            .contains("5 aces"));
        assert!(matches!(parse_deal("A Z"), Err(DealError::BadToken(t)) if t == "Z"));
        let spaced = good.chars().map(|c| format!("{c}s ")).collect::<String>();
        assert!(parse_deal(&spaced.replace("Ws", "W").replace("Ts", "10h")).is_ok());
    }

    #[test]
    fn a_jack_on_an_empty_row_captures_nothing() {
        // P1: J then 3; P2: 4 5. J stays, 4 stays, 3 stays, 5 stays: P1 out.
        let rec = play(&faces("J3 45"), Rules::default(), DEFAULT_CARD_LIMIT).unwrap();
        assert_eq!(rec.outcome, Outcome::Win { winner: 1 });
        assert_eq!(rec.cards_played, 3);
        assert_eq!(rec.captures[..2], [0, 0]);
    }

    #[test]
    fn a_match_captures_from_the_matching_card_and_plays_again() {
        // P1: 5 7 9; P2: 6 5 8. Row 5,6 then... P1 plays 5 (row 5), P2 6
        // (row 5 6), P1 7 (row 5 6 7), P2 5 captures 5 6 7 5 and plays 8.
        let mut t = Table::new(&faces("579 658"), Rules::default()).unwrap();
        for _ in 0..3 {
            assert_eq!(t.step(), Step::Placed);
        }
        assert_eq!(
            t.step(),
            Step::Captured {
                cards: 4,
                jack: false
            }
        );
        assert_eq!(t.mover(), 1);
        assert_eq!(t.pile(1), faces("85675"));
        assert!(t.row().is_empty());
    }

    #[test]
    fn a_partial_match_leaves_the_start_of_the_row() {
        // Row 2 3 4 9, then 3 captures 3 4 9 3 and leaves 2.
        let mut t = Table::new(&faces("243 398"), Rules::default()).unwrap();
        t.step(); // P1 2
        t.step(); // P2 3
        t.step(); // P1 4
        t.step(); // P2 9
        assert_eq!(
            t.step(),
            Step::Captured {
                cards: 4,
                jack: false
            }
        );
        assert_eq!(t.row(), faces("2").as_slice());
    }

    #[test]
    fn a_jack_captures_the_whole_row() {
        let mut t = Table::new(&faces("4J 56"), Rules::default()).unwrap();
        t.step(); // 4
        t.step(); // 5
        assert_eq!(
            t.step(),
            Step::Captured {
                cards: 3,
                jack: true
            }
        );
        assert_eq!(t.pile(0), faces("45J"));
        let rev = Rules {
            reverse_captures: true,
            ..Rules::default()
        };
        let mut t = Table::new(&faces("4J 56"), rev).unwrap();
        t.step();
        t.step();
        t.step();
        assert_eq!(t.pile(0), faces("J54"));
    }

    #[test]
    fn capturing_with_the_last_card_keeps_the_player_in() {
        // P1 has one card left, a 5, and captures with it: still in the game.
        let mut t = Table::new(&faces("75 58"), Rules::default()).unwrap();
        t.step(); // P1 7
        t.step(); // P2 5
        let step = t.step(); // P1 5: captures 5 5 with its last card
        assert_eq!(
            step,
            Step::Captured {
                cards: 2,
                jack: false
            }
        );
        assert_eq!(t.pile_len(0), 2);
        assert_eq!(t.mover(), 0);
    }

    #[test]
    fn a_constructed_cyclic_deal_is_a_draw() {
        // P1: 2 2, P2: 2. P1 plays 2; P2 captures it with its 2 and plays
        // that 2 again; P1 captures with its last 2 and leads a 2 again: the
        // position after the first card comes back every 4 cards.
        let deal = faces("22 2");
        let rec = play(&deal, Rules::default(), DEFAULT_CARD_LIMIT).unwrap();
        let (outcome, played) = reference::play(&deal, Rules::default());
        assert_eq!(rec.outcome, outcome);
        assert_eq!(rec.cards_played, played);
        assert!(matches!(rec.outcome, Outcome::Cycle { .. }), "{rec:?}");
    }

    #[test]
    fn checking_from_a_threshold_gives_the_checked_engine_record() {
        // The J-on-an-empty-row switch makes many cycles (and many games
        // that run to the limit); every threshold, below, inside and past
        // the cycles, must give the record of the engine checking from the
        // first card, field for field.
        let rules = Rules {
            jack_captures_empty_row: true,
            ..Rules::default()
        };
        let game = FishingGame::new(rules);
        let limit = 20_000;
        // Games of seed 11 that cycle within 20,000 cards (found with
        // `cardsim fishing --seed 11 --jack-captures-empty-row`), then the
        // first 40 games of the run, most of which reach the limit.
        let cycling = [
            4392, 19435, 14728, 2293, 7121, 6555, 5670, 13002, 4407, 19916, 11610,
        ];
        let mut cycles = 0;
        for i in cycling.into_iter().chain(0..40) {
            let d = game.deal_of(11, i);
            let table = Table::new(&d, rules).unwrap();
            let checked = play_checked(table.clone(), limit);
            cycles += usize::from(matches!(checked.outcome, Outcome::Cycle { .. }));
            for from in [
                0,
                1,
                37,
                400,
                1_500,
                5_000,
                limit - 1,
                limit,
                CHECK_FROM_CARD,
            ] {
                let fast = play_checking_from(table.clone(), limit, from);
                assert_eq!(fast, checked, "game {i}, checking from card {from}");
            }
            assert_eq!(play(&d, rules, limit).unwrap(), checked, "game {i}");
        }
        assert!(
            cycles >= cycling.len(),
            "{cycles} cycles: the test needs cycling deals"
        );
    }

    #[test]
    fn a_card_limit_stops_a_game_as_unresolved() {
        let rules = Rules {
            jack_captures_empty_row: true,
            ..Rules::default()
        };
        let game = FishingGame {
            rules,
            limit: 100_000,
        };
        let mut d = deck();
        let rec = game.play(0, &mut game_rng(7, 0), &mut d);
        assert_eq!(rec.outcome, Outcome::Unresolved);
        assert_eq!(rec.cards_played, 100_000);
        // The same deal under a limit it cannot reach is not cut short by it.
        let short = play(&d, Rules::default(), 100_000).unwrap();
        let long = play(&d, Rules::default(), u64::MAX).unwrap();
        assert_eq!(short, long);
    }

    #[test]
    fn a_jack_on_an_empty_row_can_capture_itself_under_the_switch() {
        let rules = Rules {
            jack_captures_empty_row: true,
            ..Rules::default()
        };
        let mut t = Table::new(&faces("J3 45"), rules).unwrap();
        assert_eq!(
            t.step(),
            Step::Captured {
                cards: 1,
                jack: true
            }
        );
        assert_eq!(t.pile(0), faces("3J"));
        assert_eq!(t.mover(), 0);
    }

    #[test]
    fn a_game_does_not_depend_on_the_one_before() {
        let game = FishingGame::new(Rules::default());
        let mut used = game.new_scratch();
        for i in 0..20 {
            let a = game.play(i, &mut game_rng(3, i), &mut used);
            let b = game.play(i, &mut game_rng(3, i), &mut game.new_scratch());
            assert_eq!(a, b, "game {i}");
        }
    }
}
