//! Strength features of the deals, for the learned baseline: what the
//! flop and the turn made of a seat's hand, as a bucket of its made hand,
//! each feature minus its mean over the deal's outcomes.
//!
//! # Why
//! The check-down value ([`super::value`]) counts the chips already in.
//! Agents bet by their strength: a threshold player bets when its hand is
//! strong, a calling station pays, so the chips that go in after a deal
//! depend on what the deal made of the hand, and so does how much of
//! them the seat wins. For each deal (flop, turn), each live seat and each
//! bucket `k` of [`bucket`]:
//!
//! ```text
//! made_k  = pot × ( [bucket after = k] − E_deal[ [bucket = k] ] )   (k ≥ 1)
//! chips_k = V × [bucket after = k]     − E_deal[ V × [bucket = k] ]
//! ```
//!
//! where `pot` is the chips in when the cards came and `V` the seat's
//! expected chips from the pots just after the deal (the chance
//! correction's value, [`ChanceCorrection::after`]). The learned baseline
//! weighs them by least squares ([`super::baseline`]). The river's
//! features explained little of what was left and are not computed.
//!
//! # Why the mean is zero
//! `E_deal` is the mean over the deal's outcomes, each card of the undealt
//! ones (every hole card is dead, and the board so far) equally likely,
//! exactly as the deck deals. The turn's `made` means are counted over
//! every turn card. The other means are sampled: `trials` boards of five
//! (for the flop) or pairs of cards (for the turn) drawn from the undealt
//! cards by a generator of their own, independent of the cards dealt, each
//! draw uniform: an unbiased estimate of the mean (`E_deal[V × [bucket =
//! k]]` is the mean over full boards of the showdown's chips times the
//! bucket, since `V` is the mean of the showdown over the rest of the
//! board). `V` itself is exact on the turn and an unbiased sample on the
//! flop. So each feature has mean zero over the deal whatever the players
//! do, and a weight fixed before the hand keeps the estimate unbiased.
//!
//! The draws are [`Disjoint`] (no card twice in one pass through the
//! undealt cards), and each showdown serves several samples: a flop
//! board's chips count with the buckets of two of its three-card flops
//! ([`FLOPS_OF_A_BOARD`]), a turn pair's with the buckets of either card
//! as the turn. Each sample is still uniform, so the means stay unbiased,
//! with less noise for the same showdowns (docs/duplicate.md).

use arrayvec::ArrayVec;

use super::chance::{deals, holes_of, ChanceCorrection, CorrectionError, Deal};
use super::value::RiverStrengths;
use crate::cards::{Card, CardSet};
use crate::holdem::equity::allin::{Disjoint, MAX_SEATS};
use crate::holdem::eval::{category, Category, Hand, Strength};
use crate::holdem::table::pots::{build_pots, Pot, Seats};
use crate::holdem::table::{Action, HandState};
use crate::rng::GameRng;

/// Cards of one deck, held without allocating.
type Cards = ArrayVec<Card, 52>;

/// Made-hand buckets, see [`bucket`].
pub const BUCKETS: usize = 15;
/// The deals with features: flop and turn (the river's explained little of
/// what was left, docs/duplicate.md).
pub const STREETS: usize = 2;
/// The bucket features per seat: per street, the `made` buckets then the
/// `chips` buckets.
pub const BUCKET_FEATURES: usize = STREETS * 2 * BUCKETS;
/// The deals with tendency features: flop, turn and river.
pub const TENDENCY_STREETS: usize = 3;
/// The tendency features per seat: per street, `pot × (t − E t)` and
/// `V × t − E[V × t]` for `t` the seat's chance of betting on the street,
/// then the same for its pot's growth ([`Tendencies`]).
pub const TENDENCY: usize = TENDENCY_STREETS * 4;
/// Features per seat: the bucket features, then the tendency features.
pub const STRENGTH: usize = BUCKET_FEATURES + TENDENCY;
/// Pairs of hole-card ranks (the higher first, equal allowed).
pub const HOLE_RANKS: usize = 91;
/// Keys of a made hand: its bucket and its hole cards' ranks ([`key`]).
pub const KEYS: usize = BUCKETS * HOLE_RANKS;

