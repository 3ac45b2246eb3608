//! `exec:` agents: programs in any language on JSON lines. The example bots
//! (Python and C) play as the station byte for byte, whatever the threads
//! and across a resume; a program that crashes, hangs, closes its output or
//! answers garbage ends the run with one line naming the hand and seat
//! (exit status 2); every program is killed and reaped.

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::{Duration, Instant};

use cardsim::holdem::agents::{AgentKind, AgentSpec, ExecAgent};
use cardsim::holdem::sim::{HoldemGame, StackSpec};
use cardsim::sim::{run, RunConfig};

use crate::common::{bad, cardsim};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/agents");

/// A station in Python for the tests: it writes its pid to `$BOT_PIDS`,
/// answers garbage in hand `$BOT_FAIL_AT` and sleeps `$BOT_SLEEP` seconds
/// before each answer.
const TEST_BOT: &str = r#"import os, sys, time
pids = os.environ.get("BOT_PIDS")
if pids:
    with open(pids, "a") as f:
        f.write(f"{os.getpid()}\n")
fail = os.environ.get("BOT_FAIL_AT")
nap = float(os.environ.get("BOT_SLEEP", "0"))
sys.stdin.readline()
print('{"protocol": 1, "name": "test station"}', flush=True)
for line in sys.stdin:
    time.sleep(nap)
    if fail is not None and line.startswith('{"hand":%s,' % fail):
        print("garbage", flush=True)
    else:
        print("cc", flush=True)
"#;

fn write_bot(dir: &Path) -> PathBuf {
    let path = dir.join("bot.py");
    std::fs::write(&path, TEST_BOT).unwrap();
    path
}

/// Builds examples/agents/station.c with gcc (CI machines have it).
fn build_c_station(dir: &Path) -> PathBuf {
    let bin = dir.join("station");
    let out = Command::new("gcc")
        .args(["-O2", "-Wall", "-Werror", "-o"])
        .arg(&bin)
        .arg(Path::new(EXAMPLES).join("station.c"))
        .output()
        .expect("gcc runs (the C example agent needs it)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    bin
}

/// `holdem` with 3 seats, the first played by `first`: the CSV.
fn csv_with(first: &str, threads: &str, dir: &Path, env: &[(&str, &str)]) -> Vec<u8> {
    let out = dir.join(format!("hands-{threads}.csv"));
    let mut cmd = cardsim();
    cmd.args(["holdem", "-n", "2500", "--players", "3", "--seed", "11"])
        .args(["--stacks", "uniform:10bb-150bb", "-j", threads, "-q", "-o"])
        .arg(&out)
        .arg("--agents")
        .arg(format!("{first},tag,random"));
    for (k, v) in env {
        cmd.env(k, v);
    }
    let o = cmd.output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    std::fs::read(out).unwrap()
}

#[test]
fn the_example_bots_answering_cc_play_exactly_as_the_station() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let station = csv_with("station", "2", d, &[]);
    let c = build_c_station(d);
    let python = format!("exec:'python3 {EXAMPLES}/bot.py cc'");
    for spec in [format!("exec:{}", c.display()), python] {
        for threads in ["1", "2"] {
            assert!(
                csv_with(&spec, threads, d, &[]) == station,
                "{spec} -j {threads}"
            );
        }
    }
    // The example strategy plays its own game, the same for any threads.
    let own = format!("exec:'python3 {EXAMPLES}/bot.py'");
    let one = csv_with(&own, "1", d, &[]);
    assert!(one != station);
    assert!(csv_with(&own, "2", d, &[]) == one);
}

