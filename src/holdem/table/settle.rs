//! The end of a hand: the uncalled bet returned, the pots laid (by the
//! antes rule, and again after PokerKit's muck under the first-winner odd
//! chip rule) and paid, kept as seat masks in fixed arrays ([`Settled`])
//! and spelled out as vectors on demand ([`Payout`]); with the slow vector
//! reference the tests hold it to.

#[cfg(test)]
use super::pots::{self, build_pots};
use super::pots::{split, OddChips, Pot, Seats};
use super::{clockwise, HandState, Seat, Street};
use crate::holdem::eval::{Hand as EvalHand, Strength};
use crate::holdem::variant::Game;
use crate::holdem::{omaha, shortdeck};

/// The result of a finished hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Payout {
    /// Pots as built at the end (one when nobody was all-in).
    pub pots: Vec<Pot>,
    /// Per pot: (seat, chips won).
    pub shares: Vec<Vec<(usize, u64)>>,
    /// Whether hands were shown (more than one live seat at the end).
    pub showdown: bool,
    /// Strength of each live seat at showdown.
    pub strengths: Vec<Option<Strength>>,
}

/// The most pots a hand can have: one per distinct contribution of a live
/// seat (at most 10), and one of dead antes.
pub(super) const MAX_POTS: usize = 11;

/// One pot of a finished hand, as seat masks (bit `s` for seat `s`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Layer {
    pub amount: u64,
    /// Seats that could win it.
    pub eligible: u16,
    /// Seats that won a share of it.
    pub winners: u16,
}

/// How a finished hand was paid, without allocation: the pots as seat
/// masks, low layer first, and the showdown strengths (see
/// [`HandState::settled`]; [`Payout`] is the same in vectors).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Settled {
    pots: [Layer; MAX_POTS],
    count: usize,
    strengths: [Option<Strength>; 10],
    /// Chips each seat took from the pots (the uncalled bet given back is
    /// no share).
    won: [u64; 10],
    /// Whether hands were shown (more than one live seat at the end).
    pub showdown: bool,
    n: usize,
}

impl Settled {
    /// The pots, main pot first.
    pub fn pots(&self) -> &[Layer] {
        &self.pots[..self.count]
    }

    /// Strength of each live seat at showdown.
    pub fn strengths(&self) -> &[Option<Strength>] {
        &self.strengths[..self.n]
    }

    /// Chips each seat took from the pots, seat 0 first: the sum of its
    /// [`Payout::shares`] (the uncalled bet given back is no share).
    pub fn won(&self) -> &[u64] {
        &self.won[..self.n]
    }

    fn push(&mut self, amount: u64, eligible: u16) {
        self.pots[self.count] = Layer {
            amount,
            eligible,
            winners: 0,
        };
        self.count += 1;
    }

    /// [`build_pots`] on arrays: one layer per distinct contribution of a
    /// seat in `live` (ascending), folded chips in the layers they reach.
    fn layer(&mut self, contributed: &[u64], live: u16) {
        let mut levels = [0u64; 10];
        let mut k = 0;
        for (s, &c) in contributed.iter().enumerate() {
            if live & (1 << s) != 0 && c > 0 {
                // Insertion into the sorted distinct levels.
                let mut at = k;
                while at > 0 && levels[at - 1] > c {
                    at -= 1;
                }
                if at > 0 && levels[at - 1] == c {
                    continue;
                }
                levels.copy_within(at..k, at + 1);
                levels[at] = c;
                k += 1;
            }
        }
        let mut below = 0u64;
        for (i, &level) in levels[..k].iter().enumerate() {
            let top = i + 1 == k;
            let mut amount = 0;
            let mut eligible = 0u16;
            for (s, &c) in contributed.iter().enumerate() {
                let capped = if top { c } else { c.min(level) };
                amount += capped.saturating_sub(below);
                if live & (1 << s) != 0 && c >= level {
                    eligible |= 1 << s;
                }
            }
            self.push(amount, eligible);
            below = level;
        }
    }

