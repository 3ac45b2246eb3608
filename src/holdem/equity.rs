//! All-in equity of 2 to 10 hands or ranges: exact enumeration of every
//! deal, or seeded Monte Carlo.
//!
//! Definitions: the players' hole cards are dealt jointly from their ranges,
//! each combination with its weight, conditioned on no card being used twice
//! (nor being on the board or dead); the board is then completed uniformly
//! from the rest of the deck. A player's *equity* is the expected share of
//! the pot (a k-way tie pays 1/k), *win* the chance to win alone, *tie* the
//! chance to share the best hand.
//!
//! Exact enumeration counts in integers: every share is a multiple of
//! 1/2520 (2520 is divisible by every tie size 1..10), so the sums are exact
//! and the only rounding is the final division. Deals that differ only by a
//! renaming of suits that fixes the board and the dead cards have the same
//! outcome, so each class of combinations is enumerated once (AA vs KK: 3
//! classes instead of 36 pairs), and each class's boards are enumerated by
//! rank pattern with flush corrections ([`super::board_enum`]). Heads-up
//! before the flop with no dead cards, those counts are read from the
//! generated table of every such matchup ([`super::preflop`]). With a flop,
//! turn or river out (and each range's weights equal) there is seldom any
//! suit symmetry left, and the enumeration runs board by board instead
//! ([`super::board_major`]): each completion once, each player's hands once
//! on it, combinations joined by their cards.
//!
//! Monte Carlo runs in batches of [`BATCH`] accepted trials; batch `b` draws
//! from `game_rng(seed, b)`, and batches are added up as integers, so the
//! answer depends on the seed and the stopping rule only, never on threads.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use rand::Rng;
use rayon::prelude::*;
use thiserror::Error;

use super::board_enum::{enumerate_boards, Counts};
use super::board_major::{self, Totals};
use super::eval::{tables, Hand, Strength};
use super::preflop;
use super::range::{Combo, Range};
use crate::cards::{Card, CardSet};
use crate::rng::{game_rng, GameRng};

/// Most players at a table.
pub const MAX_PLAYERS: usize = 10;
/// Tie shares are counted in units of 1/`UNITS` of a pot (2520 is
/// divisible by every tie size 1..=10).
pub const UNITS: u64 = 2520;
/// Accepted Monte Carlo trials per batch (one generator per batch).
pub const BATCH: u64 = 8192;
/// Batches between two checks of a `--stderr` or `--time` stopping rule,
/// and the most batches in flight at once (so memory never grows with the
/// number of trials asked for).
const WAVE: u64 = 32;
/// Deals drawn to measure how often a random deal of hole cards is valid
/// (ranges that share cards reject most deals).
const PILOT_DEALS: u64 = 200_000;
/// The most deals a Monte Carlo run may need to draw (at about 5 ns each,
/// some 15 seconds on two cores); beyond, the request is refused or
/// answered exactly.
pub const MAX_DEALS: f64 = 5e9;
/// The most work `--exact` takes on: hole-card deals times board
/// completions times players (about 10^8 a second per core).
pub const MAX_EXACT_WORK: u64 = 20_000_000_000;

/// Why an equity question cannot be answered.
#[derive(Clone, Debug, PartialEq, Error)]
pub enum EquityError {
    #[error("equity needs 2 to {MAX_PLAYERS} players, got {0}")]
    PlayerCount(usize),
    #[error("a board has 0, 3, 4 or 5 cards, got {0}")]
    BoardSize(usize),
    #[error("card {0} is used twice (board, dead cards or exact hands)")]
    CardTwice(String),
    #[error("player {player}'s range '{range}' has no combination left once the board, dead cards and other players' hands are removed")]
    EmptyRange { player: usize, range: String },
    #[error("no deal is possible: the ranges always share a card")]
    NoDeal,
    #[error(
        "{players} players, {board} board cards and {dead} dead cards need more than 52 cards"
    )]
    DeckTooSmall {
        players: usize,
        board: usize,
        dead: usize,
    },
    #[error("the standard-error target must be at least 0.00001, got {0}")]
    StdErrTooSmall(String),
    #[error(
        "only {:.2e}% of random deals are valid (the ranges share cards): {trials} trials would \
         need about {:.1e} deals, more than {MAX_DEALS:.0e}; ask for fewer trials, a larger \
         --stderr or a --time limit",
        rate * 100.0, (*trials as f64) / rate
    )]
    RareDeals { rate: f64, trials: u64 },
    #[error(
        "exact enumeration would take about {work:.1e} showdown evaluations, more than the \
         limit of {MAX_EXACT_WORK:.0e}: use Monte Carlo (--trials N or --stderr E)",
        work = *work as f64
    )]
    ExactTooLarge { work: u64 },
}

