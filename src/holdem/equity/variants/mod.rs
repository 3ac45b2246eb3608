//! Equity in Omaha (PLO4, PLO5, PLO6) and short-deck hold'em: 2 to 10
//! players, each an exact hand or a list of weighted hands ([`hands`]),
//! with board and dead cards, by exact enumeration ([`exact`]) or seeded
//! Monte Carlo ([`monte_carlo`]).
//!
//! The definitions are hold'em's ([`super`]): hands are dealt jointly from
//! the lists, each with its weight, conditioned on no card being used
//! twice; the board is completed uniformly from the rest of the game's
//! deck (36 cards in short deck); equity is the expected share of the pot,
//! a k-way tie paying 1/k. Shares are counted in units of 1/[`UNITS`], so
//! each deal's counts are exact integers.
//!
//! Omaha's exact enumeration does not evaluate each board's sixty fives
//! per player: a five-card hand depends only on its pair and its triple,
//! so for each deal each player's best five over their pairs is computed
//! once per board triple that can occur (a table indexed by the triple's
//! three cards), and a board's strength is then the best of its ten
//! triples' entries, six of them read in the innermost loop.
//! [`reference_exact`] is the slow twin (every deal, every board, the
//! reference evaluators), and [`plain_exact`] the plain enumeration with
//! the fast evaluator that the benchmarks compare with.

pub mod hands;

mod exact;
mod monte_carlo;
mod reference;

pub use exact::{exact, plain_exact};
pub use monte_carlo::monte_carlo;
pub use reference::reference_exact;

use crate::cards::{Card, CardSet};
use crate::holdem::variant::Game;
use hands::{all_hands, HandList, Hands, Holding};

use super::types::{binomial, EquityError, MAX_EXACT_WORK, MAX_PLAYERS, UNITS};

/// One equity question in a variant.
#[derive(Clone, Debug)]
pub struct VariantQuery {
    pub game: Game,
    pub players: Vec<HandList>,
    pub board: Vec<Card>,
    pub dead: CardSet,
}

/// A checked question: lists without hands that cannot be dealt.
#[derive(Clone, Debug)]
pub struct VariantPrepared {
    pub game: Game,
    /// Per player: the hands left, or `Random` (drawn from the cards left).
    pub(crate) players: Vec<Hands>,
    pub(crate) board: Vec<Card>,
    /// Board and dead cards.
    pub(crate) used: CardSet,
}

impl VariantQuery {
    /// Checks the question and removes the hands that cannot be dealt.
    pub fn prepare(&self) -> Result<VariantPrepared, EquityError> {
        let n = self.players.len();
        if !(2..=MAX_PLAYERS).contains(&n) {
            return Err(EquityError::PlayerCount(n));
        }
        if !matches!(self.board.len(), 0 | 3 | 4 | 5) {
            return Err(EquityError::BoardSize(self.board.len()));
        }
        let deck = self.game.deck();
        let not_in_deck = |c: Card| EquityError::NotInDeck {
            card: c.to_string(),
            game: self.game.name(),
        };
        if let Some(c) = self.dead.iter().find(|&c| !deck.contains(c)) {
            return Err(not_in_deck(c));
        }
        let mut used = self.dead;
        for &c in &self.board {
            if !deck.contains(c) {
                return Err(not_in_deck(c));
            }
            if used.contains(c) {
                return Err(EquityError::CardTwice(c.to_string()));
            }
            used.insert(c);
        }
        let mut fixed = used;
        for p in &self.players {
            if let Some(h) = p.exact_hand() {
                for &c in h.cards() {
                    if !deck.contains(c) {
                        return Err(not_in_deck(c));
                    }
                    if fixed.contains(c) {
                        return Err(EquityError::CardTwice(c.to_string()));
                    }
                    fixed.insert(c);
                }
            }
        }
        let need = n * self.game.hole_cards() + 5 + self.dead.len() as usize;
        if need > deck.len() as usize {
            return Err(EquityError::TooManyCards {
                game: self.game.name(),
                need,
                deck: deck.len() as usize,
            });
        }
        let mut players = Vec::with_capacity(n);
        for (i, p) in self.players.iter().enumerate() {
            let hands = match &p.hands {
                Hands::Random => Hands::Random,
                Hands::Listed(list) => {
                    let own = p.exact_hand().map_or(0, |h| h.mask);
                    let blocked = fixed.0 & !own;
                    let kept: Vec<Holding> = list
                        .iter()
                        .filter(|h| {
                            h.mask & blocked == 0 && h.cards().iter().all(|&c| deck.contains(c))
                        })
                        .copied()
                        .collect();
                    if kept.is_empty() {
                        return Err(EquityError::EmptyRange {
                            player: i + 1,
                            range: crate::text::quote(&p.text),
                        });
                    }
                    Hands::Listed(kept)
                }
            };
            players.push(hands);
        }
        let prepared = VariantPrepared {
            game: self.game,
            players,
            board: self.board.clone(),
            used,
        };
        if !prepared.any_deal() {
            return Err(EquityError::NoDeal);
        }
        Ok(prepared)
    }
}

impl VariantPrepared {
    pub fn players(&self) -> usize {
        self.players.len()
    }

    /// Board completions per deal of hole cards.
    pub fn boards(&self) -> u64 {
        let left = self.game.deck().len() as u64
            - self.used.len() as u64
            - (self.players() * self.game.hole_cards()) as u64;
        binomial(left, 5 - self.board.len() as u64)
    }

    /// The cards hands are dealt from: the deck without board and dead.
    pub(crate) fn available(&self) -> CardSet {
        self.game.deck().difference(self.used)
    }

