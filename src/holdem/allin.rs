//! All-in equity: when a hand's betting closed with two or more players
//! left and at most one able to act before the river, what each player
//! could expect from the pots at that moment, over every way the rest of
//! the board could fall.
//!
//! Only the live players' hole cards and the board are known: folded hands
//! are unknown cards, as for any observer at the table. With one or two
//! board cards to come every completion is enumerated (at most 1,128);
//! preflop (five to come) a seeded Monte Carlo of `trials` boards is used,
//! whose standard error for a player's main-pot equity `e` is
//! `sqrt(e(1-e)/trials)`, at most `0.5/sqrt(trials)` (0.016 for 1,000).

use rand::RngExt;

use super::eval::{Hand, Strength};
use super::table::pots::Pot;
use crate::cards::{Card, CardSet};
use crate::rng::GameRng;

/// Most seats at a table.
pub const MAX_SEATS: usize = 10;

/// What each seat could expect at the moment of the all-in.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct AllInEquity {
    /// Board cards dealt when betting closed (0, 3 or 4).
    pub board_cards: usize,
    /// Expected share of the main pot (the pot every live seat is in), 0..=1;
    /// 0 for folded seats.
    pub equity: [f64; MAX_SEATS],
    /// Expected chips won from all pots.
    pub expected_won: [f64; MAX_SEATS],
    /// Whether every completion was enumerated (else Monte Carlo).
    pub exact: bool,
    /// Boards enumerated or sampled.
    pub boards: u64,
}

/// The all-in equity of the live seats (`holes[s]` for `live[s]`) on
/// `board`, given the pots (built from the contributions at that moment).
/// `trials` boards are sampled with `rng` when five cards are to come.
pub fn all_in_equity(
    holes: &[[Card; 2]],
    live: &[bool],
    board: &[Card],
    pots: &[Pot],
    trials: u32,
    rng: &mut GameRng,
) -> AllInEquity {
    let n = holes.len();
    debug_assert!(n <= MAX_SEATS && board.len() < 5);
    let mut known: CardSet = board.iter().copied().collect();
    let mut hands = [Hand::EMPTY; MAX_SEATS];
    let base = Hand::from_cards(board);
    for s in 0..n {
        if live[s] {
            known.insert(holes[s][0]);
            known.insert(holes[s][1]);
            hands[s] = base.combine(Hand::from_cards(&holes[s]));
        }
    }
    let rest: Vec<Card> = CardSet::FULL52.difference(known).iter().collect();
    let mut acc = Accumulator::new(n, live, pots);
    let missing = 5 - board.len();
    let exact = missing <= 2;
    if exact {
        for (i, &a) in rest.iter().enumerate() {
            if missing == 1 {
                acc.add_board(&hands, Hand::EMPTY.with(a));
                continue;
            }
            for &b in &rest[i + 1..] {
                acc.add_board(&hands, Hand::EMPTY.with(a).with(b));
            }
        }
    } else {
        let mut deck = rest;
        for _ in 0..trials {
            // A partial Fisher-Yates shuffle: the first `missing` cards.
            let mut runout = Hand::EMPTY;
            for k in 0..missing {
                let j = rng.random_range(k..deck.len());
                deck.swap(k, j);
                runout = runout.with(deck[k]);
            }
            acc.add_board(&hands, runout);
        }
    }
    acc.finish(board.len(), exact)
}

/// Sums pot shares over boards.
struct Accumulator<'a> {
    n: usize,
    live: &'a [bool],
    pots: &'a [Pot],
    equity: [f64; MAX_SEATS],
    won: [f64; MAX_SEATS],
    boards: u64,
}