    /// [`pots::build_pots_dead_antes`] on arrays: the bets after the antes
    /// layered by [`Settled::layer`], and all the antes in one pot open to
    /// every seat of `live`, joined to the first layer when that layer is
    /// open to them all (else laid under it).
    fn layer_dead_antes(&mut self, contributed: &[u64], antes: &[u64], live: u16) {
        let mut bets = [0u64; 10];
        for (b, (c, a)) in bets.iter_mut().zip(contributed.iter().zip(antes)) {
            *b = c - a;
        }
        let first = self.count;
        self.layer(&bets[..contributed.len()], live);
        let total: u64 = antes.iter().sum();
        if total == 0 {
            return;
        }
        if self.count > first && self.pots[first].eligible == live {
            self.pots[first].amount += total;
        } else {
            // Laid under the others: at most 10 layers, so one more fits.
            self.pots.copy_within(first..self.count, first + 1);
            self.pots[first] = Layer {
                amount: total,
                eligible: live,
                winners: 0,
            };
            self.count += 1;
        }
    }

    /// The best strength among `seats` (`None` without a showdown).
    fn best(&self, seats: u16) -> Option<Strength> {
        (0..self.n)
            .filter(|&s| seats & (1 << s) != 0)
            .filter_map(|s| self.strengths[s])
            .max()
    }

    /// The seats of `seats` whose strength is `best`.
    fn holding(&self, seats: u16, best: Option<Strength>) -> u16 {
        (0..self.n)
            .filter(|&s| seats & (1 << s) != 0 && self.strengths[s] == best)
            .fold(0, |m, s| m | 1 << s)
    }

    /// The same payout in vectors: eligible seats ascending, shares by
    /// [`split`] in seat order from left of the button.
    pub(super) fn payout(&self, button: usize, odd: OddChips) -> Payout {
        let seats =
            |mask: u16| -> Seats { (0..self.n).filter(|&s| mask & (1 << s) != 0).collect() };
        let pots = self
            .pots()
            .iter()
            .map(|p| Pot {
                amount: p.amount,
                eligible: seats(p.eligible),
            })
            .collect();
        let shares = self
            .pots()
            .iter()
            .map(|p| {
                let winners: Vec<usize> = clockwise(button + 1, self.n)
                    .filter(|&s| p.winners & (1 << s) != 0)
                    .collect();
                split(p.amount, &winners, odd)
            })
            .collect();
        Payout {
            pots,
            shares,
            showdown: self.showdown,
            strengths: self.strengths().to_vec(),
        }
    }
}

/// [`Payout`] built once, on demand, from [`Settled`]. It adds nothing
/// to a hand's identity (it is a function of `settled`), so any two
/// caches compare equal.
#[derive(Clone, Debug, Default)]
pub(super) struct PayoutCache(pub(super) std::sync::OnceLock<Payout>);

impl PartialEq for PayoutCache {
    fn eq(&self, _: &PayoutCache) -> bool {
        true
    }
}

impl Eq for PayoutCache {}

impl HandState {
    /// Gives back the part of the highest street bet nobody matched.
    pub(super) fn return_uncalled(&mut self) {
        // The highest bet, its seat, and the highest of the others.
        let (mut top, mut seat, mut second) = (0u64, 0usize, 0u64);
        for (i, s) in self.seats.iter().enumerate() {
            if s.street_bet > top {
                (second, top, seat) = (top, s.street_bet, i);
            } else if s.street_bet > second {
                second = s.street_bet;
            }
        }
        if top > second {
            let s = &mut self.seats[seat];
            let back = top - second;
            s.street_bet -= back;
            s.contributed -= back;
            s.stack += back;
            self.returned[seat] += back;
            if !s.folded {
                self.active |= 1 << seat;
            }
        }
    }

    /// Lays the pots of `contributed` open to the seats of `live` into
    /// `settled`, by the table's antes rule: layers of whole contributions
    /// when antes are trimmed, else the antes as dead money
    /// ([`pots::build_pots_dead_antes`]).
    fn lay_pots(&self, settled: &mut Settled, contributed: &[u64], live: u16) {
        if self.config.ante_trimming {
            settled.layer(contributed, live);
        } else {
            let mut antes = [0u64; 10];
            for (a, s) in antes.iter_mut().zip(&self.seats) {
                *a = s.ante;
            }
            settled.layer_dead_antes(contributed, &antes[..self.n()], live);
        }
    }

