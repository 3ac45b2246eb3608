//! The hold'em table engine (RULES.md §1): one hand as a state machine,
//! no-limit or pot-limit ([`Betting`]), of hold'em, Omaha or short deck
//! ([`Config::game`]). It posts antes and blinds, deals from a given deck, exposes the
//! legal actions before every decision, applies actions (an illegal one is a
//! typed error and changes nothing), runs the board out when betting is
//! over, and pays the pots. No I/O.

pub mod pots;
pub mod random;
mod settle;
mod types;
mod view;

use settle::PayoutCache;
pub use settle::{Layer, Payout, Settled};
pub use types::{
    Action, Betting, Config, Extras, ForcedBets, HoleCards, Legal, Seat, ShortBigBlind, Street,
    TableError, MAX_CHIPS, MAX_HOLE,
};
pub use view::View;

use types::PokerKitReopening;

use crate::cards::Card;
use crate::holdem::variant::Game;

/// Most seats at a table: a hand of 10 needs 25 of hold'em's 52 cards,
/// and fixed arrays of this size hold per-seat figures without allocating.
pub const MAX_SEATS: usize = 10;

/// Every seat once, clockwise from `start` (which may be `n`, meaning 0):
/// `start..n` then `0..start`, without a division per step (this walk runs
/// after every action).
fn clockwise(start: usize, n: usize) -> impl Iterator<Item = usize> {
    let start = if start >= n { start - n } else { start };
    (start..n).chain(0..start)
}

/// The heap buffers of a finished hand (its stacks, seats and history),
/// emptied, for [`HandState::new_reusing`] to deal the next hand into.
#[derive(Debug, Default)]
pub struct Buffers {
    /// For the next hand's [`Config::stacks`].
    pub stacks: Vec<u64>,
    seats: Vec<Seat>,
    history: Vec<(usize, Action)>,
}

/// One hand.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HandState {
    config: Config,
    seats: Vec<Seat>,
    /// The five board cards this hand will deal (the deck's cards after the
    /// hole cards), of which the first `board_len` are dealt.
    board_cards: [Card; 5],
    board_len: usize,
    street: Street,
    to_act: Option<usize>,
    /// The bet to match on this street.
    current_bet: u64,
    /// The last full raise increment this street (at least the big blind).
    min_raise: u64,
    /// During betting, bit `s` set when seat `s` has not folded...
    live: u16,
    /// ... and when it can still act (not folded, chips behind): kept up
    /// to date where folds and stacks change, so counting seats is a
    /// popcount rather than a walk over them after every action.
    active: u16,
    /// The pots and who won them, once the hand is over.
    settled: Option<Settled>,
    /// [`Payout`], spelled out from `settled` the first time it is asked for.
    payout: PayoutCache,
    /// Every accepted action, in order.
    history: Vec<(usize, Action)>,
    /// The legal actions now (see [`HandState::legal`]).
    legal: Option<Legal>,
    /// A seat that preflop betting closed without asking, although it had
    /// not acted and could check (everyone else all-in for at most its
    /// bet). RULES.md deals on; PokerKit asks for that check, so hand
    /// histories record it (see [`HandState::implicit_check`]).
    /// `(seat, actions taken before it)`.
    implicit_check: Option<(usize, usize)>,
    /// Seats (bit per seat) that PokerKit would ask to act preflop: after
    /// the blinds, each with chips behind and someone else able to put in
    /// more than its bet (PokerKit's "effective stack" is not zero).
    preflop_askable: u16,
    /// For the flop, turn and river: how many actions had been taken when
    /// it was dealt (hand histories interleave deals and actions).
    dealt_after: [Option<usize>; 3],
    /// Board cards dealt when betting closed for good with two or more
    /// players left (an all-in before the river); `None` otherwise.
    all_in_board: Option<usize>,
    /// A replay's extras (boxed: the simulator's hands carry `None`).
    extras: Option<Box<Extras>>,
    /// Chips of an uncalled bet given back, per seat.
    returned: [u64; 10],
}

impl HandState {
    /// Starts a hand: checks the configuration, posts antes and blinds, deals
    /// the game's hole cards to each seat from the front of `deck` (seat by
    /// seat, left of the button first, one card per round) and the board
    /// after them. The deck's cards must be distinct and of the game's deck.
    pub fn new(config: Config, deck: &[Card]) -> Result<HandState, TableError> {
        HandState::new_reusing(config, deck, Buffers::default())
    }