/// One equity question.
#[derive(Clone, Debug)]
pub struct Query {
    pub ranges: Vec<Range>,
    pub board: Vec<Card>,
    pub dead: CardSet,
}

/// How a Monte Carlo run stops.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Stop {
    /// Exactly this many trials.
    Trials(u64),
    /// When every player's standard error is at most this (checked every
    /// `WAVE` batches, so the answer is still thread-independent).
    StdErr(f64),
    /// When the time is up (checked every wave; the only rule whose answer
    /// depends on the machine).
    Time(Duration),
}

/// One player's result.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlayerEquity {
    /// Expected share of the pot, 0..=1.
    pub equity: f64,
    /// Chance to win alone.
    pub win: f64,
    /// Chance to share the best hand.
    pub tie: f64,
    /// Standard error of `equity` (Monte Carlo only).
    pub stderr: Option<f64>,
}

/// How a result was obtained.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Method {
    /// Every deal: `classes` suit classes of combinations, each with
    /// `boards` board completions.
    Exact {
        combinations: u64,
        classes: u64,
        boards: u64,
    },
    MonteCarlo {
        trials: u64,
        seed: u64,
    },
}

#[derive(Clone, Debug, PartialEq)]
pub struct EquityResult {
    pub players: Vec<PlayerEquity>,
    pub method: Method,
}

/// A checked query: ranges without conflicting combinations.
#[derive(Clone, Debug)]
pub struct Prepared {
    ranges: Vec<Range>,
    board: Vec<Card>,
    /// Board and dead cards.
    used: CardSet,
    dead: CardSet,
}

impl Query {
    /// Checks the query and removes the combinations that cannot be dealt.
    pub fn prepare(&self) -> Result<Prepared, EquityError> {
        let n = self.ranges.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(EquityError::PlayerCount(n));
        }
        if !matches!(self.board.len(), 0 | 3 | 4 | 5) {
            return Err(EquityError::BoardSize(self.board.len()));
        }
        let mut used = self.dead;
        for &c in &self.board {
            if used.contains(c) {
                return Err(EquityError::CardTwice(c.to_string()));
            }
            used.insert(c);
        }
        // Exact hands must not collide with each other or with the board.
        let mut fixed = used;
        for r in &self.ranges {
            if let Some(hand) = r.exact_hand() {
                for c in hand {
                    if fixed.contains(c) {
                        return Err(EquityError::CardTwice(c.to_string()));
                    }
                    fixed.insert(c);
                }
            }
        }
        if 2 * n + 5 + self.dead.len() as usize > 52 {
            return Err(EquityError::DeckTooSmall {
                players: n,
                board: self.board.len(),
                dead: self.dead.len() as usize,
            });
        }
        let mut ranges = Vec::with_capacity(n);
        for (i, r) in self.ranges.iter().enumerate() {
            let own = r
                .exact_hand()
                .map_or(CardSet::EMPTY, |h| h.into_iter().collect());
            let pruned = r.without(fixed.difference(own));
            if pruned.combos.is_empty() {
                return Err(EquityError::EmptyRange {
                    player: i + 1,
                    range: crate::text::quote(&r.text),
                });
            }
            ranges.push(pruned);
        }
        let prepared = Prepared {
            ranges,
            board: self.board.clone(),
            used,
            dead: self.dead,
        };
        if !prepared.any_deal() {
            return Err(EquityError::NoDeal);
        }
        Ok(prepared)
    }
}

impl Prepared {
    pub fn players(&self) -> usize {
        self.ranges.len()
    }

    /// Board completions per deal of hole cards.
    pub fn boards(&self) -> u64 {
        let left = 52 - self.used.len() as u64 - 2 * self.players() as u64;
        binomial(left, 5 - self.board.len() as u64)
    }

    /// An upper bound on the combinations of hole cards (the product of the
    /// range sizes), saturating.
    pub fn combination_bound(&self) -> u64 {
        self.ranges
            .iter()
            .fold(1u64, |p, r| p.saturating_mul(r.combos.len() as u64))
    }

    /// Whether exact enumeration is cheap: at most about 2*10^8 showdown
    /// evaluations (a second or so on one core), counting each suit class
    /// once.
    pub fn exact_is_cheap(&self) -> bool {
        if self.board_major_fits() {
            return self.board_major_work() <= 200_000_000;
        }
        let bound = self.combination_bound();
        if bound > 2_000_000 {
            return false;
        }
        let classes = self.classes().len() as u64;
        classes
            .saturating_mul(self.boards())
            .saturating_mul(self.players() as u64)
            <= 200_000_000
    }

