//! The runner's contract, through the real binary: byte-identical output for
//! any thread count, shards as separate processes merged equal to the whole
//! run, a killed run resumed equal to an uncut one, and bad input rejected
//! with one line and exit status 2.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use assert_cmd::cargo::cargo_bin;
use tempfile::TempDir;

use crate::common::bad;

fn cardsim() -> Command {
    Command::new(cargo_bin("cardsim"))
}

/// Runs to success and returns stdout.
fn ok(cmd: &mut Command) -> Vec<u8> {
    let out = cmd.output().expect("cardsim runs");
    assert!(
        out.status.success(),
        "{:?} failed: {}",
        cmd,
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn read(p: impl AsRef<Path>) -> Vec<u8> {
    std::fs::read(p.as_ref()).unwrap_or_else(|e| panic!("{}: {e}", p.as_ref().display()))
}

/// The summary JSON without what differs run to run or shard to merge
/// (timing, threads, the command, the checksum, file paths): statistics,
/// and each file's rows, bytes and hash, remain.
fn stats_of(p: impl AsRef<Path>) -> serde_json::Value {
    let mut v: serde_json::Value = serde_json::from_slice(&read(p)).expect("summary is JSON");
    let o = v.as_object_mut().expect("summary is an object");
    for k in [
        "wall_time_s",
        "games_per_s",
        "threads",
        "shard",
        "command",
        "checksum",
        "started_unix_s",
        "finished_unix_s",
        "merged",
    ] {
        o.remove(k);
    }
    for k in ["csv", "side_csv", "bundle"] {
        if let Some(f) = o.get_mut(k).and_then(|f| f.as_object_mut()) {
            f.remove("path");
        }
    }
    v
}

#[test]
fn csv_is_byte_identical_for_one_and_two_threads() {
    let one = ok(cardsim().args(["fishing", "-n", "20000", "-q", "-j", "1", "-o", "-"]));
    let two = ok(cardsim().args(["fishing", "-n", "20000", "-q", "-j", "2", "-o", "-"]));
    assert_eq!(one, two);
    let text = String::from_utf8(one).expect("CSV is UTF-8");
    let mut lines = text.lines();
    assert_eq!(
        lines.next(),
        Some(
            "game,cards_played,winner,captures_p1,captures_p2,jack_captures,\
             longest_capture,max_pile,cycle_length,cycle_start,outcome"
        )
    );
    assert_eq!(lines.count(), 20000);
}

#[test]
fn three_shard_processes_merge_into_the_whole_run() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    let common = ["fishing", "-n", "25000", "--seed", "99", "-q"];
    ok(cardsim()
        .args(common)
        .arg("-o")
        .arg(d.join("whole.csv"))
        .arg("--summary")
        .arg(d.join("whole.json"))
        .arg("--hist")
        .arg(d.join("whole_hist")));
    let shards: Vec<_> = (0..3)
        .map(|k| {
            cardsim()
                .args(common)
                .args(["--shard", &format!("{k}/3"), "-j", "1"])
                .arg("-o")
                .arg(d.join(format!("s{k}.csv")))
                .arg("--summary")
                .arg(d.join(format!("s{k}.json")))
                .spawn()
                .expect("shard starts")
        })
        .collect();
    for mut s in shards {
        assert!(s.wait().expect("shard ends").success());
    }
    ok(cardsim()
        .args(["merge", "-q"])
        .arg(d.join("s2.json"))
        .arg(d.join("s0.json"))
        .arg(d.join("s1.json"))
        .arg("-o")
        .arg(d.join("merged.csv"))
        .arg("--summary")
        .arg(d.join("merged.json"))
        .arg("--hist")
        .arg(d.join("merged_hist")));
    assert_eq!(read(d.join("whole.csv")), read(d.join("merged.csv")));
    assert_eq!(
        stats_of(d.join("whole.json")),
        stats_of(d.join("merged.json"))
    );
    for name in ["cards_played.hdr", "cards_played.hgrm", "captures.hdr"] {
        assert_eq!(
            read(d.join("whole_hist").join(name)),
            read(d.join("merged_hist").join(name)),
            "{name}"
        );
    }
    // A missing shard or a shard of another run is refused.
    let err = bad(&[
        "merge",
        d.join("s0.json").to_str().expect("utf-8 path"),
        d.join("s2.json").to_str().expect("utf-8 path"),
    ]);
    assert!(err.contains("in no shard"), "{err}");
    ok(cardsim()
        .args([
            "fishing", "-n", "25000", "--seed", "98", "-q", "--shard", "1/3",
        ])
        .arg("--summary")
        .arg(d.join("other.json")));
    let err = bad(&[
        "merge",
        d.join("s0.json").to_str().expect("utf-8 path"),
        d.join("other.json").to_str().expect("utf-8 path"),
        d.join("s2.json").to_str().expect("utf-8 path"),
    ]);
    assert!(
        err.contains("different runs") && err.contains("seed"),
        "{err}"
    );
}

/// Runs `args` in `dir` until its checkpoint exists, then sends `signal`
/// with `kill`; returns the exit status and stderr.
fn interrupt_in(dir: &Path, args: &[String], signal: &str) -> (Option<i32>, String) {
    let ckpt = dir.join("cut.csv.partial.ckpt");
    let spawned = std::time::SystemTime::now();
    let child = cardsim()
        .current_dir(dir)
        .args(args)
        .stderr(Stdio::piped())
        .spawn()
        .expect("run starts");
    let started = Instant::now();
    // Wait for a checkpoint this process wrote (a resumed run starts with
    // the old one on disk).
    let fresh = || {
        std::fs::metadata(&ckpt)
            .and_then(|m| m.modified())
            .is_ok_and(|t| t > spawned)
    };
    while !fresh() && started.elapsed() < Duration::from_secs(60) {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(50));
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let out = child.wait_with_output().expect("wait");
    (
        out.status.code(),
        String::from_utf8_lossy(&out.stderr).into_owned(),
    )
}

/// A run stopped three ways resumes to the uncut result: killed (SIGKILL,
/// no chance to clean up: nothing under the final name, the checkpoint kept),
/// then Ctrl-C and SIGTERM (what Slurm sends at a time limit), which end
/// with one line naming what was kept and the exact command that continues
/// (exit 130 and 143). That command says where it resumes, and the run ends
/// byte-identical to an uncut one, with the same statistics.
#[test]
fn a_killed_or_interrupted_run_resumes_to_the_uncut_result() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    let games = "1000000";
    ok(cardsim().current_dir(d).args([
        "fishing",
        "-n",
        games,
        "-q",
        "-o",
        "whole.csv",
        "--summary",
        "whole.json",
    ]));
    let mut next: Vec<String> = [
        "fishing",
        "-n",
        games,
        "--checkpoint-every",
        "0.02",
        "-o",
        "cut.csv",
        "--summary",
        "cut.json",
    ]
    .map(String::from)
    .to_vec();
    let (code, err) = interrupt_in(d, &next, "-KILL");
    assert_eq!(code, None, "the run finished before it was killed: {err}");
    assert!(
        !d.join("cut.csv").exists(),
        "a killed run left a final file"
    );
    next.push("--resume".into());
    let mut at = 0;
    for (signal, status, name) in [("-INT", 130, "Ctrl-C (SIGINT)"), ("-TERM", 143, "SIGTERM")] {
        let (code, err) = interrupt_in(d, &next, signal);
        let last = err
            .trim_end()
            .lines()
            .last()
            .unwrap_or_default()
            .to_string();
        assert_eq!(code, Some(status), "{err}");
        assert!(!err.contains("panicked"), "{err}");
        assert!(err.starts_with("resuming at game "), "{err}");
        if at > 0 {
            assert!(
                err.starts_with(&format!("resuming at game {} of 1,000,000\n", grouped(at))),
                "{err}"
            );
        }
        let prefix = format!("error: interrupted by {name} at game ");
        let rest = last
            .strip_prefix(&prefix)
            .unwrap_or_else(|| panic!("{err}"));
        let game: u64 = rest
            .split(' ')
            .next()
            .map(|g| g.replace(',', ""))
            .and_then(|g| g.parse().ok())
            .unwrap_or_else(|| panic!("{err}"));
        assert!(game > at, "{err}");
        at = game;
        assert!(
            last.contains("kept cut.csv.partial and its checkpoint cut.csv.partial.ckpt"),
            "{err}"
        );
        assert!(d.join("cut.csv.partial.ckpt").exists() && !d.join("cut.csv").exists());
        let command = last
            .split_once("to continue, run: cardsim ")
            .map(|(_, c)| c)
            .unwrap_or_else(|| panic!("{err}"));
        next = shlex::split(command).unwrap_or_else(|| panic!("{command}"));
        assert_eq!(next.iter().filter(|a| *a == "--resume").count(), 1);
    }
    let out = cardsim()
        .current_dir(d)
        .args(&next)
        .output()
        .expect("resume runs");
    assert!(out.status.success());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.starts_with(&format!("resuming at game {} of 1,000,000\n", grouped(at))),
        "{err}"
    );
    assert_eq!(read(d.join("whole.csv")), read(d.join("cut.csv")));
    assert_eq!(stats_of(d.join("whole.json")), stats_of(d.join("cut.json")));
    assert!(!d.join("cut.csv.partial.ckpt").exists());
}