/// A seat's features, [`STRENGTH`] of them (zero for deals that did not
/// happen and while the seat is folded).
pub type StrengthFeatures = [f64; STRENGTH];

/// The bucket of `hole` on `board` (3 to 5 cards), 0 to 14: high card
/// 0, with a flush draw 1; a pair on the board only 2; a pair of a hole
/// card below the board's second rank, or a pocket pair below its top, 3;
/// second pair 4; top pair with a kicker below ten 5, ten or better 6; an
/// overpair 7; a pair of 3 or 4 with a flush draw 8; two pair with a pair
/// on the board 9, from both hole cards 10; three of a kind 11, a straight
/// 12, a flush 13, a full house or better 14. (A flush draw: four cards of
/// a suit, one of them a hole card, with a card to come.)
pub fn bucket(hole: [Card; 2], board: &[Card]) -> usize {
    let strength = Hand::from_cards(board)
        .combine(Hand::from_cards(&hole))
        .strength();
    bucket_of(hole, board, strength)
}

/// The key of `hole` on `board` whose seat's strength is `strength`: its
/// [`bucket`] and the ranks of its hole cards,
/// `bucket × 91 + hi × (hi + 1) / 2 + lo` with `hi >= lo` the ranks (2 =
/// 0, ace = 12). A second pair's rank, a top pair's kicker: what the
/// bucket leaves out and a player's bets may follow.
pub fn key(hole: [Card; 2], board: &[Card], strength: Strength) -> usize {
    bucket_of(hole, board, strength) * HOLE_RANKS + hole_ranks(hole)
}

/// The pair of ranks of `hole`, `hi × (hi + 1) / 2 + lo` (0 to 90).
fn hole_ranks(hole: [Card; 2]) -> usize {
    let (a, b) = (hole[0].rank().index(), hole[1].rank().index());
    let (hi, lo) = (usize::from(a.max(b)), usize::from(a.min(b)));
    hi * (hi + 1) / 2 + lo
}

/// Whether `hole` on `board` is a flush draw (see [`bucket`]).
fn flush_draw(hole: [Card; 2], board: &[Card]) -> bool {
    if board.len() >= 5 {
        return false;
    }
    let mut suits = [0u8; 4];
    for c in hole.iter().chain(board) {
        suits[usize::from(c.suit().index())] += 1;
    }
    hole.iter()
        .any(|h| suits[usize::from(h.suit().index())] == 4)
}

/// [`bucket`] for the seat's strength on that board, already evaluated.
fn bucket_of(hole: [Card; 2], board: &[Card], strength: Strength) -> usize {
    let (a, b) = (hole[0].rank().index(), hole[1].rank().index());
    // The board's ranks, one bit each.
    let ranks = || board.iter().fold(0u16, |m, c| m | 1 << c.rank().index());
    let highest = |m: u16| (m != 0).then(|| 15 - m.leading_zeros() as u8);
    match category(strength) {
        Category::HighCard => usize::from(flush_draw(hole, board)),
        Category::Pair => {
            let ranks = ranks();
            let top = highest(ranks);
            let second = top.and_then(|t| highest(ranks & !(1 << t)));
            let on_board = |r: u8| ranks & 1 << r != 0;
            let k = if a == b {
                if Some(a) > top {
                    7
                } else {
                    3
                }
            } else {
                match (on_board(a), on_board(b)) {
                    (false, false) => 2,
                    (true, _) if Some(a) == top => 5 + usize::from(b >= 8),
                    (_, true) if Some(b) == top => 5 + usize::from(a >= 8),
                    (true, _) if Some(a) == second => 4,
                    (_, true) if Some(b) == second => 4,
                    _ => 3,
                }
            };
            if (k == 3 || k == 4) && flush_draw(hole, board) {
                8
            } else {
                k
            }
        }
        Category::TwoPair => {
            // A pair on the board: fewer ranks than cards.
            if (ranks().count_ones() as usize) < board.len() {
                9
            } else {
                10
            }
        }
        Category::Trips => 11,
        Category::Straight => 12,
        Category::Flush => 13,
        _ => 14,
    }
}

