//! Monte Carlo equity when valid deals are rare (issue 29): the reproducers
//! finish in seconds with answers inside their intervals, the direct
//! sampler agrees with exact enumeration, impossible requests are refused
//! at once, answers do not depend on threads, and a run can be cancelled
//! and watched.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use cardsim::cards::{parse_cards, CardSet};
use cardsim::holdem::equity::range::Range;
use cardsim::holdem::equity::{
    exact, exact_with_hooks, monte_carlo, monte_carlo_with, EquityError, EquityResult, Hooks,
    Progress, Query, Stop,
};

use crate::common::cardsim;

/// The CLI's default seed.
const SEED: u64 = 20261122;

fn query(players: &[&str], board: &str, dead: &str) -> Query {
    Query {
        ranges: players.iter().map(|p| Range::parse(p).unwrap()).collect(),
        board: parse_cards(board).unwrap(),
        dead: parse_cards(dead).unwrap().into_iter().collect::<CardSet>(),
    }
}

/// Every player's equity within `z` combined standard errors of the
/// reference (`(equity, stderr)`; a stderr of 0 for an exact reference).
fn assert_within(r: &EquityResult, reference: &[(f64, f64)], z: f64, what: &str) {
    for (i, (p, &(e, se))) in r.players.iter().zip(reference).enumerate() {
        let own = p.stderr.unwrap_or(0.0);
        let tolerance = z * (own * own + se * se).sqrt() + 1e-12;
        assert!(
            (p.equity - e).abs() <= tolerance,
            "{what}: player {} equity {} vs {e} (tolerance {tolerance})",
            i + 1,
            p.equity
        );
    }
}

fn exact_reference(r: &EquityResult) -> Vec<(f64, f64)> {
    r.players.iter().map(|p| (p.equity, 0.0)).collect()
}

/// Issue 29's heads-up reproducer: every valid deal holds the one-in-a-
/// million KsKh, so the plain sampler drew for minutes.
#[test]
fn the_heads_up_reproducer_is_fast_and_matches_exact() {
    let p = query(&["AsAh,KsKh:0.000001", "AsAd,AsAc"], "", "")
        .prepare()
        .unwrap();
    let start = Instant::now();
    let r = monte_carlo(&p, SEED, Stop::Trials(8192)).unwrap();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "took {took:?}");
    assert_within(&r, &exact_reference(&exact(&p)), 4.0, "KsKh vs AsAd/AsAc");
}

/// Issue 29's ten ranged players on a river with a dead card: it sat for
/// 73 s deciding whether any deal was valid. The reference is 4,000,000
/// trials with seed 1 (`cardsim equity ... --trials 4000000 --seed 1`).
#[test]
fn the_ten_player_reproducer_is_fast_and_within_its_intervals() {
    let players = [
        "22+:1E0",
        "AA:0.999999999999,22-55:1E0,JJ-99",
        "QJ",
        "55+:1E0,AA",
        "55+:0.999999999999",
        "Qc6s",
        "any:0.999999999999,QJ,KK:1e-5",
        "any,K9s+",
        "32s:1E0",
        "AKs:1e-6",
    ];
    let reference = [
        (0.11842, 0.000162),
        (0.0405, 0.000099),
        (0.04031, 0.000098),
        (0.15704, 0.000182),
        (0.15674, 0.000182),
        (0.0, 0.0),
        (0.05854, 0.000114),
        (0.05837, 0.000114),
        (0.37007, 0.000238),
        (0.0, 0.0),
    ];
    let start = Instant::now();
    let p = query(&players, "6d 8s 3d Ad 3s", "Ks").prepare().unwrap();
    let r = monte_carlo(&p, SEED, Stop::Trials(8192)).unwrap();
    let took = start.elapsed();
    assert!(took < Duration::from_secs(5), "took {took:?}");
    // The reference rounds to 1e-5: half a unit more of tolerance.
    assert_within(&r, &reference, 4.5, "ten players");
}

/// Five random hands and five that want a pair of aces or kings (only four
/// such pairs fit in a deck): the walk in player order tried every
/// combination of the random hands first.
#[test]
fn an_impossible_ten_player_request_is_refused_at_once() {
    let mut players = vec!["random"; 5];
    players.extend(["AA,KK"; 5]);
    let start = Instant::now();
    let e = query(&players, "", "").prepare().unwrap_err();
    assert_eq!(e, EquityError::NoDeal);
    assert!(
        start.elapsed() < Duration::from_secs(1),
        "{:?}",
        start.elapsed()
    );
}