#[test]
fn a_run_ended_by_a_bad_answer_resumes_to_the_uncut_csv() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bot = write_bot(d);
    let station = csv_with("station", "2", d, &[]);
    let spec = format!("exec:python3 {},tag,random", bot.display());
    let out = d.join("cut.csv");
    let summary = d.join("cut.json");
    let args = |cmd: &mut Command| {
        cmd.args(["holdem", "-n", "2500", "--players", "3", "--seed", "11"])
            .args(["--stacks", "uniform:10bb-150bb", "-j", "2", "-q", "-o"])
            .arg(&out)
            .arg("--summary")
            .arg(&summary)
            .args(["--agents", &spec]);
    };
    let mut first = cardsim();
    args(&mut first);
    let o = first.env("BOT_FAIL_AT", "1700").output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    let start = format!(
        "error: hand 1700, seat 1 (exec:python3 {}): answer 'garbage' is not an action",
        bot.display()
    );
    assert!(err.starts_with(&start), "{err}");
    assert!(err.contains("(complete up to game 1700)"), "{err}");
    // A changed program is another run: no resume mixes the two.
    std::fs::write(&bot, format!("{TEST_BOT}# changed\n")).unwrap();
    let mut changed = cardsim();
    args(&mut changed);
    let o = changed.arg("--resume").output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(2), "{err}");
    assert!(err.contains("belongs to another run"), "{err}");
    // The same program resumes where the bad answer stopped the run.
    std::fs::write(&bot, TEST_BOT).unwrap();
    let mut again = cardsim();
    args(&mut again);
    let o = again.arg("--resume").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(std::fs::read(&out).unwrap() == station);
    // The spec as written and the program's hash are in the options.
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert_eq!(s["options"]["agents"], spec.as_str());
    let hash = blake3::hash(TEST_BOT.as_bytes()).to_hex()[..16].to_string();
    assert_eq!(
        s["options"]["agent_programs"],
        format!("{}=blake3:{hash}", bot.display()).as_str()
    );
}

#[test]
fn broken_programs_end_the_run_with_one_line_naming_hand_and_seat() {
    let dir = tempfile::tempdir().unwrap();
    let bot = write_bot(dir.path());
    let out = dir.path().join("x.csv");
    let run = |spec: &str, extra: &[&str]| {
        let mut args = vec!["holdem", "-n", "300", "--players", "2", "-q", "-o"];
        let out = out.to_str().unwrap();
        args.push(out);
        args.extend(["--agents", spec]);
        args.extend(extra);
        bad(&args)
    };
    let cases: [(&str, &str); 5] = [
        (
            "exec:python3 -c 'import sys; sys.exit(3)',station",
            "hand 0, seat 1 (exec:python3 -c 'import sys; sys.exit(3)'): the program closed its output (it exited: exit status: 3)",
        ),
        (
            "station,exec:python3 -c 'print(\"hi\", flush=True)'",
            "seat 2 (exec:python3 -c 'print(\"hi\", flush=True)'): its answer to the hello line, 'hi', is not the protocol's",
        ),
        (
            "exec:python3 -c 'print(\"{\\\"protocol\\\": 2}\", flush=True)',station",
            "it speaks protocol 2, cardsim speaks protocol 1",
        ),
        (
            "exec:sh -c 'read x; echo \"{\\\"protocol\\\":1}\"; exec >&-; sleep 30',station",
            "the program closed its output",
        ),
        (
            "exec:no-such-program-here,station",
            "cannot start 'no-such-program-here'",
        ),
    ];
    for (spec, wanted) in cases {
        let err = run(spec, &[]);
        assert!(err.contains(wanted), "{spec}: {err}");
        assert!(err.starts_with("error: hand "), "{spec}: {err}");
    }
    // A program that hangs: the timeout.
    let started = Instant::now();
    let spec = format!("exec:python3 {},station", bot.display());
    let err = cardsim()
        .args([
            "holdem",
            "-n",
            "300",
            "--players",
            "2",
            "-q",
            "--agents",
            &spec,
        ])
        .args(["--agent-timeout", "0.5", "-o"])
        .arg(&out)
        .env("BOT_SLEEP", "30")
        .output()
        .unwrap();
    assert_eq!(err.status.code(), Some(2));
    let err = String::from_utf8_lossy(&err.stderr);
    assert!(
        err.contains("seat 1 (exec:python3 ")
            && err.contains("no answer within 0.5 s (--agent-timeout)"),
        "{err}"
    );
    assert!(started.elapsed() < Duration::from_secs(20));
    // A program that answers without reading its input: once the pipe is
    // full, writing the view waits, under the same timeout.
    let spec = "exec:sh -c 'read x; echo \"{\\\"protocol\\\":1}\"; exec yes cc',station";
    let err = run(spec, &["--agent-timeout", "0.5"]);
    assert!(
        err.contains("no answer within 0.5 s (--agent-timeout)"),
        "{err}"
    );
    for (spec, wanted) in [
        ("exec:", "bad --agents: exec: needs a command"),
        ("exec:'a,station", "has an unclosed quote"),
    ] {
        let err = run(spec, &[]);
        assert!(err.contains(wanted), "{spec}: {err}");
    }
    let err = run("station", &["--agent-timeout", "0"]);
    assert!(err.contains("not a positive number of seconds"), "{err}");
}

