//! All-in equity: when a hand's betting closed with two or more players
//! left and at most one able to act before the river, what each player
//! could expect from the pots at that moment, over every way the rest of
//! the board could fall.
//!
//! Only the live players' hole cards and the board are known: folded hands
//! are unknown cards, as for any observer at the table. A heads-up preflop
//! all-in (two live hands, no board) is exact whatever `trials` is: its
//! counts over all 1,712,304 boards come from the preflop table
//! ([`super::preflop`]). Otherwise every completion of the board is
//! enumerated when there are at most `trials` of them (with 1,000: every
//! turn and flop all-in, at most 990 boards); else (a preflop all-in of
//! three or more hands, or a small `trials`) a seeded Monte Carlo of
//! `trials` boards is used, whose standard error for a player's main-pot
//! equity `e` is `sqrt(e(1-e)/trials)`, at most `0.5/sqrt(trials)` (0.016
//! for 1,000).

use rand::RngExt;

use super::preflop::{self, Outcome};
use crate::cards::{Card, CardSet};
use crate::holdem::eval::{Hand, Strength};
use crate::holdem::table::pots::Pot;
use crate::rng::GameRng;

/// Most seats at a table ([`crate::holdem::table::MAX_SEATS`]).
pub const MAX_SEATS: usize = crate::holdem::table::MAX_SEATS;

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
    /// Whether every completion was counted (enumerated, or read from the
    /// preflop table), else Monte Carlo.
    pub exact: bool,
    /// Boards enumerated, counted by the preflop table (1,712,304), or
    /// sampled.
    pub boards: u64,
}

/// The all-in equity of the live seats (`holes[s]` for `live[s]`) on
/// `board`, given the pots (built from the contributions at that moment):
/// exact for a heads-up preflop all-in (from the table, `rng` untouched) or
/// when the board has at most `trials` completions, else `trials` boards
/// sampled with `rng`.
pub fn all_in_equity(
    holes: &[[Card; 2]],
    live: &[bool],
    board: &[Card],
    pots: &[Pot],
    trials: u32,
    rng: &mut GameRng,
) -> AllInEquity {
    let (acc, exact) =
        accumulate::<INDEPENDENT>(holes, live, CardSet::EMPTY, board, pots, trials, rng);
    acc.finish(board.len(), exact)
}

/// Each pot's expected division among the seats: `share[k][s]` is the
/// fraction of pot `k` that seat `s` expects (0 for seats not eligible).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PotShares {
    pub share: [[f64; MAX_SEATS]; MAX_SEATS],
    /// Whether every completion was counted, else Monte Carlo.
    pub exact: bool,
    /// Boards counted or sampled.
    pub boards: u64,
}

/// [`all_in_equity`] for an observer who also knows the `dead` cards
/// (folded hands): the rest of the board comes from the cards that are
/// neither live hands, dead nor on the board, which is how the deck deals
/// it. Gives each pot's division rather than the sums. At most
/// [`MAX_SEATS`] pots. Sampled boards are drawn [`Disjoint`]ly.
pub fn pot_shares(
    holes: &[[Card; 2]],
    live: &[bool],
    dead: CardSet,
    board: &[Card],
    pots: &[Pot],
    trials: u32,
    rng: &mut GameRng,
) -> PotShares {
    debug_assert!(pots.len() <= MAX_SEATS);
    let (acc, exact) = accumulate::<DISJOINT>(holes, live, dead, board, pots, trials, rng);
    acc.shares(exact)
}

/// [`pot_shares`] counted over every completion of the board, from the
/// live seats' strengths on each (`strength[b][s]` for board `b` and live
/// seat `s`; other seats' are ignored): for strengths already looked up
/// for another count of the same boards. The shares are summed in
/// integer units, so they are those of [`pot_shares`] exactly, whatever
/// the boards' order.
pub fn pot_shares_of_strengths(
    live: &[bool],
    pots: &[Pot],
    strength: &[[Strength; MAX_SEATS]],
) -> PotShares {
    debug_assert!(pots.len() <= MAX_SEATS);
    let mut acc = Accumulator::new(live.len(), live, pots);
    for s in strength {
        acc.add_strengths(s);
    }
    acc.shares(true)
}