    /// The strength of each live seat whose cards are known, by the
    /// game's ranking (the board complete).
    fn showdown_strengths(&self, strengths: &mut [Option<Strength>; 10]) {
        let hidden = self.hidden();
        let shown = |i: usize, s: &Seat| !s.folded && hidden & (1 << i) == 0;
        match self.config.game {
            Game::Holdem => {
                let board = EvalHand::from_cards(self.board());
                for (i, (st, s)) in strengths.iter_mut().zip(&self.seats).enumerate() {
                    if shown(i, s) {
                        *st = Some(board.combine(EvalHand::from_cards(&s.hole)).strength());
                    }
                }
            }
            Game::ShortDeck => {
                let board = EvalHand::from_cards(self.board());
                for (i, (st, s)) in strengths.iter_mut().zip(&self.seats).enumerate() {
                    if shown(i, s) {
                        let hand = board.combine(EvalHand::from_cards(&s.hole));
                        *st = Some(shortdeck::strength(hand));
                    }
                }
            }
            Game::Plo4 | Game::Plo5 | Game::Plo6 => {
                let board = omaha::Board::new(self.board());
                for (i, (st, s)) in strengths.iter_mut().zip(&self.seats).enumerate() {
                    if shown(i, s) {
                        *st = Some(board.strength(&omaha::Hole::new(&s.hole)));
                    }
                }
            }
        }
    }

    /// Runs the board out if needed, builds the pots and pays them. The
    /// pots are kept as bit masks of seats in fixed arrays ([`Settled`]):
    /// no allocation; [`HandState::payout`] spells them out on demand.
    pub(super) fn finish(&mut self) {
        self.return_uncalled();
        let n = self.n();
        // Per-seat scratch on the stack (at most 10 seats): no allocation.
        let mut contributed = [0u64; 10];
        let mut live = 0u16;
        for (i, s) in self.seats.iter().enumerate() {
            contributed[i] = s.contributed;
            live |= u16::from(!s.folded) << i;
        }
        let contributed = &contributed[..n];
        let showdown = live.count_ones() > 1;
        if showdown {
            self.board_len = 5;
        }
        let mut strengths = [None; 10];
        if showdown {
            self.showdown_strengths(&mut strengths);
        }
        let mut settled = Settled {
            pots: [Layer::default(); MAX_POTS],
            count: 0,
            strengths,
            won: [0; 10],
            showdown,
            n,
        };
        self.lay_pots(&mut settled, contributed, live);
        if showdown && self.config.odd_chips == OddChips::FirstWinner {
            // PokerKit mucks the hands that win no pot before splitting, so
            // pots left with the same contenders are split as one. The pots
            // are laid again the same way (dead antes stay dead: PokerKit
            // recomputes its pots with the antes rule after the muck).
            let mut contender = 0u16;
            for p in settled.pots() {
                let best = settled.best(p.eligible);
                contender |= settled.holding(p.eligible, best);
            }
            settled.count = 0;
            self.lay_pots(&mut settled, contributed, contender);
        }
        let button = self.config.button;
        for k in 0..settled.count {
            let p = settled.pots[k];
            let winners = if showdown {
                settled.holding(p.eligible, settled.best(p.eligible))
            } else {
                p.eligible
            };
            settled.pots[k].winners = winners;
            // Shares as `pots::split` gives them, in seat order from left
            // of the button.
            let count = u64::from(winners.count_ones());
            let (share, mut rest) = (p.amount / count, p.amount % count);
            for s in clockwise(button + 1, n) {
                if winners & (1 << s) != 0 {
                    let extra = match self.config.odd_chips {
                        OddChips::LeftOfButton => u64::from(rest > 0),
                        OddChips::FirstWinner => rest,
                    };
                    rest -= extra;
                    self.seats[s].stack += share + extra;
                    settled.won[s] += share + extra;
                }
            }
        }
        self.settled = Some(settled);
        // Winners' stacks grew: the masks describe the final seats too.
        (self.live, self.active) = self.masks();
        self.street = Street::Done;
        self.to_act = None;
    }

    /// How the finished hand was paid, as seat masks (`None` before the
    /// end): what the simulator reads for every hand, without building
    /// [`Payout`]'s vectors.
    pub fn settled(&self) -> Option<&Settled> {
        self.settled.as_ref()
    }

