//! Pots by contribution level, and their payout (RULES.md §1, "Pots and
//! payouts").

/// Who gets the odd chips of a split pot.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum OddChips {
    /// One at a time to the tied winners in seat order starting left of the
    /// button (the rules' default).
    #[default]
    LeftOfButton,
    /// PokerKit's behaviour: the hands that win no pot are mucked before the
    /// pots are split, so pots left with the same contenders are split as
    /// one, and each split's odd chips all go to the first tied winner in
    /// that order.
    FirstWinner,
}

impl OddChips {
    /// The name in summaries and hand histories (`left_of_button`).
    pub fn key(self) -> &'static str {
        match self {
            OddChips::LeftOfButton => "left_of_button",
            OddChips::FirstWinner => "first_winner",
        }
    }

    /// The switch named by [`OddChips::key`].
    pub fn from_key(key: &str) -> Option<OddChips> {
        [OddChips::LeftOfButton, OddChips::FirstWinner]
            .into_iter()
            .find(|o| o.key() == key)
    }
}

use arrayvec::ArrayVec;

use super::MAX_SEATS;

/// Seats in increasing order, held without allocating (the corrections
/// build pots several times a hand).
pub type Seats = ArrayVec<usize, MAX_SEATS>;

/// One pot: its chips and the seats that may win it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pot {
    pub amount: u64,
    /// Seats eligible (live, contributed at least this pot's level).
    pub eligible: Seats,
}

/// Builds the pots from each seat's total contribution: one layer per
/// distinct contribution level of a live seat, low to high. Folded chips
/// stay in the layers they reach (above the highest live level they join the
/// top pot); folded seats are eligible for none. A table has at most
/// [`MAX_SEATS`] seats; more panic.
pub fn build_pots(contributed: &[u64], live: &[bool]) -> Vec<Pot> {
    let mut pots = Pots::new();
    push_pots(contributed, live, &mut pots);
    pots.into_iter().collect()
}

/// At most one pot per seat, held without allocating.
pub type Pots = ArrayVec<Pot, MAX_SEATS>;

/// The distinct contribution levels of live seats, low to high.
fn levels(contributed: &[u64], live: &[bool]) -> ArrayVec<u64, MAX_SEATS> {
    let mut levels: ArrayVec<u64, MAX_SEATS> = ArrayVec::new();
    for (&c, &l) in contributed.iter().zip(live) {
        if l && c > 0 && !levels.contains(&c) {
            levels.push(c);
        }
    }
    levels.sort_unstable();
    levels
}

/// [`build_pots`] added to `pots` when they fit in it (the corrections
/// value several moments of a hand in one count): how many were added, or
/// `None` (and `pots` unchanged) when they do not fit. Into empty `pots`
/// they always fit: a table has at most one pot per seat.
pub fn push_pots(contributed: &[u64], live: &[bool], pots: &mut Pots) -> Option<usize> {
    let levels = levels(contributed, live);
    if pots.len() + levels.len() > MAX_SEATS {
        return None;
    }
    let mut below = 0u64;
    for (k, &level) in levels.iter().enumerate() {
        let top = k + 1 == levels.len();
        let amount = contributed
            .iter()
            .map(|&c| {
                let capped = if top { c } else { c.min(level) };
                capped.saturating_sub(below)
            })
            .sum();
        let eligible = (0..contributed.len())
            .filter(|&s| live[s] && contributed[s] >= level)
            .collect();
        pots.push(Pot { amount, eligible });
        below = level;
    }
    Some(levels.len())
}

/// Splits `amount` among `winners` (given in payout order: seat order from
/// left of the button): equal shares, and the odd chips by `odd`. Returns
/// (seat, chips) pairs.
pub fn split(amount: u64, winners: &[usize], odd: OddChips) -> Vec<(usize, u64)> {
    let n = winners.len() as u64;
    let (share, mut rest) = (amount / n, amount % n);
    winners
        .iter()
        .map(|&s| {
            let extra = match odd {
                OddChips::LeftOfButton => u64::from(rest > 0),
                OddChips::FirstWinner => rest,
            };
            rest -= extra;
            (s, share + extra)
        })
        .collect()
}