/// Sums the pots' shares over the board's completions (see
/// [`all_in_equity`]), and whether they were all counted. Sampled boards
/// are drawn each independently of the others ([`INDEPENDENT`], the
/// all-in equity's) or [`Disjoint`]ly ([`DISJOINT`], the corrections').
///
/// The choice is a constant, not an argument: one function holding both
/// loops stopped the compiler inlining rand's sampler into the
/// independent one, the all-in equity's hot loop (a default hold'em run
/// was 19% slower).
fn accumulate<const SAMPLING: bool>(
    holes: &[[Card; 2]],
    live: &[bool],
    dead: CardSet,
    board: &[Card],
    pots: &[Pot],
    trials: u32,
    rng: &mut GameRng,
) -> (Accumulator, bool) {
    let n = holes.len();
    debug_assert!(n <= MAX_SEATS && matches!(board.len(), 0 | 3 | 4 | 5));
    let mut known: CardSet = board.iter().copied().collect();
    known = known.union(dead);
    let mut hands = [Hand::EMPTY; MAX_SEATS];
    let base = Hand::from_cards(board);
    for s in 0..n {
        if live[s] {
            known.insert(holes[s][0]);
            known.insert(holes[s][1]);
            hands[s] = base.combine(Hand::from_cards(&holes[s]));
        }
    }
    let mut acc = Accumulator::new(n, live, pots);
    // The table counts the boards of all 48 other cards: only without dead
    // cards.
    if board.is_empty() && acc.live == 2 && dead.is_empty() {
        let (a, b) = (acc.seats[0], acc.seats[1]);
        if let Some(o) = preflop::lookup(holes[a], holes[b]) {
            acc.add_heads_up(a, b, &o);
            return (acc, true);
        }
    }
    let missing = 5 - board.len();
    if missing == 0 {
        acc.add_board(&hands, Hand::EMPTY);
        return (acc, true);
    }
    let rest: Vec<Card> = CardSet::FULL52.difference(known).iter().collect();
    let completions = match missing {
        1 => rest.len() as u64,
        2 => (rest.len() * (rest.len() - 1) / 2) as u64,
        _ => u64::MAX, // five to come: at least C(32, 5) = 201,376
    };
    let exact = completions <= u64::from(trials);
    let mut runouts = Runouts::new(&hands);
    if exact {
        for (i, &a) in rest.iter().enumerate() {
            if missing == 1 {
                runouts.push(&mut acc, Hand::EMPTY.with(a));
                continue;
            }
            for &b in &rest[i + 1..] {
                runouts.push(&mut acc, Hand::EMPTY.with(a).with(b));
            }
        }
    } else {
        let mut deck = rest;
        if SAMPLING == INDEPENDENT {
            for _ in 0..trials.max(1) {
                let runout = sample_runout(&mut deck, missing, rng);
                runouts.push(&mut acc, runout);
            }
        } else {
            let mut draws = Disjoint::new(&mut deck);
            for _ in 0..trials.max(1) {
                let runout = Hand::from_cards(draws.draw(missing, rng));
                runouts.push(&mut acc, runout);
            }
        }
    }
    runouts.flush(&mut acc);
    (acc, exact)
}

/// [`accumulate`]'s boards drawn each independently of the others.
const INDEPENDENT: bool = false;
/// [`accumulate`]'s boards drawn [`Disjoint`]ly.
const DISJOINT: bool = true;

/// Draws from a deck `size` items at a time without replacement, and
/// starts again from the whole deck when fewer than `size` are left: the
/// draws of one pass through the deck are disjoint.
///
/// Each draw is a uniform ordered choice of `size` distinct items (the
/// items left are shuffled by the same partial Fisher-Yates as an
/// independent draw), so a mean over the draws estimates the mean over
/// every choice without bias, as independent draws do. But every item
/// comes once per pass, so the part of the noise that is a sum of each
/// item's own effect (the turn card's, the river card's) nearly cancels:
/// a smaller variance at the same cost.
pub struct Disjoint<'a, T> {
    deck: &'a mut [T],
    at: usize,
}

