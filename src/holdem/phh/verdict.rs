//! The file's `finishing_stacks` and `winnings` against the engine's
//! result: equal, different only by a rake the site kept, or different.

/// How a file's numbers compare with the engine's.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Verdict {
    Match,
    /// Equal but for this many minor units fewer paid to the pots'
    /// winners: a rake.
    Rake(u64),
    Differs,
}

/// What a file's `winnings` count.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Convention {
    /// The pot shares only.
    PotShares,
    /// The pot shares and the uncalled bet given back.
    WithUncalled,
}

impl Convention {
    pub fn key(self) -> &'static str {
        match self {
            Convention::PotShares => "pot_shares",
            Convention::WithUncalled => "with_uncalled",
        }
    }
}

/// `file` against `computed`, both per player: a rake when the only
/// differences are players paid less than computed, each of them a winner
/// (`won` > 0). [`super::INF`] matches [`super::INF`].
pub fn compare(computed: &[u64], file: &[u64], won: &[u64]) -> Verdict {
    if computed.len() != file.len() {
        return Verdict::Differs;
    }
    let mut rake = 0u64;
    for ((&c, &f), &w) in computed.iter().zip(file).zip(won) {
        if c == f {
            continue;
        }
        if c == super::INF || f == super::INF || f > c || w == 0 {
            return Verdict::Differs;
        }
        rake += c - f;
    }
    if rake == 0 {
        Verdict::Match
    } else {
        Verdict::Rake(rake)
    }
}

/// The file's `winnings` against the pot shares, read both ways a site
/// may write them; an exact match first, then a rake.
pub fn compare_winnings(winnings: &[u64], won: &[u64], returned: &[u64]) -> (Verdict, Convention) {
    let with: Vec<u64> = won.iter().zip(returned).map(|(w, r)| w + r).collect();
    let plain = compare(won, winnings, won);
    let uncalled = compare(&with, winnings, &with);
    let any_returned = returned.iter().any(|&r| r > 0);
    match (plain, uncalled) {
        (Verdict::Match, _) => (plain, Convention::PotShares),
        (_, Verdict::Match) if any_returned => (uncalled, Convention::WithUncalled),
        (Verdict::Rake(_), _) => (plain, Convention::PotShares),
        (_, Verdict::Rake(_)) if any_returned => (uncalled, Convention::WithUncalled),
        _ => (Verdict::Differs, Convention::PotShares),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_rake_is_a_winner_paid_less() {
        assert_eq!(compare(&[10, 0], &[10, 0], &[10, 0]), Verdict::Match);
        assert_eq!(compare(&[10, 0], &[9, 0], &[10, 0]), Verdict::Rake(1));
        assert_eq!(compare(&[10, 0], &[11, 0], &[10, 0]), Verdict::Differs);
        assert_eq!(compare(&[10, 5], &[10, 4], &[10, 0]), Verdict::Differs);
        assert_eq!(
            compare_winnings(&[12, 0], &[10, 0], &[2, 0]),
            (Verdict::Match, Convention::WithUncalled)
        );
        assert_eq!(
            compare_winnings(&[11, 0], &[10, 0], &[2, 0]),
            (Verdict::Rake(1), Convention::WithUncalled)
        );
    }
}
