//! Tiến lên as a runner game: game `i` deals from its own generator and seats
//! the agents (rotated by `i` with `rotate`, so each agent plays every seat
//! equally often).

use std::collections::BTreeMap;

use super::agents::{Agent, AgentKind};
use super::game::{deal, play, Outcome};
use super::rules::RuleSet;
use crate::rng::GameRng;
use crate::sim::{Game, Metric, Observations, Row};

/// `cardsim tienlen`.
#[derive(Clone, Debug)]
pub struct TienlenGame {
    pub rules: RuleSet,
    /// One agent per seat (2 to 4); with `rotate`, agent `k` sits at seat
    /// `(k + i) % players` in game `i`.
    pub agents: Vec<AgentKind>,
    pub rotate: bool,
}

/// One game's outcome and who sat where.
pub struct TienlenRecord {
    pub outcome: Outcome,
    /// Agent index (into the command's list) at each seat.
    pub seat_agent: [u8; 4],
    pub rotation: u8,
}

impl TienlenGame {
    fn players(&self) -> usize {
        self.agents.len()
    }

    fn seat_names(&self, what: &str) -> Vec<String> {
        (1..=self.players())
            .map(|s| format!("{what}_s{s}"))
            .collect()
    }
}

impl Game for TienlenGame {
    type Record = TienlenRecord;
    type Scratch = Vec<Box<dyn Agent + Send>>;

    fn name(&self) -> &'static str {
        "tienlen"
    }

    fn options(&self) -> BTreeMap<String, String> {
        BTreeMap::from([
            ("rules".to_string(), self.rules.name().to_string()),
            (
                "agents".to_string(),
                self.agents
                    .iter()
                    .map(|a| a.name())
                    .collect::<Vec<_>>()
                    .join(","),
            ),
            ("rotate".to_string(), self.rotate.to_string()),
        ])
    }

    fn columns(&self) -> Vec<String> {
        let mut c = self.seat_names("position");
        c.extend(
            ["winner", "plays", "tricks", "passes", "chops"]
                .iter()
                .map(|s| s.to_string()),
        );
        c.extend(self.seat_names("left"));
        c.push("first_leader".into());
        if self.rotate {
            c.push("rotation".into());
        }
        c
    }

    fn metrics(&self) -> Vec<Metric> {
        let mut m = Vec::new();
        for s in 1..=self.players() {
            m.push(Metric::proportion(format!("seat{s}_win")));
            m.push(Metric::integer(format!("seat{s}_position")));
        }
        if self.rotate {
            for (k, a) in self.agents.iter().enumerate() {
                m.push(Metric::proportion(format!(
                    "agent{}_{}_win",
                    k + 1,
                    a.name()
                )));
                m.push(Metric::integer(format!(
                    "agent{}_{}_position",
                    k + 1,
                    a.name()
                )));
            }
        }
        for name in ["plays", "tricks", "passes", "chops"] {
            m.push(Metric::integer(name));
        }
        m
    }

    fn new_scratch(&self) -> Self::Scratch {
        self.agents.iter().map(|a| a.build()).collect()
    }

    fn play(&self, index: u64, rng: &mut GameRng, agents: &mut Self::Scratch) -> TienlenRecord {
        let n = self.players();
        let rotation = if self.rotate {
            (index % n as u64) as usize
        } else {
            0
        };
        let hands = deal(n, rng);
        // Seat s holds agent (s + n - rotation) % n.
        let mut seat_agent = [0u8; 4];
        for (s, a) in seat_agent.iter_mut().enumerate().take(n) {
            *a = ((s + n - rotation) % n) as u8;
        }
        let mut order: Vec<usize> = (0..n).map(|s| seat_agent[s] as usize).collect();
        // Borrow each agent once, in seat order.
        let mut slots: Vec<Option<&mut Box<dyn Agent + Send>>> =
            agents.iter_mut().map(Some).collect();
        let mut seated: Vec<&mut dyn Agent> = order
            .iter_mut()
            .map(|&mut k| {
                let b = slots[k].take().expect("each agent sits once");
                b.as_mut() as &mut dyn Agent
            })
            .collect();
        let outcome = play(self.rules, hands, &mut seated, rng, None);
        TienlenRecord {
            outcome,
            seat_agent,
            rotation: rotation as u8,
        }
    }

    fn write_row(&self, r: &TienlenRecord, row: &mut Row<'_>) {
        let o = &r.outcome;
        for s in 0..o.players {
            row.int(o.position[s]);
        }
        row.int(o.order[0] + 1);
        row.int(o.plays);
        row.int(o.tricks);
        row.int(o.passes);
        row.int(o.chops);
        for s in 0..o.players {
            row.int(o.left_at_win[s]);
        }
        row.int(o.first_leader + 1);
        if self.rotate {
            row.int(r.rotation);
        }
    }

    fn observe(&self, r: &TienlenRecord, obs: &mut Observations) {
        let o = &r.outcome;
        let n = o.players;
        let winner = o.order[0] as usize;
        for s in 0..n {
            obs.set(2 * s, f64::from(u8::from(s == winner)));
            obs.set(2 * s + 1, f64::from(o.position[s]));
        }
        let mut next = 2 * n;
        if self.rotate {
            for s in 0..n {
                let k = r.seat_agent[s] as usize;
                obs.set(2 * n + 2 * k, f64::from(u8::from(s == winner)));
                obs.set(2 * n + 2 * k + 1, f64::from(o.position[s]));
            }
            next += 2 * n;
        }
        obs.set(next, f64::from(o.plays));
        obs.set(next + 1, f64::from(o.tricks));
        obs.set(next + 2, f64::from(o.passes));
        obs.set(next + 3, f64::from(o.chops));
    }
}