    /// An upper bound on the work of exact enumeration: deals of hole
    /// cards (suit classes when they can be counted cheaply) times board
    /// completions times players, saturating.
    pub fn exact_work(&self) -> u64 {
        if self.board_major_fits() {
            return self.board_major_work();
        }
        let bound = self.combination_bound();
        let deals = if bound <= 2_000_000 {
            self.classes().len() as u64
        } else {
            bound
        };
        deals
            .saturating_mul(self.boards())
            .saturating_mul(self.players() as u64)
    }

    /// Exact equity, refused beyond [`MAX_EXACT_WORK`].
    pub fn exact_checked(&self) -> Result<EquityResult, EquityError> {
        let work = self.exact_work();
        if work > MAX_EXACT_WORK {
            return Err(EquityError::ExactTooLarge { work });
        }
        Ok(exact(self))
    }

    /// Whether [`exact`] enumerates board by board ([`board_major`]): a
    /// flop, turn or river is out, and each range's weights are all equal
    /// (then a deal's weight is the same for every deal and cancels out, so
    /// integer counts are the answer).
    fn board_major_fits(&self) -> bool {
        self.board.len() >= 3
            && self
                .ranges
                .iter()
                .all(|r| r.combos.iter().all(|w| w.weight == r.combos[0].weight))
    }

    fn combo_lists(&self) -> Vec<Vec<Combo>> {
        self.ranges
            .iter()
            .map(|r| r.combos.iter().map(|w| w.cards).collect())
            .collect()
    }

    fn board_major_work(&self) -> u64 {
        board_major::work(&self.combo_lists(), self.board.len(), self.used)
    }

    /// The integer totals of board-major enumeration, when it applies.
    pub fn board_major_totals(&self) -> Option<Totals> {
        self.board_major_fits()
            .then(|| board_major::totals(&self.combo_lists(), &self.board, self.used))
    }

    /// The same integer totals by the class-by-class enumeration (each
    /// class's counts times its number of combinations), when every
    /// range's weights are equal: the reference for board-major.
    pub fn enumerated_totals(&self) -> Option<Totals> {
        if !self
            .ranges
            .iter()
            .all(|r| r.combos.iter().all(|w| w.weight == r.combos[0].weight))
        {
            return None;
        }
        let t = tables();
        let mut out = Totals::default();
        for (deal, _, members) in self.classes() {
            let c = enumerate_boards(t, &deal, &self.board, &deck_left(self.used, &deal));
            for i in 0..self.players() {
                out.wins[i] += members * c.wins[i] as u64;
                out.ties[i] += members * c.ties[i] as u64;
                out.shares[i] += members * c.shares[i] as u64;
            }
            out.deal_boards += members * c.boards as u64;
        }
        Some(out)
    }

    fn any_deal(&self) -> bool {
        fn go(ranges: &[Range], used: CardSet) -> bool {
            match ranges.split_first() {
                None => true,
                Some((r, rest)) => r.combos.iter().any(|w| {
                    !used.contains(w.cards[0])
                        && !used.contains(w.cards[1])
                        && go(rest, used.union(pair_set(w.cards)))
                }),
            }
        }
        go(&self.ranges, self.used)
    }

    /// Every conflict-free combination of hole cards, grouped into classes
    /// equal up to a renaming of suits that fixes the board and the dead
    /// cards: (one representative, total weight, members), in a fixed order.
    fn classes(&self) -> Vec<(Vec<Combo>, f64, u64)> {
        let perms = stabilizing_suit_perms(&self.board, self.dead);
        let mut index: HashMap<Vec<u8>, usize> = HashMap::new();
        let mut out: Vec<(Vec<Combo>, f64, u64)> = Vec::new();
        let mut stack: Vec<Combo> = Vec::with_capacity(self.players());
        self.each_deal(0, self.used, 1.0, &mut stack, &mut |deal, w| {
            let key = canonical_key(deal, &perms);
            match index.get(&key) {
                Some(&i) => {
                    out[i].1 += w;
                    out[i].2 += 1;
                }
                None => {
                    index.insert(key, out.len());
                    out.push((deal.to_vec(), w, 1));
                }
            }
        });
        out
    }

    fn each_deal(
        &self,
        player: usize,
        used: CardSet,
        weight: f64,
        stack: &mut Vec<Combo>,
        f: &mut dyn FnMut(&[Combo], f64),
    ) {
        if player == self.players() {
            f(stack, weight);
            return;
        }
        for w in &self.ranges[player].combos {
            if used.contains(w.cards[0]) || used.contains(w.cards[1]) {
                continue;
            }
            stack.push(w.cards);
            self.each_deal(
                player + 1,
                used.union(pair_set(w.cards)),
                weight * w.weight,
                stack,
                f,
            );
            stack.pop();
        }
    }
}

