//! `cardsim holdem` and `cardsim replay` through the real binary: the
//! documented CSV, byte-identical reruns and shards, the pots CSV adding up,
//! hand histories that replay to the same stacks, and bad input rejected
//! with one line and exit status 2.

use std::path::Path;

use crate::common::{bad, cardsim, ok};

fn run_ok(args: &[&str]) -> Vec<u8> {
    let out = cardsim().args(args).output().expect("cardsim runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn s(p: &Path) -> &str {
    p.to_str().unwrap()
}

#[test]
fn csv_has_the_documented_columns_and_is_identical_for_any_threads() {
    let base = [
        "holdem",
        "--hands",
        "3000",
        "--agents",
        "random,station,tag,pushfold,random,tag",
        "--stacks",
        "uniform:5bb-200bb",
        "--ante",
        "1",
        "-q",
        "-o",
        "-",
    ];
    let one = run_ok(&[&base[..], &["-j", "1"]].concat());
    let two = run_ok(&[&base[..], &["-j", "2"]].concat());
    assert_eq!(one, two);
    let text = String::from_utf8(one).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let mut expected = String::from(
        "game,players,button,street,showdown,pot_total,pots,side_pot_total,all_in_players,\
         split,odd_chips,winning_category,allin_street,board",
    );
    for what in ["hole", "stack", "net", "equity", "ev_net"] {
        for seat in 1..=6 {
            expected.push_str(&format!(",{what}_s{seat}"));
        }
    }
    assert_eq!(header, expected);
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    assert_eq!(rows.len(), 3000);
    let mut side_pots = 0;
    for r in &rows {
        assert_eq!(r.len(), 14 + 30);
        // The board has as many cards as the street shows, and no card
        // is dealt twice.
        let shown = match r[3] {
            "preflop" => 0,
            "flop" => 3,
            "turn" => 4,
            _ => 5,
        };
        assert_eq!(r[13].len(), 2 * shown, "{r:?}");
        let cards: String = r[13..20].concat();
        assert!(r[14..20].iter().all(|h| h.len() == 4), "{r:?}");
        let mut seen: Vec<&str> = (0..cards.len() / 2)
            .map(|k| &cards[2 * k..2 * k + 2])
            .collect();
        seen.sort();
        seen.dedup();
        assert_eq!(seen.len(), 12 + shown, "{r:?}");
        // Nets add up to zero: chips are conserved.
        let net: i64 = r[26..32].iter().map(|v| v.parse::<i64>().unwrap()).sum();
        assert_eq!(net, 0, "{r:?}");
        // Equity-adjusted results add up to zero too (to rounding).
        let ev: f64 = r[38..44].iter().map(|v| v.parse::<f64>().unwrap()).sum();
        assert!(ev.abs() < 0.05, "{r:?}");
        let pots: u64 = r[6].parse().unwrap();
        side_pots += u64::from(pots > 1);
        assert_eq!(r[7] == "0", pots == 1);
    }
    assert!(side_pots > 100, "{side_pots} hands with side pots");
}

#[test]
fn shards_merge_into_the_whole_run() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let args = [
        "holdem",
        "--hands",
        "5000",
        "--stacks",
        "uniform:10bb-100bb",
        "--phh-every",
        "7",
        "-q",
    ];
    let outputs = |name: &str| {
        let [csv, pots, phh] =
            ["csv", "pots.csv", "phhs"].map(|ext| d.join(format!("{name}.{ext}")));
        (csv, pots, phh)
    };
    let (whole, whole_pots, whole_phh) = outputs("whole");
    run_ok(
        &[
            &args[..],
            &[
                "-o",
                s(&whole),
                "--pots",
                s(&whole_pots),
                "--phh",
                s(&whole_phh),
            ],
        ]
        .concat(),
    );
    let mut summaries = Vec::new();
    for k in 0..3 {
        let (csv, pots, phh) = outputs(&format!("s{k}"));
        let sum = d.join(format!("s{k}.json"));
        let shard = format!("{k}/3");
        run_ok(
            &[
                &args[..],
                &["--shard", &shard, "-o", s(&csv), "--summary", s(&sum)],
                &["--pots", s(&pots), "--phh", s(&phh)],
            ]
            .concat(),
        );
        summaries.push(sum);
    }
    let (merged, merged_pots, merged_phh) = outputs("merged");
    let mut m = vec!["merge", "-q", "-o", s(&merged), "--pots", s(&merged_pots)];
    m.extend(["--phh", s(&merged_phh)]);
    m.extend(summaries.iter().map(|p| s(p)));
    run_ok(&m);
    for (a, b) in [
        (&whole, &merged),
        (&whole_pots, &merged_pots),
        (&whole_phh, &merged_phh),
    ] {
        assert_eq!(
            std::fs::read(a).unwrap(),
            std::fs::read(b).unwrap(),
            "{}",
            b.display()
        );
    }
    // The merged histories replay and check.
    run_ok(&["replay", "--check", s(&merged_phh)]);

    // A shard run without --pots cannot give its pots to the merge; the
    // same path for two merged outputs is refused.
    let sum = d.join("plain.json");
    run_ok(
        &[
            &["holdem", "--hands", "300", "-q"][..],
            &[
                "--shard",
                "0/1",
                "-o",
                s(&d.join("plain.csv")),
                "--summary",
                s(&sum),
            ],
        ]
        .concat(),
    );
    let err = bad(&["merge", "--pots", s(&d.join("p.csv")), s(&sum)]);
    assert!(err.contains("has no pots CSV"), "{err}");
    let err = bad(&["merge", "-o", s(&merged), "--pots", s(&merged), s(&sum)]);
    assert!(err.contains("its own path"), "{err}");
}

