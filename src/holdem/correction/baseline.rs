//! A learned baseline for a seat's result: control variates whose weights
//! are fitted on a calibration sample, in the manner of MIVAT (White and
//! Bowling, IJCAI 2009), who learn the value function of a variance
//! reduction instead of writing it by hand.
//!
//! The chance correction ([`super::chance`]) values every deal at the
//! chips already in the pot. Most of a hand's chips go in after the deal,
//! so a deal that moves a seat's check-down value by one chip moves its
//! result by several: the weights say how many. The starting hands, too,
//! decide more than their check-down value: a tight agent's result is
//! mostly whether it was dealt a hand it plays.
//!
//! # Why the estimate stays unbiased
//! Every feature has mean zero over the deal, whatever the players do:
//! - the four parts of the chance correction (hole cards, flop, turn,
//!   river), each a value after a deal minus its mean over the deal;
//! - the flop's, turn's and river's parts again where the pot at least
//!   doubled on the street before the deal (else 0): a part times a
//!   number known before its deal keeps its mean of zero over the deal;
//! - the action correction (mean zero over the random agent's draws);
//! - for each starting-hand class `c` (169 of them), `[hand in c] − p(c)`,
//!   with `p(c)` the exact chance of being dealt a hand of the class (6, 4
//!   or 12 of 1,326), for the seat and, heads-up, for its opponent.
//!
//! A weight fixed before the hand times a feature of mean zero has mean
//! zero, so `net − Σ weight × feature` has the mean of `net`, whatever the
//! weights. The weights are fitted (least squares of `net` on the
//! features) on calibration hands that come from their own seed, not from
//! the run's hands; a weight fitted on the run's own hands would make a
//! small bias. The strength features' weights may come from another such
//! fit ([`Fit::share`]: one over every position of an agent), fixed
//! before the run as well.

use super::chance::ChanceCorrection;
use super::strength::{StrengthFeatures, BUCKET_FEATURES, STRENGTH, TENDENCY};
use crate::cards::Card;
use crate::holdem::table::HandState;

/// Starting-hand classes: 13 pairs, 78 suited and 78 offsuit hands.
pub const CLASSES: usize = 169;
/// The chance correction's parts: hole cards, flop, turn, river.
pub const DEALS: usize = 4;
/// The weighted luck: the four deal parts and the action correction.
const LUCK: usize = DEALS + 1;
/// The flop's, turn's and river's parts again, each times whether the pot
/// at least doubled on the street before the deal (a bet was called):
/// known before the deal, so each still has mean zero over it. After a
/// bet more bets tend to follow, so a deal's luck weighs more there.
const CROSS: usize = DEALS - 1;
/// Every weighted feature but the classes: the luck, the crossed luck,
/// the seat's and (heads-up) its opponent's bucket features, then their
/// tendency features.
const DENSE: usize = LUCK + CROSS + BUCKETS2 + TENDENCY2;
/// The seat's and its opponent's bucket features.
const BUCKETS2: usize = 2 * BUCKET_FEATURES;
/// The first of the dense features [`Fit::share`] takes from another
/// fit: the bucket features, then the tendency features, to the end.
const SHARED: usize = LUCK + CROSS;
/// The seat's and its opponent's tendency features.
const TENDENCY2: usize = 2 * TENDENCY;

/// The class of a starting hand, `0..169`: with ranks `hi >= lo` (2 = 0,
/// ace = 12), a pair is `hi * 13 + hi`, a suited hand `hi * 13 + lo`, an
/// offsuit one `lo * 13 + hi`.
pub fn hand_class(hole: [Card; 2]) -> usize {
    let (a, b) = (hole[0].rank().index(), hole[1].rank().index());
    let (hi, lo) = (usize::from(a.max(b)), usize::from(a.min(b)));
    if hi == lo || hole[0].suit() == hole[1].suit() {
        hi * 13 + lo
    } else {
        lo * 13 + hi
    }
}

/// The chance that two cards from a full deck are of class `c`.
pub fn class_probability(c: usize) -> f64 {
    let (row, col) = (c / 13, c % 13);
    let combos = match row.cmp(&col) {
        std::cmp::Ordering::Equal => 6.0,
        std::cmp::Ordering::Greater => 4.0,
        std::cmp::Ordering::Less => 12.0,
    };
    combos / 1326.0
}

