//! Drawing one Monte Carlo trial: each player's hole cards from their
//! weighted range, then the rest of the board uniformly, and the showdown.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::Rng;

use super::query::Prepared;
use super::range::Range;
use super::tally::Tally;
use super::types::{pair_set, MAX_PLAYERS};
use crate::cards::{Card, CardSet};
use crate::holdem::eval::{tables, Hand, Strength};
use crate::rng::GameRng;

/// Deals drawn to measure how often a random deal of hole cards is valid
/// (ranges that share cards reject most deals).
pub(super) const PILOT_DEALS: u64 = 200_000;

/// Draws deals: hole cards from the weighted ranges (rejecting conflicting
/// deals as a whole, which keeps the joint distribution exact), then the rest
/// of the board uniformly.
pub(super) struct Sampler<'a> {
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
pub(super) struct Seat {
    pub(super) combos: Box<[(CardSet, Hand)]>,
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
    pub(super) fn new(r: &Range) -> Seat {
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
    pub(super) fn draw(&self, rng: &mut GameRng) -> usize {
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
    pub(super) fn new(p: &'a Prepared) -> Sampler<'a> {
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
    pub(super) fn acceptance(&self, rng: &mut GameRng) -> f64 {
        let n = self.p.players();
        pilot_acceptance(rng, |rng, hands| self.deal_holes(rng, &mut hands[..n]))
    }

    /// `size` accepted trials, or fewer if `deadline` passes first (only
    /// `--time` has one: its answer depends on the machine anyway) or
    /// `cancel` is set (the run is then abandoned).
    pub(super) fn batch(
        &self,
        rng: &mut GameRng,
        size: u64,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
    ) -> Tally {
        let n = self.p.players();
        let hands = match &self.fixed {
            Some((_, fixed)) => *fixed,
            None => [Hand::EMPTY; MAX_PLAYERS],
        };
        let trials = Trials {
            board: self.board,
            missing: 5 - self.p.board.len(),
            players: n,
            size,
            deadline,
            cancel,
        };
        trials.run(rng, hands, |rng, hands| match &self.fixed {
            Some((used, _)) => Some(*used),
            None => self.deal_holes(rng, &mut hands[..n]),
        })
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

/// Whether a batch stops early: the deadline passed, or the caller asked
/// to stop (checked every 4,096 draws, never per draw).
#[inline]
pub(crate) fn should_stop(deadline: Option<Instant>, cancel: Option<&AtomicBool>) -> bool {
    deadline.is_some_and(|d| Instant::now() >= d)
        || cancel.is_some_and(|c| c.load(Ordering::Relaxed))
}

/// Completes the board around the `used` cards (board, dead and hole cards),
/// then records the showdown of `hands` in `tally`: the rest of a trial,
/// whichever way its hole cards were drawn.
#[inline(always)]
/// The share of `propose`'s deals that are valid, from [`PILOT_DEALS`] of
/// them (at least one in `PILOT_DEALS`): how a sampler's cost is foreseen.
pub(super) fn pilot_acceptance(
    rng: &mut GameRng,
    mut propose: impl FnMut(&mut GameRng, &mut [Hand; MAX_PLAYERS]) -> Option<CardSet>,
) -> f64 {
    let mut hands = [Hand::EMPTY; MAX_PLAYERS];
    let valid = (0..PILOT_DEALS)
        .filter(|_| propose(rng, &mut hands).is_some())
        .count() as f64;
    valid.max(1.0) / PILOT_DEALS as f64
}

/// A batch of trials to tally: the board so far, the players, how many
/// accepted trials, and when to stop early.
pub(super) struct Trials<'a> {
    pub board: Hand,
    pub missing: usize,
    pub players: usize,
    pub size: u64,
    pub deadline: Option<Instant>,
    pub cancel: Option<&'a AtomicBool>,
}

impl Trials<'_> {
    /// The loop both samplers share: `propose` deals the players' hole
    /// cards into `hands` (`None` when they collide: the deal is redrawn),
    /// then the board is completed and the showdown tallied. Stops after
    /// `size` accepted trials, or early when `deadline` passes or `cancel`
    /// is set (checked every 4,096 draws).
    pub(super) fn run(
        &self,
        rng: &mut GameRng,
        mut hands: [Hand; MAX_PLAYERS],
        mut propose: impl FnMut(&mut GameRng, &mut [Hand; MAX_PLAYERS]) -> Option<CardSet>,
    ) -> Tally {
        let n = self.players;
        let mut tally = Tally::default();
        let mut strengths = [0 as Strength; MAX_PLAYERS];
        let mut accepted = 0;
        let mut drawn = 0u64;
        while accepted < self.size {
            drawn += 1;
            if drawn.is_multiple_of(4096) && should_stop(self.deadline, self.cancel) {
                break;
            }
            let Some(used) = propose(rng, &mut hands) else {
                continue;
            };
            play_out(
                rng,
                self.board,
                used,
                self.missing,
                &hands[..n],
                &mut strengths,
                &mut tally,
            );
            accepted += 1;
        }
        if n == 2 {
            tally.finish_heads_up();
        }
        tally
    }
}

pub(super) fn play_out(
    rng: &mut GameRng,
    board: Hand,
    mut used: CardSet,
    missing: usize,
    hands: &[Hand],
    strengths: &mut [Strength; MAX_PLAYERS],
    tally: &mut Tally,
) {
    let t = tables();
    let n = hands.len();
    let mut board = board;
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

#[cfg(test)]
mod tests {
    use super::{Cards52, Sampler};
    use crate::cards::{parse_cards, CardSet};
    use crate::holdem::equity::range::Range;
    use crate::holdem::equity::Query;
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
                once.batch(&mut game_rng(9, 1), 20_000, None, None),
                every.batch(&mut game_rng(9, 1), 20_000, None, None)
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
