//! One player's statistics over many hands: counts and exact sums only
//! (integers), so adding hands in any order, on any number of threads,
//! gives the same numbers to the last bit.

use super::facts::{AllIn, SeatPlay, SeatResult};

/// A statistic's count and its opportunities: pooled by adding both.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Count {
    pub hits: u64,
    pub opportunities: u64,
}

impl Count {
    fn add(&mut self, opportunity: bool, hit: bool) {
        self.opportunities += u64::from(opportunity);
        self.hits += u64::from(opportunity && hit);
    }

    fn merge(&mut self, o: &Count) {
        self.hits += o.hits;
        self.opportunities += o.opportunities;
    }

    /// The percentage, when there was an opportunity.
    pub fn percent(&self) -> Option<f64> {
        (self.opportunities > 0).then(|| 100.0 * self.hits as f64 / self.opportunities as f64)
    }
}

/// Results in millionths of a big blind, one value per hand: their count,
/// exact sum and sum of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct BigBlinds {
    pub hands: u64,
    pub sum: i128,
    pub sum_sq: i128,
}

/// Millionths of a big blind per big blind.
pub const MICRO: i128 = 1_000_000;

/// The 95% normal quantile.
const Z95: f64 = 1.959_963_984_540_054;

impl BigBlinds {
    fn add(&mut self, micro: i64) {
        let v = i128::from(micro);
        self.hands += 1;
        self.sum += v;
        self.sum_sq += v * v;
    }

    fn merge(&mut self, o: &BigBlinds) {
        self.hands += o.hands;
        self.sum += o.sum;
        self.sum_sq += o.sum_sq;
    }

    /// Big blinds won per 100 hands and its 95% confidence interval
    /// (normal, from the hands' sample standard deviation; no interval
    /// from fewer than two hands).
    pub fn per_100(&self) -> Option<(f64, Option<(f64, f64)>)> {
        if self.hands == 0 {
            return None;
        }
        let n = self.hands as f64;
        let m = MICRO as f64;
        let mean = self.sum as f64 / n / m;
        let ci = (self.hands > 1).then(|| {
            // Sum of squared deviations, exactly, in micro-bb squared.
            let ss = self.sum_sq - self.sum * self.sum / i128::from(self.hands as i64);
            let var = (ss.max(0) as f64) / (n - 1.0) / (m * m);
            let half = Z95 * (var / n).sqrt();
            (100.0 * (mean - half), 100.0 * (mean + half))
        });
        Some((100.0 * mean, ci))
    }
}

/// `units / big_blind` in millionths, rounded half away from zero.
pub fn micro_big_blinds(units: i64, big_blind: u64) -> i64 {
    let (num, den) = (i128::from(units) * MICRO, i128::from(big_blind.max(1)));
    let q = (2 * num.abs() + den) / (2 * den);
    (if num < 0 { -q } else { q }) as i64
}

/// Everything counted for one player.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PlayerStats {
    /// Hands dealt in (replayed, settled or undetermined).
    pub hands: u64,
    pub vpip: Count,
    /// Opportunities as for VPIP.
    pub pfr: Count,
    pub three_bet: Count,
    pub fold_to_three_bet: Count,
    pub cbet: Count,
    pub fold_to_cbet: Count,
    pub postflop_bets_raises: u64,
    pub postflop_calls: u64,
    /// Showdowns out of hands that saw the flop.
    pub wtsd: Count,
    /// Showdowns that took chips, out of showdowns whose result is known.
    pub wsd: Count,
    /// Net result of every hand whose result is known.
    pub net: BigBlinds,
    /// The same hands, all-in hands counted at their expected value.
    pub allin_net: BigBlinds,
    /// Hands counted at their expected value in `allin_net`.
    pub allin_adjusted: u64,
    /// All-in hands whose cards were unknown: the net stands in `allin_net`.
    pub allin_unknown: u64,
}