    /// [`HandState::new`] with a replay's [`Extras`]: per-seat forced
    /// bets, hidden hands, needless folds.
    pub fn new_with(
        config: Config,
        deck: &[Card],
        extras: Extras,
    ) -> Result<HandState, TableError> {
        if let Some(f) = &extras.forced {
            let n = config.stacks.len();
            if f.antes.len() != n || f.blinds.len() != n || f.opener >= n.max(1) {
                return Err(TableError::Seats(n));
            }
            for (what, &amount) in f
                .antes
                .iter()
                .map(|a| ("an ante", a))
                .chain(f.blinds.iter().map(|b| ("a blind", b)))
            {
                if amount > MAX_CHIPS {
                    return Err(TableError::TooManyChips { what, amount });
                }
            }
        }
        HandState::build(config, deck, Buffers::default(), Some(Box::new(extras)))
    }

    /// [`HandState::new`] dealt into a finished hand's buffers
    /// ([`HandState::into_buffers`]), so that a simulation playing hand
    /// after hand allocates nothing per hand for them. The hand is the same
    /// as `new` deals.
    pub fn new_reusing(
        config: Config,
        deck: &[Card],
        buffers: Buffers,
    ) -> Result<HandState, TableError> {
        HandState::build(config, deck, buffers, None)
    }

    fn build(
        config: Config,
        deck: &[Card],
        buffers: Buffers,
        extras: Option<Box<Extras>>,
    ) -> Result<HandState, TableError> {
        let n = config.stacks.len();
        if !(2..=MAX_SEATS).contains(&n) {
            return Err(TableError::Seats(n));
        }
        if let Some(s) = config.stacks.iter().position(|&s| s == 0) {
            return Err(TableError::EmptyStack(s));
        }
        if config.big_blind == 0 || config.small_blind > config.big_blind {
            return Err(TableError::Blinds);
        }
        // Amounts stay far from u64's limit: ten stacks of 2^40 add up to
        // less than 2^44, so no sum of chips can overflow.
        let amounts = config.stacks.iter().map(|&s| ("a stack", s)).chain([
            ("the big blind", config.big_blind),
            ("the ante", config.ante),
        ]);
        for (what, amount) in amounts {
            if amount > MAX_CHIPS {
                return Err(TableError::TooManyChips { what, amount });
            }
        }
        if config.button >= n {
            return Err(TableError::Button(n - 1));
        }
        let game = config.game;
        let holes = game.hole_cards();
        let need = holes * n + 5;
        let cards = game.deck();
        if need > cards.len() as usize {
            return Err(TableError::TooManySeats {
                game,
                seats: n,
                most: (cards.len() as usize - 5) / holes,
                holes,
                deck: cards.len() as usize,
            });
        }
        let dealt = deck.iter().fold(0u64, |m, c| m | c.bit());
        if dealt & !cards.0 != 0 {
            let card = crate::cards::CardSet(dealt & !cards.0)
                .iter()
                .next()
                .filter(|_| game != Game::Holdem);
            return match card {
                Some(card) => Err(TableError::NotInDeck { card, game }),
                None => Err(TableError::Deck(need)),
            };
        }
        let distinct = dealt.count_ones() as usize;
        if deck.len() < need || distinct < deck.len() {
            return Err(TableError::Deck(need));
        }
        let Buffers {
            mut seats,
            mut history,
            ..
        } = buffers;
        seats.clear();
        history.clear();
        // Room for a typical hand's actions at once (a new hand's list
        // would otherwise grow three or four times; reused buffers have it).
        history.reserve(16);
        seats.extend(config.stacks.iter().map(|&stack| Seat {
            stack,
            street_bet: 0,
            contributed: 0,
            ante: 0,
            folded: false,
            hole: HoleCards::filled(deck[0], holes),
            acted: false,
            faced: 0,
        }));
        for round in 0..holes {
            for (k, s) in clockwise(config.button + 1, n).enumerate() {
                seats[s].hole.set(round, deck[round * n + k]);
            }
        }
        let b = holes * n;
        let mut hand = HandState {
            seats,
            board_cards: [deck[b], deck[b + 1], deck[b + 2], deck[b + 3], deck[b + 4]],
            board_len: 0,
            street: Street::Preflop,
            to_act: None,
            current_bet: 0,
            min_raise: config.big_blind,
            live: 0,
            active: 0,
            settled: None,
            payout: PayoutCache::default(),
            history,
            legal: None,
            implicit_check: None,
            preflop_askable: 0,
            dealt_after: [None; 3],
            all_in_board: None,
            extras,
            returned: [0; 10],
            config,
        };
        hand.post_forced_bets();
        (hand.live, hand.active) = hand.masks();
        hand.preflop_askable = hand.askable_seats();
        hand.to_act = hand.first_to_act(Street::Preflop);
        hand.advance_if_closed();
        hand.legal = hand.compute_legal();
        Ok(hand)
    }

