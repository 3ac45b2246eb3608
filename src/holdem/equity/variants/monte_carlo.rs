//! Seeded Monte Carlo variant equity: batches of accepted
//! trials, batch `b` drawn from `game_rng(seed, b)`, run in parallel and
//! added up as integers, so the answer depends on the seed and the
//! stopping rule only, never on threads.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Instant;

use rand::Rng;

use super::hands::{Hands, Holding};
use super::VariantPrepared;
use crate::cards::Card;
use crate::holdem::equity::monte_carlo::{check_stop, result, wanted, waves};
use crate::holdem::equity::sampler::should_stop;
use crate::holdem::equity::tally::Tally;
use crate::holdem::equity::types::{EquityError, EquityResult, Stop, MAX_DEALS, MAX_PLAYERS};
use crate::holdem::eval::{tables, Hand, Strength, Tables};
use crate::holdem::omaha;
use crate::holdem::shortdeck;
use crate::rng::{game_rng, GameRng};

/// Deals proposed to measure how often one is valid.
const PILOT: u64 = 20_000;

/// A hand as a trial uses it: its cards, Omaha's pairs, the hold'em hand.
#[derive(Clone, Copy)]
struct Dealt {
    mask: u64,
    hole: omaha::Hole,
    hand: Hand,
}

impl Dealt {
    fn new(cards: &[Card]) -> Dealt {
        Dealt {
            mask: cards.iter().fold(0, |m, c| m | c.bit()),
            hole: omaha::Hole::new(cards),
            hand: Hand::from_cards(cards),
        }
    }
}

/// How a player's hand is drawn.
enum Seat {
    /// One of these, uniformly (`cum` empty) or by cumulative weight.
    Listed { hands: Vec<Dealt>, cum: Vec<f64> },
    /// Any hand of the cards left, uniformly.
    Random,
}

impl Seat {
    fn new(hands: &Hands) -> Seat {
        match hands {
            Hands::Random => Seat::Random,
            Hands::Listed(list) => {
                let uniform = list.iter().all(|h| h.weight == list[0].weight);
                let cum = if uniform {
                    Vec::new()
                } else {
                    list.iter()
                        .scan(0.0, |a, h: &Holding| {
                            *a += h.weight;
                            Some(*a)
                        })
                        .collect()
                };
                Seat::Listed {
                    hands: list.iter().map(|h| Dealt::new(h.cards())).collect(),
                    cum,
                }
            }
        }
    }
}

struct Sampler<'a> {
    p: &'a VariantPrepared,
    seats: Vec<Seat>,
    /// The game's deck, in index order.
    deck: Vec<Card>,
}

