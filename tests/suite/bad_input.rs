//! Every input parsed without a panic, every request bounded in time and
//! memory: one test per class of failure a fuzzing campaign found, each
//! with its reproducer through the real binary.

use std::io::Write;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::common::{bad, cardsim, ok};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Runs under bash with a memory cap (KiB of address space) and a time
/// limit; returns the output and the wall time.
fn capped(mem_kib: u64, secs: u64, args: &[&str]) -> (Output, Duration) {
    let bin = assert_cmd::cargo::cargo_bin("cardsim");
    let started = Instant::now();
    let out = Command::new("bash")
        .arg("-c")
        .arg(format!(
            "ulimit -v {mem_kib}; exec timeout -s KILL {secs} \"$0\" \"$@\""
        ))
        .arg(bin)
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .output()
        .expect("bash runs");
    (out, started.elapsed())
}

fn stdin_run(args: &[&str], input: &[u8]) -> Output {
    let mut child = cardsim()
        .args(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    child.stdin.take().unwrap().write_all(input).unwrap();
    child.wait_with_output().unwrap()
}

fn one_line_exit_2(out: &Output) -> String {
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(
        err.starts_with("error: ") && err.trim_end().lines().count() == 1,
        "{err}"
    );
    err
}

#[test]
fn case_1_2_cards_with_symbols_or_multibyte_characters_never_panic() {
    // Suit symbols are card notation.
    let plain = ok(&["eval", "As Kd Qd Jd Td"]);
    assert_eq!(ok(&["eval", "AsK♦ Qd Jd Td"]), plain);
    assert_eq!(ok(&["eval", "A♠ K♦ Q♦ J♦ T♦"]), plain);
    for args in [
        &["eval", "1234é"][..],
        &["eval", "AsK♦é Qd Jd Td"],
        &["equity", "AsK♦é", "QQ"],
        &["equity", "QQ", "random", "--board", "Ah7dé"],
        &["tienlen", "hint", "--hand", "3h 4hé"],
        &["tienlen", "classify", "joké"],
        &["solve", "9Hé", "8S"],
        &["fishing", "--deal", "2222é"],
        &["fishing", "--deal", "jokeré"],
    ] {
        bad(args);
    }
}

#[test]
fn case_4_rare_deals_and_tiny_weights_end_in_seconds() {
    // Weights that would never be drawn, or underflow, are refused.
    for w in ["1e-300", "4.9e-324", "1e-320", "0", "nan", "2"] {
        let err = bad(&[
            "equity",
            &format!("AsAh,KsKh:{w}"),
            "AsAd,AsAc",
            "--trials",
            "1",
        ]);
        assert!(err.contains("weight"), "{err}");
    }
    // The long reproducer: refused at once (its weights), not 58 minutes.
    let (out, took) = capped(
        4 << 20,
        30,
        &[
            "equity",
            "KQs-K2s:1e-320",
            "KK:1e-320,QQ+:4.9e-324,AA:.5",
            "random",
            "8h2d",
            "AKs,AKs:0.5",
            "5dKh",
            "6dAd",
            "K9s+:1E0,KQs-K2s:1e-10",
            "32s:0.01,T9s:1e-300,AKo:1e-300",
            "AKo,A2s+",
            "--board",
            "Js 4c 5c Ah",
            "--dead",
            "3s Qd 9h Jc 4s",
            "--json",
        ],
    );
    one_line_exit_2(&out);
    assert!(took < Duration::from_secs(10), "{took:?}");
    // Valid deals rare (8 players on 16 aces, kings, queens and jacks):
    // --time is honoured inside the sampler...
    let (out, took) = capped(
        4 << 20,
        60,
        &[
            "equity", "AK", "AK", "AK", "AK", "QJ", "QJ", "QJ", "QJ", "--time", "1",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(took < Duration::from_secs(10), "--time 1 took {took:?}");
    // ... the same deals are drawn directly for a count of trials (every
    // joint deal of the eight fits in the direct sampler's table) ...
    let (out, took) = capped(
        4 << 20,
        60,
        &[
            "equity", "AK", "AK", "AK", "AK", "QJ", "QJ", "QJ", "QJ", "--trials", "100000",
        ],
    );
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(
        took < Duration::from_secs(10),
        "--trials 100000 took {took:?}"
    );
    // ... and a request that still needs too many deals says so, with the
    // rate: ten players on the twenty cards of five pairs.
    let mut pairs = vec!["equity"];
    pairs.extend(["AA,KK,QQ,JJ,TT"; 10]);
    pairs.extend(["--trials", "100000000"]);
    let err = bad(&pairs);
    assert!(err.contains("% of random deals are valid"), "{err}");
    // The smallest weight with a rare valid deal still answers at once.
    ok(&["equity", "AsAh,KsKh:0.000001", "AsAd,AsAc", "--trials", "1"]);
}

#[test]
fn case_5_memory_does_not_grow_with_trials() {
    // 10^12 trials under a 512 MB cap: still running (not aborted on an
    // allocation) when stopped after 3 seconds.
    let (out, _) = capped(
        512 << 10,
        3,
        &["equity", "AA", "KK", "--trials", "1000000000000", "-j", "2"],
    );
    assert_eq!(
        out.status.code(),
        None,
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stderr).is_empty());
}

#[test]
fn case_6_huge_exact_enumerations_are_refused_with_their_size() {
    let mut args = vec!["equity"];
    args.extend(["random"; 10]);
    args.push("--exact");
    let (out, took) = capped(4 << 20, 30, &args);
    let err = one_line_exit_2(&out);
    assert!(
        err.contains("showdown evaluations") && err.contains("--trials"),
        "{err}"
    );
    assert!(took < Duration::from_secs(5));
}

#[test]
fn case_7_tienlen_hands_larger_than_the_game_allows_are_refused() {
    let deck: Vec<String> = "3456789TJQKA2"
        .chars()
        .flat_map(|r| "shdc".chars().map(move |s| format!("{r}{s}")))
        .collect();
    for n in [14, 36, 52] {
        let hand = deck[..n].join(" ");
        let (out, took) = capped(1 << 20, 30, &["tienlen", "hint", "--hand", &hand]);
        let err = one_line_exit_2(&out);
        assert!(err.contains("at most 13"), "{err}");
        assert!(took < Duration::from_secs(5));
    }
    ok(&["tienlen", "hint", "--hand", &deck[..13].join(" ")]);
}

#[test]
fn case_8_a_trace_is_streamed() {
    // A reader that stops after the first lines: the trace is written as
    // it is played (a closed pipe ends it quietly), never built whole first.
    let deal = "A 7 W 10 3 4 5 6 8 9 J Q K 2 A 7 W 10 3 4 5 6 8 9 J Q K 2 A 7 10 3 4 5 6 8 9 J Q K 2 A 7 10 3 4 5 6 8 9 J Q K 2";
    let full = ok(&["fishing", "--deal", deal, "--trace"]);
    assert!(full.lines().count() > 10);
    let bin = assert_cmd::cargo::cargo_bin("cardsim");
    let out = Command::new("bash")
        .arg("-c")
        .arg("\"$0\" fishing --deal \"$1\" --trace | head -n 3")
        .arg(bin)
        .arg(deal)
        .output()
        .unwrap();
    assert!(out.status.success());
    assert_eq!(String::from_utf8_lossy(&out.stdout).lines().count(), 3);
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn case_9_the_solver_table_is_bounded() {
    let err = bad(&["solve", "--table-bits", "30", "3s", "4s"]);
    assert!(err.contains("4..=26"), "{err}");
    let err = bad(&["solve", "--random", "10", "--table-bits", "26", "-j", "64"]);
    assert!(err.contains("--table-bits"), "{err}");
}

#[test]
fn case_10_error_messages_quote_a_short_piece_of_the_input() {
    let huge = "Zz".repeat(30_000); // one argument is at most 128 KiB
    for args in [
        vec!["eval", huge.as_str()],
        vec!["equity", huge.as_str(), "QQ"],
        vec!["fishing", "--deal", huge.as_str()],
        vec!["tienlen", "classify", huge.as_str()],
    ] {
        let err = bad(&args);
        assert!(err.len() < 400, "{} bytes: {}", err.len(), &err[..200]);
    }
    let range = format!("QQ+,{}", "AK".repeat(30_000));
    let err = bad(&["equity", &range, "random"]);
    assert!(err.len() < 400, "{err}");
}

/// A heads-up PHH hand with `fields` and `actions` filled in.
fn phh(fields: &str, actions: &str) -> String {
    format!(
        "variant = 'NT'\nantes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n{fields}\nactions = [{actions}]\n"
    )
}

/// Replays a heads-up hand of 100-chip stacks with these actions.
fn heads_up(dir: &Path, name: &str, actions: &str) -> Output {
    replay_file(
        dir,
        name,
        &phh("starting_stacks = [100, 100]", actions),
        &[],
    )
}

fn replay_file(dir: &Path, name: &str, text: &str, extra: &[&str]) -> Output {
    let path = dir.join(name);
    std::fs::write(&path, text).unwrap();
    let mut args = vec!["replay", s(&path)];
    args.extend_from_slice(extra);
    cardsim().args(&args).output().unwrap()
}

#[test]
fn case_11_to_15_replays_refuse_impossible_hands_and_accept_valid_ones() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let showdown = "'d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 100', 'p1 cc', \
                    'd db 2c3d4h', 'd db 9s', 'd db Jc', 'p1 sm AsAh', 'p2 sm KsKh'";

    // 11: stacks beyond 2^40 (2^63-1 once overflowed to a wrong answer).
    let out = replay_file(
        d,
        "big.phh",
        &phh(
            "starting_stacks = [9223372036854775807, 9223372036854775807]",
            "'d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 9223372036854775807', 'p1 cc'",
        ),
        &[],
    );
    let err = one_line_exit_2(&out);
    assert!(err.contains("2^40"), "{err}");

    // 12: a showdown without the board is refused, never invented.
    let out = replay_file(
        d,
        "noboard.phh",
        &phh(
            "starting_stacks = [100, 100]",
            "'d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 100', 'p1 cc'",
        ),
        &[],
    );
    let err = one_line_exit_2(&out);
    assert!(err.contains("needs 5") && err.contains("0 board"), "{err}");
    let out = heads_up(d, "ok.phh", showdown);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "hand 1: p1 200, p2 0"
    );

    // 13: .phhs sections in file order, errors name the section.
    let good = phh("starting_stacks = [100, 100]", showdown);
    let bad_hand = phh(
        "starting_stacks = [100, 100]",
        "'d dh p1 AsAh', 'd dh p2 KsKh', 'p1 cbr 7'",
    );
    let phhs = format!("[1]\n{good}\n[2]\n{good}\n[10]\n{bad_hand}\n[3]\n{good}\n");
    // Issue 24: one refused hand no longer stops the file; it is named on
    // its own line, the others replay, and the exit status says 2.
    let out = replay_file(d, "many.phhs", &phhs, &[]);
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    assert!(
        stdout.contains("many.phhs: hand [10]: action 2 ('p1 cbr 7')"),
        "{stdout}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains("4 hands: 3 replayed"), "{err}");
    assert!(
        err.trim_end().ends_with("error: 1 of 4 hands refused"),
        "{err}"
    );
    let phhs = format!("[1]\n{good}\n[2]\n{good}\n[10]\n{good}\n[3]\n{good}\n");
    let out = replay_file(d, "order.phhs", &phhs, &[]);
    let labels: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|l| l.split(':').next().unwrap().to_string())
        .collect();
    assert_eq!(labels, ["hand [1]", "hand [2]", "hand [10]", "hand [3]"]);

    // 14: ante_trimming_status, against PokerKit's answers for the same
    // files: false (PHH's default) makes the antes dead money p1 can win.
    let ante_hand = |trim: &str| {
        format!(
            "variant = 'NT'\n{trim}antes = [5, 5, 5]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n\
             starting_stacks = [3, 50, 50]\nactions = ['d dh p1 AsAh', 'd dh p2 7c2d', 'd dh p3 8c3d', \
             'p3 cc', 'p2 cc', 'd db KsQh4d', 'p2 cc', 'p3 cc', 'd db 9s', 'p2 cc', 'p3 cc', \
             'd db Jc', 'p2 cc', 'p3 cc', 'p1 sm AsAh', 'p2 sm 7c2d', 'p3 sm 8c3d']\n"
        )
    };
    for (trim, stacks) in [
        ("", "p1 13, p2 43, p3 47"),
        ("ante_trimming_status = false\n", "p1 13, p2 43, p3 47"),
        ("ante_trimming_status = true\n", "p1 9, p2 43, p3 51"),
    ] {
        let out = replay_file(d, "ante.phh", &ante_hand(trim), &[]);
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        assert_eq!(
            String::from_utf8_lossy(&out.stdout).trim(),
            format!("hand 1: {stacks}")
        );
    }

    // 15: hole cards one at a time, as PokerKit writes them uncompressed.
    let one_at_a_time = showdown.replace(
        "'d dh p1 AsAh', 'd dh p2 KsKh'",
        "'d dh p1 As', 'd dh p2 Ks', 'd dh p1 Ah', 'd dh p2 Kh'",
    );
    let out = heads_up(d, "single.phh", &one_at_a_time);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "hand 1: p1 200, p2 0"
    );
    // Unknown cards of a player who folds; refused when they would decide
    // a pot; resolved when the player shows.
    let folds = "'d dh p1 ????', 'd dh p2 KsKh', 'p2 cbr 10', 'p1 f'";
    let out = heads_up(d, "fold.phh", folds);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "hand 1: p1 98, p2 102"
    );
    let hidden = showdown
        .replace("'d dh p1 AsAh'", "'d dh p1 ????'")
        .replace(", 'p1 sm AsAh', 'p2 sm KsKh'", "");
    // Issue 24: a pot only unknown cards could decide is undetermined (named
    // and counted), not a refusal.
    let out = heads_up(d, "hidden.phh", &hidden);
    assert!(out.status.success());
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "hand 1: undetermined: a pot of 200 only unknown cards decide (p1, p2)"
    );
    let shown = showdown.replace("'d dh p1 AsAh'", "'d dh p1 ????'");
    let out = heads_up(d, "shown.phh", &shown);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "hand 1: p1 200, p2 0"
    );
    // Issue 24: a min_bet other than the big blind is a valid PHH table.
    let text = phh("starting_stacks = [100, 100]", showdown).replace("min_bet = 2", "min_bet = 4");
    let out = replay_file(d, "minbet.phh", &text, &[]);
    assert_eq!(
        String::from_utf8_lossy(&out.stdout).trim(),
        "hand 1: p1 200, p2 0"
    );
    // Players are named p1..pN in errors, never seats.
    let text = phh(
        "starting_stacks = [100, 100]",
        "'d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 100', 'p1 cbr 100'",
    );
    let out = replay_file(d, "names.phh", &text, &[]);
    let err = one_line_exit_2(&out);
    assert!(
        err.contains("p1 cannot raise") && !err.contains("seat"),
        "{err}"
    );
    // A directory: every .phh/.phhs file, in name order.
    let sub = d.join("dir");
    std::fs::create_dir(&sub).unwrap();
    std::fs::write(sub.join("a.phh"), &good).unwrap();
    std::fs::write(sub.join("b.phh"), &good).unwrap();
    std::fs::write(sub.join("notes.txt"), "not a hand").unwrap();
    let out = ok(&["replay", s(&sub)]);
    assert_eq!(out.lines().count(), 2, "{out}");
}

#[test]
fn case_16_bytes_that_are_not_text_are_bad_input_everywhere() {
    let junk = b"variant = 'NT'\n\xff\xfe\n";
    for args in [&["replay", "-"][..], &["eval", "-"]] {
        let out = stdin_run(args, junk);
        one_line_exit_2(&out);
    }
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("junk.phh");
    std::fs::write(&path, junk).unwrap();
    bad(&["replay", s(&path)]);
}
