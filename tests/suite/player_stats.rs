//! Player statistics (docs/stats.md) two ways: `holdem --player-stats`
//! counts them on the simulated hands, `cardsim stats` on the same hands
//! written as PHH and replayed. Every count must agree, and hand-made
//! hands pin each definition.

use cardsim::holdem::phh::{self, ReplayOptions};
use cardsim::holdem::stats::{seat_play, SeatPlay};
use serde_json::Value;

use crate::common::cardsim;

fn metric<'a>(summary: &'a Value, name: &str) -> &'a Value {
    summary["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["name"] == name)
        .unwrap_or_else(|| panic!("no metric {name}"))
}

#[test]
fn simulated_seats_and_their_replayed_histories_have_the_same_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let (summary, phhs, stats) = (
        dir.path().join("s.json"),
        dir.path().join("h.phhs"),
        dir.path().join("stats.json"),
    );
    let agents = ["tag", "station", "random"];
    let run = cardsim()
        .args(["holdem", "-n", "600", "--players", "3", "--seed", "7", "-q"])
        .args(["--agents", &agents.join(","), "--player-stats"])
        .arg("--summary")
        .arg(&summary)
        .arg("--phh")
        .arg(&phhs)
        .args(["--phh-every", "1"])
        .arg("-o")
        .arg(dir.path().join("h.csv"))
        .output()
        .unwrap();
    assert!(
        run.status.success(),
        "{}",
        String::from_utf8_lossy(&run.stderr)
    );
    let replay = cardsim()
        .arg("stats")
        .arg(&phhs)
        .arg("--json")
        .arg(&stats)
        .arg("-q")
        .output()
        .unwrap();
    assert!(
        replay.status.success(),
        "{}",
        String::from_utf8_lossy(&replay.stderr)
    );
    let summary: Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    let stats: Value = serde_json::from_slice(&std::fs::read(&stats).unwrap()).unwrap();
    assert_eq!(stats["hands"]["replayed"], 600);
    for (k, agent) in agents.iter().enumerate() {
        let seat = format!("seat {}", k + 1);
        let row = stats["players"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["player"] == seat.as_str())
            .unwrap();
        let mut observed = 0;
        for stat in [
            "vpip",
            "pfr",
            "three_bet",
            "fold_to_three_bet",
            "cbet",
            "fold_to_cbet",
            "wtsd",
            "wsd",
        ] {
            let m = metric(&summary, &format!("{stat}_s{}_{agent}", k + 1));
            let opps = m["count"].as_u64().unwrap();
            assert_eq!(
                opps,
                row[stat]["opportunities"].as_u64().unwrap(),
                "{stat} {seat}"
            );
            let hits = m["mean"]
                .as_f64()
                .map_or(0, |x| (x * opps as f64).round() as u64);
            assert_eq!(hits, row[stat]["count"].as_u64().unwrap(), "{stat} {seat}");
            observed += opps;
        }
        assert!(observed > 0);
        for (stat, field) in [
            ("postflop_bets_raises", "bets_raises"),
            ("postflop_calls", "calls"),
        ] {
            let m = metric(&summary, &format!("{stat}_s{}_{agent}", k + 1));
            let total = (m["mean"].as_f64().unwrap() * 600.0).round() as u64;
            assert_eq!(total, row["af"][field].as_u64().unwrap(), "{stat} {seat}");
        }
        // Net: chips in the simulation, big blinds (2 chips) in stats.
        let net = metric(&summary, &format!("net_s{}_{agent}", k + 1));
        let chips = (net["mean"].as_f64().unwrap() * 600.0).round() as i64;
        let bb: f64 = row["net"]["bb"].as_str().unwrap().parse().unwrap();
        assert_eq!(chips, (bb * 2.0).round() as i64, "net {seat}");
    }
    // Without the flag the summary has none of these metrics.
    let plain = cardsim()
        .args(["holdem", "-n", "10", "-q", "--summary", "-"])
        .output()
        .unwrap();
    assert!(!String::from_utf8_lossy(&plain.stdout).contains("vpip_"));
}

fn play(fields: &str, actions: &str) -> Vec<SeatPlay> {
    let text = format!("variant = 'NT'\n{fields}\nactions = [{actions}]\n");
    let t = phh::parse_all(&text).unwrap();
    let r = phh::replay(&t[0], ReplayOptions::default()).unwrap();
    seat_play(&r.state)
}