fn pids_in(file: &Path) -> Vec<u32> {
    std::fs::read_to_string(file)
        .unwrap_or_default()
        .lines()
        .filter_map(|l| l.trim().parse().ok())
        .collect()
}

/// Whether process `pid` exists, running or a zombie.
fn exists(pid: u32) -> bool {
    Path::new(&format!("/proc/{pid}")).exists()
}

fn game(first: AgentSpec) -> HoldemGame {
    HoldemGame {
        allin_trials: 100,
        ..HoldemGame::new(
            vec![first, AgentKind::Tag.into(), AgentKind::Random.into()],
            StackSpec::Fixed(200),
        )
    }
}

#[test]
#[cfg(target_os = "linux")]
fn every_program_is_killed_and_reaped() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let bot = write_bot(d);
    let pids = d.join("pids");
    // In this process: after a run, a failed run, no child is left, not
    // even a zombie (one process per worker: at most 2 here).
    for fail in [false, true] {
        let env = format!(
            "BOT_PIDS={} BOT_FAIL_AT={}",
            pids.display(),
            if fail { 7 } else { -1 }
        );
        let spec = format!("exec:env {env} python3 {}", bot.display());
        let agent = ExecAgent::parse(&spec, Duration::from_secs(10)).unwrap();
        let mut config = RunConfig::new(3000, 5);
        config.threads = Some(2);
        let result = run(
            &game(AgentSpec::External(std::sync::Arc::new(agent))),
            &config,
        );
        assert_eq!(result.is_err(), fail, "{result:?}");
    }
    let started = pids_in(&pids);
    assert!((2..=4).contains(&started.len()), "{started:?}");
    for pid in started {
        assert!(!exists(pid), "process {pid} is left");
    }

    // The command line, stopped by Ctrl-C mid-run: exit 130, no program
    // left; the same command with --resume ends with the station's CSV.
    std::fs::remove_file(&pids).unwrap();
    let spec = format!("exec:python3 {},tag,random", bot.display());
    let args = |cmd: &mut Command| {
        cmd.args(["holdem", "-n", "20000", "--players", "3", "-j", "2", "-q"])
            .args(["--agents", &spec, "-o"])
            .arg(d.join("long.csv"));
    };
    let mut first = cardsim();
    args(&mut first);
    let child = first
        .env("BOT_PIDS", &pids)
        .env("BOT_SLEEP", "0.001")
        .stderr(std::process::Stdio::piped())
        .spawn()
        .unwrap();
    let deadline = Instant::now() + Duration::from_secs(30);
    while pids_in(&pids).len() < 2 && Instant::now() < deadline {
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(200));
    let started = pids_in(&pids);
    assert_eq!(started.len(), 2, "one program per worker thread");
    let pid = child.id().to_string();
    assert!(Command::new("kill")
        .args(["-INT", &pid])
        .status()
        .unwrap()
        .success());
    let out = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(130), "{err}");
    assert!(err.starts_with("error: interrupted by Ctrl-C"), "{err}");
    for pid in started {
        assert!(!exists(pid), "process {pid} is left");
    }
    let mut again = cardsim();
    args(&mut again);
    let o = again.arg("--resume").output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let station = d.join("station.csv");
    let o = cardsim()
        .args(["holdem", "-n", "20000", "--players", "3", "-q"])
        .args(["--agents", "station,tag,random", "-o"])
        .arg(&station)
        .output()
        .unwrap();
    assert!(o.status.success());
    assert!(std::fs::read(d.join("long.csv")).unwrap() == std::fs::read(station).unwrap());
}
