//! Hold'em's cards apart from the agents' choices (common random numbers)
//! and duplicate play, through the real binary: the same seed deals the
//! same cards whatever the agents, a duplicate row holds the deal of the
//! plain hand of the same index, duplicate runs are the same for any
//! threads and merge from shards, duplicate and plain estimates agree, and
//! bad combinations are refused with one line and exit status 2.

use std::collections::HashMap;

use serde_json::Value;

use crate::common::{agent_estimate as estimate, bad, cardsim};

fn run(args: &[&str]) -> (Vec<u8>, String) {
    let out = cardsim().args(args).output().expect("cardsim runs");
    let stderr = String::from_utf8_lossy(&out.stderr).into_owned();
    assert!(out.status.success(), "{args:?}: {stderr}");
    (out.stdout, stderr)
}

/// The CSV's rows as maps from column name to field.
fn rows(csv: &[u8]) -> Vec<HashMap<String, String>> {
    let text = std::str::from_utf8(csv).unwrap();
    let mut lines = text.lines();
    let header: Vec<&str> = lines.next().unwrap().split(',').collect();
    lines
        .map(|l| {
            header
                .iter()
                .zip(l.split(','))
                .map(|(h, v)| (h.to_string(), v.to_string()))
                .collect()
        })
        .collect()
}

fn holes(row: &HashMap<String, String>, players: usize) -> Vec<String> {
    (1..=players)
        .map(|s| row[&format!("hole_s{s}")].clone())
        .collect()
}

#[test]
fn the_same_seed_deals_the_same_cards_whatever_the_agents() {
    let base = [
        "holdem",
        "-n",
        "2000",
        "--seed",
        "31",
        "--players",
        "6",
        "--stacks",
        "uniform:10bb-100bb",
        "-q",
        "-o",
        "-",
    ];
    let (a, _) = run(&[
        &base[..],
        &["--agents", "tag,station,random,pushfold,tag,station"],
    ]
    .concat());
    let (b, _) = run(&[&base[..], &["--agents", "random"]].concat());
    let (a, b) = (rows(&a), rows(&b));
    assert_eq!(a.len(), 2000);
    let mut same_river = 0;
    let mut results_differ = 0;
    for (x, y) in a.iter().zip(&b) {
        assert_eq!(holes(x, 6), holes(y, 6), "hand {}", x["game"]);
        for k in ["button", "stack_s1", "stack_s4", "stack_s6"] {
            assert_eq!(x[k], y[k], "hand {}: {k}", x["game"]);
        }
        // The boards shown are two cuts of the same five cards.
        let (bx, by) = (&x["board"], &y["board"]);
        let (short, long) = if bx.len() <= by.len() {
            (bx, by)
        } else {
            (by, bx)
        };
        assert!(
            long.starts_with(short.as_str()),
            "hand {}: {bx} {by}",
            x["game"]
        );
        same_river += usize::from(bx.len() == 10 && bx == by);
        results_differ += usize::from(x["net_s1"] != y["net_s1"]);
    }
    // Both tables reached the river often, and the agents did play
    // differently.
    assert!(same_river > 200, "{same_river}");
    assert!(results_differ > 200, "{results_differ}");
}

#[test]
fn a_duplicate_row_holds_the_deal_of_the_plain_hand() {
    let base = [
        "holdem",
        "-n",
        "500",
        "--seed",
        "5",
        "--players",
        "3",
        "--agents",
        "tag,station,random",
        "-q",
        "-o",
        "-",
    ];
    let (plain, _) = run(&base);
    let (dup, _) = run(&[&base[..], &["--duplicate"]].concat());
    let (all, _) = run(&[&base[..], &["--duplicate", "all"]].concat());
    let text = String::from_utf8(dup.clone()).unwrap();
    assert_eq!(
        text.lines().next().unwrap(),
        "game,players,seatings,button,board,hole_s1,hole_s2,hole_s3,stack_s1,stack_s2,\
         stack_s3,agent_tag_net,agent_tag_ev_net,agent_station_net,agent_station_ev_net,\
         agent_random_net,agent_random_ev_net"
    );
    let (plain, dup, all) = (rows(&plain), rows(&dup), rows(&all));
    assert_eq!(dup.len(), 500);
    for ((p, d), a) in plain.iter().zip(&dup).zip(&all) {
        assert_eq!(holes(p, 3), holes(d, 3));
        assert_eq!(holes(d, 3), holes(a, 3));
        assert_eq!(p["button"], d["button"]);
        assert_eq!(d["board"].len(), 10);
        assert!(d["board"].starts_with(p["board"].as_str()));
        assert_eq!(d["board"], a["board"]);
        assert_eq!(d["seatings"], "3");
        assert_eq!(a["seatings"], "6");
        // Chips are conserved over the group: the agents' means add up to 0
        // (each holds one seat in every hand).
        for r in [d, a] {
            let sum: f64 = ["tag", "station", "random"]
                .iter()
                .map(|l| r[&format!("agent_{l}_net")].parse::<f64>().unwrap())
                .sum();
            assert!(sum.abs() < 1e-3, "{r:?}");
        }
    }
}