const THREE: &str = "antes = [0, 0, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n\
                     starting_stacks = [200, 200, 200]";
const DEAL: &str = "'d dh p1 AsKs', 'd dh p2 QdQc', 'd dh p3 7h2c'";

#[test]
fn preflop_statistics_follow_their_definitions() {
    // p3 opens, p1 3-bets, p2 folds, p3 folds to the 3-bet.
    let f = play(
        THREE,
        &format!("{DEAL}, 'p3 cbr 6', 'p1 cbr 18', 'p2 f', 'p3 f'"),
    );
    let (p1, p2, p3) = (f[0], f[1], f[2]);
    assert!(p3.vpip_opp && p3.vpip && p3.pfr);
    assert!(p1.three_bet_opp && p1.three_bet && p1.pfr);
    // p2 faced the 3-bet, not one raise: no 3-bet opportunity.
    assert!(p2.vpip_opp && !p2.vpip && !p2.three_bet_opp);
    assert!(p3.fold_to_three_bet_opp && p3.fold_to_three_bet);
    assert!(!p3.three_bet_opp, "the opener faces its own raise only");
    // A big blind everybody folds to never acts: no VPIP opportunity.
    let walk = play(THREE, &format!("{DEAL}, 'p3 f', 'p1 f'"));
    assert!(!walk[1].vpip_opp);
    // A limp is VPIP, not PFR; the big blind's check is neither.
    let limp = play(
        THREE,
        &format!(
            "{DEAL}, 'p3 cc', 'p1 cc', 'p2 cc', 'd db 2d3d4d', 'p1 cc', 'p2 cc', 'p3 cc', \
                  'd db 5s', 'p1 cc', 'p2 cc', 'p3 cc', 'd db 9h', 'p1 cc', 'p2 cc', 'p3 cc'"
        ),
    );
    assert!(limp[2].vpip && !limp[2].pfr);
    assert!(limp[1].vpip_opp && !limp[1].vpip);
    // Nobody raised preflop: no continuation bet to make or face.
    assert!(limp.iter().all(|p| !p.cbet_opp && !p.fold_to_cbet_opp));
    assert!(limp.iter().all(|p| p.saw_flop && p.showdown));
}

#[test]
fn flop_statistics_follow_their_definitions() {
    // p3 raises, p1 calls, p2 folds; on the flop p1 checks, p3 bets (a
    // c-bet), p1 folds to it.
    let f = play(
        THREE,
        &format!("{DEAL}, 'p3 cbr 6', 'p1 cc', 'p2 f', 'd db 2d3d4d', 'p1 cc', 'p3 cbr 8', 'p1 f'"),
    );
    assert!(f[2].cbet_opp && f[2].cbet);
    assert!(f[0].fold_to_cbet_opp && f[0].fold_to_cbet);
    assert_eq!((f[2].postflop_bets_raises, f[0].postflop_calls), (1, 0));
    assert!(f[0].saw_flop && !f[0].showdown && !f[1].saw_flop);
    // The raiser checks: a missed c-bet; a bet after the check is no
    // c-bet for anyone to fold to.
    let g = play(
        THREE,
        &format!(
            "{DEAL}, 'p3 cbr 6', 'p1 cc', 'p2 f', 'd db 2d3d4d', 'p1 cc', 'p3 cc', \
                  'd db 5s', 'p1 cbr 10', 'p3 cc', 'd db 9h', 'p1 cc', 'p3 cc'"
        ),
    );
    assert!(g[2].cbet_opp && !g[2].cbet);
    assert!(!g[0].fold_to_cbet_opp);
    assert_eq!((g[0].postflop_bets_raises, g[2].postflop_calls), (1, 1));
    assert!(g[0].showdown && g[2].showdown);
    // The c-bet raised: who acts after the raise faces a raise, not the
    // c-bet (p2, who folds to p1's raise, had no fold-to-c-bet chance).
    let h = play(
        THREE,
        &format!(
            "{DEAL}, 'p3 cbr 6', 'p1 cc', 'p2 cc', 'd db 2d3d4d', 'p1 cc', 'p2 cc', \
                  'p3 cbr 8', 'p1 cbr 30', 'p2 f', 'p3 f'"
        ),
    );
    assert!(h[2].cbet && h[0].fold_to_cbet_opp && !h[0].fold_to_cbet);
    assert!(!h[1].fold_to_cbet_opp);
}
