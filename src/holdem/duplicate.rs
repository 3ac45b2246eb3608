//! Duplicate play and the per-agent table of estimates.
//!
//! A duplicate run plays each deal (button, stacks, cards) once per
//! seating of the agents: the cards stay with the seats and the agents
//! move. Game `i` of the run is deal group `i`, and every statistic per
//! agent is a mean over deal groups, so its interval comes from the
//! variance across groups, never from hands of one deal treated as
//! independent (docs/duplicate.md).

use serde::{Deserialize, Serialize};

use crate::sim::output::RunIdentity;
use crate::sim::stats::MetricSummary;

use super::sim::{BASE_ESTIMATORS, ESTIMATORS, HAND_NET};

/// Which seatings a deal is played in.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Duplicate {
    /// Plain play: one hand per deal, each agent at its own seat.
    #[default]
    Off,
    /// The P rotations: in seating `r` (from 0) the agent at position `a`
    /// of `--agents` sits at seat `(a + r) mod P`.
    Rotations,
    /// Every permutation of the agents over the seats (P!, at most
    /// [`MOST_PLAYERS_FOR_ALL`] players), in lexicographic order of the
    /// agent positions seat by seat.
    All,
}

/// The most seats `--duplicate all` plays (6! = 720 hands a deal).
pub const MOST_PLAYERS_FOR_ALL: usize = 6;

impl Duplicate {
    /// `rotations` or `all` (the option's values; empty is `rotations`).
    pub fn parse(text: &str) -> Result<Duplicate, String> {
        match text.trim() {
            "" | "rotations" => Ok(Duplicate::Rotations),
            "all" => Ok(Duplicate::All),
            other => Err(format!(
                "bad --duplicate '{}' (expected rotations or all)",
                crate::text::quote(other)
            )),
        }
    }

    /// The summary's `duplicate` option (none for plain play).
    pub fn key(self) -> Option<&'static str> {
        match self {
            Duplicate::Off => None,
            Duplicate::Rotations => Some("rotations"),
            Duplicate::All => Some("all"),
        }
    }

    /// Per seating, per seat, the position in `--agents` of the agent
    /// sitting there.
    pub fn seatings(self, players: usize) -> Vec<Vec<usize>> {
        match self {
            Duplicate::Off => vec![(0..players).collect()],
            Duplicate::Rotations => (0..players)
                .map(|r| (0..players).map(|s| (s + players - r) % players).collect())
                .collect(),
            Duplicate::All => {
                let mut out = Vec::new();
                permutations(&mut (0..players).collect(), 0, &mut out);
                out.sort();
                out
            }
        }
    }
}

fn permutations(items: &mut Vec<usize>, from: usize, out: &mut Vec<Vec<usize>>) {
    if from == items.len() {
        out.push(items.clone());
        return;
    }
    for k in from..items.len() {
        items.swap(from, k);
        permutations(items, from + 1, out);
        items.swap(from, k);
    }
}

/// One agent's row of the summary's `agents` table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct AgentEstimates {
    /// The agent's label (its name; `_2`, `_3` ... when specs share one).
    pub agent: String,
    /// Hands played at the table (every agent plays every hand).
    pub hands: u64,
    /// Deal groups: the independent units the intervals come from (plain
    /// play: one hand each).
    pub deal_groups: u64,
    /// One entry per estimator, the plain result (`net`) first.
    pub estimators: Vec<EstimatorResult>,
}

/// One estimator of one agent.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EstimatorResult {
    /// `net` (chips won), `ev_net` (all-in pots paid by equity), ...
    pub estimator: String,
    /// Big blinds won per 100 hands (per seat the agent holds).
    pub bb_per_100: f64,
    /// Its 95% interval, from the variance across deal groups.
    pub ci95_bb_per_100: [f64; 2],
    /// Standard deviation of the agent's deal-group mean, bb per 100
    /// hands.
    pub sd_per_group_bb_per_100: f64,
    /// Variance of the plain estimator over that of this one, both per
    /// deal group of this run: how many times fewer groups this one needs
    /// for the interval width `net` gets (1 for `net`). None when this
    /// estimator's variance is 0.
    pub variance_reduction: Option<f64>,
    /// How many hands plain play (no duplicate, the plain `net`) needs
    /// for the interval width this estimator gets from one hand of this
    /// run: the per-hand variance of `net` over (hands per group x the
    /// variance of this estimator's group mean). In a plain run it equals
    /// `variance_reduction`. None when this estimator's variance is 0.
    pub plain_hands_ratio: Option<f64>,
}

/// Hands a game of the run `identity` plays: the seatings of a hold'em
/// duplicate deal group, else 1 (a metric is observed at most this many
/// times a game).
pub fn parts_per_game(identity: &RunIdentity) -> u64 {
    let players: u64 = identity
        .options
        .get("players")
        .and_then(|p| p.parse().ok())
        .unwrap_or(1);
    let duplicate = match identity.options.get("duplicate") {
        Some(key) if identity.game == "holdem" => Duplicate::parse(key).ok(),
        _ => None,
    };
    match duplicate {
        Some(Duplicate::Rotations) => players,
        Some(Duplicate::All) => (1..=players.min(MOST_PLAYERS_FOR_ALL as u64)).product(),
        _ => 1,
    }
}