/// Rare deals of three players, with and without a board: the direct
/// sampler's answers lie within 4 standard errors of exact enumeration.
#[test]
fn rare_deal_monte_carlo_agrees_with_exact_enumeration() {
    let cases: [(&[&str], &str); 4] = [
        (&["AsAh,KsKh:0.000001", "AsAd,AsAc", "QQ"], ""),
        (&["AsAh,7c7d:0.00001", "AsKd,AhKd", "QQ,JJ:0.5"], ""),
        (&["AcAd,2h2s:0.00001", "AcKc,AdKd", "TT+"], "Kh 7s 8d"),
        (
            &["AsAh:0.000001,AdAc", "AsAd,AhKh:0.000002", "KK"],
            "2c 3c 4d 9s",
        ),
    ];
    for (players, board) in cases {
        let p = query(players, board, "").prepare().unwrap();
        let r = monte_carlo(&p, 7, Stop::Trials(100_000)).unwrap();
        assert_within(
            &r,
            &exact_reference(&exact(&p)),
            4.0,
            &format!("{players:?}"),
        );
    }
}

/// The direct sampler keeps the runner's promise: one seed, one answer,
/// whatever the number of threads.
#[test]
fn rare_deal_answers_do_not_depend_on_threads() {
    let p = query(&["AsAh,KsKh:0.000001", "AsAd,AsAc", "random"], "", "")
        .prepare()
        .unwrap();
    let run = |threads: usize| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| monte_carlo(&p, 3, Stop::Trials(30_000)).unwrap())
    };
    assert_eq!(run(1), run(2));
    assert_eq!(run(2), run(2));
}

/// A cancel flag set before or during a run stops it with a typed error,
/// Monte Carlo and exact alike.
#[test]
fn a_cancelled_run_says_interrupted() {
    let p = query(&["AKs", "QQ"], "", "").prepare().unwrap();
    let set = AtomicBool::new(true);
    let hooks = Hooks {
        cancel: Some(&set),
        progress: None,
    };
    assert_eq!(
        monte_carlo_with(&p, 1, Stop::Trials(1_000_000), hooks).unwrap_err(),
        EquityError::Interrupted
    );
    let three = query(&["AKs", "QQ", "JTs"], "", "").prepare().unwrap();
    assert_eq!(
        exact_with_hooks(&three, hooks).unwrap_err(),
        EquityError::Interrupted
    );
    // Set while running: a run of hours stops within moments.
    let flag = AtomicBool::new(false);
    let start = Instant::now();
    let result = std::thread::scope(|s| {
        s.spawn(|| {
            std::thread::sleep(Duration::from_millis(100));
            flag.store(true, Ordering::Relaxed);
        });
        let hooks = Hooks {
            cancel: Some(&flag),
            progress: None,
        };
        monte_carlo_with(&p, 1, Stop::Trials(1_000_000_000_000), hooks)
    });
    assert_eq!(result.unwrap_err(), EquityError::Interrupted);
    assert!(
        start.elapsed() < Duration::from_secs(10),
        "{:?}",
        start.elapsed()
    );
}

/// The first report states the expected time before any trial; later
/// ones count the trials done, up to all of them.
#[test]
fn progress_states_the_expected_time_first_then_counts() {
    let p = query(&["AsAh,KsKh:0.000001", "AsAd,AsAc"], "", "")
        .prepare()
        .unwrap();
    let seen: Mutex<Vec<Progress>> = Mutex::new(Vec::new());
    let report = |r: Progress| seen.lock().unwrap().push(r);
    let hooks = Hooks {
        cancel: None,
        progress: Some(&report),
    };
    monte_carlo_with(&p, 1, Stop::Trials(50_000), hooks).unwrap();
    let seen = seen.into_inner().unwrap();
    assert!(seen[0].expected_seconds.is_some_and(|s| s >= 0.0));
    assert_eq!((seen[0].done, seen[0].total), (0, Some(50_000)));
    let last = seen.last().unwrap();
    assert_eq!((last.done, last.total), (50_000, Some(50_000)));
}

/// `--progress` writes to stderr only: stdout stays one JSON object.
#[test]
fn progress_never_reaches_json_stdout() {
    let out = cardsim()
        .args([
            "equity",
            "AsAh,KsKh:0.000001",
            "AsAd,AsAc",
            "--trials",
            "8192",
            "--json",
            "--progress",
        ])
        .output()
        .unwrap();
    assert!(out.status.success());
    let v: serde_json::Value = serde_json::from_slice(&out.stdout).unwrap();
    assert_eq!(v["trials"], 8192);
}
