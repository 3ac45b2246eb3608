//! The variance-reduced estimators through the real binary: `--corrections`
//! and `--calibrate` agree with the plain result within its interval and
//! narrow it, leave the hands and their rows untouched, are the same for
//! any threads, and bad values are refused with one line and exit 2.

use serde_json::Value;

use crate::common::{agent_estimate, agent_estimator, bad, cardsim};

fn run(args: &[&str]) -> Vec<u8> {
    let out = cardsim().args(args).output().expect("cardsim runs");
    let stderr = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{args:?}: {stderr}");
    out.stdout
}

fn summary(path: &std::path::Path) -> Value {
    serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap()
}

/// bb/100, the 95% half-width and the variance reduction of `agent`'s
/// estimator `estimator`.
fn estimate(s: &Value, agent: &str, estimator: &str) -> (f64, f64, f64) {
    let (mean, half) = agent_estimate(s, agent, estimator);
    let e = agent_estimator(s, agent, estimator);
    let reduction = e["variance_reduction"].as_f64().unwrap_or(f64::INFINITY);
    (mean, half, reduction)
}

#[test]
fn every_estimator_agrees_with_the_plain_result_and_narrows_it() {
    let dir = tempfile::tempdir().unwrap();
    for (agents, seed) in [
        ("tag,station", "1"),
        ("random,station", "2"),
        ("random,tag", "3"),
    ] {
        let path = dir.path().join(format!("{seed}.json"));
        run(&[
            "holdem",
            "--players",
            "2",
            "--agents",
            agents,
            "-n",
            "4000",
            "--seed",
            seed,
            "--calibrate",
            "2000",
            "-q",
            "--summary",
            path.to_str().unwrap(),
        ]);
        let s = summary(&path);
        assert_eq!(s["options"]["corrections"], "true");
        assert_eq!(s["options"]["calibration"], "2000");
        let first = agents.split(',').next().unwrap();
        let (net, h, _) = estimate(&s, first, "net");
        let mut reductions = Vec::new();
        for e in ["ev_net", "chance", "chance_action", "learned"] {
            let (v, _, r) = estimate(&s, first, e);
            assert!((v - net).abs() <= h, "{agents} {e}: {v}, net {net} ± {h}");
            reductions.push(r);
        }
        let [_, chance, chance_action, learned] = reductions[..] else {
            unreachable!()
        };
        assert!(chance > 1.1, "{agents}: chance {chance}");
        assert!(
            learned > chance.max(chance_action),
            "{agents}: learned {learned}, chance {chance}, chance_action {chance_action}"
        );
        match agents {
            // The random agent's draws are known. Valued as called, a raise
            // is a fair guess against a station...
            "random,station" => assert!(chance_action > chance, "{chance_action} vs {chance}"),
            // Tag's equity-threshold decisions are draws too, with chances
            // estimated without bias: against a station they take its
            // noise out.
            "tag,station" => assert!(chance_action > chance, "{chance_action} vs {chance}"),
            // ... less so against a player who folds (the learned weights
            // then take less of it).
            "random,tag" => assert_ne!(chance_action, chance),
            _ => unreachable!(),
        }
    }
}

#[test]
fn corrections_leave_the_hands_alone_and_any_threads_agree() {
    let dir = tempfile::tempdir().unwrap();
    let base = [
        "holdem",
        "--players",
        "3",
        "--agents",
        "tag,random,station",
        "-n",
        "1500",
        "-q",
    ];
    let plain = run(&[&base[..], &["-o", "-"]].concat());
    let mut summaries = Vec::new();
    for threads in ["1", "2"] {
        let path = dir.path().join(format!("{threads}.json"));
        let rows = run(&[
            &base[..],
            &[
                "--calibrate",
                "500",
                "-j",
                threads,
                "-o",
                "-",
                "--summary",
                path.to_str().unwrap(),
            ],
        ]
        .concat());
        // The hands and their rows are the same as without the estimators.
        assert_eq!(rows, plain);
        summaries.push(summary(&path));
    }
    assert_eq!(summaries[0]["agents"], summaries[1]["agents"]);
    let (net, h, _) = estimate(&summaries[0], "random", "net");
    let (v, _, _) = estimate(&summaries[0], "random", "learned");
    assert!((v - net).abs() <= h, "learned {v}, net {net} ± {h}");
}