/// Each seat's chips from `pots` on a full board, from the live seats'
/// strengths: each pot to its best eligible hands, split evenly.
fn showdown(strength: &[Strength; MAX_SEATS], pots: &[Pot], out: &mut [f64; MAX_SEATS]) {
    for pot in pots {
        let best = pot.eligible.iter().map(|&s| strength[s]).max().unwrap_or(0);
        let winners = pot
            .eligible
            .iter()
            .filter(|&&s| strength[s] == best)
            .count();
        for &s in &pot.eligible {
            if strength[s] == best {
                out[s] += pot.amount as f64 / winners as f64;
            }
        }
    }
}

/// [`showdown`] for one pot that every live seat contests (heads-up
/// with equal chips in, the common case): the same chips, without the
/// pots' lists.
fn showdown_one_pot(
    strength: &[Strength; MAX_SEATS],
    seats: &[usize],
    amount: f64,
) -> [f64; MAX_SEATS] {
    let best = seats.iter().map(|&s| strength[s]).max().unwrap_or(0);
    let winners = seats.iter().filter(|&&s| strength[s] == best).count();
    let mut out = [0.0; MAX_SEATS];
    for &s in seats {
        if strength[s] == best {
            out[s] = amount / winners as f64;
        }
    }
    out
}

/// The means over a deal's outcomes of each live seat's `[bucket = k]`
/// and `chips × [bucket = k]`, and of its tendencies `t` and `chips × t`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Means {
    made: [[f64; BUCKETS]; MAX_SEATS],
    chips: [[f64; BUCKETS]; MAX_SEATS],
    tendency: [[f64; 2]; MAX_SEATS],
    tendency_chips: [[f64; 2]; MAX_SEATS],
}

impl Means {
    const ZERO: Means = Means {
        made: [[0.0; BUCKETS]; MAX_SEATS],
        chips: [[0.0; BUCKETS]; MAX_SEATS],
        tendency: [[0.0; 2]; MAX_SEATS],
        tendency_chips: [[0.0; 2]; MAX_SEATS],
    };

    /// Divides the live `seats`' sums by `by`.
    fn scale(&mut self, seats: &[usize], by: f64) {
        let k = 1.0 / by;
        for &s in seats {
            let rows = [&mut self.made[s], &mut self.chips[s]];
            for x in rows.into_iter().flatten() {
                *x *= k;
            }
            for x in [&mut self.tendency[s], &mut self.tendency_chips[s]]
                .into_iter()
                .flatten()
            {
                *x *= k;
            }
        }
    }

    /// Adds a seat's tendencies `t` in an outcome where it gets `chips`.
    fn add_tendency(&mut self, s: usize, t: [f64; 2], chips: f64) {
        for (kind, &x) in t.iter().enumerate() {
            self.tendency[s][kind] += x;
            self.tendency_chips[s][kind] += x * chips;
        }
    }
}

/// What each seat's agent tends to do with a made hand, learned from the
/// calibration hands ([`TendencyCounts`]): per street (flop, turn, river)
/// and [`key`], the chance that it bets or raises on the street, and the
/// pot's growth from the deal to the end of the hand (the final pot over
/// the pot when the cards came). Fixed before the run's hands, so a
/// feature made of them and the cards still has mean zero over the deal.
#[derive(Clone, Debug, PartialEq)]
pub struct Tendencies {
    /// Per `street × KEYS + key`: the chance of a bet, the pot's growth.
    table: Vec<[f64; 2]>,
}