    fn n(&self) -> usize {
        self.seats.len()
    }

    /// Small and big blind seats (heads-up: the button posts the small blind).
    pub fn blind_seats(&self) -> (usize, usize) {
        let (b, n) = (self.config.button, self.n());
        if n == 2 {
            (b, (b + 1) % n)
        } else {
            ((b + 1) % n, (b + 2) % n)
        }
    }

    fn post_forced_bets(&mut self) {
        if let Some(f) = self.extras.as_ref().and_then(|e| e.forced.clone()) {
            let mut nominal = 0;
            for (s, (&ante, &blind)) in f.antes.iter().zip(&f.blinds).enumerate() {
                let seat = &mut self.seats[s];
                let a = ante.min(seat.stack);
                seat.stack -= a;
                seat.contributed += a;
                seat.ante = a;
                let posted = self.put(s, blind);
                if posted > 0 {
                    nominal = nominal.max(blind);
                }
                self.current_bet = self.current_bet.max(posted);
            }
            if self.config.short_big_blind == ShortBigBlind::FullBlind {
                self.current_bet = self.current_bet.max(nominal);
            }
            return;
        }
        let ante = self.config.ante;
        for s in &mut self.seats {
            let a = ante.min(s.stack);
            s.stack -= a;
            s.contributed += a;
            s.ante = a;
        }
        let (sb, bb) = self.blind_seats();
        let posted_sb = self.put(sb, self.config.small_blind);
        let posted_bb = self.put(bb, self.config.big_blind);
        self.current_bet = match self.config.short_big_blind {
            ShortBigBlind::FullBlind => self.config.big_blind,
            ShortBigBlind::Posted => posted_sb.max(posted_bb),
        };
    }

    /// Moves up to `chips` from a stack to its street bet; returns the
    /// street bet after it.
    fn put(&mut self, seat: usize, chips: u64) -> u64 {
        let s = &mut self.seats[seat];
        let c = chips.min(s.stack);
        s.stack -= c;
        if s.stack == 0 {
            self.active &= !(1 << seat);
        }
        s.street_bet += c;
        s.contributed += c;
        s.street_bet
    }

    /// The first seat to act on a street, if betting is open.
    fn first_to_act(&self, street: Street) -> Option<usize> {
        let n = self.n();
        let start = match street {
            Street::Preflop => match self.extras.as_ref().and_then(|e| e.forced.as_ref()) {
                Some(f) => f.opener,
                None => (self.blind_seats().1 + 1) % n,
            },
            _ => (self.config.button + 1) % n,
        };
        let active = self.active_count();
        clockwise(start, n).find(|&s| self.needs_action(s, active))
    }

    fn active_count(&self) -> usize {
        self.active.count_ones() as usize
    }

    /// The `live` and `active` masks from the seats (what the engine
    /// keeps up to date step by step).
    fn masks(&self) -> (u16, u16) {
        let (mut live, mut active) = (0u16, 0u16);
        for (i, s) in self.seats.iter().enumerate() {
            live |= u16::from(!s.folded) << i;
            active |= u16::from(s.active()) << i;
        }
        (live, active)
    }

    fn live_count(&self) -> usize {
        self.live.count_ones() as usize
    }

    /// Whether a seat must still act this street: it can act, and it faces
    /// a bet, or it has not acted yet while someone else can still act
    /// (`active`: how many seats can act, from [`Self::active_count`]).
    fn needs_action(&self, seat: usize, active: usize) -> bool {
        let s = &self.seats[seat];
        self.active & (1 << seat) != 0
            && (s.street_bet < self.current_bet || (!s.acted && active >= 2))
    }

    pub fn street(&self) -> Street {
        self.street
    }

    /// This hand's buffers, emptied, for the next hand
    /// ([`HandState::new_reusing`]).
    pub fn into_buffers(self) -> Buffers {
        let mut b = Buffers {
            stacks: self.config.stacks,
            seats: self.seats,
            history: self.history,
        };
        b.stacks.clear();
        b.seats.clear();
        b.history.clear();
        b
    }

    pub fn seats(&self) -> &[Seat] {
        &self.seats
    }