    /// Each player's hands as a list (a random player's every hand of the
    /// cards left).
    pub(crate) fn lists(&self) -> Vec<Vec<Holding>> {
        self.players
            .iter()
            .map(|h| match h {
                Hands::Listed(l) => l.clone(),
                Hands::Random => all_hands(self.available(), self.game.hole_cards()),
            })
            .collect()
    }

    /// An upper bound on the deals of hole cards: the product of the list
    /// sizes (C(cards left, h) for a random player), saturating.
    pub fn deal_bound(&self) -> u64 {
        let left = self.available().len() as u64;
        let h = self.game.hole_cards() as u64;
        self.players.iter().fold(1u64, |p, x| {
            let size = match x {
                Hands::Listed(l) => l.len() as u64,
                Hands::Random => binomial(left, h),
            };
            p.saturating_mul(size)
        })
    }

    /// An upper bound on the work of exact enumeration, in player-board
    /// evaluations: deals times players times boards (and, for Omaha, the
    /// per-deal table of each player's best five per board triple).
    pub fn exact_work(&self) -> u64 {
        let per_deal = self.boards().saturating_add(self.triple_work());
        self.deal_bound()
            .saturating_mul(self.players() as u64)
            .saturating_mul(per_deal)
    }

    /// Omaha's per-player table, in the same units: triples that can occur
    /// times pairs, a tenth of a board each (a board costs about ten reads).
    fn triple_work(&self) -> u64 {
        if !self.game.is_omaha() {
            return 0;
        }
        let k = self.board.len() as u64;
        let u = self.available().len() as u64 + k;
        let pairs = binomial(self.game.hole_cards() as u64, 2);
        let max_unknown = 5 - k;
        let triples: u64 = (0..=3u64.min(max_unknown))
            .filter(|&x| 3 - x <= k)
            .map(|x| binomial(u - k, x) * binomial(k, 3 - x))
            .sum();
        triples * pairs / 10
    }

    /// Whether exact enumeration takes about a second or less.
    pub fn exact_is_cheap(&self) -> bool {
        self.exact_work() <= 200_000_000
    }

    /// Exact equity, refused beyond [`MAX_EXACT_WORK`].
    pub fn exact_checked(
        &self,
        cancel: Option<&std::sync::atomic::AtomicBool>,
    ) -> Result<super::EquityResult, EquityError> {
        let work = self.exact_work();
        if work > MAX_EXACT_WORK {
            return Err(EquityError::ExactTooLarge { work });
        }
        exact(self, cancel)
    }

    /// Whether some deal gives every player a hand with no card twice: a
    /// depth-first search over the listed players (a random player always
    /// finds cards: the deck is large enough), giving up after a million
    /// steps (then the Monte Carlo pilot or the enumeration finds out).
    fn any_deal(&self) -> bool {
        let lists: Vec<&Vec<Holding>> = self
            .players
            .iter()
            .filter_map(|h| match h {
                Hands::Listed(l) => Some(l),
                Hands::Random => None,
            })
            .collect();
        let mut budget = 1_000_000u64;
        fn go(lists: &[&Vec<Holding>], used: u64, budget: &mut u64) -> bool {
            let Some((first, rest)) = lists.split_first() else {
                return true;
            };
            for h in first.iter() {
                if *budget == 0 {
                    return true;
                }
                *budget -= 1;
                if h.mask & used == 0 && go(rest, used | h.mask, budget) {
                    return true;
                }
            }
            false
        }
        go(&lists, 0, &mut budget)
    }

    /// Calls `f` with every valid deal of the lists (each player's hand's
    /// index) and its weight, players in order, first player's hands
    /// restricted to `first`.
    pub(crate) fn each_deal(
        lists: &[Vec<Holding>],
        first: std::ops::Range<usize>,
        used: u64,
        f: &mut dyn FnMut(&[&Holding], f64),
    ) {
        fn go<'a>(
            lists: &'a [Vec<Holding>],
            player: usize,
            range: std::ops::Range<usize>,
            used: u64,
            weight: f64,
            stack: &mut Vec<&'a Holding>,
            f: &mut dyn FnMut(&[&Holding], f64),
        ) {
            if player == lists.len() {
                f(stack, weight);
                return;
            }
            for h in &lists[player][range] {
                if h.mask & used != 0 {
                    continue;
                }
                stack.push(h);
                let next = 0..lists.get(player + 1).map_or(0, Vec::len);
                go(
                    lists,
                    player + 1,
                    next,
                    used | h.mask,
                    weight * h.weight,
                    stack,
                    f,
                );
                stack.pop();
            }
        }
        go(lists, 0, first, used, 1.0, &mut Vec::new(), f);
    }
}

/// A deal's pot shares in units of 1/[`UNITS`], wins and ties, per player,
/// over `showdowns` boards.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DealCounts {
    pub shares: [u64; MAX_PLAYERS],
    pub wins: [u64; MAX_PLAYERS],
    pub ties: [u64; MAX_PLAYERS],
    pub showdowns: u64,
}

impl DealCounts {
    #[inline(always)]
    fn record(&mut self, s: &[crate::holdem::eval::Strength]) {
        let best = s.iter().copied().max().unwrap_or(0);
        let k = s.iter().filter(|&&x| x == best).count() as u64;
        for (i, &x) in s.iter().enumerate() {
            if x == best {
                self.shares[i] += UNITS / k;
                if k == 1 {
                    self.wins[i] += 1;
                } else {
                    self.ties[i] += 1;
                }
            }
        }
        self.showdowns += 1;
    }

    fn add(&mut self, o: &DealCounts) {
        for i in 0..MAX_PLAYERS {
            self.shares[i] += o.shares[i];
            self.wins[i] += o.wins[i];
            self.ties[i] += o.ties[i];
        }
        self.showdowns += o.showdowns;
    }
}