impl Tendencies {
    /// The tendencies of a hand of key `key` on street `street` (0 the flop).
    pub fn of(&self, street: usize, key: usize) -> [f64; 2] {
        self.table[street * KEYS + key]
    }

    /// The tendencies of `hole` on `board` after the flop (the street
    /// told by the board's length, as observations count it); `None`
    /// before the flop.
    pub fn of_hand(&self, hole: [Card; 2], board: &[Card]) -> Option<[f64; 2]> {
        let street = board.len().checked_sub(3)?;
        let strength = Hand::from_cards(board)
            .combine(Hand::from_cards(&hole))
            .strength();
        Some(self.of(street, key(hole, board, strength)))
    }
}

/// How strongly a key's own mean is shrunk towards its bucket's, and a
/// bucket's towards its street's: like this many hands of the coarser mean.
const SHRINK: f64 = 10.0;

/// Counts of what an agent did with each key (see [`Tendencies`]).
#[derive(Clone, Debug)]
pub struct TendencyCounts {
    hands: Vec<f64>,
    sums: Vec<[f64; 2]>,
}

impl Default for TendencyCounts {
    fn default() -> TendencyCounts {
        TendencyCounts {
            hands: vec![0.0; TENDENCY_STREETS * KEYS],
            sums: vec![[0.0; 2]; TENDENCY_STREETS * KEYS],
        }
    }
}

impl TendencyCounts {
    /// Adds one seat's street: its key, whether it bet or raised, and the
    /// pot's growth.
    pub fn add(&mut self, o: &Observation) {
        let i = o.street * KEYS + o.key;
        self.hands[i] += 1.0;
        self.sums[i][0] += f64::from(u8::from(o.bet));
        self.sums[i][1] += o.growth;
    }

    /// The tendencies: each key's mean, shrunk towards its bucket's mean
    /// ([`SHRINK`] hands of it), itself shrunk towards the street's. Keys
    /// never seen get their bucket's.
    pub fn tendencies(&self) -> Tendencies {
        let mut table = vec![[0.0; 2]; TENDENCY_STREETS * KEYS];
        for street in 0..TENDENCY_STREETS {
            let keys = street * KEYS..(street + 1) * KEYS;
            let hands: f64 = self.hands[keys.clone()].iter().sum();
            for kind in 0..2 {
                let sum: f64 = self.sums[keys.clone()].iter().map(|x| x[kind]).sum();
                let street_mean = if hands > 0.0 { sum / hands } else { 0.0 };
                for b in 0..BUCKETS {
                    let of_bucket =
                        street * KEYS + b * HOLE_RANKS..street * KEYS + (b + 1) * HOLE_RANKS;
                    let n: f64 = self.hands[of_bucket.clone()].iter().sum();
                    let x: f64 = self.sums[of_bucket.clone()].iter().map(|x| x[kind]).sum();
                    let bucket_mean = (x + SHRINK * street_mean) / (n + SHRINK);
                    for i in of_bucket {
                        table[i][kind] =
                            (self.sums[i][kind] + SHRINK * bucket_mean) / (self.hands[i] + SHRINK);
                    }
                }
            }
        }
        Tendencies { table }
    }
}

/// One seat on one street, for [`TendencyCounts`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Observation {
    pub seat: usize,
    /// 0 the flop, 1 the turn, 2 the river.
    pub street: usize,
    pub key: usize,
    /// Whether the seat bet or raised on the street.
    pub bet: bool,
    /// The final pot over the pot when the street's cards came.
    pub growth: f64,
}