/// `1,000,000`.
fn grouped(v: u64) -> String {
    let s = v.to_string();
    let mut out = String::new();
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

#[test]
fn bad_input_exits_2_with_one_line() {
    bad(&["fishing", "--shard", "3/2"]);
    bad(&["fishing", "--shard", "x"]);
    bad(&["fishing", "--games", "0"]);
    bad(&["fishing", "--games", "-5"]);
    bad(&["fishing", "--players", "9"]);
    bad(&["fishing", "--checkpoint-every", "-1"]);
    bad(&["fishing", "-n", "10", "-o", "/nonexistent-dir/x.csv"]);
    bad(&[
        "fishing",
        "-n",
        "10",
        "--summary",
        "/nonexistent-dir/x.json",
    ]);
    bad(&["fishing", "--resume", "-n", "10"]);
    bad(&["fishing", "--resume", "-n", "10", "-o", "-"]);
    bad(&["fishing", "--trace"]);
    bad(&["nosuchcommand"]);
    let full = "2222333344445555666677778888TTTTJJJJQQQQKKKKAAAA9999WW";
    let err = bad(&["fishing", "--deal", &full[1..]]);
    assert!(err.contains("53 cards"), "{err}");
    let five_aces = full.replacen('2', "A", 1);
    let err = bad(&["fishing", "--deal", &five_aces]);
    assert!(err.contains("5 aces"), "{err}");
    let err = bad(&["fishing", "--deal", &full.replacen('2', "Z", 1)]);
    assert!(err.contains("'Z"), "{err}");
    bad(&["merge", "/nonexistent-dir/s0.json"]);
}

#[test]
fn a_given_deal_is_played_and_traced() {
    let deal = "2222333344445555666677778888TTTTJJJJQQQQKKKKAAAA9999WW";
    let out =
        String::from_utf8(ok(cardsim().args(["fishing", "--deal", deal]))).expect("UTF-8 output");
    assert!(out.contains("cards played: "), "{out}");
    let trace = String::from_utf8(ok(cardsim().args(["fishing", "--deal", deal, "--trace"])))
        .expect("UTF-8 output");
    assert!(
        trace.starts_with("P1 pile: 222233334444555566667777888\nP2 pile: 8TTTT"),
        "{trace}"
    );
    assert!(trace.contains("     1 P1 plays 2"), "{trace}");
}

#[test]
fn a_closed_stdout_pipe_ends_quietly() {
    let mut child = cardsim()
        .args(["fishing", "-n", "2000000", "-o", "-"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("run starts");
    // Read a little, then close the pipe like `| head` does.
    {
        use std::io::Read;
        let mut stdout = child.stdout.take().expect("piped stdout");
        let mut buf = [0u8; 4096];
        stdout.read_exact(&mut buf).expect("some CSV arrives");
    }
    let out = child.wait_with_output().expect("run ends");
    assert_eq!(out.status.code(), Some(0));
    assert!(
        out.stderr.is_empty(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn game_i_replays_the_row_of_game_i() {
    let csv = String::from_utf8(ok(
        cardsim().args(["fishing", "-n", "8", "-q", "-o", "-", "--seed", "5"])
    ))
    .expect("UTF-8 CSV");
    let row7: Vec<&str> = csv
        .lines()
        .nth(8)
        .expect("row of game 7")
        .split(',')
        .collect();
    let one = String::from_utf8(ok(cardsim().args(["fishing", "--game", "7", "--seed", "5"])))
        .expect("UTF-8 output");
    assert!(
        one.contains(&format!("cards played: {}\n", row7[1])),
        "{one}"
    );
    assert!(one.contains(&format!("player {} wins", row7[2])), "{one}");
}

#[test]
fn usage_errors_are_one_line_and_counts_say_what_is_wrong() {
    let one_line = |err: &str| {
        assert!(
            err.starts_with("error: ") && err.trim_end().lines().count() == 1,
            "{err}"
        );
    };
    let err = bad(&["fishng"]);
    one_line(&err);
    assert!(
        err.contains("(tip: a similar subcommand exists: 'fishing')") && err.contains("usage:"),
        "{err}"
    );
    let err = bad(&["merge"]);
    one_line(&err);
    assert!(
        err.contains("<SHARD_SUMMARY>") && err.contains("usage: cardsim merge"),
        "{err}"
    );
    let err = bad(&["fishing", "--gmes", "5"]);
    one_line(&err);
    assert!(err.contains("tip:") && err.contains("--games"), "{err}");
    let err = bad(&["fishing", "-n", "-5"]);
    one_line(&err);
    assert!(
        err.contains("'-5'") && err.contains("must not be negative"),
        "{err}"
    );
    // Negative numbers reach their flag's parser, which names the mistake.
    for (args, what) in [
        (&["fishing", "--seed", "-1"][..], "must not be negative"),
        (&["holdem", "--ante", "-1"][..], "must not be negative"),
        (
            &["equity", "AA", "KK", "--trials", "-5"][..],
            "must not be negative",
        ),
        (
            &["fishing", "-n", "1e6x"][..],
            "1_000_000, 1,000,000 or 1e6",
        ),
        (
            &["fishing", "--seed", "99999999999999999999999"][..],
            "is too large",
        ),
        (
            &["holdem", "--stacks", "99999999999999999999"][..],
            "too large",
        ),
        (&["eval", "-hT"][..], "bad card '-hT'"),
        (
            &["fishing", "-o", "no-such-folder/x.csv"][..],
            "the folder 'no-such-folder' does not exist",
        ),
    ] {
        let err = bad(args);
        one_line(&err);
        assert!(err.contains(what), "{args:?}: {err}");
    }
    // A long value is quoted cut to 60 characters.
    let long = "7".repeat(300);
    let err = bad(&["fishing", "--seed", &long]);
    one_line(&err);
    assert!(
        err.contains("… (300 characters)") && !err.contains(&"7".repeat(61)),
        "{err}"
    );
    // Every documented form of a count is read.
    let rows = |n: &str| {
        crate::common::ok(&["fishing", "-n", n, "-q", "-o", "-"])
            .lines()
            .count()
    };
    for n in ["1000", "1_000", "1,000", "1e3"] {
        assert_eq!(rows(n), 1001, "{n}");
    }
    // -n/--games everywhere; the old spellings stay.
    let same = |a: &[&str], b: &[&str]| {
        let run = |args: &[&str]| {
            let out = cardsim()
                .args(args)
                .args(["-q", "-o", "-"])
                .output()
                .unwrap();
            assert!(out.status.success(), "{args:?}");
            out.stdout
        };
        assert_eq!(run(a), run(b), "{a:?} vs {b:?}");
    };
    same(&["holdem", "-n", "50"], &["holdem", "--hands", "50"]);
    same(&["holdem", "--games", "50"], &["holdem", "--hands", "50"]);
    same(&["solve", "-n", "5"], &["solve", "--random", "5"]);
    // A flag the chosen mode would ignore is refused, not dropped.
    for args in [
        &["fishing", "--game", "3", "-n", "5", "-o", "x.csv"][..],
        &["fishing", "--deal", "A", "--summary", "s.json"],
        &["solve", "3s", "4s", "-o", "x.csv"],
        &["solve", "-n", "3", "--tree"],
    ] {
        let err = bad(args);
        assert!(err.contains("cannot be used with"), "{args:?}: {err}");
    }
}

#[test]
fn every_subcommand_help_ends_with_examples_and_no_jargon() {
    for cmd in [
        &["eval"][..],
        &["equity"],
        &["holdem"],
        &["replay"],
        &["fishing"],
        &["tienlen"],
        &["tienlen", "hint"],
        &["tienlen", "classify"],
        &["solve"],
        &["merge"],
        &["verify"],
    ] {
        let out = cardsim().args(cmd).arg("--help").output().unwrap();
        assert!(out.status.success(), "{cmd:?}");
        let help = String::from_utf8(out.stdout).unwrap();
        let examples = help
            .find("Examples:")
            .unwrap_or_else(|| panic!("{cmd:?}: no examples"));
        assert!(
            help[examples..]
                .lines()
                .filter(|l| l.contains("cardsim "))
                .count()
                >= 2,
            "{cmd:?}"
        );
        for jargon in ["seed's", "提示", "seed 00", "54 %", "blog post"] {
            assert!(!help.contains(jargon), "{cmd:?} help says {jargon:?}");
        }
    }
}

/// `holdem --help` says what each agent does (it once only listed their
/// names); `-h` stays short.
#[test]
fn holdem_help_says_what_each_agent_does() {
    let out = cardsim().args(["holdem", "--help"]).output().unwrap();
    let help = String::from_utf8(out.stdout).unwrap();
    for said in [
        "random: picks uniformly",
        "station (calling station): always checks or calls",
        "tag (tight-aggressive): preflop it rates its hole cards by the Chen",
        "pushfold: preflop it goes all-in or gives up",
    ] {
        assert!(help.contains(said), "holdem --help lacks {said:?}");
    }
    let out = cardsim().args(["holdem", "-h"]).output().unwrap();
    let short = String::from_utf8(out.stdout).unwrap();
    assert!(short.contains("(what each does: --help)"), "{short}");
    assert!(!short.contains("Chen"), "{short}");
}

#[test]
fn the_summary_table_fits_80_columns_with_percentages_and_no_dash_rows() {
    let table = |args: &[&str]| {
        let out = cardsim().args(args).output().unwrap();
        assert!(out.status.success(), "{args:?}");
        String::from_utf8(out.stderr).unwrap()
    };
    let holdem = table(&[
        "holdem",
        "-n",
        "3000",
        "--agents",
        "tag,station,random,pushfold,tag,station",
    ]);
    let fishing = table(&["fishing", "-n", "3000"]);
    for text in [&holdem, &fishing] {
        for line in text.lines() {
            assert!(
                line.chars().count() <= 80,
                "{} wide: {line}",
                line.chars().count()
            );
            assert!(!line.contains("  -  "), "a row of dashes: {line}");
        }
    }
    assert!(holdem.starts_with("holdem 3,000 hands"), "{holdem}");
    let showdown = holdem.lines().find(|l| l.starts_with("showdown")).unwrap();
    assert!(
        showdown.contains('%') && showdown.contains("["),
        "{showdown}"
    );
    assert!(
        fishing.contains("not observed: cycle_length, cycle_start"),
        "{fishing}"
    );
    assert!(fishing.contains(" ± "), "{fishing}");
    // Units where they exist: chips (with the big blind), cards.
    assert!(
        holdem.contains(
            "in chips (1 bb = 2 chips): pot_total, side_pot_total, net_*, ev_net_*, agent_*\n"
        ),
        "{holdem}"
    );
    assert!(
        fishing.contains(
            "in cards: cards_played, longest_capture, max_pile, cycle_length, cycle_start\n"
        ),
        "{fishing}"
    );
    let big_blind = table(&["holdem", "-n", "300", "--blinds", "5/10"]);
    assert!(big_blind.contains("(1 bb = 10 chips)"), "{big_blind}");
}

/// Every file a command's help names under `results/` exists (a help once
/// named a summary that was never written).
#[test]
fn files_named_in_the_help_exist() {
    let root = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    let commands = [
        "eval", "equity", "holdem", "replay", "fishing", "tienlen", "solve", "merge", "verify",
    ];
    let mut named = 0;
    for command in commands {
        let help = crate::common::ok(&[command, "--help"]);
        for word in help.split_whitespace() {
            let word = word.trim_matches(|c: char| "\"'`(),;:".contains(c));
            if word.starts_with("results/") && !word.contains('*') {
                named += 1;
                assert!(root.join(word).exists(), "{command} --help names {word}");
            }
        }
    }
    assert!(named > 0, "the helps name reference files");
}