/// The pots when antes are dead money (PHH's `ante_trimming_status =
/// false`, PokerKit's default): the bets after the antes are layered as
/// [`build_pots`] does, and all the antes go into one pot that every live
/// player is eligible for; it joins the first layer when that layer is
/// also open to every live player (as PokerKit merges pots with the same
/// players).
pub fn build_pots_dead_antes(contributed: &[u64], antes: &[u64], live: &[bool]) -> Vec<Pot> {
    let bets: Vec<u64> = contributed.iter().zip(antes).map(|(c, a)| c - a).collect();
    let mut pots = build_pots(&bets, live);
    let total: u64 = antes.iter().sum();
    if total == 0 {
        return pots;
    }
    let everyone: Seats = (0..live.len()).filter(|&i| live[i]).collect();
    match pots.first_mut() {
        Some(first) if first.eligible == everyone => first.amount += total,
        _ => pots.insert(
            0,
            Pot {
                amount: total,
                eligible: everyone,
            },
        ),
    }
    pots
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_seeds_three_all_in_levels() {
        // Seed 001: all-ins of 1600, 2000 and 2700, and a caller of 2700.
        let pots = build_pots(&[1600, 2000, 2700, 2700], &[true; 4]);
        let amounts: Vec<u64> = pots.iter().map(|p| p.amount).collect();
        assert_eq!(amounts, [6400, 1200, 1400]);
        assert_eq!(pots[0].eligible[..], [0, 1, 2, 3]);
        assert_eq!(pots[1].eligible[..], [1, 2, 3]);
        assert_eq!(pots[2].eligible[..], [2, 3]);
    }

    #[test]
    fn folded_chips_stay_in_the_layers_they_reach() {
        // Seat 1 folded after putting in 150, above the all-in level of 30.
        let pots = build_pots(&[150, 150, 30], &[true, false, true]);
        assert_eq!(pots.len(), 2);
        assert_eq!((pots[0].amount, &pots[0].eligible[..]), (90, &[0, 2][..]));
        assert_eq!((pots[1].amount, &pots[1].eligible[..]), (240, &[0][..]));
        // A folded seat above every live level joins the top pot.
        let pots = build_pots(&[40, 100, 40], &[true, false, true]);
        assert_eq!(pots.len(), 1);
        assert_eq!(pots[0].amount, 180);
    }

    #[test]
    fn odd_chips() {
        assert_eq!(
            split(10, &[2, 0, 1], OddChips::LeftOfButton),
            [(2, 4), (0, 3), (1, 3)]
        );
        assert_eq!(
            split(11, &[2, 0, 1], OddChips::LeftOfButton),
            [(2, 4), (0, 4), (1, 3)]
        );
        assert_eq!(
            split(11, &[2, 0, 1], OddChips::FirstWinner),
            [(2, 5), (0, 3), (1, 3)]
        );
    }

    #[test]
    fn pushed_pots_count_and_follow_each_other_as_built() {
        use crate::rng::game_rng;
        use rand::RngExt;
        let mut rng = game_rng(41, 0);
        for _ in 0..2_000 {
            let n = rng.random_range(2..=MAX_SEATS);
            let moment = |rng: &mut crate::rng::GameRng| {
                let chips: Vec<u64> = (0..n).map(|_| rng.random_range(0..6u64) * 10).collect();
                let live: Vec<bool> = (0..n).map(|_| rng.random_bool(0.7)).collect();
                (chips, live)
            };
            let (a, a_live) = moment(&mut rng);
            let (b, b_live) = moment(&mut rng);
            let (first, second) = (build_pots(&a, &a_live), build_pots(&b, &b_live));
            let mut both = Pots::new();
            assert_eq!(push_pots(&a, &a_live, &mut both), Some(first.len()));
            let fits = first.len() + second.len() <= MAX_SEATS;
            let added = push_pots(&b, &b_live, &mut both);
            assert_eq!(added, fits.then_some(second.len()));
            let want: Vec<Pot> = if fits {
                first.into_iter().chain(second).collect()
            } else {
                first
            };
            assert_eq!(both[..], want[..]);
        }
    }
}