impl Sampler<'_> {
    /// A card of the deck not in `used`, uniformly.
    #[inline]
    fn card(&self, rng: &mut GameRng, used: u64) -> Card {
        loop {
            let c = self.deck[below(rng, self.deck.len() as u64) as usize];
            if used & c.bit() == 0 {
                return c;
            }
        }
    }

    /// Deals every player a hand; `None` when listed hands collide (the
    /// whole deal is then drawn again, which keeps the joint distribution
    /// exact: a random player's draw has as many cards to choose from in
    /// every deal).
    fn deal(&self, rng: &mut GameRng, out: &mut [Dealt; MAX_PLAYERS]) -> Option<u64> {
        let mut used = self.p.used.0;
        let h = self.p.game.hole_cards();
        for (seat, o) in self.seats.iter().zip(out.iter_mut()) {
            match seat {
                Seat::Listed { hands, cum } => {
                    let i = if hands.len() == 1 {
                        0
                    } else if cum.is_empty() {
                        below(rng, hands.len() as u64) as usize
                    } else {
                        let total = cum[cum.len() - 1];
                        let u = (rng.next_u64() >> 11) as f64 / (1u64 << 53) as f64 * total;
                        cum.partition_point(|&c| c <= u).min(cum.len() - 1)
                    };
                    let d = hands[i];
                    if d.mask & used != 0 {
                        return None;
                    }
                    used |= d.mask;
                    *o = d;
                }
                Seat::Random => {
                    let mut cards = [Card::from_index(0); super::hands::MAX_HOLE];
                    for c in cards.iter_mut().take(h) {
                        *c = self.card(rng, used);
                        used |= c.bit();
                    }
                    *o = Dealt::new(&cards[..h]);
                }
            }
        }
        Some(used)
    }

    /// `size` accepted trials (fewer if the deadline passes or `cancel` is
    /// set).
    fn batch(
        &self,
        t: &Tables,
        rng: &mut GameRng,
        size: u64,
        deadline: Option<Instant>,
        cancel: Option<&AtomicBool>,
    ) -> Tally {
        let n = self.p.players();
        let k = self.p.board.len();
        let mut tally = Tally::default();
        let mut dealt = [Dealt::new(&[Card::from_index(0), Card::from_index(1)]); MAX_PLAYERS];
        let mut s = [0 as Strength; MAX_PLAYERS];
        let mut board = [Card::from_index(0); 5];
        board[..k].copy_from_slice(&self.p.board);
        let (mut accepted, mut drawn) = (0u64, 0u64);
        while accepted < size {
            drawn += 1;
            if drawn.is_multiple_of(4096) && should_stop(deadline, cancel) {
                break;
            }
            let Some(mut used) = self.deal(rng, &mut dealt) else {
                continue;
            };
            for slot in board.iter_mut().skip(k) {
                *slot = self.card(rng, used);
                used |= slot.bit();
            }
            if self.p.game.is_omaha() {
                let b = omaha::Board::new(&board);
                for i in 0..n {
                    s[i] = b.strength_in(t, &dealt[i].hole);
                }
            } else {
                let b = Hand::from_cards(&board);
                for i in 0..n {
                    s[i] = shortdeck::strength(b.combine(dealt[i].hand));
                }
            }
            tally.record(&s[..n]);
            accepted += 1;
        }
        tally
    }
}

/// Seeded Monte Carlo equity, stopped by `stop`; stops with
/// [`EquityError::Interrupted`] soon after `cancel` is set.
pub fn monte_carlo(
    p: &VariantPrepared,
    seed: u64,
    stop: Stop,
    cancel: Option<&AtomicBool>,
) -> Result<EquityResult, EquityError> {
    check_stop(stop)?;
    let sampler = Sampler {
        p,
        seats: p.players.iter().map(Seat::new).collect(),
        deck: p.game.deck().to_vec(),
    };
    // How often a proposed deal is valid, from a stream of its own.
    let mut pilot_rng = game_rng(seed ^ 0x9e37_79b9_7f4a_7c15, u64::MAX);
    let mut dealt = [Dealt::new(&[Card::from_index(0), Card::from_index(1)]); MAX_PLAYERS];
    let valid = (0..PILOT)
        .filter(|_| sampler.deal(&mut pilot_rng, &mut dealt).is_some())
        .count();
    let rate = valid.max(1) as f64 / PILOT as f64;
    if let Some(trials) = wanted(stop) {
        if trials as f64 / rate > MAX_DEALS && rate < 0.25 {
            return Err(EquityError::RareDeals { rate, trials });
        }
    }
    let start = Instant::now();
    let deadline = match stop {
        Stop::Time(d) => Some(start + d),
        _ => None,
    };
    let t = tables();
    let total = waves(
        seed,
        stop,
        p.players(),
        start,
        |rng, size| sampler.batch(t, rng, size, deadline, cancel),
        |_| !cancel.is_some_and(|c| c.load(Ordering::Relaxed)),
    )?;
    Ok(result(&total, p.players(), seed))
}

/// A uniform integer below `n` by multiply-high (Lemire).
#[inline(always)]
fn below(rng: &mut GameRng, n: u64) -> u64 {
    ((u128::from(rng.next_u64()) * u128::from(n)) >> 64) as u64
}