#[test]
fn the_pots_csv_adds_up_to_each_hands_pot() {
    let dir = tempfile::tempdir().unwrap();
    let pots = dir.path().join("pots.csv");
    let out = run_ok(&[
        "holdem",
        "--hands",
        "2000",
        "--stacks",
        "uniform:2bb-150bb",
        "-q",
        "-o",
        "-",
        "--pots",
        s(&pots),
    ]);
    let hands = String::from_utf8(out).unwrap();
    let pot_text = std::fs::read_to_string(&pots).unwrap();
    let mut lines = pot_text.lines();
    assert_eq!(lines.next(), Some("game,pot,amount,eligible,winners,share"));
    let mut per_game = vec![(0u64, 0u64); 2000];
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        let g: usize = f[0].parse().unwrap();
        let amount: u64 = f[2].parse().unwrap();
        let shares: u64 = f[5].split(' ').map(|x| x.parse::<u64>().unwrap()).sum();
        assert_eq!(shares, amount, "{l}");
        assert!(f[3].split(' ').count() >= f[4].split(' ').count(), "{l}");
        per_game[g].0 += amount;
        per_game[g].1 += 1;
    }
    for l in hands.lines().skip(1) {
        let f: Vec<&str> = l.split(',').collect();
        let g: usize = f[0].parse().unwrap();
        assert_eq!(per_game[g].0, f[5].parse::<u64>().unwrap(), "game {g}");
        assert_eq!(per_game[g].1, f[6].parse::<u64>().unwrap(), "game {g}");
    }
}

/// The hand-history run of the PHH tests: 400 hands at a 4-seat table,
/// every 7th written to `phh` (a directory, or one `.phhs` file).
fn phh_run(phh: &Path, threads: &str) {
    run_ok(&[
        "holdem",
        "--hands",
        "400",
        "--stacks",
        "uniform:3bb-120bb",
        "--ante",
        "1",
        "--agents",
        "random,pushfold,station,tag",
        "--players",
        "4",
        "-q",
        "--phh",
        s(phh),
        "--phh-every",
        "7",
        "-j",
        threads,
    ]);
}

#[test]
fn hand_histories_replay_to_the_same_stacks() {
    let dir = tempfile::tempdir().unwrap();
    let phh = dir.path().join("phh");
    phh_run(&phh, "2");
    let mut files: Vec<_> = std::fs::read_dir(&phh)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    files.sort();
    assert_eq!(files.len(), 400usize.div_ceil(7));
    assert!(files[1].ends_with("hand-000000000007.phh"));
    let mut all = String::new();
    for (k, f) in files.iter().enumerate() {
        let out = ok(&["replay", s(f), "--check"]);
        assert!(out.contains("(matches finishing_stacks)"), "{out}");
        all.push_str(&format!(
            "[{}]\n{}\n",
            k + 1,
            std::fs::read_to_string(f).unwrap()
        ));
    }
    let many = dir.path().join("all.phhs");
    std::fs::write(&many, &all).unwrap();
    let out = cardsim()
        .args(["replay", s(&many), "--check", "--json"])
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), files.len());
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["agrees"], true, "{line}");
    }
    assert!(String::from_utf8_lossy(&out.stderr).contains("all match finishing_stacks"));
    // The same hands as one .phhs file, identical for any thread count.
    let bundle = |name: &str, threads: &str| {
        let path = dir.path().join(name);
        phh_run(&path, threads);
        std::fs::read_to_string(path).unwrap()
    };
    let one = bundle("one.phhs", "1");
    assert_eq!(one, bundle("two.phhs", "2"));
    assert!(one.starts_with("[1]\n") && one.contains("[8]\n"));
    let out = ok(&["replay", s(&dir.path().join("one.phhs")), "--check"]);
    assert_eq!(
        out.matches("(matches finishing_stacks)").count(),
        files.len()
    );
}