fn pair_set(c: Combo) -> CardSet {
    CardSet(c[0].bit() | c[1].bit())
}

fn binomial(n: u64, k: u64) -> u64 {
    (0..k).fold(1, |acc, i| acc * (n - i) / (i + 1))
}

/// The renamings of suits (as `perm[suit] = new suit`) that map the board
/// onto itself and the dead cards onto themselves.
fn stabilizing_suit_perms(board: &[Card], dead: CardSet) -> Vec<[u8; 4]> {
    let board_set: CardSet = board.iter().copied().collect();
    let rename = |set: CardSet, p: &[u8; 4]| -> CardSet {
        set.iter()
            .map(|c| Card::from_index(c.index() & !3 | p[(c.index() & 3) as usize]))
            .collect()
    };
    let mut perms = Vec::new();
    for a in 0..4u8 {
        for b in 0..4u8 {
            for c in 0..4u8 {
                for d in 0..4u8 {
                    let p = [a, b, c, d];
                    let distinct = (0..4).all(|i| (0..i).all(|j| p[i] != p[j]));
                    if distinct && rename(board_set, &p) == board_set && rename(dead, &p) == dead {
                        perms.push(p);
                    }
                }
            }
        }
    }
    perms
}

/// The smallest renaming of a deal over `perms` (each hand's cards sorted).
fn canonical_key(deal: &[Combo], perms: &[[u8; 4]]) -> Vec<u8> {
    let mut best: Option<Vec<u8>> = None;
    let mut key = Vec::with_capacity(2 * deal.len());
    for p in perms {
        key.clear();
        for hand in deal {
            let [x, y] = hand.map(|c| c.index() & !3 | p[(c.index() & 3) as usize]);
            key.extend_from_slice(&[x.max(y), x.min(y)]);
        }
        if best.as_ref().is_none_or(|b| key < *b) {
            best = Some(key.clone());
        }
    }
    best.unwrap_or_default()
}

/// Integer tallies of Monte Carlo showdowns, per player: outright wins and
/// ties by how many shared the pot. Pot shares and their squares (for the
/// standard error) follow from these counts, so the hot loop only counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
struct Tally {
    wins: [u64; MAX_PLAYERS],
    /// `ties[i][k]`: showdowns player `i` shared with `k - 1` others.
    ties: [[u64; MAX_PLAYERS + 1]; MAX_PLAYERS],
    showdowns: u64,
}

impl Tally {
    fn add(&mut self, other: &Tally) {
        for i in 0..MAX_PLAYERS {
            self.wins[i] += other.wins[i];
            for k in 0..=MAX_PLAYERS {
                self.ties[i][k] += other.ties[i][k];
            }
        }
        self.showdowns += other.showdowns;
    }

    /// [`Tally::record`] for two players, branch-free.
    #[inline(always)]
    fn record_heads_up(&mut self, a: Strength, b: Strength) {
        self.wins[0] += u64::from(a > b);
        self.wins[1] += u64::from(b > a);
        self.ties[0][2] += u64::from(a == b);
        self.showdowns += 1;
    }

    /// Records one showdown among `n` players with these strengths.
    #[inline(always)]
    fn record(&mut self, strengths: &[Strength]) {
        let best = strengths.iter().copied().max().unwrap_or(0);
        let winners = strengths.iter().filter(|&&s| s == best).count();
        for (i, &s) in strengths.iter().enumerate() {
            if s == best {
                if winners == 1 {
                    self.wins[i] += 1;
                } else {
                    self.ties[i][winners] += 1;
                }
            }
        }
        self.showdowns += 1;
    }

    /// The heads-up loop counts ties on player 0 only; copies them to
    /// player 1.
    fn finish_heads_up(&mut self) {
        self.ties[1][2] = self.ties[0][2];
    }

    fn tied(&self, i: usize) -> u64 {
        self.ties[i].iter().sum()
    }

    /// Player `i`'s total pot share and sum of squared shares, in units of
    /// 1/`UNITS` (and units squared).
    fn shares(&self, i: usize) -> (u128, u128) {
        let u = u128::from(UNITS);
        let mut sum = u128::from(self.wins[i]) * u;
        let mut squares = u128::from(self.wins[i]) * u * u;
        for k in 2..=MAX_PLAYERS {
            let (n, share) = (u128::from(self.ties[i][k]), u / k as u128);
            sum += n * share;
            squares += n * share * share;
        }
        (sum, squares)
    }
}

/// Exact equity by enumerating every deal (use
/// [`Prepared::exact_is_cheap`] to decide whether to). Each suit class of
/// hole cards is enumerated once, by rank pattern ([`enumerate_boards`]),
/// or looked up in the preflop table (heads-up, no board, nothing dead);
/// classes run in parallel and are summed as integers. With a board out
/// and equal weights within each range, the enumeration is board-major
/// instead ([`board_major`]), with the same integer counts.
pub fn exact(p: &Prepared) -> EquityResult {
    exact_with(p, true)
}