    pub fn board(&self) -> &[Card] {
        &self.board_cards[..self.board_len]
    }

    pub fn config(&self) -> &Config {
        &self.config
    }

    /// The seat to act, or `None` when the hand is over.
    pub fn to_act(&self) -> Option<usize> {
        self.to_act
    }

    /// Every accepted action with its seat, in order.
    pub fn history(&self) -> &[(usize, Action)] {
        &self.history
    }

    /// The seat whose preflop check the engine skipped because nobody else
    /// could act (it had not acted, matched the bet and could only check).
    /// Returns `(seat, index into history)`: the check belongs after that
    /// many actions. Hand histories write it so that engines which ask for
    /// it (PokerKit) replay the hand action for action.
    pub fn implicit_check(&self) -> Option<(usize, usize)> {
        self.implicit_check
    }

    /// For the flop, turn and river, the number of actions taken before it
    /// was dealt (`None`: not dealt).
    pub fn dealt_after(&self) -> [Option<usize>; 3] {
        self.dealt_after
    }

    /// The chips of an uncalled bet given back to each seat (zero for
    /// most): hand histories of some sites count them as winnings.
    pub fn returned(&self) -> &[u64] {
        &self.returned[..self.n()]
    }

    /// The seats whose hands were hidden and conceded ([`Extras::hidden`]).
    pub fn hidden(&self) -> u16 {
        self.extras.as_ref().map_or(0, |e| e.hidden)
    }

    /// The board cards dealt when betting closed for good before the river
    /// with two or more players left (at most one able to act): the moment
    /// of an all-in, when all-in equity is measured. `None` when the hand
    /// ended otherwise.
    pub fn all_in_board(&self) -> Option<usize> {
        self.all_in_board
    }

