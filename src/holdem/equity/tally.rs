//! Integer tallies of Monte Carlo showdowns and the standard error that
//! follows from them.

use super::types::{MAX_PLAYERS, UNITS};
use crate::holdem::eval::Strength;

/// Integer tallies of Monte Carlo showdowns, per player: outright wins and
/// ties by how many shared the pot. Pot shares and their squares (for the
/// standard error) follow from these counts, so the hot loop only counts.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub(super) struct Tally {
    pub(super) wins: [u64; MAX_PLAYERS],
    /// `ties[i][k]`: showdowns player `i` shared with `k - 1` others.
    pub(super) ties: [[u64; MAX_PLAYERS + 1]; MAX_PLAYERS],
    pub(super) showdowns: u64,
}

impl Tally {
    pub(super) fn add(&mut self, other: &Tally) {
        for i in 0..MAX_PLAYERS {
            self.wins[i] += other.wins[i];
            for k in 0..=MAX_PLAYERS {
                self.ties[i][k] += other.ties[i][k];
            }
        }
        self.showdowns += other.showdowns;
    }

    /// [`Tally::record`] for two players, branch-free.
    #[inline(always)]
    pub(super) fn record_heads_up(&mut self, a: Strength, b: Strength) {
        self.wins[0] += u64::from(a > b);
        self.wins[1] += u64::from(b > a);
        self.ties[0][2] += u64::from(a == b);
        self.showdowns += 1;
    }

    /// Records one showdown among `n` players with these strengths.
    #[inline(always)]
    pub(super) fn record(&mut self, strengths: &[Strength]) {
        let best = strengths.iter().copied().max().unwrap_or(0);
        let winners = strengths.iter().filter(|&&s| s == best).count();
        for (i, &s) in strengths.iter().enumerate() {
            if s == best {
                if winners == 1 {
                    self.wins[i] += 1;
                } else {
                    self.ties[i][winners] += 1;
                }
            }
        }
        self.showdowns += 1;
    }

    /// The heads-up loop counts ties on player 0 only; copies them to
    /// player 1.
    pub(super) fn finish_heads_up(&mut self) {
        self.ties[1][2] = self.ties[0][2];
    }

    pub(super) fn tied(&self, i: usize) -> u64 {
        self.ties[i].iter().sum()
    }

    /// Player `i`'s total pot share and sum of squared shares, in units of
    /// 1/`UNITS` (and units squared).
    pub(super) fn shares(&self, i: usize) -> (u128, u128) {
        let u = u128::from(UNITS);
        let mut sum = u128::from(self.wins[i]) * u;
        let mut squares = u128::from(self.wins[i]) * u * u;
        for k in 2..=MAX_PLAYERS {
            let (n, share) = (u128::from(self.ties[i][k]), u / k as u128);
            sum += n * share;
            squares += n * share * share;
        }
        (sum, squares)
    }
}

/// Standard error of player `i`'s mean share.
pub(super) fn stderr(t: &Tally, i: usize) -> Option<f64> {
    let n = t.showdowns as f64;
    if t.showdowns < 2 {
        return None;
    }
    let u = UNITS as f64;
    let (sum, squares) = t.shares(i);
    let mean = sum as f64 / u / n;
    let mean_sq = squares as f64 / (u * u) / n;
    let var = (mean_sq - mean * mean).max(0.0) * n / (n - 1.0);
    Some((var / n).sqrt())
}