/// [`exact`] without the preflop table or board-major enumeration: every
/// class enumerated (the reference both are tested against).
pub fn exact_enumerated(p: &Prepared) -> EquityResult {
    exact_with(p, false)
}

fn exact_with(p: &Prepared, fast: bool) -> EquityResult {
    if let Some(t) = p.board_major_totals().filter(|_| fast) {
        return from_totals(p, &t);
    }
    let classes = p.classes();
    let n = p.players();
    // Heads-up before the flop with nothing dead, every class's counts are
    // in the preflop table (the same integers the enumeration gives: a test
    // recomputes a sample of them).
    let per_class: Vec<Counts> = if fast && n == 2 && p.board.is_empty() && p.dead.is_empty() {
        let table = preflop::table();
        classes
            .iter()
            .map(|(deal, _, _)| match table.lookup(deal[0], deal[1]) {
                Some(o) => o.counts(),
                None => enumerate_boards(tables(), deal, &p.board, &deck_left(p.used, deal)),
            })
            .collect()
    } else {
        let t = tables();
        classes
            .par_iter()
            .map(|(deal, _, _)| enumerate_boards(t, deal, &p.board, &deck_left(p.used, deal)))
            .collect()
    };
    let total_weight: f64 = classes.iter().map(|c| c.1).sum();
    let boards = p.boards() as f64;
    let players = (0..n)
        .map(|i| {
            let mut e = PlayerEquity {
                equity: 0.0,
                win: 0.0,
                tie: 0.0,
                stderr: None,
            };
            for (c, counts) in classes.iter().zip(&per_class) {
                debug_assert_eq!(counts.boards as f64, boards);
                let w = c.1 / total_weight / boards;
                e.equity += w * counts.shares[i] as f64 / UNITS as f64;
                e.win += w * counts.wins[i] as f64;
                e.tie += w * counts.ties[i] as f64;
            }
            e
        })
        .collect();
    EquityResult {
        players,
        method: Method::Exact {
            combinations: classes.iter().map(|c| c.2).sum(),
            classes: classes.len() as u64,
            boards: p.boards(),
        },
    }
}

/// The answer from board-major totals: every deal counted once, so the
/// combinations are their own classes.
fn from_totals(p: &Prepared, t: &Totals) -> EquityResult {
    let n = t.deal_boards as f64;
    let players = (0..p.players())
        .map(|i| PlayerEquity {
            equity: t.shares[i] as f64 / UNITS as f64 / n,
            win: t.wins[i] as f64 / n,
            tie: t.ties[i] as f64 / n,
            stderr: None,
        })
        .collect();
    let combinations = t.deal_boards / p.boards();
    EquityResult {
        players,
        method: Method::Exact {
            combinations,
            classes: combinations,
            boards: p.boards(),
        },
    }
}

/// The deck without the used cards and the deal's hole cards, in index order.
fn deck_left(used: CardSet, deal: &[Combo]) -> Vec<Card> {
    let taken = deal.iter().fold(used, |s, &c| s.union(pair_set(c)));
    CardSet::FULL52.difference(taken).to_vec()
}

