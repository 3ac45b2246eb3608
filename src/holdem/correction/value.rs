//! The check-down value both corrections use: what each seat could expect
//! from the pots if nobody bet again, over every way the rest of the board
//! can fall, with folded hands as dead cards (the simulator knows them, and
//! the deck deals the board from what is left).

use arrayvec::ArrayVec;

use crate::cards::{Card, CardSet};
use crate::holdem::equity::allin::{pot_shares, MAX_SEATS};
use crate::holdem::table::pots::{push_pots, Pots};
use crate::rng::GameRng;

/// A moment to value: the chips each seat has put in, and who is still in.
#[derive(Clone, Copy, Debug)]
pub struct Chips<'a> {
    pub contributed: &'a [u64],
    pub live: &'a [bool],
}

/// Each seat's expected chips from the pots (not minus what it put in),
/// for every moment in `moments`, all with the cards `holes` and `board`:
/// exact when the board has at most `trials` completions, else sampled
/// with `rng`. Moments with the same live seats share one count of the
/// completions. Also says whether every count was exact.
pub fn expected_payouts(
    holes: &[[Card; 2]],
    board: &[Card],
    moments: &[Chips<'_>],
    trials: u32,
    rng: &mut GameRng,
) -> (Vec<[f64; MAX_SEATS]>, bool) {
    let mut out = vec![[0.0; MAX_SEATS]; moments.len()];
    let mut exact = true;
    let mut done = vec![false; moments.len()];
    for i in 0..moments.len() {
        if done[i] {
            continue;
        }
        let live = moments[i].live;
        if live.iter().filter(|&&l| l).count() == 1 {
            // One seat left: every pot is its own.
            let winner = live.iter().position(|&l| l).unwrap_or(0);
            for (j, m) in moments.iter().enumerate().skip(i) {
                if !done[j] && m.live == live {
                    out[j][winner] = m.contributed.iter().sum::<u64>() as f64;
                    done[j] = true;
                }
            }
            continue;
        }
        // Every moment with these live seats, while the pots fit one count.
        let mut pots = Pots::new();
        let mut owner: ArrayVec<usize, MAX_SEATS> = ArrayVec::new();
        for (j, m) in moments.iter().enumerate().skip(i) {
            if done[j] || m.live != live {
                continue;
            }
            let Some(added) = push_pots(m.contributed, m.live, &mut pots) else {
                continue;
            };
            owner.extend(std::iter::repeat_n(j, added));
            done[j] = true;
        }
        let dead: CardSet = holes
            .iter()
            .zip(live)
            .filter(|&(_, &l)| !l)
            .flat_map(|(h, _)| *h)
            .collect();
        let shares = pot_shares(holes, live, dead, board, &pots, trials, rng);
        exact &= shares.exact;
        for (p, (pot, &j)) in pots.iter().zip(&owner).enumerate() {
            for &s in &pot.eligible {
                out[j][s] += pot.amount as f64 * shares.share[p][s];
            }
        }
    }
    (out, exact)
}