/// What each seat live after a deal of `hand` (flop, turn, river) held and
/// did on its street.
pub fn observations(hand: &HandState) -> Result<Vec<Observation>, CorrectionError> {
    let deals = deals(hand)?;
    let seats = hand.seats();
    let fin = seats.iter().map(|s| s.contributed).sum::<u64>() as f64;
    let board = hand.board();
    let history = hand.history();
    let dealt = hand.dealt_after();
    let mut out = Vec::new();
    for deal in &deals {
        let Some(street) = deal.board_after.checked_sub(3) else {
            continue;
        };
        let from = dealt[street].unwrap_or(history.len());
        let to = dealt
            .get(street + 1)
            .copied()
            .flatten()
            .unwrap_or(history.len());
        let pot = deal.contributed.iter().sum::<u64>() as f64;
        let after = &board[..deal.board_after];
        for (s, seat) in seats.iter().enumerate().filter(|&(s, _)| deal.live[s]) {
            let hole = [seat.hole[0], seat.hole[1]];
            let strength = Hand::from_cards(after)
                .combine(Hand::from_cards(&hole))
                .strength();
            let bet = history[from..to]
                .iter()
                .any(|&(who, a)| who == s && matches!(a, Action::RaiseTo(_)));
            out.push(Observation {
                seat: s,
                street,
                key: key(hole, after, strength),
                bet,
                growth: if pot > 0.0 { fin / pot } else { 1.0 },
            });
        }
    }
    Ok(out)
}

/// The tendencies each live seat's agent has on one street: looked up by
/// the seat's bucket (its hole ranks are fixed for the hand).
struct Lookup<'a> {
    /// Per seat, its street's table from its hole ranks on (every
    /// [`HOLE_RANKS`]-th entry is a bucket's), or empty.
    tables: [&'a [[f64; 2]]; MAX_SEATS],
    any: bool,
}

impl<'a> Lookup<'a> {
    fn new(
        tendencies: &'a [Option<&'a Tendencies>],
        street: usize,
        holes: &[[Card; 2]],
    ) -> Lookup<'a> {
        let mut tables: [&[[f64; 2]]; MAX_SEATS] = [&[]; MAX_SEATS];
        for ((t, x), h) in tables.iter_mut().zip(tendencies).zip(holes) {
            if let Some(x) = x {
                let from = street * KEYS + hole_ranks(*h);
                *t = &x.table[from..(street + 1) * KEYS];
            }
        }
        Lookup {
            any: tendencies.iter().any(Option::is_some),
            tables,
        }
    }

    fn any(&self) -> bool {
        self.any
    }

    /// Seat `s`'s tendencies with a hand of bucket `bucket`.
    #[inline]
    fn of(&self, s: usize, bucket: usize) -> [f64; 2] {
        self.tables[s]
            .get(bucket * HOLE_RANKS)
            .copied()
            .unwrap_or([0.0; 2])
    }
}

/// What one deal tells the features: the cards before and after it, the
/// chips in, who is live, and each seat's expected chips from the pots
/// just after it (the chance correction's value).
pub struct DealSeen<'a> {
    pub holes: &'a [[Card; 2]],
    pub live: &'a [bool],
    pub contributed: &'a [u64],
    /// The board before the deal: 0 cards (the flop) or 3 (the turn).
    pub before: &'a [Card],
    /// The board after it: 3 or 4 cards.
    pub after: &'a [Card],
    /// Each seat's expected chips just after the deal.
    pub expected: &'a [f64; MAX_SEATS],
}

/// A deal's features per seat: the `made` buckets, the `chips` buckets,
/// then the tendencies' four ([`TENDENCY`]).
pub const DEAL_FEATURES: usize = 2 * BUCKETS + 4;