/// What the baseline sees of one seat in one hand.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Features {
    /// The chance correction's parts, in chips.
    pub by_deal: [f64; DEALS],
    /// The action correction, in chips.
    pub action: f64,
    /// The flop's, turn's and river's parts where the pot at least doubled
    /// on the street before the deal, else 0.
    pub crossed: [f64; CROSS],
    /// The seat's starting-hand class.
    pub own: usize,
    /// Heads-up, the opponent's class.
    pub opponent: Option<usize>,
    /// The seat's strength features ([`super::strength`]), zeros without.
    pub strength: StrengthFeatures,
    /// Heads-up, the opponent's; zeros otherwise.
    pub opponent_strength: StrengthFeatures,
}

impl Features {
    /// The dense features: the deal parts, the action correction, then
    /// the seat's and its opponent's strength features.
    fn dense(&self) -> [f64; DENSE] {
        let mut out = [0.0; DENSE];
        out[..DEALS].copy_from_slice(&self.by_deal);
        out[DEALS] = self.action;
        out[LUCK..LUCK + CROSS].copy_from_slice(&self.crossed);
        let (own, opponent) = (&self.strength, &self.opponent_strength);
        let at = LUCK + CROSS;
        out[at..at + BUCKET_FEATURES].copy_from_slice(&own[..BUCKET_FEATURES]);
        let at = at + BUCKET_FEATURES;
        out[at..at + BUCKET_FEATURES].copy_from_slice(&opponent[..BUCKET_FEATURES]);
        let at = at + BUCKET_FEATURES;
        out[at..at + TENDENCY].copy_from_slice(&own[BUCKET_FEATURES..]);
        out[at + TENDENCY..].copy_from_slice(&opponent[BUCKET_FEATURES..]);
        out
    }

    /// Seat `seat`'s features in a finished hold'em hand whose chance
    /// correction is `chance`, with every seat's `strength` features (or
    /// none).
    pub fn of(
        hand: &HandState,
        seat: usize,
        chance: &ChanceCorrection,
        action: f64,
        strength: &[StrengthFeatures],
    ) -> Features {
        let seats = hand.seats();
        let class = |s: usize| hand_class([seats[s].hole[0], seats[s].hole[1]]);
        let heads_up = seats.len() == 2;
        let of = |s: usize| strength.get(s).copied().unwrap_or([0.0; STRENGTH]);
        let mut crossed = [0.0; CROSS];
        for (k, c) in crossed.iter_mut().enumerate() {
            if chance.pot[k + 1] >= 2.0 * chance.pot[k] && chance.pot[k + 1] > 0.0 {
                *c = chance.by_deal[k + 1][seat];
            }
        }
        Features {
            by_deal: chance.by_deal.map(|d| d[seat]),
            action,
            crossed,
            own: class(seat),
            opponent: heads_up.then(|| class(1 - seat)),
            strength: of(seat),
            opponent_strength: if heads_up {
                of(1 - seat)
            } else {
                [0.0; STRENGTH]
            },
        }
    }
}

/// The fitted weights of one role (an agent in one seat position).
#[derive(Clone, Debug, PartialEq)]
pub struct Baseline {
    /// The deal parts' weights, the action correction's, then the
    /// strength features'.
    dense: [f64; DENSE],
    own: Vec<f64>,
    opponent: Vec<f64>,
    /// `Σ p(c) own[c]` and the same for `opponent`: the classes' weights
    /// are measured from these, so that their features have mean zero.
    own_mean: f64,
    opponent_mean: f64,
}

impl Baseline {
    /// The correction to subtract from the seat's result.
    pub fn correction(&self, f: &Features) -> f64 {
        let mut c: f64 = self.dense.iter().zip(f.dense()).map(|(w, x)| w * x).sum();
        c += self.own[f.own] - self.own_mean;
        if let Some(o) = f.opponent {
            if !self.opponent.is_empty() {
                c += self.opponent[o] - self.opponent_mean;
            }
        }
        c
    }

    /// The weights of the chance correction's parts and of the action
    /// correction (1 each would be the estimator `chance_action`).
    pub fn luck_weights(&self) -> [f64; LUCK] {
        let mut out = [0.0; LUCK];
        out.copy_from_slice(&self.dense[..LUCK]);
        out
    }
}