impl<'a> Accumulator<'a> {
    fn new(n: usize, live: &'a [bool], pots: &'a [Pot]) -> Accumulator<'a> {
        Accumulator {
            n,
            live,
            pots,
            equity: [0.0; MAX_SEATS],
            won: [0.0; MAX_SEATS],
            boards: 0,
        }
    }

    /// One completed board: each pot to its best eligible hands, ties split
    /// evenly (odd chips do not matter to an expectation).
    fn add_board(&mut self, hands: &[Hand; MAX_SEATS], runout: Hand) {
        let mut strength: [Strength; MAX_SEATS] = [0; MAX_SEATS];
        for s in 0..self.n {
            if self.live[s] {
                strength[s] = hands[s].combine(runout).strength();
            }
        }
        for (k, pot) in self.pots.iter().enumerate() {
            let best = pot.eligible.iter().map(|&s| strength[s]).max().unwrap_or(0);
            let winners = pot
                .eligible
                .iter()
                .filter(|&&s| strength[s] == best)
                .count();
            let share = 1.0 / winners as f64;
            for &s in pot.eligible.iter().filter(|&&s| strength[s] == best) {
                self.won[s] += share * pot.amount as f64;
                if k == 0 {
                    self.equity[s] += share;
                }
            }
        }
        self.boards += 1;
    }

    fn finish(mut self, board_cards: usize, exact: bool) -> AllInEquity {
        let b = self.boards.max(1) as f64;
        for s in 0..self.n {
            self.equity[s] /= b;
            self.won[s] /= b;
        }
        AllInEquity {
            board_cards,
            equity: self.equity,
            expected_won: self.won,
            exact,
            boards: self.boards,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::holdem::table::pots::build_pots;
    use crate::holdem::test_hole as hole;

    #[test]
    fn turn_all_in_counts_outs_exactly() {
        // A flush draw against a set of queens on the turn: of the 9 hearts
        // left, 2h and 3h pair the board and fill the set up, so 7 of the
        // 44 rivers win.
        let holes = [hole("Ah Kh"), hole("Qs Qd")];
        let board = parse_cards("Qh 7h 2c 3s").unwrap();
        let pots = build_pots(&[100, 100], &[true, true]);
        let mut rng = crate::rng::game_rng(0, 0);
        let e = all_in_equity(&holes, &[true, true], &board, &pots, 0, &mut rng);
        assert!(e.exact);
        assert_eq!(e.boards, 44);
        assert!((e.equity[0] - 7.0 / 44.0).abs() < 1e-12);
        assert!((e.expected_won[0] - 200.0 * 7.0 / 44.0).abs() < 1e-9);
        assert!((e.equity[0] + e.equity[1] - 1.0).abs() < 1e-12);
    }

    #[test]
    fn side_pots_are_shared_by_their_own_contenders() {
        // Seat 2 is short: the main pot is three-way, the side pot is
        // contested by seats 0 and 1 only. Chips expected = chips in pots.
        let holes = [hole("As Ad"), hole("Ks Kd"), hole("7c 2h")];
        let board = parse_cards("9s 8d 3c").unwrap();
        let pots = build_pots(&[300, 300, 50], &[true; 3]);
        let mut rng = crate::rng::game_rng(0, 0);
        let e = all_in_equity(&holes, &[true; 3], &board, &pots, 0, &mut rng);
        // 52 - 3 board - 6 hole cards = 43 cards left.
        assert_eq!(e.boards, 43 * 42 / 2);
        let total: f64 = e.expected_won.iter().sum();
        assert!((total - 650.0).abs() < 1e-6);
        // Seat 2 can win only the main pot of 150.
        assert!(e.expected_won[2] <= 150.0 * e.equity[2] + 1e-9);
        assert!(e.equity[0] > e.equity[1] && e.equity[1] > e.equity[2]);
    }

    #[test]
    fn preflop_monte_carlo_is_close_to_the_exact_answer() {
        // AA vs KK (these suits): about 82% for the aces.
        let holes = [hole("As Ah"), hole("Kd Kc")];
        let pots = build_pots(&[100, 100], &[true, true]);
        let mut rng = crate::rng::game_rng(3, 4);
        let e = all_in_equity(&holes, &[true, true], &[], &pots, 20_000, &mut rng);
        assert!(!e.exact);
        let se = (0.82f64 * 0.18 / 20_000.0).sqrt();
        assert!((e.equity[0] - 0.8195).abs() < 4.0 * se, "{}", e.equity[0]);
    }
}