impl<'a, T> Disjoint<'a, T> {
    pub fn new(deck: &'a mut [T]) -> Disjoint<'a, T> {
        Disjoint { deck, at: 0 }
    }

    /// The next `size` items (at most the deck's length).
    pub fn draw(&mut self, size: usize, rng: &mut GameRng) -> &[T] {
        debug_assert!(size <= self.deck.len());
        if self.at + size > self.deck.len() {
            self.at = 0;
        }
        for k in self.at..self.at + size {
            let j = rng.random_range(k..self.deck.len());
            self.deck.swap(k, j);
        }
        self.at += size;
        &self.deck[self.at - size..self.at]
    }
}

/// Boards evaluated together ([`Accumulator::add_boards`]).
const CHUNK: usize = 64;

/// The cards that complete the boards, held until [`CHUNK`] of them are
/// added at once.
struct Runouts<'h> {
    hands: &'h [Hand; MAX_SEATS],
    boards: [Hand; CHUNK],
    len: usize,
}

impl<'h> Runouts<'h> {
    fn new(hands: &'h [Hand; MAX_SEATS]) -> Runouts<'h> {
        Runouts {
            hands,
            boards: [Hand::EMPTY; CHUNK],
            len: 0,
        }
    }

    fn push(&mut self, acc: &mut Accumulator, runout: Hand) {
        self.boards[self.len] = runout;
        self.len += 1;
        if self.len == CHUNK {
            self.flush(acc);
        }
    }

    /// Adds the boards held to `acc`.
    fn flush(&mut self, acc: &mut Accumulator) {
        acc.add_boards(self.hands, &self.boards[..self.len]);
        self.len = 0;
    }
}

/// The `missing` cards of one sampled board: a partial Fisher-Yates
/// shuffle of `deck`, its first `missing` cards.
#[inline]
fn sample_runout(deck: &mut [Card], missing: usize, rng: &mut GameRng) -> Hand {
    let mut runout = Hand::EMPTY;
    for k in 0..missing {
        let j = rng.random_range(k..deck.len());
        deck.swap(k, j);
        runout = runout.with(deck[k]);
    }
    runout
}

/// A tie among k winners (k <= 10) gets `SHARE_UNIT / k` units each: exact
/// integers, since 2520 is divisible by 1..=10.
const SHARE_UNIT: u64 = 2520;

/// Sums pot shares over boards, in integer units (so enumeration order
/// cannot change the sums).
struct Accumulator {
    /// The live seats.
    seats: [usize; MAX_SEATS],
    live: usize,
    /// Each pot's chips and eligible seats (bit per seat).
    pots: [(u64, u16); MAX_SEATS],
    pot_count: usize,
    /// Share units won, per pot and seat.
    units: [[u64; MAX_SEATS]; MAX_SEATS],
    n: usize,
    boards: u64,
}

impl Accumulator {
    fn new(n: usize, live: &[bool], pots: &[Pot]) -> Accumulator {
        let mut acc = Accumulator {
            seats: [0; MAX_SEATS],
            live: 0,
            pots: [(0, 0); MAX_SEATS],
            pot_count: pots.len().min(MAX_SEATS),
            units: [[0; MAX_SEATS]; MAX_SEATS],
            n,
            boards: 0,
        };
        for s in (0..n).filter(|&s| live[s]) {
            acc.seats[acc.live] = s;
            acc.live += 1;
        }
        for (k, pot) in pots.iter().take(MAX_SEATS).enumerate() {
            let mask = pot.eligible.iter().fold(0u16, |m, &s| m | 1 << s);
            acc.pots[k] = (pot.amount, mask);
        }
        acc
    }

    /// One completed board: each pot to its best eligible hands, ties split
    /// evenly (odd chips do not matter to an expectation).
    #[inline]
    fn add_board(&mut self, hands: &[Hand; MAX_SEATS], runout: Hand) {
        let mut strength: [Strength; MAX_SEATS] = [0; MAX_SEATS];
        for &s in &self.seats[..self.live] {
            strength[s] = hands[s].combine(runout).strength();
        }
        self.add_strengths(&strength);
    }

    /// [`Accumulator::add_board`] of each of up to [`CHUNK`] boards, the
    /// same sums: every strength is looked up first, then the pots are
    /// shared out. Apart, the look-ups (cache misses in large tables) of
    /// different boards overlap; interleaved, each board's comparisons of
    /// strengths (branches no predictor can guess) held up the next
    /// board's look-ups.
    fn add_boards(&mut self, hands: &[Hand; MAX_SEATS], runouts: &[Hand]) {
        debug_assert!(runouts.len() <= CHUNK);
        let mut strengths = [[0 as Strength; MAX_SEATS]; CHUNK];
        for (strength, &runout) in strengths.iter_mut().zip(runouts) {
            for &s in &self.seats[..self.live] {
                strength[s] = hands[s].combine(runout).strength();
            }
        }
        for strength in &strengths[..runouts.len()] {
            self.add_strengths(strength);
        }
    }