/// Least squares of results on features, accumulated hand by hand, in
/// two halves of the calibration sample.
///
/// The design has an intercept, the four deal parts and one indicator per
/// class (twice heads-up): at most 343 columns, of which a hand sets at
/// most 7, so each hand adds a few dozen products to `X'X`. The class
/// weights are shrunk towards zero by a ridge penalty chosen by
/// cross-validation between the halves: with a noisy result or few hands a
/// class's mean is mostly noise, and subtracting noise adds variance.
#[derive(Clone, Debug)]
pub struct Fit {
    heads_up: bool,
    dims: usize,
    halves: [Moments; 2],
    /// The strength features' weights (bucket and tendency), when they
    /// are taken from another fit ([`Fit::share`]) instead of fitted here.
    shared: Option<Vec<f64>>,
}

/// Sums of one half: `X'X`, `X'y`, `y'y` and the hands.
#[derive(Clone, Debug)]
struct Moments {
    xtx: Vec<f64>,
    xty: Vec<f64>,
    yty: f64,
    hands: u64,
}

impl Moments {
    fn new(dims: usize) -> Moments {
        Moments {
            xtx: vec![0.0; dims * dims],
            xty: vec![0.0; dims],
            yty: 0.0,
            hands: 0,
        }
    }

    /// The residual sum of squares of weights `w` on this half.
    fn residual(&self, w: &[f64]) -> f64 {
        let n = w.len();
        let mut quad = 0.0;
        for i in 0..n {
            let row = &self.xtx[i * n..(i + 1) * n];
            quad += w[i] * row.iter().zip(w).map(|(a, b)| a * b).sum::<f64>();
        }
        let cross: f64 = w.iter().zip(&self.xty).map(|(a, b)| a * b).sum();
        self.yty - 2.0 * cross + quad
    }
}

/// Ridge penalties tried for the class weights, in hands: a class seen in
/// `k` hands keeps about `k / (k + penalty)` of its mean (the last one
/// drops the classes).
const PENALTIES: [f64; 8] = [0.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 1e12];

/// Ridge penalties tried for the strength features, as a fraction of
/// their mean sum of squares: the first drops them (the fit of the luck
/// and the classes alone); a feature with the mean sum of squares keeps
/// `1 / (1 + penalty)` of its weight, a rarer one less.
const STRENGTH_PENALTIES: [f64; 5] = [DROPPED, 0.001, 0.01, 0.1, 1.0];

/// Ridge penalties tried for the crossed luck, as a fraction of its mean
/// sum of squares, after the strength features': none dropped them
/// before (the fit without them is the one to beat). Unpenalised, a few
/// calibration hands of a wild player (`random` against `tag`) can give
/// them weights that add variance.
const CROSSED_PENALTIES: [f64; 4] = [0.001, 0.01, 0.1, 1.0];

/// Dropped: a penalty this large leaves a weight of about nothing.
const DROPPED: f64 = 1e12;

/// The ridge penalties of a fit: the classes' in hands, the bucket
/// features', the crossed luck's and the tendency features' as a fraction
/// of their mean sum of squares.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Penalty {
    pub classes: f64,
    pub strength: f64,
    pub crossed: f64,
    pub tendency: f64,
}

impl Fit {
    pub fn new(heads_up: bool) -> Fit {
        let dims = 1 + DENSE + CLASSES * if heads_up { 2 } else { 1 };
        Fit {
            heads_up,
            dims,
            halves: [Moments::new(dims), Moments::new(dims)],
            shared: None,
        }
    }

    /// Takes the strength features' weights (bucket and tendency) from
    /// `from` instead of fitting them: fitted on more hands (every
    /// position of an agent), they are less noisy; the other weights are
    /// fitted with these fixed.
    pub fn share(&mut self, from: &Baseline) {
        self.shared = Some(from.dense[SHARED..].to_vec());
    }

    pub fn hands(&self) -> u64 {
        self.halves[0].hands + self.halves[1].hands
    }

    /// The nonzero columns of one hand: (column, value).
    fn row(&self, f: &Features) -> Vec<(usize, f64)> {
        let mut row = vec![(0, 1.0)];
        let dense = f.dense();
        row.extend(
            dense
                .iter()
                .enumerate()
                .filter(|&(_, &x)| x != 0.0)
                .map(|(k, &x)| (1 + k, x)),
        );
        row.push((1 + DENSE + f.own, 1.0));
        if let (true, Some(o)) = (self.heads_up, f.opponent) {
            row.push((1 + DENSE + CLASSES + o, 1.0));
        }
        row
    }