    /// The slow reference of [`HandState::finish`]'s pots and shares: the
    /// payout of the finished hand by [`build_pots`] and [`split`] over
    /// vectors, as the engine computed it before [`Settled`].
    #[cfg(test)]
    pub(super) fn payout_reference(&self) -> Option<Payout> {
        self.settled.as_ref()?;
        let n = self.n();
        let live: Vec<bool> = self.seats.iter().map(|s| !s.folded).collect();
        let contributed: Vec<u64> = self.seats.iter().map(|s| s.contributed).collect();
        let showdown = live.iter().filter(|&&l| l).count() > 1;
        let game = self.config.game;
        let strengths: Vec<Option<Strength>> = self
            .seats
            .iter()
            .map(|s| (showdown && !s.folded).then(|| game.strength(&s.hole, self.board())))
            .collect();
        let mut pots = if self.config.ante_trimming {
            build_pots(&contributed, &live)
        } else {
            let antes: Vec<u64> = self.seats.iter().map(|s| s.ante).collect();
            pots::build_pots_dead_antes(&contributed, &antes, &live)
        };
        if showdown && self.config.odd_chips == OddChips::FirstWinner {
            let best = |p: &Pot| p.eligible.iter().filter_map(|&s| strengths[s]).max();
            let mut contender = vec![false; n];
            for p in &pots {
                let b = best(p);
                for &s in &p.eligible {
                    contender[s] |= strengths[s] == b;
                }
            }
            pots = if self.config.ante_trimming {
                build_pots(&contributed, &contender)
            } else {
                let antes: Vec<u64> = self.seats.iter().map(|s| s.ante).collect();
                pots::build_pots_dead_antes(&contributed, &antes, &contender)
            };
        }
        let order: Vec<usize> = (0..n).map(|k| (self.config.button + 1 + k) % n).collect();
        let shares = pots
            .iter()
            .map(|pot| {
                let best = pot.eligible.iter().filter_map(|&s| strengths[s]).max();
                let winners: Vec<usize> = order
                    .iter()
                    .copied()
                    .filter(|s| pot.eligible.contains(s))
                    .filter(|&s| !showdown || strengths[s] == best)
                    .collect();
                split(pot.amount, &winners, self.config.odd_chips)
            })
            .collect();
        Some(Payout {
            pots,
            shares,
            showdown,
            strengths,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    /// The array layering with dead antes lays the same pots as the vector
    /// reference, on random contributions (antes of 0 to 3, all-ins for
    /// the ante alone, folds), including the ante pot laid under the rest.
    #[test]
    fn dead_antes_are_laid_as_the_vector_reference_lays_them() {
        let mut rng = crate::rng::game_rng(24, 1);
        let mut under = 0;
        for _ in 0..20_000 {
            let n = rng.random_range(2..=10);
            let antes: Vec<u64> = (0..n).map(|_| rng.random_range(0..=3)).collect();
            let contributed: Vec<u64> = antes
                .iter()
                .map(|&a| a + [0, 0, 5, 10, 20][rng.random_range(0..5)])
                .collect();
            let live: u16 = rng.random_range(1..1u16 << n);
            let mut settled = Settled {
                pots: [Layer::default(); MAX_POTS],
                count: 0,
                strengths: [None; 10],
                won: [0; 10],
                showdown: false,
                n,
            };
            settled.layer_dead_antes(&contributed, &antes, live);
            let flags: Vec<bool> = (0..n).map(|s| live & (1 << s) != 0).collect();
            let reference = pots::build_pots_dead_antes(&contributed, &antes, &flags);
            let laid: Vec<(u64, Vec<usize>)> = settled
                .pots()
                .iter()
                .map(|p| {
                    let seats = (0..n).filter(|&s| p.eligible & (1 << s) != 0);
                    (p.amount, seats.collect())
                })
                .collect();
            let want: Vec<(u64, Vec<usize>)> = reference
                .into_iter()
                .map(|p| (p.amount, p.eligible.to_vec()))
                .collect();
            assert_eq!(laid, want, "{contributed:?} {antes:?} {live:b}");
            // The ante pot laid under the rest: a live seat put in only
            // its ante while another bet more.
            let bet = |s: usize| flags[s] && contributed[s] > antes[s];
            let ante_only = (0..n).any(|s| flags[s] && !bet(s));
            under += usize::from(ante_only && (0..n).any(bet) && antes.iter().sum::<u64>() > 0);
        }
        assert!(under > 100, "{under}");
    }
}