impl PlayerStats {
    /// Adds one hand: the seat's play, and its result when known, with
    /// the hand's big blind in its units.
    pub fn add(&mut self, p: &SeatPlay, result: Option<&SeatResult>, big_blind: u64) {
        self.hands += 1;
        self.vpip.add(p.vpip_opp, p.vpip);
        self.pfr.add(p.vpip_opp, p.pfr);
        self.three_bet.add(p.three_bet_opp, p.three_bet);
        self.fold_to_three_bet
            .add(p.fold_to_three_bet_opp, p.fold_to_three_bet);
        self.cbet.add(p.cbet_opp, p.cbet);
        self.fold_to_cbet.add(p.fold_to_cbet_opp, p.fold_to_cbet);
        self.postflop_bets_raises += u64::from(p.postflop_bets_raises);
        self.postflop_calls += u64::from(p.postflop_calls);
        self.wtsd.add(p.saw_flop, p.showdown);
        let Some(r) = result else { return };
        self.wsd.add(p.showdown, r.won_at_showdown);
        let net = micro_big_blinds(r.net, big_blind);
        self.net.add(net);
        let adjusted = match r.allin {
            AllIn::Adjusted(ev) => {
                self.allin_adjusted += 1;
                (ev * MICRO as f64 / big_blind.max(1) as f64).round() as i64
            }
            AllIn::Unknown => {
                self.allin_unknown += 1;
                net
            }
            AllIn::No => net,
        };
        self.allin_net.add(adjusted);
    }

    pub fn merge(&mut self, o: &PlayerStats) {
        self.hands += o.hands;
        for (a, b) in [
            (&mut self.vpip, &o.vpip),
            (&mut self.pfr, &o.pfr),
            (&mut self.three_bet, &o.three_bet),
            (&mut self.fold_to_three_bet, &o.fold_to_three_bet),
            (&mut self.cbet, &o.cbet),
            (&mut self.fold_to_cbet, &o.fold_to_cbet),
            (&mut self.wtsd, &o.wtsd),
            (&mut self.wsd, &o.wsd),
        ] {
            a.merge(b);
        }
        self.postflop_bets_raises += o.postflop_bets_raises;
        self.postflop_calls += o.postflop_calls;
        self.net.merge(&o.net);
        self.allin_net.merge(&o.allin_net);
        self.allin_adjusted += o.allin_adjusted;
        self.allin_unknown += o.allin_unknown;
    }

    /// The aggression factor: postflop bets and raises per call (none
    /// without a call).
    pub fn aggression(&self) -> Option<f64> {
        (self.postflop_calls > 0)
            .then(|| self.postflop_bets_raises as f64 / self.postflop_calls as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn big_blinds_round_half_away_from_zero() {
        assert_eq!(micro_big_blinds(150, 100), 1_500_000);
        assert_eq!(micro_big_blinds(-150, 100), -1_500_000);
        // 1/3 bb, and a half millionth rounded away from zero.
        assert_eq!(micro_big_blinds(1, 3), 333_333);
        assert_eq!(micro_big_blinds(1, 2_000_000), 1);
        assert_eq!(micro_big_blinds(-1, 2_000_000), -1);
        assert_eq!(micro_big_blinds(1, 2_000_001), 0);
    }

    #[test]
    fn per_100_is_the_mean_times_100_with_a_normal_interval() {
        let mut b = BigBlinds::default();
        for v in [1_000_000, -1_000_000, 3_000_000, 1_000_000] {
            b.add(v);
        }
        let (mean, ci) = b.per_100().unwrap();
        assert!((mean - 100.0).abs() < 1e-9);
        // sd of [1,-1,3,1] is sqrt(8/3); half width 1.96 * sd / 2 * 100.
        let half = Z95 * (8.0f64 / 3.0).sqrt() / 2.0 * 100.0;
        let (lo, hi) = ci.unwrap();
        assert!((lo - (100.0 - half)).abs() < 1e-9 && (hi - (100.0 + half)).abs() < 1e-9);
        let mut one = BigBlinds::default();
        one.add(5);
        assert_eq!(one.per_100().unwrap().1, None);
        assert_eq!(BigBlinds::default().per_100(), None);
    }
}
