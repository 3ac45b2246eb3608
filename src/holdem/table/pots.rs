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

/// One pot: its chips and the seats that may win it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Pot {
    pub amount: u64,
    /// Seats eligible (live, contributed at least this pot's level).
    pub eligible: Vec<usize>,
}

/// Builds the pots from each seat's total contribution: one layer per
/// distinct contribution level of a live seat, low to high. Folded chips
/// stay in the layers they reach (above the highest live level they join the
/// top pot); folded seats are eligible for none.
pub fn build_pots(contributed: &[u64], live: &[bool]) -> Vec<Pot> {
    let mut levels: Vec<u64> = contributed
        .iter()
        .zip(live)
        .filter(|&(&c, &l)| l && c > 0)
        .map(|(&c, _)| c)
        .collect();
    levels.sort_unstable();
    levels.dedup();
    let mut pots = Vec::with_capacity(levels.len());
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
    pots
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
    let everyone: Vec<usize> = (0..live.len()).filter(|&i| live[i]).collect();
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
        assert_eq!(pots[0].eligible, [0, 1, 2, 3]);
        assert_eq!(pots[1].eligible, [1, 2, 3]);
        assert_eq!(pots[2].eligible, [2, 3]);
    }

    #[test]
    fn folded_chips_stay_in_the_layers_they_reach() {
        // Seat 1 folded after putting in 150, above the all-in level of 30.
        let pots = build_pots(&[150, 150, 30], &[true, false, true]);
        assert_eq!(pots.len(), 2);
        assert_eq!((pots[0].amount, pots[0].eligible.clone()), (90, vec![0, 2]));
        assert_eq!((pots[1].amount, pots[1].eligible.clone()), (240, vec![0]));
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
}