/// The `agents` table of a hold'em run's summary, from its metrics (so a
/// merge of shards derives the same table as the whole run); empty for
/// other games.
pub fn agent_table(identity: &RunIdentity, metrics: &[MetricSummary]) -> Vec<AgentEstimates> {
    if identity.game != "holdem" {
        return Vec::new();
    }
    let option = |k: &str| identity.options.get(k).map(String::as_str);
    let Some(bb) = option("blinds")
        .and_then(|b| b.split_once('/'))
        .and_then(|(_, bb)| bb.parse::<f64>().ok())
        .filter(|&bb| bb > 0.0)
    else {
        return Vec::new();
    };
    let duplicate = option("duplicate").is_some();
    let per_group = parts_per_game(identity);
    let find = |name: &str| metrics.iter().find(|m| m.name == name);
    // The agents' labels, in metric order, from their plain estimator.
    let plain = format!("_{}", ESTIMATORS[0].name);
    let labels: Vec<&str> = metrics
        .iter()
        .filter_map(|m| m.name.strip_prefix("agent_")?.strip_suffix(plain.as_str()))
        .filter(|label| {
            // `agent_X_ev_net` also ends in `_net`: a label is one whose
            // every estimator of every run is there.
            ESTIMATORS[..BASE_ESTIMATORS]
                .iter()
                .all(|e| find(&format!("agent_{label}_{}", e.name)).is_some())
        })
        .collect();
    let to_bb = 100.0 / bb;
    let mut table = Vec::new();
    for label in labels {
        let Some(net) = find(&format!("agent_{label}_{}", ESTIMATORS[0].name)) else {
            continue;
        };
        let net_var = net.sd.map(|sd| sd * sd);
        // Plain play's per-hand variance: in a duplicate run, observed per
        // hand played; in a plain run the group is the hand.
        let hand_var = match duplicate {
            false => net_var,
            true => find(&format!("agent_{label}_{HAND_NET}")).and_then(|m| m.sd.map(|sd| sd * sd)),
        };
        let mut estimators = Vec::new();
        for e in &ESTIMATORS {
            let Some(m) = find(&format!("agent_{label}_{}", e.name)) else {
                continue;
            };
            let (Some(mean), Some([lo, hi]), Some(sd)) = (m.mean, m.ci95, m.sd) else {
                continue;
            };
            let var = sd * sd;
            let ratio = |top: Option<f64>, times: f64| {
                top.filter(|_| var > 0.0).map(|top| top / (times * var))
            };
            estimators.push(EstimatorResult {
                estimator: e.name.to_string(),
                bb_per_100: mean * to_bb,
                ci95_bb_per_100: [lo * to_bb, hi * to_bb],
                sd_per_group_bb_per_100: sd * to_bb,
                variance_reduction: ratio(net_var, 1.0),
                plain_hands_ratio: ratio(hand_var, per_group as f64),
            });
        }
        table.push(AgentEstimates {
            agent: label.to_string(),
            hands: net.count * per_group,
            deal_groups: net.count,
            estimators,
        });
    }
    table
}

/// The table as the summary on stderr shows it.
pub fn agent_table_text(table: &[AgentEstimates]) -> String {
    let Some(first) = table.first() else {
        return String::new();
    };
    let per = first.hands / first.deal_groups.max(1);
    let mut out = if per > 1 {
        format!(
            "per agent, over {} deal groups of {per} hands (duplicate), bb/100:\n",
            crate::sim::report::grouped(first.deal_groups)
        )
    } else {
        format!(
            "per agent, over {} hands, bb/100:\n",
            crate::sim::report::grouped(first.hands)
        )
    };
    let mut rows = vec![vec![
        "agent".to_string(),
        "estimator".into(),
        "bb/100 ± 95%".into(),
        "var. reduction".into(),
        "plain hands x".into(),
    ]];
    let ratio = |v: Option<f64>| v.map_or_else(|| "-".to_string(), |v| format!("{v:.2}"));
    for agent in table {
        for e in &agent.estimators {
            let [lo, hi] = e.ci95_bb_per_100;
            rows.push(vec![
                agent.agent.clone(),
                e.estimator.clone(),
                format!("{:+.2} ± {:.2}", e.bb_per_100, (hi - lo) / 2.0),
                ratio(e.variance_reduction),
                ratio(e.plain_hands_ratio),
            ]);
        }
    }
    let widths: Vec<usize> = (0..rows[0].len())
        .map(|c| rows.iter().map(|r| r[c].chars().count()).max().unwrap_or(0))
        .collect();
    for row in &rows {
        let cells: Vec<String> = row
            .iter()
            .enumerate()
            .map(|(c, cell)| {
                if c < 2 {
                    format!("{cell:<w$}", w = widths[c])
                } else {
                    format!("{cell:>w$}", w = widths[c])
                }
            })
            .collect();
        out.push_str(cells.join("  ").trim_end());
        out.push('\n');
    }
    out.push_str(
        "(var. reduction: net's variance over the estimator's, per deal group; plain\n\
         hands x: hands plain play needs for the width one hand here gives)\n",
    );
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn seatings_rotate_and_permute() {
        assert_eq!(Duplicate::Off.seatings(3), vec![vec![0, 1, 2]]);
        // Seating 1: agent 0 at seat 1, agent 1 at seat 2, agent 2 at seat 0.
        assert_eq!(
            Duplicate::Rotations.seatings(3),
            vec![vec![0, 1, 2], vec![2, 0, 1], vec![1, 2, 0]]
        );
        let all = Duplicate::All.seatings(3);
        assert_eq!(all.len(), 6);
        assert_eq!(all[0], vec![0, 1, 2]);
        assert_eq!(all[5], vec![2, 1, 0]);
        assert_eq!(Duplicate::All.seatings(2), Duplicate::Rotations.seatings(2));
        assert_eq!(Duplicate::All.seatings(6).len(), 720);
    }

    #[test]
    fn parse_names_the_choices() {
        assert_eq!(Duplicate::parse("all"), Ok(Duplicate::All));
        assert_eq!(Duplicate::parse("rotations"), Ok(Duplicate::Rotations));
        let e = Duplicate::parse("every").unwrap_err();
        assert!(e.contains("rotations or all"), "{e}");
    }
}