/// One deal's features for every seat, in chips (the `made` buckets, the
/// `chips` buckets, then `pot × (t − E t)` and `V × t − E[V × t]` for the
/// seat's chance of a bet and its pot's growth; zero for seats not live,
/// and the tendencies' for seats without `tendencies`). The flop's means
/// are sampled with `trials` boards from `rng`; the turn's `made` and
/// tendency means are counted, its `chips` means sampled with `trials`
/// turn and river pairs; the river's (tendencies only) counted over every
/// river card, with the strengths `rivers` holds when it holds them.
pub fn deal_features(
    deal: &DealSeen<'_>,
    tendencies: &[Option<&Tendencies>],
    trials: u32,
    rivers: &RiverStrengths,
    rng: &mut GameRng,
) -> [[f64; DEAL_FEATURES]; MAX_SEATS] {
    let seats: Seats = (0..deal.holes.len()).filter(|&s| deal.live[s]).collect();
    let pots = build_pots(deal.contributed, deal.live);
    let mut known: CardSet = deal.holes.iter().flatten().copied().collect();
    known = known.union(deal.before.iter().copied().collect());
    let unseen: Cards = CardSet::FULL52.difference(known).iter().collect();
    let pot: f64 = deal.contributed.iter().sum::<u64>() as f64;
    let seen = Seen {
        holes: deal.holes,
        seats: &seats,
        pots: &pots,
        before: deal.before,
        unseen: &unseen,
    };
    let street = deal.after.len() - 3;
    let look = Lookup::new(tendencies, street, deal.holes);
    let trials = trials.max(1);
    let means = match street {
        0 => flop_means(&seen, &look, trials, rng),
        1 => turn_means(&seen, &look, trials, rng),
        _ => {
            let counted = rivers.of(deal.holes, deal.before, deal.live);
            debug_assert!(counted.is_none_or(|(cards, _)| cards == unseen.as_slice()));
            river_means(&seen, &look, counted.map(|(_, strength)| strength))
        }
    };
    let mut out = [[0.0; DEAL_FEATURES]; MAX_SEATS];
    for &s in &seats {
        let k = bucket(deal.holes[s], deal.after);
        if street < 2 {
            for j in 0..BUCKETS {
                let here = f64::from(u8::from(j == k));
                // The `made` features of a deal sum to zero: bucket 0's is
                // left out (0), so that no feature is the others' sum.
                if j > 0 {
                    out[s][j] = pot * (here - means.made[s][j]);
                }
                out[s][BUCKETS + j] = deal.expected[s] * here - means.chips[s][j];
            }
        }
        for (kind, t) in look.of(s, k).into_iter().enumerate() {
            let at = 2 * BUCKETS + 2 * kind;
            out[s][at] = pot * (t - means.tendency[s][kind]);
            out[s][at + 1] = deal.expected[s] * t - means.tendency_chips[s][kind];
        }
    }
    out
}

/// The cards of a deal's means: the live seats, the pots, the board before
/// and the cards the deal comes from.
struct Seen<'a> {
    holes: &'a [[Card; 2]],
    seats: &'a [usize],
    pots: &'a [Pot],
    before: &'a [Card],
    unseen: &'a [Card],
}

impl Seen<'_> {
    /// Each live seat's hole cards with the board before, as a hand to add
    /// cards to.
    fn hands(&self) -> [Hand; MAX_SEATS] {
        let base = Hand::from_cards(self.before);
        let mut hands = [Hand::EMPTY; MAX_SEATS];
        for &s in self.seats {
            hands[s] = base.combine(Hand::from_cards(&self.holes[s]));
        }
        hands
    }

    /// Each seat's chips from the pots when `runout` completes the board.
    fn showdown(&self, hands: &[Hand; MAX_SEATS], runout: Hand) -> [f64; MAX_SEATS] {
        let mut strength = [0; MAX_SEATS];
        for &s in self.seats {
            strength[s] = hands[s].combine(runout).strength();
        }
        self.chips(&strength)
    }

    /// Each seat's chips from the pots with the live seats' `strength`.
    #[inline]
    fn chips(&self, strength: &[Strength; MAX_SEATS]) -> [f64; MAX_SEATS] {
        if let [pot] = self.pots {
            if pot.eligible.len() == self.seats.len() {
                return showdown_one_pot(strength, self.seats, pot.amount as f64);
            }
        }
        let mut chips = [0.0; MAX_SEATS];
        showdown(strength, self.pots, &mut chips);
        chips
    }
}