/// Seeded Monte Carlo equity.
pub fn monte_carlo(p: &Prepared, seed: u64, stop: Stop) -> Result<EquityResult, EquityError> {
    if let Stop::StdErr(s) = stop {
        if s.is_nan() || s < 1e-5 {
            return Err(EquityError::StdErrTooSmall(s.to_string()));
        }
    }
    let sampler = Sampler::new(p);
    let start = Instant::now();
    let deadline = match stop {
        Stop::Time(d) => Some(start + d),
        _ => None,
    };
    // How often a drawn deal is valid decides whether the request can be
    // met in reasonable time (measured, from its own generator stream).
    let rate = sampler.acceptance(&mut game_rng(seed ^ 0x9e37_79b9_7f4a_7c15, u64::MAX));
    let wanted = match stop {
        Stop::Trials(n) => Some(n),
        // Shares lie in [0, 1], so their variance is at most 1/4.
        Stop::StdErr(e) => Some((0.25 / (e * e)).ceil() as u64),
        Stop::Time(_) => None,
    };
    if let Some(trials) = wanted {
        // Refused only for rejection's sake: a request of many trials whose
        // deals are mostly valid simply runs as long as it was asked to.
        let deals = trials as f64 / rate;
        if deals > MAX_DEALS && deals > 4.0 * trials as f64 {
            return Err(EquityError::RareDeals { rate, trials });
        }
    }
    let mut total = Tally::default();
    let mut next_batch = 0u64;
    loop {
        // At most WAVE batches at once: memory is bounded whatever the
        // number of trials.
        let (batches, last_size) = match stop {
            Stop::Trials(n) => {
                let b = n.div_ceil(BATCH);
                (b.min(next_batch + WAVE), n - (b.saturating_sub(1)) * BATCH)
            }
            _ => (next_batch + WAVE, BATCH),
        };
        let all = match stop {
            Stop::Trials(n) => n.div_ceil(BATCH),
            _ => u64::MAX,
        };
        // One batch per rayon job (`with_max_len(1)`): by default rayon
        // folds runs of up to a quarter of the batches sequentially, which
        // a thread that runs dry cannot steal from, so on a busy machine one
        // thread could idle for a quarter of the run at its end.
        let wave: Vec<Tally> = (0..(batches - next_batch) as usize)
            .into_par_iter()
            .with_max_len(1)
            .map(|i| {
                let b = next_batch + i as u64;
                let size = if b + 1 == all { last_size } else { BATCH };
                sampler.batch(&mut game_rng(seed, b), size, deadline)
            })
            .collect();
        for t in &wave {
            total.add(t);
        }
        next_batch = batches;
        let done = match stop {
            Stop::Trials(_) => next_batch == all,
            Stop::StdErr(target) => {
                (0..p.players()).all(|i| stderr(&total, i).is_some_and(|e| e <= target))
            }
            Stop::Time(d) => start.elapsed() >= d,
        };
        if done {
            break;
        }
    }
    let n = total.showdowns as f64;
    let players = (0..p.players())
        .map(|i| PlayerEquity {
            equity: total.shares(i).0 as f64 / UNITS as f64 / n,
            win: total.wins[i] as f64 / n,
            tie: total.tied(i) as f64 / n,
            stderr: stderr(&total, i),
        })
        .collect();
    Ok(EquityResult {
        players,
        method: Method::MonteCarlo {
            trials: total.showdowns,
            seed,
        },
    })
}

/// Standard error of player `i`'s mean share.
fn stderr(t: &Tally, i: usize) -> Option<f64> {
    let n = t.showdowns as f64;
    if t.showdowns < 2 {
        return None;
    }
    let u = UNITS as f64;
    let (sum, squares) = t.shares(i);
    let mean = sum as f64 / u / n;
    let mean_sq = squares as f64 / (u * u) / n;
    let var = (mean_sq - mean * mean).max(0.0) * n / (n - 1.0);
    Some((var / n).sqrt())
}

/// Draws deals: hole cards from the weighted ranges (rejecting conflicting
/// deals as a whole, which keeps the joint distribution exact), then the rest
/// of the board uniformly.
struct Sampler<'a> {
    p: &'a Prepared,
    /// Per player, what a trial draws from.
    seats: Vec<Seat>,
    board: Hand,
    /// When every range is one combination, the one deal there is (its
    /// cards and each player's hand): drawn once, not per trial, which
    /// draws no random number either way.
    fixed: Option<(CardSet, [Hand; MAX_PLAYERS])>,
}

/// One player's range as a trial draws from it: each combination's cards
/// and hand side by side (one lookup a player a trial), and how one is
/// picked.
struct Seat {
    combos: Box<[(CardSet, Hand)]>,
    pick: Pick,
}

enum Pick {
    /// The range is one combination: nothing is drawn.
    One,
    /// Equal weights: one draw below the count.
    Uniform,
    /// The cumulative weights: one draw, then a binary search.
    Weighted(Box<[f64]>),
}

impl Seat {
    fn new(r: &Range) -> Seat {
        let combos = r
            .combos
            .iter()
            .map(|w| (pair_set(w.cards), Hand::from_cards(&w.cards)))
            .collect();
        let uniform = r.combos.iter().all(|w| w.weight == r.combos[0].weight);
        let pick = if uniform && r.combos.len() == 1 {
            Pick::One
        } else if uniform {
            Pick::Uniform
        } else {
            Pick::Weighted(
                r.combos
                    .iter()
                    .scan(0.0, |acc, w| {
                        *acc += w.weight;
                        Some(*acc)
                    })
                    .collect(),
            )
        };
        Seat { combos, pick }
    }

    /// The index of a combination drawn from `rng` (the draws the sampler
    /// has always made: none for one combination, one `u64` otherwise).
    #[inline]
    fn draw(&self, rng: &mut GameRng) -> usize {
        match &self.pick {
            Pick::One => 0,
            Pick::Uniform => below(rng, self.combos.len() as u64) as usize,
            Pick::Weighted(cum) => {
                let total = cum[cum.len() - 1];
                let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
                cum.partition_point(|&c| c <= u).min(cum.len() - 1)
            }
        }
    }
}