    /// What the seat to act may see (its own cards, never the others').
    pub fn view(&self) -> Option<View<'_>> {
        self.to_act.map(|seat| View::new(self, seat))
    }

    /// The result, once the hand is over.
    pub fn payout(&self) -> Option<&Payout> {
        let settled = self.settled.as_ref()?;
        Some(
            self.payout
                .0
                .get_or_init(|| settled.payout(self.config.button, self.config.odd_chips)),
        )
    }

    /// The legal actions of the seat to act (`None` when the hand is over).
    /// Computed once after each change of the hand (the agent asks, then
    /// `apply` checks, so it is read twice per action).
    #[inline]
    pub fn legal(&self) -> Option<Legal> {
        self.legal
    }

    /// Works out [`HandState::legal`] from the state.
    fn compute_legal(&self) -> Option<Legal> {
        let seat = self.to_act?;
        let s = &self.seats[seat];
        let to_call = self.current_bet.saturating_sub(s.street_bet);
        // A raise needs someone who could answer it: another live seat with
        // chips beyond the current bet (PokerKit's rule too).
        let mut others = self.active & !(1 << seat);
        let mut others_can_act = false;
        while others != 0 {
            let o = &self.seats[others.trailing_zeros() as usize];
            if o.street_bet + o.stack > self.current_bet {
                others_can_act = true;
                break;
            }
            others &= others - 1;
        }
        // Reopened: never acted this street, or the bet has risen by a full
        // raise since it last acted (several short all-ins add up).
        let reopened = !s.acted
            || self.current_bet >= s.faced + self.min_raise
            || self
                .extras
                .as_ref()
                .is_some_and(|e| e.pokerkit_reopening && e.reopening.allows(seat));
        let all_in_to = s.street_bet + s.stack;
        let raise = if others_can_act && reopened && s.stack > to_call {
            let min_to = (self.current_bet + self.min_raise).min(all_in_to);
            let max_to = match self.config.betting {
                Betting::NoLimit => all_in_to,
                Betting::PotLimit => self.pot_raise_to(to_call).clamp(min_to, all_in_to),
            };
            Some((min_to, max_to))
        } else {
            None
        };
        Some(Legal {
            seat,
            can_fold: to_call > 0,
            can_check: to_call == 0,
            call: (to_call > 0).then(|| to_call.min(s.stack)),
            raise,
        })
    }

    /// The pot-size raise of a seat facing `to_call`: the bet to match plus
    /// the pot after the call (every chip put in this hand, the street's
    /// bets included, and the call), before the caps of the minimum raise
    /// and the stack.
    fn pot_raise_to(&self, to_call: u64) -> u64 {
        let pot: u64 = self.seats.iter().map(|s| s.contributed).sum();
        self.current_bet + pot + to_call
    }

    /// Applies the action of the seat to act. An illegal action is an error
    /// and leaves the hand unchanged.
    pub fn apply(&mut self, action: Action) -> Result<(), TableError> {
        let legal = self.legal().ok_or(TableError::HandOver)?;
        let seat = legal.seat;
        match action {
            Action::Fold
                if !legal.can_fold && !self.extras.as_ref().is_some_and(|e| e.needless_folds) =>
            {
                return Err(TableError::NeedlessFold(seat))
            }
            Action::Check if !legal.can_check => {
                return Err(TableError::CannotCheck {
                    seat,
                    to_call: legal.call.unwrap_or(0),
                })
            }
            Action::Call if legal.call.is_none() => return Err(TableError::NothingToCall(seat)),
            Action::RaiseTo(to) => {
                let (min, max) = legal.raise.ok_or(TableError::CannotRaise(seat))?;
                if to < min || to > max {
                    return Err(TableError::RaiseSize { to, min, max });
                }
            }
            _ => {}
        }
        let faced = self.current_bet;
        match action {
            Action::Fold => {
                self.seats[seat].folded = true;
                self.live &= !(1 << seat);
                self.active &= !(1 << seat);
            }
            Action::Check => {}
            Action::Call => {
                self.put(seat, faced - self.seats[seat].street_bet);
            }
            Action::RaiseTo(to) => {
                let increment = to - faced;
                self.put(seat, to - self.seats[seat].street_bet);
                if increment >= self.min_raise {
                    self.min_raise = increment;
                }
                self.current_bet = to;
            }
        }
        // The level it leaves the bet at: it may raise again only once the
        // bet has risen a full raise above this.
        let level = self.current_bet.max(faced);
        let s = &mut self.seats[seat];
        s.acted = true;
        s.faced = level;
        if let Some(e) = self.extras.as_mut() {
            let raise = match action {
                Action::RaiseTo(to) => Some((to - faced, s.stack == 0)),
                _ => None,
            };
            e.reopening.acted(seat, raise);
        }
        self.history.push((seat, action));
        self.after_action(seat);
        self.legal = self.compute_legal();
        Ok(())
    }

    fn after_action(&mut self, seat: usize) {
        if self.live_count() == 1 {
            self.finish();
            return;
        }
        let n = self.n();
        let active = self.active_count();
        self.to_act = clockwise(seat + 1, n).find(|&s| self.needs_action(s, active));
        // Its loop runs only when nobody is to act: test that here, where
        // the answer is most often "somebody is", without the call.
        if self.to_act.is_none() {
            self.advance_if_closed();
        }
    }

    /// While the street's betting is closed: return any uncalled bet, deal
    /// the next street (or run the board out), or finish.
    fn advance_if_closed(&mut self) {
        while self.to_act.is_none() && self.street != Street::Done {
            if self.street == Street::Preflop && self.live_count() >= 2 {
                self.note_implicit_check();
            }
            self.return_uncalled();
            if self.live_count() == 1 || self.street == Street::River {
                self.finish();
                return;
            }
            if self.all_in_board.is_none() && self.active_count() <= 1 {
                self.all_in_board = Some(self.board_len);
            }
            let cards = if self.street == Street::Preflop { 3 } else { 1 };
            self.dealt_after[self.board_len.saturating_sub(2).min(2)] = Some(self.history.len());
            self.board_len += cards;
            self.street = match self.street {
                Street::Preflop => Street::Flop,
                Street::Flop => Street::Turn,
                _ => Street::River,
            };
            for s in &mut self.seats {
                s.street_bet = 0;
                s.acted = false;
                s.faced = 0;
            }
            self.current_bet = 0;
            self.min_raise = self.config.big_blind;
            if let Some(e) = self.extras.as_mut() {
                e.reopening = PokerKitReopening::default();
            }
            self.to_act = self.first_to_act(self.street);
        }
    }

    /// The seats that could be asked to act now, as PokerKit counts them:
    /// chips behind, and another live seat whose bet plus stack exceeds this
    /// seat's bet.
    fn askable_seats(&self) -> u16 {
        // The largest bet plus stack among live seats, its seat, and the
        // largest among the others: a seat's best live opponent holds the
        // top unless the seat holds it itself (one pass, not one per seat).
        let (mut top, mut top_seat, mut second) = (0u64, usize::MAX, 0u64);
        for (j, o) in self.seats.iter().enumerate() {
            if o.folded {
                continue;
            }
            let v = o.street_bet + o.stack;
            if v > top {
                (second, top, top_seat) = (top, v, j);
            } else if v > second {
                second = v;
            }
        }
        let mut mask = 0;
        for (i, s) in self.seats.iter().enumerate() {
            let others = if i == top_seat { second } else { top };
            if s.active() && others > s.street_bet {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// The slow reference of [`HandState::askable_seats`]: for each seat,
    /// the others' largest bet plus stack by a walk over all of them.
    #[cfg(test)]
    fn askable_seats_reference(&self) -> u16 {
        let mut mask = 0;
        for (i, s) in self.seats.iter().enumerate() {
            let others = self
                .seats
                .iter()
                .enumerate()
                .filter(|&(j, o)| j != i && !o.folded)
                .map(|(_, o)| o.street_bet + o.stack)
                .max()
                .unwrap_or(0);
            if s.active() && others > s.street_bet {
                mask |= 1 << i;
            }
        }
        mask
    }

    /// At the close of preflop betting: the one seat that could still act,
    /// had not acted and matched the bet was not asked (nobody else could
    /// act). Remember it for hand histories. (When no one acted at all, the
    /// betting never opened, in PokerKit too.)
    fn note_implicit_check(&mut self) {
        if self.history.is_empty() {
            return;
        }
        let mut able = self.seats.iter().enumerate().filter(|(_, s)| s.active());
        if let (Some((seat, s)), None) = (able.next(), able.next()) {
            let askable = self.preflop_askable & (1 << seat) != 0;
            if askable && !s.acted && s.street_bet >= self.current_bet {
                self.implicit_check = Some((seat, self.history.len()));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::random::random_config;
    use super::*;
    use rand::seq::SliceRandom;
    use rand::RngExt;

    /// Random tables (2 to 10 seats, antes, both switches, dead antes
    /// too) played by uniformly random legal actions: at every step the
    /// one-pass askable seats equal the reference walk, and at the end
    /// the mask-based payout equals the vector reference, chips are
    /// conserved, and the spelled-out payout pays what the stacks got.
    #[test]
    fn fast_paths_match_their_references_on_random_hands() {
        let mut rng = crate::rng::game_rng(14, 6);
        let mut deck: Vec<Card> = (0..52).map(Card::from_index).collect();
        for hand in 0..20_000 {
            let mut config = random_config(&mut rng, if hand % 2 == 0 { 60 } else { 400 });
            config.ante_trimming = hand % 5 != 0;
            deck.shuffle(&mut rng);
            let start: u64 = config.stacks.iter().sum();
            let mut h = HandState::new(config, &deck).unwrap();
            while let Some(legal) = h.legal() {
                assert_eq!(
                    h.askable_seats(),
                    h.askable_seats_reference(),
                    "hand {hand}"
                );
                assert_eq!((h.live, h.active), h.masks(), "hand {hand}");
                let mut options = vec![];
                if legal.can_fold {
                    options.push(Action::Fold);
                }
                if legal.can_check {
                    options.push(Action::Check);
                }
                if legal.call.is_some() {
                    options.push(Action::Call);
                }
                if let Some((lo, hi)) = legal.raise {
                    options.push(Action::RaiseTo(lo));
                    options.push(Action::RaiseTo(hi));
                    options.push(Action::RaiseTo(rng.random_range(lo..=hi)));
                }
                let a = options[rng.random_range(0..options.len())];
                h.apply(a).unwrap();
            }
            assert_eq!((h.live, h.active), h.masks(), "hand {hand}");
            let reference = h.payout_reference().unwrap();
            let pay = h.payout().unwrap();
            assert_eq!(pay, &reference, "hand {hand}");
            let end: u64 = h.seats().iter().map(|s| s.stack).sum();
            assert_eq!(start, end, "hand {hand}");
            let mut won = vec![0u64; h.seats().len()];
            for shares in &pay.shares {
                for &(s, c) in shares {
                    won[s] += c;
                }
            }
            for (s, seat) in h.seats().iter().enumerate() {
                let before = h.config().stacks[s] - seat.contributed;
                assert_eq!(seat.stack, before + won[s], "hand {hand} seat {s}");
            }
            let settled = h.settled().unwrap();
            assert_eq!(settled.won(), won, "hand {hand}");
            assert_eq!(settled.pots().len(), pay.pots.len());
            for (layer, (pot, shares)) in
                settled.pots().iter().zip(pay.pots.iter().zip(&pay.shares))
            {
                assert_eq!(layer.amount, pot.amount);
                assert_eq!(layer.winners.count_ones() as usize, shares.len());
            }
        }
    }
}