#[test]
fn replay_reports_bad_files_and_differing_stacks() {
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("bad.phh");
    std::fs::write(
        &f,
        "variant = 'NT'\nantes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
         starting_stacks = [100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p1 cc']\n",
    )
    .unwrap();
    let err = bad(&["replay", s(&f)]);
    assert!(
        err.contains("hand 1: action 2 ('p1 cc'): out of turn: p2 is to act"),
        "{err}"
    );
    std::fs::write(&f, "variant = 'NT'\nnot toml at all [[[").unwrap();
    bad(&["replay", s(&f)]);
    bad(&["replay", s(&dir.path().join("missing.phh"))]);
    // A wrong finishing_stacks: the check fails with exit status 1.
    std::fs::write(
        &f,
        "variant = 'NT'\nantes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
         starting_stacks = [100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 f']\n\
         finishing_stacks = [100, 100]\n",
    )
    .unwrap();
    let out = cardsim()
        .args(["replay", s(&f), "--check"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(String::from_utf8_lossy(&out.stdout).contains("DIFFERS"));
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with("error: 1 of 1 hands") && err.trim_end().lines().count() == 1,
        "{err}"
    );
}

#[test]
fn bad_holdem_input_is_one_line_and_exit_2() {
    let e = bad(&["holdem", "--agents", "random,shark"]);
    assert!(e.contains("unknown agent 'shark'"), "{e}");
    assert!(bad(&["holdem", "--players", "11"]).contains("2 to 10"));
    assert!(bad(&["holdem", "--players", "1"]).contains("2 to 10"));
    assert!(bad(&["holdem", "--players", "3", "--agents", "tag,tag"]).contains("2 agents for 3"));
    assert!(bad(&["holdem", "--stacks", "0bb"]).contains("positive"));
    assert!(bad(&["holdem", "--stacks", "-5"]).contains("--stacks"));
    assert!(bad(&["holdem", "--stacks", "uniform:50bb-10bb"]).contains("low end"));
    assert!(bad(&["holdem", "--blinds", "0/2"]).contains("positive"));
    assert!(bad(&["holdem", "--blinds", "-1/2"]).contains("--blinds"));
    assert!(bad(&["holdem", "--blinds", "3/2"]).contains("above the big blind"));
    assert!(bad(&["holdem", "--blinds", "12"]).contains("SB/BB"));
    bad(&["holdem", "--hands", "0"]);
    bad(&["holdem", "--odd-chips", "middle"]);
    bad(&["holdem", "--pots", "-", "-n", "10"]);
    bad(&["holdem", "--phh-every", "0", "--phh", "x"]);
}

/// A `holdem` run with a pots CSV and a `.phhs` bundle, killed (SIGKILL)
/// at random moments and resumed each time, ends with the three files of
/// an uncut run, and a summary that verifies (the checkpoint records where
/// each file stood, with the hash of its prefix).
#[test]
fn a_run_killed_at_random_moments_resumes_all_three_files() {
    use std::process::Stdio;
    use std::time::{Duration, Instant};
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let hands = "1000000";
    let args = [
        "holdem",
        "--hands",
        hands,
        "--allin-trials",
        "0",
        "-q",
        "--phh-every",
        "97",
    ];
    let outputs = |tag: &str| {
        vec![
            "-o".to_string(),
            d.join(format!("{tag}.csv")).display().to_string(),
            "--pots".to_string(),
            d.join(format!("{tag}-pots.csv")).display().to_string(),
            "--phh".to_string(),
            d.join(format!("{tag}.phhs")).display().to_string(),
            "--summary".to_string(),
            d.join(format!("{tag}.json")).display().to_string(),
        ]
    };
    let whole = outputs("whole");
    let cut = outputs("cut");
    let with = |extra: &[String], resume: bool| {
        let mut v: Vec<String> = args.iter().map(|a| a.to_string()).collect();
        v.extend_from_slice(extra);
        if resume {
            v.push("--resume".into());
        }
        v
    };
    let run_to_end = |v: Vec<String>| run_ok(&v.iter().map(String::as_str).collect::<Vec<_>>());
    run_to_end(with(&whole, false));
    let ckpt = d.join("cut.csv.partial.ckpt");
    // A small xorshift, seeded from the clock: each run kills elsewhere.
    let mut x = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_nanos() as u64
        | 1;
    for round in 0..3 {
        let mut child = cardsim()
            .args(with(&cut, round > 0))
            .args(["--checkpoint-every", "0.02"])
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let started = Instant::now();
        while !ckpt.exists() && started.elapsed() < Duration::from_secs(60) {
            std::thread::sleep(Duration::from_millis(10));
        }
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        std::thread::sleep(Duration::from_millis(x % 300));
        child.kill().unwrap();
        if child.wait().unwrap().success() {
            break; // finished before this kill: the comparison still holds
        }
        assert!(
            !d.join("cut.json").exists(),
            "a summary of an unfinished run"
        );
    }
    run_to_end(with(&cut, true));
    for ext in [".csv", "-pots.csv", ".phhs"] {
        assert!(
            std::fs::read(d.join(format!("whole{ext}"))).unwrap()
                == std::fs::read(d.join(format!("cut{ext}"))).unwrap(),
            "{ext} differs from the uncut run"
        );
    }
    run_ok(&["verify", s(&d.join("cut.json"))]);
}