impl<'a> Sampler<'a> {
    fn new(p: &'a Prepared) -> Sampler<'a> {
        Sampler {
            p,
            seats: p.ranges.iter().map(Seat::new).collect(),
            board: Hand::from_cards(&p.board),
            fixed: None,
        }
        .with_fixed_deal()
    }

    fn with_fixed_deal(mut self) -> Sampler<'a> {
        if self.p.ranges.iter().all(|r| r.combos.len() == 1) {
            let mut hands = [Hand::EMPTY; MAX_PLAYERS];
            let n = self.p.players();
            // No range draws from the generator: any one will do.
            let mut rng = crate::rng::game_rng(0, 0);
            self.fixed = self
                .deal_holes(&mut rng, &mut hands[..n])
                .map(|used| (used, hands));
        }
        self
    }

    /// The share of drawn deals of hole cards that are valid (no card
    /// twice), from [`PILOT_DEALS`] draws; at least one in `PILOT_DEALS`
    /// (a valid deal exists: [`Query::prepare`] checked it).
    fn acceptance(&self, rng: &mut GameRng) -> f64 {
        let mut hands = [Hand::EMPTY; MAX_PLAYERS];
        let n = self.p.players();
        let valid = (0..PILOT_DEALS)
            .filter(|_| self.deal_holes(rng, &mut hands[..n]).is_some())
            .count() as f64;
        valid.max(1.0) / PILOT_DEALS as f64
    }

    /// `size` accepted trials, or fewer if `deadline` passes first (only
    /// `--time` has one: its answer depends on the machine anyway).
    fn batch(&self, rng: &mut GameRng, size: u64, deadline: Option<Instant>) -> Tally {
        let t = tables();
        let n = self.p.players();
        let missing = 5 - self.p.board.len();
        let mut tally = Tally::default();
        let mut hands = match &self.fixed {
            Some((_, fixed)) => *fixed,
            None => [Hand::EMPTY; MAX_PLAYERS],
        };
        let mut strengths = [0 as Strength; MAX_PLAYERS];
        let mut accepted = 0;
        let mut drawn = 0u64;
        while accepted < size {
            drawn += 1;
            if drawn.is_multiple_of(4096) && deadline.is_some_and(|d| Instant::now() >= d) {
                break;
            }
            let dealt = match &self.fixed {
                Some((used, _)) => Some(*used),
                None => self.deal_holes(rng, &mut hands[..n]),
            };
            let Some(used) = dealt else {
                continue;
            };
            let mut used = used;
            let mut board = self.board;
            let mut draws = Cards52::default();
            for _ in 0..missing {
                let c = loop {
                    let c = draws.next(rng);
                    if used.0 & (1 << c) == 0 {
                        break Card::from_index(c);
                    }
                };
                used.insert(c);
                board = board.with(c);
            }
            if n == 2 {
                let a = t.strength(board.combine(hands[0]));
                let b = t.strength(board.combine(hands[1]));
                tally.record_heads_up(a, b);
            } else {
                for i in 0..n {
                    strengths[i] = t.strength(board.combine(hands[i]));
                }
                tally.record(&strengths[..n]);
            }
            accepted += 1;
        }
        if n == 2 {
            tally.finish_heads_up();
        }
        tally
    }

    /// Deals every player a combination; `None` when two collide.
    #[inline]
    fn deal_holes(&self, rng: &mut GameRng, hands: &mut [Hand]) -> Option<CardSet> {
        let mut used = self.p.used;
        for (seat, h) in self.seats.iter().zip(hands) {
            let (cards, hand) = seat.combos[seat.draw(rng)];
            if used.0 & cards.0 != 0 {
                return None;
            }
            used = used.union(cards);
            *h = hand;
        }
        Some(used)
    }
}

/// Card indices below 52, two from each 64-bit draw: each 32-bit half,
/// multiplied by 52, keeps the high part (Lemire). A board card is drawn
/// again while it is already used, which keeps the remaining cards equally
/// likely up to the multiply's bias: each index has probability
/// 1/52 within 52/2^32 (about 10^-8) of it, far under anything a
/// simulation can see. Unlike rejecting 6-bit values above 51, nearly
/// every draw is kept, so the branch that retries is rarely taken (only
/// for a used card) and rarely mispredicted.
#[derive(Default)]
struct Cards52 {
    word: u64,
    spare: bool,
}

impl Cards52 {
    #[inline(always)]
    fn next(&mut self, rng: &mut GameRng) -> u8 {
        let half = if self.spare {
            self.word >> 32
        } else {
            self.word = rng.next_u64();
            self.word & 0xffff_ffff
        };
        self.spare = !self.spare;
        ((half * 52) >> 32) as u8
    }
}

