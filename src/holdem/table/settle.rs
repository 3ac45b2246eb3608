//! The end of a hand: the uncalled bet returned, the pots laid (by the
//! antes rule, and again after PokerKit's muck under the first-winner odd
//! chip rule) and paid, kept as seat masks in fixed arrays ([`Settled`])
//! and spelled out as vectors on demand ([`Payout`]); with the slow vector
//! reference the tests hold it to.

#[cfg(test)]
use super::pots::build_pots;
use super::pots::{self, split, OddChips, Pot};
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
            |mask: u16| -> Vec<usize> { (0..self.n).filter(|&s| mask & (1 << s) != 0).collect() };
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
            let live: Vec<bool> = (0..self.n()).map(|s| live & (1 << s) != 0).collect();
            let antes: Vec<u64> = self.seats.iter().map(|s| s.ante).collect();
            for pot in pots::build_pots_dead_antes(contributed, &antes, &live) {
                let eligible = pot.eligible.iter().fold(0u16, |m, &s| m | 1 << s);
                settled.push(pot.amount, eligible);
            }
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