fn summary(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn duplicate_runs_are_the_same_for_any_threads_and_shards_merge() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let p = |name: &str| d.join(name).to_str().unwrap().to_string();
    let base = [
        "holdem",
        "-n",
        "3000",
        "--players",
        "2",
        "--agents",
        "tag,random",
        "--duplicate",
        "-q",
    ];
    let (one, _) = run(&[&base[..], &["-j", "1", "-o", "-"]].concat());
    let (two, _) = run(&[&base[..], &["-j", "2", "-o", "-"]].concat());
    assert_eq!(one, two);
    let whole = p("whole.json");
    run(&[&base[..], &["-o", &p("whole.csv"), "--summary", &whole]].concat());
    for k in 0..3 {
        let shard = format!("{k}/3");
        run(&[
            &base[..],
            &[
                "--shard",
                &shard,
                "-o",
                &p(&format!("part{k}.csv")),
                "--summary",
                &p(&format!("part{k}.json")),
            ],
        ]
        .concat());
    }
    let (_, _) = run(&[
        "merge",
        &p("part0.json"),
        &p("part1.json"),
        &p("part2.json"),
        "-o",
        &p("merged.csv"),
        "--summary",
        &p("merged.json"),
        "-q",
    ]);
    assert_eq!(
        std::fs::read(p("whole.csv")).unwrap(),
        std::fs::read(p("merged.csv")).unwrap()
    );
    let (w, m) = (
        summary(d.join("whole.json").as_path()),
        summary(d.join("merged.json").as_path()),
    );
    assert_eq!(w["agents"], m["agents"]);
    assert_eq!(w["agents"][0]["deal_groups"], 3000);
    assert_eq!(w["agents"][0]["hands"], 6000);
    assert_eq!(w["options"]["duplicate"], "rotations");
    // The summaries vouch for their files, and the run replays to the
    // same bytes (pot_total counts 6,000 hands in 3,000 games: allowed).
    let (said, _) = run(&["verify", "--rerun", &whole]);
    let said = String::from_utf8(said).unwrap();
    assert!(said.contains("rerun gives identical"), "{said}");
    let (said, _) = run(&["verify", &p("merged.json")]);
    assert!(String::from_utf8(said).unwrap().starts_with("ok:"));
}

#[test]
fn duplicate_and_plain_estimates_agree_within_their_intervals() {
    let dir = tempfile::tempdir().unwrap();
    let (plain, dup) = (dir.path().join("plain.json"), dir.path().join("dup.json"));
    let base = [
        "holdem",
        "--players",
        "2",
        "--agents",
        "tag,pushfold",
        "--stacks",
        "10bb",
        "--seed",
        "12",
        "-q",
    ];
    run(&[
        &base[..],
        &["-n", "20000", "--summary", plain.to_str().unwrap()],
    ]
    .concat());
    run(&[
        &base[..],
        &[
            "-n",
            "10000",
            "--duplicate",
            "--summary",
            dup.to_str().unwrap(),
        ],
    ]
    .concat());
    let (plain, dup) = (summary(&plain), summary(&dup));
    for agent in ["tag", "pushfold"] {
        for estimator in ["net", "ev_net"] {
            let (p, hp) = estimate(&plain, agent, estimator);
            let (d, hd) = estimate(&dup, agent, estimator);
            assert!(hp > 0.0 && hd > 0.0);
            assert!(
                (p - d).abs() <= hp + hd,
                "{agent} {estimator}: plain {p} ± {hp}, duplicate {d} ± {hd}"
            );
        }
        // Within one run, the all-in adjusted estimate lies in the plain
        // one's interval.
        for s in [&plain, &dup] {
            let (net, h) = estimate(s, agent, "net");
            let (ev, _) = estimate(s, agent, "ev_net");
            assert!(
                (net - ev).abs() <= h,
                "{agent}: net {net} ± {h}, ev_net {ev}"
            );
        }
    }
    // Pushfold at 10 big blinds goes all-in often: paying all-ins by
    // equity cuts the variance, in both runs; and duplicate play needs a
    // few times fewer hands than plain play for one width.
    for s in [&plain, &dup] {
        let reduction = s["agents"][0]["estimators"][1]["variance_reduction"]
            .as_f64()
            .unwrap();
        assert!(reduction > 1.05, "{reduction}");
    }
    let gain = dup["agents"][0]["estimators"][0]["plain_hands_ratio"]
        .as_f64()
        .unwrap();
    assert!(gain > 2.0, "{gain}");
    // The two runs' widths show it: both played 20,000 hands (10,000 deal
    // groups of 2), and plain play's interval is more than sqrt(2) times
    // as wide.
    let (_, hp) = estimate(&plain, "tag", "net");
    let (_, hd) = estimate(&dup, "tag", "net");
    assert!(hp > 1.4 * hd, "plain ± {hp}, duplicate ± {hd}");
}