/// A uniform integer below `n` by multiply-high (Lemire); the bias is below
/// n / 2^64, far under anything a simulation can see.
#[inline(always)]
fn below(rng: &mut GameRng, n: u64) -> u64 {
    ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as u64
}

/// The slow, obviously correct exact equity: every deal of hole cards and
/// every board, each showdown evaluated from scratch by the reference
/// evaluator. For tests on small cases.
pub fn reference_exact(p: &Prepared) -> Vec<PlayerEquity> {
    let n = p.players();
    let mut totals = vec![(0.0f64, 0.0f64, 0.0f64); n];
    let mut total_weight = 0.0;
    let mut stack = Vec::new();
    p.each_deal(0, p.used, 1.0, &mut stack, &mut |deal, w| {
        let deck = deck_left(p.used, deal);
        let missing = 5 - p.board.len();
        let mut boards = 0u64;
        let mut acc = vec![(0.0, 0.0, 0.0); n];
        let mut pick = Vec::new();
        each_subset(&deck, missing, &mut pick, &mut |extra| {
            let s: Vec<Strength> = deal
                .iter()
                .map(|h| {
                    let mut cards = p.board.clone();
                    cards.extend_from_slice(extra);
                    cards.extend_from_slice(h);
                    super::eval::reference::evaluate(&cards)
                })
                .collect();
            let best = *s.iter().max().unwrap_or(&0);
            let k = s.iter().filter(|&&x| x == best).count();
            for i in 0..n {
                if s[i] == best {
                    acc[i].0 += 1.0 / k as f64;
                    if k == 1 {
                        acc[i].1 += 1.0;
                    } else {
                        acc[i].2 += 1.0;
                    }
                }
            }
            boards += 1;
        });
        for i in 0..n {
            totals[i].0 += w * acc[i].0 / boards as f64;
            totals[i].1 += w * acc[i].1 / boards as f64;
            totals[i].2 += w * acc[i].2 / boards as f64;
        }
        total_weight += w;
    });
    totals
        .into_iter()
        .map(|(e, w, t)| PlayerEquity {
            equity: e / total_weight,
            win: w / total_weight,
            tie: t / total_weight,
            stderr: None,
        })
        .collect()
}

/// Calls `f` with every `k`-card subset of `deck` (in `pick`), in
/// lexicographic order of positions.
pub(crate) fn each_subset(
    deck: &[Card],
    k: usize,
    pick: &mut Vec<Card>,
    f: &mut dyn FnMut(&[Card]),
) {
    if k == 0 {
        f(pick);
        return;
    }
    for i in 0..deck.len() {
        pick.push(deck[i]);
        each_subset(&deck[i + 1..], k - 1, pick, f);
        pick.pop();
    }
}

#[cfg(test)]
mod tests {
    use super::{Cards52, Query, Sampler};
    use crate::cards::{parse_cards, CardSet};
    use crate::holdem::range::Range;
    use crate::rng::game_rng;

    /// With one combination a player, the deal drawn once gives the same
    /// tally, trial for trial, as drawing it every trial (it draws no
    /// random number): the same answers as before it existed.
    #[test]
    fn a_fixed_deal_drawn_once_tallies_as_drawn_every_trial() {
        for (players, board) in [
            (&["AsAh", "KsKd"][..], ""),
            (&["AsKs", "QdQh", "7c7d"], "2c 7h 9d"),
        ] {
            let p = Query {
                ranges: players.iter().map(|h| Range::parse(h).unwrap()).collect(),
                board: parse_cards(board).unwrap(),
                dead: CardSet::default(),
            }
            .prepare()
            .unwrap();
            let once = Sampler::new(&p);
            assert!(once.fixed.is_some());
            let mut every = Sampler::new(&p);
            every.fixed = None;
            assert_eq!(
                once.batch(&mut game_rng(9, 1), 20_000, None),
                every.batch(&mut game_rng(9, 1), 20_000, None)
            );
        }
    }

    /// Every index below 52 comes out, none above, about equally often: a
    /// chi-square over 52 cells (51 degrees of freedom) far below its
    /// 0.1% point of 87.
    #[test]
    fn card_draws_are_uniform_below_52() {
        let mut rng = game_rng(3, 0);
        let mut draws = Cards52::default();
        let mut counts = [0u64; 52];
        let n = 52 * 40_000;
        for _ in 0..n {
            let c = draws.next(&mut rng) as usize;
            assert!(c < 52, "{c}");
            counts[c] += 1;
        }
        let expected = (n / 52) as f64;
        let chi2: f64 = counts
            .iter()
            .map(|&k| (k as f64 - expected).powi(2) / expected)
            .sum();
        assert!(chi2 < 87.0, "chi-square {chi2}");
    }
}