/// Which three of a flop board's five cards count as its flop: two
/// flops, sharing a card. The board's five cards come in a uniform order,
/// so each is a uniform flop, and each gives an unbiased sample of the
/// `made` and `chips` means for the cost of a bucket and not of a
/// showdown. (Five flops a board, every card in three, took out a little
/// more noise for 8% more time a run.)
const FLOPS_OF_A_BOARD: [[usize; 3]; 2] = [[0, 1, 2], [2, 3, 4]];

/// The flop's means from `trials` boards of five drawn [`Disjoint`]ly from
/// the unseen cards: the chips from all five, with the bucket of each of
/// [`FLOPS_OF_A_BOARD`].
fn flop_means(seen: &Seen<'_>, look: &Lookup<'_>, trials: u32, rng: &mut GameRng) -> Means {
    let mut means = Means::ZERO;
    let mut deck: Cards = seen.unseen.iter().copied().collect();
    let mut boards = Disjoint::new(&mut deck);
    let hands = seen.hands();
    let holes = seen.holes.iter().map(|h| Hand::from_cards(h));
    let mut alone = [Hand::EMPTY; MAX_SEATS];
    alone.iter_mut().zip(holes).for_each(|(a, h)| *a = h);
    for _ in 0..trials {
        let board = boards.draw(5, rng);
        let chips = seen.showdown(&hands, Hand::from_cards(board));
        for flop in FLOPS_OF_A_BOARD {
            let flop = flop.map(|k| board[k]);
            let cards = Hand::from_cards(&flop);
            for &s in seen.seats {
                let k = bucket_of(seen.holes[s], &flop, alone[s].combine(cards).strength());
                means.made[s][k] += 1.0;
                means.chips[s][k] += chips[s];
                means.add_tendency(s, look.of(s, k), chips[s]);
            }
        }
    }
    means.scale(
        seen.seats,
        f64::from(trials) * FLOPS_OF_A_BOARD.len() as f64,
    );
    means
}

/// The turn's means: `made` over every turn card, `chips` from `trials`
/// pairs of cards drawn [`Disjoint`]ly from the unseen ones, each pair
/// counted both ways (either card the turn, the other the river: one
/// showdown, two samples).
fn turn_means(seen: &Seen<'_>, look: &Lookup<'_>, trials: u32, rng: &mut GameRng) -> Means {
    let unseen = seen.unseen;
    // Each turn card's bucket, per seat, counted once.
    let mut buckets = [[0u8; MAX_SEATS]; 52];
    let mut board = [
        seen.before[0],
        seen.before[1],
        seen.before[2],
        seen.before[0],
    ];
    let mut made = [[0.0; BUCKETS]; MAX_SEATS];
    let mut tendency = [[0.0; 2]; MAX_SEATS];
    let hands = seen.hands();
    for (i, &turn) in unseen.iter().enumerate() {
        board[3] = turn;
        for &s in seen.seats {
            let k = bucket_of(seen.holes[s], &board, hands[s].with(turn).strength());
            buckets[i][s] = k as u8;
            made[s][k] += 1.0;
            for (m, t) in tendency[s].iter_mut().zip(look.of(s, k)) {
                *m += t;
            }
        }
    }
    let mut means = Means::ZERO;
    let n = unseen.len();
    let mut order: ArrayVec<usize, 52> = (0..n).collect();
    let mut pairs = Disjoint::new(&mut order);
    for _ in 0..trials {
        let &[a, b] = pairs.draw(2, rng) else {
            unreachable!("a draw of two")
        };
        add_pair(seen, look, &hands, &buckets, [a, b], &mut means);
    }
    means.scale(seen.seats, f64::from(trials));
    for (m, row) in means.made.iter_mut().zip(&made) {
        for (x, count) in m.iter_mut().zip(row) {
            *x = count / n as f64;
        }
    }
    for (m, row) in means.tendency.iter_mut().zip(&tendency) {
        for (x, sum) in m.iter_mut().zip(row) {
            *x = sum / n as f64;
        }
    }
    means
}

