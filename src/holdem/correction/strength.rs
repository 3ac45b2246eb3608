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

use super::chance::{deals, ChanceCorrection, CorrectionError};
use crate::cards::{Card, CardSet};
use crate::holdem::equity::allin::{Disjoint, MAX_SEATS};
use crate::holdem::eval::{category, Category, Hand, Strength};
use crate::holdem::table::pots::{build_pots, Pot};
use crate::holdem::table::HandState;
use crate::rng::GameRng;

/// Made-hand buckets, see [`bucket`].
pub const BUCKETS: usize = 15;
/// The deals with features: flop and turn (the river's explained little of
/// what was left, docs/duplicate.md).
pub const STREETS: usize = 2;
/// Features per seat: per street, the `made` buckets then the `chips`
/// buckets.
pub const STRENGTH: usize = STREETS * 2 * BUCKETS;

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

/// Whether `hole` on `board` is a flush draw (see [`bucket`]).
fn flush_draw(hole: [Card; 2], board: &[Card]) -> bool {
    board.len() < 5
        && hole.iter().any(|h| {
            let suited = |c: &&Card| c.suit() == h.suit();
            hole.iter().filter(suited).count() + board.iter().filter(suited).count() == 4
        })
}

/// [`bucket`] for the seat's strength on that board, already evaluated.
fn bucket_of(hole: [Card; 2], board: &[Card], strength: Strength) -> usize {
    let (a, b) = (hole[0].rank(), hole[1].rank());
    match category(strength) {
        Category::HighCard if flush_draw(hole, board) => 1,
        Category::HighCard => 0,
        Category::Pair => {
            let top = board.iter().map(|c| c.rank()).max();
            let second = board
                .iter()
                .map(|c| c.rank())
                .filter(|&r| Some(r) != top)
                .max();
            let on_board = |r| board.iter().any(|c| c.rank() == r);
            let k = if a == b {
                if Some(a) > top {
                    7
                } else {
                    3
                }
            } else {
                match (on_board(a), on_board(b)) {
                    (false, false) => 2,
                    (true, _) if Some(a) == top => 5 + usize::from(b.index() >= 8),
                    (_, true) if Some(b) == top => 5 + usize::from(a.index() >= 8),
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
            let board_pair = board
                .iter()
                .enumerate()
                .any(|(i, c)| board[i + 1..].iter().any(|d| d.rank() == c.rank()));
            if board_pair {
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
/// and `chips × [bucket = k]`.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Means {
    made: [[f64; BUCKETS]; MAX_SEATS],
    chips: [[f64; BUCKETS]; MAX_SEATS],
}

impl Means {
    const ZERO: Means = Means {
        made: [[0.0; BUCKETS]; MAX_SEATS],
        chips: [[0.0; BUCKETS]; MAX_SEATS],
    };

    fn scale(&mut self, by: f64) {
        for row in self.made.iter_mut().chain(self.chips.iter_mut()) {
            for x in row {
                *x /= by;
            }
        }
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

/// One deal's features for every seat, in chips (the `made` buckets then
/// the `chips` buckets; zero for seats not live). The flop's means are
/// sampled with `trials` boards from `rng`; the turn's `made` means are
/// counted, its `chips` means sampled with `trials` turn and river pairs.
pub fn deal_features(
    deal: &DealSeen<'_>,
    trials: u32,
    rng: &mut GameRng,
) -> [[f64; 2 * BUCKETS]; MAX_SEATS] {
    let seats: Vec<usize> = (0..deal.holes.len()).filter(|&s| deal.live[s]).collect();
    let pots = build_pots(deal.contributed, deal.live);
    let mut known: CardSet = deal.holes.iter().flatten().copied().collect();
    known = known.union(deal.before.iter().copied().collect());
    let unseen: Vec<Card> = CardSet::FULL52.difference(known).iter().collect();
    let pot: f64 = deal.contributed.iter().sum::<u64>() as f64;
    let seen = Seen {
        holes: deal.holes,
        seats: &seats,
        pots: &pots,
        before: deal.before,
        unseen: &unseen,
    };
    let trials = trials.max(1);
    let means = if deal.before.is_empty() {
        flop_means(&seen, trials, rng)
    } else {
        turn_means(&seen, trials, rng)
    };
    let mut out = [[0.0; 2 * BUCKETS]; MAX_SEATS];
    for &s in &seats {
        let k = bucket(deal.holes[s], deal.after);
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
        if let [pot] = self.pots {
            if pot.eligible.len() == self.seats.len() {
                return showdown_one_pot(&strength, self.seats, pot.amount as f64);
            }
        }
        let mut chips = [0.0; MAX_SEATS];
        showdown(&strength, self.pots, &mut chips);
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
fn flop_means(seen: &Seen<'_>, trials: u32, rng: &mut GameRng) -> Means {
    let mut means = Means::ZERO;
    let mut deck = seen.unseen.to_vec();
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
            }
        }
    }
    means.scale(f64::from(trials) * FLOPS_OF_A_BOARD.len() as f64);
    means
}

/// The turn's means: `made` over every turn card, `chips` from `trials`
/// pairs of cards drawn [`Disjoint`]ly from the unseen ones, each pair
/// counted both ways (either card the turn, the other the river: one
/// showdown, two samples).
fn turn_means(seen: &Seen<'_>, trials: u32, rng: &mut GameRng) -> Means {
    let unseen = seen.unseen;
    // Each turn card's bucket, per seat, counted once.
    let mut buckets = vec![[0u8; MAX_SEATS]; unseen.len()];
    let mut board = [
        seen.before[0],
        seen.before[1],
        seen.before[2],
        seen.before[0],
    ];
    let mut made = [[0.0; BUCKETS]; MAX_SEATS];
    let hands = seen.hands();
    for (i, &turn) in unseen.iter().enumerate() {
        board[3] = turn;
        for &s in seen.seats {
            let k = bucket_of(seen.holes[s], &board, hands[s].with(turn).strength());
            buckets[i][s] = k as u8;
            made[s][k] += 1.0;
        }
    }
    let mut means = Means::ZERO;
    let n = unseen.len();
    let mut order: Vec<usize> = (0..n).collect();
    let mut pairs = Disjoint::new(&mut order);
    for _ in 0..trials {
        let &[a, b] = pairs.draw(2, rng) else {
            unreachable!("a draw of two")
        };
        add_pair(seen, &hands, &buckets, [a, b], &mut means);
    }
    means.scale(f64::from(trials));
    for (m, row) in means.made.iter_mut().zip(&made) {
        for (x, count) in m.iter_mut().zip(row) {
            *x = count / n as f64;
        }
    }
    means
}

/// One pair of unseen cards (their positions in `seen.unseen`) in the
/// turn's `chips` means: the showdown's chips, half in the bucket the
/// first card makes as the turn, half in the second's. Over every pair
/// the sum is the mean over each turn card of the chips the rivers give
/// it, times the bucket: what the means estimate.
fn add_pair(
    seen: &Seen<'_>,
    hands: &[Hand; MAX_SEATS],
    buckets: &[[u8; MAX_SEATS]],
    pair: [usize; 2],
    means: &mut Means,
) {
    let [a, b] = pair;
    let runout = Hand::EMPTY.with(seen.unseen[a]).with(seen.unseen[b]);
    let chips = seen.showdown(hands, runout);
    for &s in seen.seats {
        means.chips[s][usize::from(buckets[a][s])] += chips[s] / 2.0;
        means.chips[s][usize::from(buckets[b][s])] += chips[s] / 2.0;
    }
}

/// Every seat's strength features in a finished hold'em hand whose chance
/// correction is `chance`, the sampled means with `trials` boards from
/// `rng`.
pub fn strength_features(
    hand: &HandState,
    chance: &ChanceCorrection,
    trials: u32,
    rng: &mut GameRng,
) -> Result<Vec<StrengthFeatures>, CorrectionError> {
    let deals = deals(hand)?;
    let seats = hand.seats();
    let holes: Vec<[Card; 2]> = seats.iter().map(|s| [s.hole[0], s.hole[1]]).collect();
    let board = hand.board();
    let mut out = vec![[0.0; STRENGTH]; seats.len()];
    for (k, deal) in deals.iter().enumerate() {
        let street = match deal.board_after {
            3 => 0,
            4 => 1,
            _ => continue,
        };
        let seen = DealSeen {
            holes: &holes,
            live: &deal.live,
            contributed: &deal.contributed,
            before: &board[..deal.board_before],
            after: &board[..deal.board_after],
            expected: &chance.after[k],
        };
        let f = deal_features(&seen, trials, rng);
        for (s, row) in out.iter_mut().enumerate() {
            row[street * 2 * BUCKETS..(street + 1) * 2 * BUCKETS].copy_from_slice(&f[s]);
        }
    }
    Ok(out)
}

#[cfg(test)]
#[path = "strength_tests.rs"]
mod tests;