    /// One board of which each live seat's strength is known.
    #[inline]
    fn add_strengths(&mut self, strength: &[Strength; MAX_SEATS]) {
        for (k, &(_, mask)) in self.pots[..self.pot_count].iter().enumerate() {
            let (mut best, mut winners) = (0, 0u16);
            let mut m = mask;
            while m != 0 {
                let s = m.trailing_zeros() as usize;
                m &= m - 1;
                if strength[s] > best {
                    (best, winners) = (strength[s], 1 << s);
                } else if strength[s] == best {
                    winners |= 1 << s;
                }
            }
            let share = SHARE_UNIT / u64::from(winners.count_ones().max(1));
            let mut w = winners;
            while w != 0 {
                let s = w.trailing_zeros() as usize;
                w &= w - 1;
                self.units[k][s] += share;
            }
        }
        self.boards += 1;
    }

    /// Every preflop board at once for the two live seats `a` and `b`
    /// (`o` lists `a` first): what [`Accumulator::add_board`] would add over
    /// all 1,712,304 boards.
    fn add_heads_up(&mut self, a: usize, b: usize, o: &Outcome) {
        let boards = preflop::BOARDS;
        let (wa, wb, ties) = (
            u64::from(o.wins[0]),
            u64::from(o.wins[1]),
            u64::from(o.ties),
        );
        for k in 0..self.pot_count {
            let mask = self.pots[k].1;
            let (in_a, in_b) = (mask >> a & 1 == 1, mask >> b & 1 == 1);
            match (in_a, in_b) {
                (true, true) => {
                    self.units[k][a] += SHARE_UNIT * wa + SHARE_UNIT / 2 * ties;
                    self.units[k][b] += SHARE_UNIT * wb + SHARE_UNIT / 2 * ties;
                }
                (true, false) => self.units[k][a] += SHARE_UNIT * boards,
                (false, true) => self.units[k][b] += SHARE_UNIT * boards,
                (false, false) => {}
            }
        }
        self.boards += boards;
    }

    /// Each pot's division, from the units summed.
    fn shares(&self, exact: bool) -> PotShares {
        let total = (SHARE_UNIT * self.boards.max(1)) as f64;
        let mut share = [[0.0; MAX_SEATS]; MAX_SEATS];
        for (k, row) in share.iter_mut().enumerate().take(self.pot_count) {
            for (s, v) in row.iter_mut().enumerate().take(self.n) {
                *v = self.units[k][s] as f64 / total;
            }
        }
        PotShares {
            share,
            exact,
            boards: self.boards,
        }
    }