    /// Adds one hand to half `half` (0 or 1): its features and the seat's
    /// result.
    pub fn add(&mut self, half: usize, f: &Features, result: f64) {
        let row = self.row(f);
        let dims = self.dims;
        let m = &mut self.halves[half & 1];
        for &(i, xi) in &row {
            m.xty[i] += xi * result;
            for &(j, xj) in &row {
                m.xtx[i * dims + j] += xi * xj;
            }
        }
        m.yty += result * result;
        m.hands += 1;
    }

    /// Weights fitted on `moments` with the class weights penalised by
    /// `penalty` (and a tiny ridge on every weight, so that classes never
    /// seen and the intercept shared with the indicators stay defined).
    fn weights(&self, moments: &[&Moments], penalty: Penalty) -> Vec<f64> {
        let n = self.dims;
        let mut a = vec![0.0; n * n];
        let mut b = vec![0.0; n];
        for m in moments {
            a.iter_mut().zip(&m.xtx).for_each(|(x, y)| *x += y);
            b.iter_mut().zip(&m.xty).for_each(|(x, y)| *x += y);
        }
        // The strength features' ridge: a fraction of their mean sum of
        // squares, the same for each, so that a bucket seen in few hands
        // is shrunk most.
        let crossed = 1 + LUCK;
        let first = crossed + CROSS;
        let tendency = first + BUCKETS2;
        let squares = |r: std::ops::Range<usize>| {
            let k = r.len() as f64;
            r.map(|i| a[i * n + i]).sum::<f64>() / k
        };
        let strength = squares(first..tendency);
        let crossed_squares = squares(crossed..first);
        let tendency_squares = squares(tendency..DENSE + 1);
        for i in 0..n {
            let ridge = if i > DENSE {
                penalty.classes
            } else if i >= tendency {
                penalty.tendency * tendency_squares
            } else if i >= first {
                penalty.strength * strength
            } else if i >= crossed {
                penalty.crossed * crossed_squares
            } else {
                0.0
            };
            a[i * n + i] += ridge + 1e-6;
        }
        if let Some(shared) = &self.shared {
            // Fixed weights: their rows say `w_i = v_i`, and the other
            // rows move their part to the right-hand side.
            let fixed = 1 + SHARED..1 + DENSE;
            for (i, &v) in fixed.clone().zip(shared) {
                for j in 0..n {
                    if !fixed.contains(&j) {
                        b[j] -= a[j * n + i] * v;
                    }
                }
            }
            for (i, &v) in fixed.clone().zip(shared) {
                for j in 0..n {
                    a[j * n + i] = 0.0;
                    a[i * n + j] = 0.0;
                }
                a[i * n + i] = 1.0;
                b[i] = v;
            }
        }
        cholesky_solve(&mut a, &b, n)
    }

    /// The error of predicting each half from the other.
    fn cross_error(&self, penalty: Penalty) -> f64 {
        let [a, b] = self.half_errors(penalty);
        a + b
    }

    /// The errors of predicting the second half from the first, and the
    /// first from the second.
    fn half_errors(&self, penalty: Penalty) -> [f64; 2] {
        let [a, b] = &self.halves;
        [
            b.residual(&self.weights(&[a], penalty)),
            a.residual(&self.weights(&[b], penalty)),
        ]
    }

    /// The penalties that predict each half best from the other: the
    /// classes' first (without the strength features and the crossed
    /// luck), then the strength features' (dropping them is one of the
    /// choices), then the crossed luck's (as well).
    pub fn penalty(&self) -> Penalty {
        let mut best = (f64::INFINITY, Penalty::default());
        for classes in PENALTIES {
            let penalty = Penalty {
                classes,
                strength: STRENGTH_PENALTIES[0],
                crossed: DROPPED,
                tendency: DROPPED,
            };
            let err = self.cross_error(penalty);
            if err < best.0 {
                best = (err, penalty);
            }
        }
        if self.shared.is_some() {
            // The strength features' weights are fixed: only the crossed
            // luck is left to choose.
            return self.each_half(best.1, |p, crossed| Penalty { crossed, ..p });
        }
        for &strength in &STRENGTH_PENALTIES[1..] {
            let penalty = Penalty { strength, ..best.1 };
            let err = self.cross_error(penalty);
            if err < best.0 {
                best = (err, penalty);
            }
        }
        // The crossed luck, then the tendency features, only where they
        // predict each half better from the other, not just their sum: a
        // few huge pots in one half can make the sum a poor guide.
        let crossed = self.each_half(best.1, |p, crossed| Penalty { crossed, ..p });
        self.each_half(crossed, |p, tendency| Penalty { tendency, ..p })
    }