/// The river's tendency means, over every river card (the other means are
/// left at zero: the river has no bucket features), with the live seats'
/// strengths with each card from `counted` (per card of `seen.unseen`)
/// when given.
fn river_means(
    seen: &Seen<'_>,
    look: &Lookup<'_>,
    counted: Option<&[[Strength; MAX_SEATS]]>,
) -> Means {
    let mut means = Means::ZERO;
    if !look.any() {
        return means;
    }
    let hands = seen.hands();
    let before = seen.before;
    let mut board = [before[0], before[1], before[2], before[3], before[0]];
    for (i, &river) in seen.unseen.iter().enumerate() {
        board[4] = river;
        let strength = match counted {
            Some(rows) => rows[i],
            None => {
                let mut row = [0; MAX_SEATS];
                for &s in seen.seats {
                    row[s] = hands[s].with(river).strength();
                }
                row
            }
        };
        let chips = seen.chips(&strength);
        for &s in seen.seats {
            let k = bucket_of(seen.holes[s], &board, strength[s]);
            means.add_tendency(s, look.of(s, k), chips[s]);
        }
    }
    means.scale(seen.seats, seen.unseen.len() as f64);
    means
}

/// One pair of unseen cards (their positions in `seen.unseen`) in the
/// turn's `chips` means: the showdown's chips, half in the bucket the
/// first card makes as the turn, half in the second's. Over every pair
/// the sum is the mean over each turn card of the chips the rivers give
/// it, times the bucket: what the means estimate.
fn add_pair(
    seen: &Seen<'_>,
    look: &Lookup<'_>,
    hands: &[Hand; MAX_SEATS],
    buckets: &[[u8; MAX_SEATS]],
    pair: [usize; 2],
    means: &mut Means,
) {
    let [a, b] = pair;
    let runout = Hand::EMPTY.with(seen.unseen[a]).with(seen.unseen[b]);
    let chips = seen.showdown(hands, runout);
    for &s in seen.seats {
        for k in [buckets[a][s], buckets[b][s]].map(usize::from) {
            means.chips[s][k] += chips[s] / 2.0;
            let [bet, growth] = look.of(s, k);
            means.add_tendency(s, [bet / 2.0, growth / 2.0], chips[s]);
        }
    }
}

/// Every seat's strength features in a finished hold'em hand whose
/// [`deals`] are `deals` and chance correction `chance`, the sampled means with `trials` boards from
/// `rng`; the tendency features with each seat's `tendencies` (by seat;
/// zeros for a seat without), the river's with the strengths `rivers`
/// holds ([`super::chance::river_strengths`]).
pub fn strength_features(
    hand: &HandState,
    deals: &[Deal],
    chance: &ChanceCorrection,
    tendencies: &[Option<&Tendencies>],
    trials: u32,
    rivers: &RiverStrengths,
    rng: &mut GameRng,
) -> Vec<StrengthFeatures> {
    let seats = hand.seats();
    let holes = holes_of(hand);
    let board = hand.board();
    let mut out = vec![[0.0; STRENGTH]; seats.len()];
    for (k, deal) in deals.iter().enumerate() {
        let Some(street) = deal.board_after.checked_sub(3) else {
            continue;
        };
        let seen = DealSeen {
            holes: &holes,
            live: &deal.live,
            contributed: &deal.contributed,
            before: &board[..deal.board_before],
            after: &board[..deal.board_after],
            expected: &chance.after[k],
        };
        let f = deal_features(&seen, tendencies, trials, rivers, rng);
        for (s, row) in out.iter_mut().enumerate() {
            if street < STREETS {
                row[street * 2 * BUCKETS..(street + 1) * 2 * BUCKETS]
                    .copy_from_slice(&f[s][..2 * BUCKETS]);
            }
            let at = BUCKET_FEATURES + 4 * street;
            row[at..at + 4].copy_from_slice(&f[s][2 * BUCKETS..]);
        }
    }
    out
}

#[cfg(test)]
#[path = "strength_tests.rs"]
mod tests;