    fn finish(self, board_cards: usize, exact: bool) -> AllInEquity {
        let total = (SHARE_UNIT * self.boards.max(1)) as f64;
        let mut equity = [0.0; MAX_SEATS];
        let mut won = [0.0; MAX_SEATS];
        for s in 0..self.n {
            equity[s] = self.units[0][s] as f64 / total;
            won[s] = (0..self.pot_count)
                .map(|k| self.pots[k].0 as f64 * self.units[k][s] as f64)
                .sum::<f64>()
                / total;
        }
        AllInEquity {
            board_cards,
            equity,
            expected_won: won,
            exact,
            boards: self.boards,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::parse_cards;
    use crate::holdem::equity::reference::each_subset;
    use crate::holdem::table::pots::build_pots;
    use crate::holdem::test_hole as hole;

    #[test]
    fn disjoint_draws_are_uniform_and_disjoint_in_each_pass() {
        // A deck of 7, draws of 2: three draws a pass, disjoint; then the
        // whole deck again. Each draw (the first, second and third of a
        // pass) is uniform over the 42 ordered pairs.
        let mut deck: Vec<usize> = (0..7).collect();
        let mut rng = crate::rng::game_rng(8, 8);
        let mut draws = Disjoint::new(&mut deck);
        let passes = 42_000;
        let mut seen = [[[0u32; 7]; 7]; 3];
        for _ in 0..passes {
            let mut pass = Vec::new();
            for counts in &mut seen {
                let &[a, b] = draws.draw(2, &mut rng) else {
                    panic!("a draw of two")
                };
                counts[a][b] += 1;
                pass.extend([a, b]);
            }
            pass.sort_unstable();
            pass.dedup();
            assert_eq!(pass.len(), 6, "a pass draws each item once");
        }
        // 1,000 expected each: binomial sd about 31.
        for (d, counts) in seen.iter().enumerate() {
            for (a, row) in counts.iter().enumerate() {
                assert_eq!(row[a], 0);
                for (b, &n) in row.iter().enumerate().filter(|&(b, _)| b != a) {
                    let n = f64::from(n);
                    assert!((n - 1000.0).abs() < 4.5 * 31.0, "draw {d}: ({a}, {b}) {n}");
                }
            }
        }
    }

    #[test]
    fn turn_all_in_counts_outs_exactly() {
        // A flush draw against a set of queens on the turn: of the 9 hearts
        // left, 2h and 3h pair the board and fill the set up, so 7 of the
        // 44 rivers win.
        let holes = [hole("Ah Kh"), hole("Qs Qd")];
        let board = parse_cards("Qh 7h 2c 3s").unwrap();
        let pots = build_pots(&[100, 100], &[true, true]);
        let mut rng = crate::rng::game_rng(0, 0);
        let e = all_in_equity(&holes, &[true, true], &board, &pots, 1000, &mut rng);
        assert!(e.exact);
        assert_eq!(e.boards, 44);
        assert!((e.equity[0] - 7.0 / 44.0).abs() < 1e-12);
        assert!((e.expected_won[0] - 200.0 * 7.0 / 44.0).abs() < 1e-9);
        assert!((e.equity[0] + e.equity[1] - 1.0).abs() < 1e-12);
        // With fewer trials than rivers it samples instead.
        let e = all_in_equity(&holes, &[true, true], &board, &pots, 40, &mut rng);
        assert!(!e.exact);
        assert_eq!(e.boards, 40);
    }

    #[test]
    fn side_pots_are_shared_by_their_own_contenders() {
        // Seat 2 is short: the main pot is three-way, the side pot is
        // contested by seats 0 and 1 only. Chips expected = chips in pots.
        let holes = [hole("As Ad"), hole("Ks Kd"), hole("7c 2h")];
        let board = parse_cards("9s 8d 3c").unwrap();
        let pots = build_pots(&[300, 300, 50], &[true; 3]);
        let mut rng = crate::rng::game_rng(0, 0);
        let e = all_in_equity(&holes, &[true; 3], &board, &pots, 1000, &mut rng);
        // 52 - 3 board - 6 hole cards = 43 cards left.
        assert_eq!(e.boards, 43 * 42 / 2);
        let total: f64 = e.expected_won.iter().sum();
        assert!((total - 650.0).abs() < 1e-6);
        // Seat 2 can win only the main pot of 150.
        assert!(e.expected_won[2] <= 150.0 * e.equity[2] + 1e-9);
        assert!(e.equity[0] > e.equity[1] && e.equity[1] > e.equity[2]);
    }

    #[test]
    fn heads_up_preflop_is_exact_and_equals_every_board() {
        // Seat 1 folded (its cards are unknown), seat 2 is short: a main
        // pot for seats 0 and 2 and a side pot for seat 0 alone (the
        // uncalled part). The table's answer must be the integers the
        // accumulator gets from all 1,712,304 boards, for either order.
        let holes = [hole("As Ah"), hole("2c 3c"), hole("Kd Qd")];
        let live = [true, false, true];
        let pots = build_pots(&[300, 20, 100], &live);
        let mut rng = crate::rng::game_rng(1, 2);
        let e = all_in_equity(&holes, &live, &[], &pots, 1000, &mut rng);
        assert!(e.exact);
        assert_eq!(e.boards, preflop::BOARDS);
        let mut hands = [Hand::EMPTY; MAX_SEATS];
        for s in [0, 2] {
            hands[s] = Hand::from_cards(&holes[s]);
        }
        let known: CardSet = [0, 2].iter().flat_map(|&s| holes[s]).collect();
        let rest = CardSet::FULL52.difference(known).to_vec();
        let mut acc = Accumulator::new(3, &live, &pots);
        let mut pick = Vec::new();
        each_subset(&rest, 5, &mut pick, &mut |b| {
            acc.add_board(&hands, Hand::from_cards(b));
        });
        let mut table = Accumulator::new(3, &live, &pots);
        let o = preflop::lookup(holes[0], holes[2]).expect("disjoint hands");
        table.add_heads_up(0, 2, &o);
        assert_eq!(table.units, acc.units);
        assert_eq!(table.boards, acc.boards);
        assert_eq!(e, acc.finish(0, true));
        // The generator was not touched: the next draw is the same as a
        // fresh one's.
        let mut fresh = crate::rng::game_rng(1, 2);
        assert_eq!(
            rng.random_range(0..u64::MAX),
            fresh.random_range(0..u64::MAX)
        );
        // Chips expected add up to the chips in the pots.
        let total: f64 = e.expected_won.iter().sum();
        assert!((total - 420.0).abs() < 1e-9, "{total}");
    }

    #[test]
    fn multiway_preflop_monte_carlo_is_close_to_the_exact_answer() {
        // Three-way preflop all-ins are still sampled: AA vs KK vs QQ (no
        // shared suits among the kings and queens), about 66.1% for the
        // aces by exact enumeration (`cardsim equity AsAh KdKc QsQh`...).
        let holes = [hole("As Ah"), hole("Kd Kc"), hole("Qs Qd")];
        let pots = build_pots(&[100, 100, 100], &[true; 3]);
        let mut rng = crate::rng::game_rng(3, 4);
        let e = all_in_equity(&holes, &[true; 3], &[], &pots, 20_000, &mut rng);
        assert!(!e.exact);
        assert_eq!(e.boards, 20_000);
        let exact = exact_three_way(&holes);
        let se = (exact * (1.0 - exact) / 20_000.0).sqrt();
        assert!(
            (e.equity[0] - exact).abs() < 4.0 * se,
            "{} vs {exact}",
            e.equity[0]
        );
    }

    #[test]
    fn boards_added_in_chunks_sum_as_boards_added_one_at_a_time() {
        // Four hands, a short stack (side pots), a flop: sampled (a count
        // of trials that is no multiple of the chunk) and enumerated.
        let holes = [hole("As Ad"), hole("Ks Kd"), hole("7c 2h"), hole("Jh Tc")];
        let live = [true; 4];
        let pots = build_pots(&[300, 300, 50, 120], &live);
        let board = parse_cards("9s 8d 3c").unwrap();
        for (board, trials) in [(&board[..0], 1000), (&board[..], 1000), (&board[..], 100)] {
            let mut rng = crate::rng::game_rng(5, 6);
            let (chunked, exact) = accumulate::<INDEPENDENT>(
                &holes,
                &live,
                CardSet::EMPTY,
                board,
                &pots,
                trials,
                &mut rng,
            );
            // The same boards, one at a time.
            let mut hands = [Hand::EMPTY; MAX_SEATS];
            let base = Hand::from_cards(board);
            for s in 0..4 {
                hands[s] = base.combine(Hand::from_cards(&holes[s]));
            }
            let known: CardSet = board
                .iter()
                .chain(holes.iter().flatten())
                .copied()
                .collect();
            let mut deck = CardSet::FULL52.difference(known).to_vec();
            let mut single = Accumulator::new(4, &live, &pots);
            let mut rng = crate::rng::game_rng(5, 6);
            if exact {
                for (i, &a) in deck.iter().enumerate() {
                    for &b in &deck[i + 1..] {
                        single.add_board(&hands, Hand::EMPTY.with(a).with(b));
                    }
                }
            } else {
                for _ in 0..trials {
                    let runout = sample_runout(&mut deck, 5 - board.len(), &mut rng);
                    single.add_board(&hands, runout);
                }
            }
            assert_eq!(exact, board.len() == 3 && trials == 1000);
            assert_eq!(chunked.boards, single.boards);
            assert_eq!(chunked.units, single.units);
        }
    }

    /// Player 0's exact equity by the library's exact enumerator.
    fn exact_three_way(holes: &[[Card; 2]]) -> f64 {
        use crate::holdem::equity::range::Range;
        use crate::holdem::equity::{exact, Query};
        let ranges = holes
            .iter()
            .map(|h| Range::parse(&format!("{}{}", h[0], h[1])).expect("a hand"))
            .collect();
        let q = Query {
            ranges,
            board: Vec::new(),
            dead: CardSet::EMPTY,
        };
        exact(&q.prepare().expect("valid")).players[0].equity
    }
}