    /// `from` with the penalty `with` sets to the one of
    /// [`CROSSED_PENALTIES`] that predicts each half better from the other
    /// than `from` does and their sum best, or `from` if none does.
    fn each_half(&self, from: Penalty, with: impl Fn(Penalty, f64) -> Penalty) -> Penalty {
        let without = self.half_errors(from);
        let mut chosen = (without, from);
        for x in CROSSED_PENALTIES {
            let penalty = with(from, x);
            let err = self.half_errors(penalty);
            let better = err[0] < without[0] && err[1] < without[1];
            if better && err[0] + err[1] < chosen.0[0] + chosen.0[1] {
                chosen = (err, penalty);
            }
        }
        chosen.1
    }

    /// The weights of both halves with the cross-validated penalties.
    pub fn solve(&self) -> Baseline {
        let w = self.weights(&[&self.halves[0], &self.halves[1]], self.penalty());
        let own: Vec<f64> = w[1 + DENSE..1 + DENSE + CLASSES].to_vec();
        let opponent: Vec<f64> = if self.heads_up {
            w[1 + DENSE + CLASSES..].to_vec()
        } else {
            Vec::new()
        };
        let mean = |v: &[f64]| {
            v.iter()
                .enumerate()
                .map(|(c, x)| class_probability(c) * x)
                .sum()
        };
        Baseline {
            dense: {
                let mut d = [0.0; DENSE];
                d.copy_from_slice(&w[1..=DENSE]);
                d
            },
            own_mean: mean(&own),
            opponent_mean: mean(&opponent),
            own,
            opponent,
        }
    }
}