#[test]
fn duplicate_refuses_what_it_cannot_write_with_one_line() {
    for (args, said) in [
        (vec!["--duplicate", "some"], "expected rotations or all"),
        (
            vec!["--duplicate", "all", "--players", "7"],
            "at most 6 players",
        ),
    ] {
        let line = bad(&[&["holdem", "-n", "10"][..], &args[..]].concat());
        assert!(line.contains(said), "{args:?}: {line}");
    }
}

#[test]
fn duplicate_writes_pots_hand_histories_and_player_stats_of_every_hand() {
    // Seating 1 of deal group i seats the agents as plain play does and is
    // dealt plain hand i: its pots rows and its hand history are plain
    // play's (but for the hand's number); seating 2 is the other hand.
    let dir = tempfile::tempdir().unwrap();
    let d = |name: &str| dir.path().join(name).to_str().unwrap().to_string();
    for (name, extra) in [("plain", vec![]), ("dup", vec!["--duplicate"])] {
        let (pots, phh, summary) = (
            d(&format!("{name}-pots.csv")),
            d(name),
            d(&format!("{name}.json")),
        );
        let base = [
            "holdem",
            "--players",
            "2",
            "--agents",
            "tag,station",
            "-n",
            "300",
        ];
        let outs = [
            "--pots",
            &pots,
            "--phh",
            &phh,
            "--phh-every",
            "100",
            "--summary",
            &summary,
        ];
        let mut args: Vec<&str> = [
            &base[..],
            &["--seed", "9", "-q", "--player-stats"],
            &outs[..],
        ]
        .concat();
        args.extend(extra);
        run(&args);
    }
    let read = |name: &str| std::fs::read_to_string(d(name)).unwrap();
    let (plain, dup) = (read("plain-pots.csv"), read("dup-pots.csv"));
    assert!(dup.starts_with("game,seating,pot,amount,eligible,winners,share\n"));
    let seating = |k: &str| -> Vec<String> {
        dup.lines()
            .skip(1)
            .filter(|l| l.split(',').nth(1) == Some(k))
            .map(|l| {
                let mut f: Vec<&str> = l.split(',').collect();
                f.remove(1);
                f.join(",")
            })
            .collect()
    };
    let plain_rows: Vec<String> = plain.lines().skip(1).map(String::from).collect();
    assert_eq!(seating("1"), plain_rows);
    assert!(
        seating("2").len() >= 300,
        "every hand of seating 2 has a pot"
    );
    // Hand histories: group 100's two hands are hands 200 and 201.
    let without_number = |text: String| -> String {
        text.lines()
            .filter(|l| !l.starts_with("hand = "))
            .collect::<Vec<_>>()
            .join("\n")
    };
    for (group, plain_file) in [(0, "hand-000000000000.phh"), (100, "hand-000000000100.phh")] {
        let first = read(&format!("dup/hand-{:012}.phh", 2 * group));
        assert!(first.contains(&format!("hand = {}\n", 2 * group)));
        assert_eq!(
            without_number(first),
            without_number(read(&format!("plain/{plain_file}")))
        );
        assert!(std::path::Path::new(&d(&format!("dup/hand-{:012}.phh", 2 * group + 1))).exists());
    }
    // Player statistics: per agent of --agents, over every hand it played.
    let s: Value = serde_json::from_str(&read("dup.json")).unwrap();
    let metric = |name: &str| {
        s["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == name)
            .cloned()
            .unwrap()
    };
    assert_eq!(
        metric("vpip_s1_tag")["count"],
        600,
        "tag has a preflop decision in every hand"
    );
    assert_eq!(metric("vpip_s2_station")["mean"], 1.0);
    assert_eq!(metric("pfr_s2_station")["mean"], 0.0);
}