#[test]
fn an_estimate_is_kept_as_exactly_as_the_csv_writes_it() {
    // Tag against pushfold at 100 bb: every hand ends preflop, and in a
    // duplicate group the learned baseline explains the result almost
    // wholly, so `learned` takes very few values. Its mean in the summary
    // must be the CSV column's mean (4 decimals), not a mean of values
    // rounded to hundredths of a chip (0.16 for 0.1561 before the fix).
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("s.json");
    let csv = run(&[
        "holdem",
        "--players",
        "2",
        "--agents",
        "tag,pushfold",
        "--duplicate",
        "-n",
        "3000",
        "--calibrate",
        "3000",
        "-q",
        "-o",
        "-",
        "--summary",
        path.to_str().unwrap(),
    ]);
    let text = String::from_utf8(csv).unwrap();
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let s = summary(&path);
    for column in ["agent_tag_net", "agent_tag_chance", "agent_tag_learned"] {
        let k = header.iter().position(|h| *h == column).unwrap();
        let values: Vec<f64> = text
            .lines()
            .skip(1)
            .map(|l| l.split(',').nth(k).unwrap().parse().unwrap())
            .collect();
        let csv_mean = values.iter().sum::<f64>() / values.len() as f64;
        let metric = s["metrics"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["name"] == column)
            .unwrap();
        let mean = metric["mean"].as_f64().unwrap();
        assert!(
            (mean - csv_mean).abs() < 1e-6,
            "{column}: summary {mean}, CSV {csv_mean}"
        );
    }
}

#[test]
fn bad_calibrations_are_refused_with_one_line() {
    for n in ["0", "x", "20000000", "-3"] {
        let err = bad(&["holdem", "-n", "10", "--calibrate", n]);
        assert!(err.contains("--calibrate"), "{err}");
    }
}

/// The tendency tables are counted over ten times the groups the weights
/// are fitted on (up to a million), from the calibration stream alone, and
/// the same for the same seed.
#[test]
fn the_tendency_tables_are_counted_over_ten_times_the_fit_groups() {
    use cardsim::holdem::agents::{AgentKind, AgentSpec};
    use cardsim::holdem::sim::{HoldemGame, StackSpec};
    let agents = vec![
        AgentSpec::Builtin(AgentKind::Tag),
        AgentSpec::Builtin(AgentKind::Station),
    ];
    let mut game = HoldemGame::new(agents, StackSpec::Fixed(200));
    assert_eq!(game.tendency_groups(1), 10);
    assert_eq!(game.tendency_groups(20_000), 200_000);
    assert_eq!(game.tendency_groups(100_000), 1_000_000);
    assert_eq!(game.tendency_groups(250_000), 1_000_000);
    assert_eq!(game.tendency_groups(3_000_000), 3_000_000);
    assert_eq!(game.tendency_groups(u64::MAX), u64::MAX);

    let mut again = game.clone();
    game.calibrate(5, 40);
    let used = game.estimates.tendencies.clone().expect("tables counted");
    assert_eq!(used.len(), 2, "one table per agent");
    assert_eq!(*used, game.count_tendencies(5, 400));
    // Counting leaves the fitted estimates in place.
    assert!(game.estimates.learned.is_some() && game.estimates.corrections);
    assert_ne!(*used, game.count_tendencies(5, 40));
    assert_ne!(*used, game.count_tendencies(6, 400));
    again.calibrate(5, 40);
    assert_eq!(again.estimates.tendencies.as_deref(), Some(&*used));

    // A program the user brings is slow to ask: its tables take the fit's
    // groups only (the program is started only when a hand asks it).
    let exec = cardsim::holdem::agents::spec::agent(
        "exec:python3 bot.py",
        std::time::Duration::from_secs(1),
    )
    .expect("an exec agent spec");
    let with_program = HoldemGame::new(
        vec![exec, AgentSpec::Builtin(AgentKind::Station)],
        StackSpec::Fixed(200),
    );
    assert_eq!(with_program.tendency_groups(20_000), 20_000);
}