/// Solves `a x = b` for a symmetric positive definite `a` (`n × n`, row
/// major; overwritten by its Cholesky factor).
fn cholesky_solve(a: &mut [f64], b: &[f64], n: usize) -> Vec<f64> {
    for j in 0..n {
        let mut d = a[j * n + j];
        for k in 0..j {
            d -= a[j * n + k] * a[j * n + k];
        }
        let d = d.max(f64::MIN_POSITIVE).sqrt();
        a[j * n + j] = d;
        for i in j + 1..n {
            let mut s = a[i * n + j];
            for k in 0..j {
                s -= a[i * n + k] * a[j * n + k];
            }
            a[i * n + j] = s / d;
        }
    }
    // L y = b, then L' x = y.
    let mut y = b.to_vec();
    for i in 0..n {
        for k in 0..i {
            y[i] -= a[i * n + k] * y[k];
        }
        y[i] /= a[i * n + i];
    }
    for i in (0..n).rev() {
        for k in i + 1..n {
            y[i] -= a[k * n + i] * y[k];
        }
        y[i] /= a[i * n + i];
    }
    y
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cards::deck;

    #[test]
    fn classes_count_every_starting_hand() {
        // 1,326 two-card hands: each class holds its 6, 4 or 12 of them.
        let cards = deck::standard52();
        let mut seen = [0u32; CLASSES];
        for (i, &a) in cards.iter().enumerate() {
            for &b in &cards[i + 1..] {
                seen[hand_class([a, b])] += 1;
            }
        }
        for (c, &k) in seen.iter().enumerate() {
            assert_eq!(f64::from(k) / 1326.0, class_probability(c), "class {c}");
        }
        let total: f64 = (0..CLASSES).map(class_probability).sum();
        assert!((total - 1.0).abs() < 1e-12);
    }

    #[test]
    fn cholesky_solves_a_known_system() {
        // [[4, 2], [2, 3]] x = [2, 1] has x = [0.5, 0].
        let mut a = vec![4.0, 2.0, 2.0, 3.0];
        let x = cholesky_solve(&mut a, &[2.0, 1.0], 2);
        assert!((x[0] - 0.5).abs() < 1e-12 && x[1].abs() < 1e-12, "{x:?}");
    }

    #[test]
    fn the_fit_recovers_known_weights() {
        // Results made of the features with known weights (and noise-free):
        // the fit finds the deal weights, and the class weights up to the
        // constant the correction removes.
        let mut fit = Fit::new(true);
        let truth = [3.0, 2.0, 1.5, 0.5, 0.8];
        let own_value = |c: usize| (c % 7) as f64;
        let mut rng = crate::rng::game_rng(3, 3);
        use rand::RngExt;
        let mut hands = Vec::new();
        for k in 0..20_000 {
            let f = Features {
                by_deal: [0; DEALS].map(|_| rng.random_range(-5.0..5.0)),
                action: rng.random_range(-5.0..5.0),
                crossed: [0.0; CROSS],
                own: rng.random_range(0..CLASSES),
                opponent: Some(rng.random_range(0..CLASSES)),
                strength: [0.0; STRENGTH],
                opponent_strength: [0.0; STRENGTH],
            };
            let y: f64 = 10.0
                + f.dense()
                    .iter()
                    .zip(&truth)
                    .map(|(x, w)| x * w)
                    .sum::<f64>()
                + own_value(f.own);
            fit.add(k % 2, &f, y);
            hands.push((f, y));
        }
        // Noise-free classes are best kept whole.
        assert_eq!(fit.penalty().classes, 0.0);
        let b = fit.solve();
        for (w, t) in b.luck_weights().iter().zip(&truth) {
            assert!((w - t).abs() < 1e-4, "{w} vs {t}");
        }
        // What is left after the correction is the same for every hand.
        let left: Vec<f64> = hands.iter().map(|(f, y)| y - b.correction(f)).collect();
        let spread = left.iter().fold(f64::MIN, |m, &x| m.max(x))
            - left.iter().fold(f64::MAX, |m, &x| m.min(x));
        assert!(spread < 1e-3, "{spread}");
    }

    #[test]
    fn the_crossed_luck_is_kept_where_it_predicts_and_dropped_where_noise() {
        // Results made of the crossed features (weight 2) or unrelated to
        // them, with loud noise: cross-validation keeps them in the first
        // case and drops them in the second.
        use rand::RngExt;
        for signal in [true, false] {
            let mut fit = Fit::new(false);
            let mut rng = crate::rng::game_rng(5, 5);
            for k in 0..4_000 {
                let f = Features {
                    by_deal: [0.0; DEALS],
                    action: 0.0,
                    crossed: [0; CROSS].map(|_| rng.random_range(-5.0..5.0)),
                    own: rng.random_range(0..CLASSES),
                    opponent: None,
                    strength: [0.0; STRENGTH],
                    opponent_strength: [0.0; STRENGTH],
                };
                let noise = rng.random_range(-10.0..10.0);
                let y = if signal {
                    2.0 * f.crossed.iter().sum::<f64>() + noise
                } else {
                    noise
                };
                fit.add(k % 2, &f, y);
            }
            let kept = fit.penalty().crossed < DROPPED;
            assert_eq!(kept, signal, "{:?}", fit.penalty());
        }
    }

    #[test]
    fn the_tendency_features_are_kept_where_they_predict_and_dropped_where_noise() {
        // Results made of the seat's tendency features (weight 3) or
        // unrelated to them, with loud noise: kept in the first case only.
        use rand::RngExt;
        for signal in [true, false] {
            let mut fit = Fit::new(true);
            let mut rng = crate::rng::game_rng(6, 6);
            for k in 0..4_000 {
                let mut strength = [0.0; STRENGTH];
                for x in &mut strength[BUCKET_FEATURES..] {
                    *x = rng.random_range(-5.0..5.0);
                }
                let f = Features {
                    by_deal: [0.0; DEALS],
                    action: 0.0,
                    crossed: [0.0; CROSS],
                    own: rng.random_range(0..CLASSES),
                    opponent: Some(rng.random_range(0..CLASSES)),
                    strength,
                    opponent_strength: [0.0; STRENGTH],
                };
                let noise = rng.random_range(-20.0..20.0);
                let y = if signal {
                    3.0 * strength[BUCKET_FEATURES..].iter().sum::<f64>() + noise
                } else {
                    noise
                };
                fit.add(k % 2, &f, y);
            }
            let kept = fit.penalty().tendency < DROPPED;
            assert_eq!(kept, signal, "{:?}", fit.penalty());
            if signal {
                let b = fit.solve();
                let at = LUCK + CROSS + BUCKETS2;
                for w in &b.dense[at..at + TENDENCY] {
                    assert!((w - 3.0).abs() < 0.3, "{:?}", &b.dense[at..]);
                }
            }
        }
    }

    #[test]
    fn shared_strength_weights_are_kept_and_the_rest_fitted_around_them() {
        // Results of 2 × the hole cards' part plus 1.5 × the seat's first
        // bucket feature: a fit whose strength weights are shared from one
        // that knows them keeps them exactly and finds the luck's weight;
        // shared wrongly (all zero), it cannot explain the bucket part.
        use rand::RngExt;
        let mut rng = crate::rng::game_rng(8, 8);
        let mut hands = Vec::new();
        for _ in 0..4_000 {
            let mut strength = [0.0; STRENGTH];
            strength[0] = rng.random_range(-5.0..5.0);
            let f = Features {
                by_deal: [rng.random_range(-5.0..5.0), 0.0, 0.0, 0.0],
                action: 0.0,
                crossed: [0.0; CROSS],
                own: rng.random_range(0..CLASSES),
                opponent: None,
                strength,
                opponent_strength: [0.0; STRENGTH],
            };
            let y = 2.0 * f.by_deal[0] + 1.5 * strength[0] + rng.random_range(-1.0..1.0);
            hands.push((f, y));
        }
        let fitted = |share: Option<&Baseline>| {
            let mut fit = Fit::new(false);
            for (k, (f, y)) in hands.iter().enumerate() {
                fit.add(k % 2, f, *y);
            }
            if let Some(b) = share {
                fit.share(b);
            }
            fit.solve()
        };
        let alone = fitted(None);
        assert!(
            (alone.dense[SHARED] - 1.5).abs() < 0.05,
            "{}",
            alone.dense[SHARED]
        );
        let mut known = alone.clone();
        known.dense[SHARED..].iter_mut().for_each(|w| *w = 0.0);
        known.dense[SHARED] = 1.5;
        let b = fitted(Some(&known));
        assert_eq!(&b.dense[SHARED..], &known.dense[SHARED..]);
        assert!(
            (b.luck_weights()[0] - 2.0).abs() < 0.05,
            "{:?}",
            b.luck_weights()
        );
        let spread = |b: &Baseline| {
            let left: Vec<f64> = hands.iter().map(|(f, y)| y - b.correction(f)).collect();
            let mean = left.iter().sum::<f64>() / left.len() as f64;
            left.iter().map(|x| (x - mean) * (x - mean)).sum::<f64>() / left.len() as f64
        };
        // What is left is the noise (variance 1/3) with the right weights,
        // the bucket part too (1.5² × 25/3 more) with zeros shared.
        assert!(spread(&b) < 0.4, "{}", spread(&b));
        let mut zeros = known.clone();
        zeros.dense[SHARED] = 0.0;
        assert!(spread(&fitted(Some(&zeros))) > 10.0);
    }

    #[test]
    fn classes_that_are_only_noise_are_dropped() {
        // Results that are the deal parts plus loud noise, unrelated to
        // the classes: cross-validation penalises the classes away.
        let mut fit = Fit::new(false);
        let mut rng = crate::rng::game_rng(4, 4);
        use rand::RngExt;
        for k in 0..4_000 {
            let f = Features {
                by_deal: [0; DEALS].map(|_| rng.random_range(-5.0..5.0)),
                action: 0.0,
                crossed: [0.0; CROSS],
                own: rng.random_range(0..CLASSES),
                opponent: None,
                strength: [0.0; STRENGTH],
                opponent_strength: [0.0; STRENGTH],
            };
            let y = 2.0 * f.by_deal[0] + rng.random_range(-100.0..100.0);
            fit.add(k % 2, &f, y);
        }
        assert!(fit.penalty().classes >= 100.0, "{:?}", fit.penalty());
        let b = fit.solve();
        assert!(
            (b.luck_weights()[0] - 2.0).abs() < 0.5,
            "{:?}",
            b.luck_weights()
        );
    }
}
