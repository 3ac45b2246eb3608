//! The file promise when runs collide, fail or are interrupted: an output
//! is owned by one run, a failed run leaves only what `--resume` needs, odd
//! paths round-trip, and temporary folders do not outlive their owner.

use std::ffi::OsStr;
use std::fs;
use std::os::unix::ffi::OsStrExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use cardsim::sim::lock::{lock_path, OutputLock};
use cardsim::sim::output::Summary;
use cardsim::sim::Sealed as _;
use tempfile::TempDir;

use crate::common::{bad, cardsim, ok};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

/// Waits until `cond` holds (at most 60 s).
fn wait_for(what: &str, cond: impl Fn() -> bool) {
    let start = Instant::now();
    while !cond() {
        assert!(start.elapsed() < Duration::from_secs(60), "{what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn names(dir: &Path) -> Vec<String> {
    let mut v: Vec<String> = fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    v.sort();
    v
}

#[test]
fn a_second_run_on_a_held_output_is_refused_at_once_and_writes_nothing() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("same.csv");
    fs::write(&out, b"the first run's finished file\n").unwrap();
    // Another run holds the output (this test process, through the same
    // lock a run takes).
    let held = OutputLock::acquire(&out).unwrap();
    let started = Instant::now();
    let err = bad(&[
        "fishing",
        "-n",
        "1000",
        "-o",
        s(&out),
        "--summary",
        s(&dir.path().join("b.json")),
    ]);
    assert!(started.elapsed() < Duration::from_secs(10));
    assert!(
        err.contains("same.csv is being written by another cardsim run")
            && err.contains(&format!("(pid {})", std::process::id())),
        "{err}"
    );
    assert_eq!(fs::read(&out).unwrap(), b"the first run's finished file\n");
    assert_eq!(
        names(dir.path()),
        ["same.csv", "same.csv.lock"],
        "nothing else written"
    );
    drop(held);
    ok(&["fishing", "-n", "1000", "-q", "-o", s(&out)]);
    assert_eq!(
        names(dir.path()),
        ["same.csv"],
        "the lock file goes with its run"
    );
}

#[test]
fn two_processes_racing_on_one_output_never_mix_their_rows() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("same.csv");
    let run = |seed: &str, summary: &str| {
        cardsim()
            .args(["fishing", "-n", "3000000", "-q", "--seed", seed, "-o"])
            .arg(&out)
            .arg("--summary")
            .arg(dir.path().join(summary))
            .stderr(Stdio::piped())
            .spawn()
            .unwrap()
    };
    let first = run("1", "a.json");
    wait_for("the first run starts writing", || lock_path(&out).exists());
    let second = run("2", "b.json").wait_with_output().unwrap();
    let first = first.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&second.stderr);
    if first.status.success() && second.status.code() == Some(2) {
        assert!(
            err.contains("is being written by another cardsim run (pid"),
            "{err}"
        );
        ok(&["verify", s(&dir.path().join("a.json"))]);
        assert!(!dir.path().join("b.json").exists());
    } else {
        // The first run ended before the second started: each is whole.
        assert!(first.status.success() && second.status.success(), "{err}");
        ok(&["verify", s(&dir.path().join("b.json"))]);
    }
    assert!(!lock_path(&out).exists());
    assert!(!dir.path().join("same.csv.partial").exists());
}

#[test]
fn a_killed_runs_lock_is_taken_over_by_resume() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("x.csv");
    let args = [
        "fishing",
        "-n",
        "4000000",
        "-j",
        "1",
        "-q",
        "--checkpoint-every",
        "0.05",
    ];
    let mut child = cardsim().args(args).arg("-o").arg(&out).spawn().unwrap();
    let ckpt = dir.path().join("x.csv.partial.ckpt");
    wait_for("a checkpoint", || ckpt.exists());
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(lock_path(&out).exists(), "SIGKILL leaves the lock file");
    let mut resume = args.to_vec();
    resume.extend(["-o", s(&out), "--resume"]);
    ok(&resume);
    assert!(!lock_path(&out).exists());
    let whole = dir.path().join("whole.csv");
    let mut uncut = args.to_vec();
    uncut.extend(["-o", s(&whole)]);
    ok(&uncut);
    assert!(fs::read(&out).unwrap() == fs::read(&whole).unwrap());
}

#[test]
fn a_run_that_fails_before_its_first_checkpoint_leaves_nothing() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    // A file size limit fails the writes as a full disk would (with
    // SIGXFSZ ignored, a write past it returns EFBIG).
    let out = Command::new("bash")
        .arg("-c")
        .arg("trap '' XFSZ; ulimit -f 64; exec \"$0\" \"$@\"")
        .arg(assert_cmd::cargo::cargo_bin("cardsim"))
        .args([
            "holdem",
            "-n",
            "200000",
            "-q",
            "--phh-every",
            "1",
            "--checkpoint-every",
            "1000",
        ])
        .arg("-o")
        .arg(d.join("x.csv"))
        .arg("--phh")
        .arg(d.join("hands"))
        .arg("--hist")
        .arg(d.join("h"))
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&out.stderr);
    assert_eq!(out.status.code(), Some(1), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("removed") && err.contains("x.csv.partial"),
        "{err}"
    );
    assert!(names(d).is_empty(), "left: {:?}", names(d));
}

#[test]
fn resume_with_nothing_to_resume_says_so() {
    let dir = TempDir::new().unwrap();
    let out = dir.path().join("x.csv");
    fs::write(dir.path().join("x.csv.partial"), b"game,\n").unwrap();
    let o = cardsim()
        .args(["fishing", "-n", "100", "--resume", "-o"])
        .arg(&out)
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "{err}");
    assert!(
        err.contains("nothing to resume:") && err.contains("has no checkpoint"),
        "{err}"
    );
    assert_eq!(
        ok(&["fishing", "-n", "100", "-o", "-", "-q"]).as_bytes(),
        fs::read(&out).unwrap()
    );
}

#[test]
fn a_path_that_is_not_utf8_round_trips_through_the_summary() {
    let dir = TempDir::new().unwrap();
    let name = |s: &[u8]| dir.path().join(OsStr::from_bytes(s));
    let (out, summary) = (name(b"bad\xff.csv"), name(b"bad\xff.json"));
    let status = cardsim()
        .args(["fishing", "-n", "500", "-q", "-o"])
        .arg(&out)
        .arg("--summary")
        .arg(&summary)
        .status()
        .unwrap();
    assert!(status.success());
    let text = fs::read_to_string(&summary).unwrap();
    let s = Summary::unseal(&text).unwrap();
    let csv = s.csv.unwrap();
    assert_eq!(csv.path.as_deref(), Some("bad\u{fffd}.csv"));
    assert_eq!(
        csv.recorded().unwrap(),
        Some(PathBuf::from(OsStr::from_bytes(b"bad\xff.csv")))
    );
    let o = cardsim().arg("verify").arg(&summary).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
}

/// `verify --rerun` with its temporary folders under `tmp`.
fn rerun(tmp: &Path, summary: &Path) -> Command {
    let mut c = cardsim();
    c.env("TMPDIR", tmp)
        .arg("verify")
        .arg("--rerun")
        .arg(summary);
    c
}

/// Starts `verify --rerun` of `summary` and waits until its rerun writes
/// into its temporary folder.
fn rerun_writing(tmp: &Path, summary: &Path, stderr: Stdio) -> std::process::Child {
    let child = rerun(tmp, summary)
        .stdout(Stdio::null())
        .stderr(stderr)
        .spawn()
        .unwrap();
    wait_for("the rerun writes", || {
        scratch_dirs(tmp)
            .iter()
            .any(|d| tmp.join(d).join("out.csv.partial").exists())
    });
    child
}

fn scratch_dirs(tmp: &Path) -> Vec<String> {
    names(tmp)
        .into_iter()
        .filter(|n| n.starts_with("cardsim-verify-"))
        .collect()
}

#[test]
fn verify_rerun_cleans_up_after_a_signal_and_after_a_kill() {
    let dir = TempDir::new().unwrap();
    let tmp = dir.path().join("tmp");
    fs::create_dir(&tmp).unwrap();
    let long = dir.path().join("long.json");
    let short = dir.path().join("short.json");
    ok(&[
        "fishing",
        "-n",
        "3000000",
        "-q",
        "-o",
        s(&dir.path().join("long.csv")),
        "--summary",
        s(&long),
    ]);
    ok(&[
        "fishing",
        "-n",
        "100",
        "-q",
        "-o",
        s(&dir.path().join("short.csv")),
        "--summary",
        s(&short),
    ]);

    // Ctrl-C: exit 130, one true line, the folder gone.
    let child = rerun_writing(&tmp, &long, Stdio::piped());
    Command::new("kill")
        .args(["-INT", &child.id().to_string()])
        .status()
        .unwrap();
    let o = child.wait_with_output().unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(130), "{err}");
    assert!(
        err.contains("interrupted by Ctrl-C") && err.contains("nothing was kept"),
        "{err}"
    );
    assert!(
        !err.contains("--resume") && !err.contains("partial"),
        "{err}"
    );
    assert!(scratch_dirs(&tmp).is_empty(), "{:?}", scratch_dirs(&tmp));

    // SIGKILL: the folder stays, and the next rerun removes it.
    let mut child = rerun_writing(&tmp, &long, Stdio::null());
    child.kill().unwrap();
    child.wait().unwrap();
    assert!(!scratch_dirs(&tmp).is_empty());
    let o = rerun(&tmp, &short).output().unwrap();
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(scratch_dirs(&tmp).is_empty(), "{:?}", scratch_dirs(&tmp));
}

#[test]
fn more_threads_than_the_machine_can_use_is_one_clear_error() {
    let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
    if cores * 16 >= 1024 {
        eprintln!("SKIPPED: this machine may use 1,024 threads");
        return;
    }
    for args in [
        &["fishing", "-n", "10", "-j", "1024"][..],
        &["equity", "AA", "KK", "-j", "1024"],
    ] {
        let err = bad(args);
        assert!(
            err.contains("is more than this machine can use: at most"),
            "{err}"
        );
    }
}

#[test]
fn a_summary_whose_kind_was_edited_against_its_values_is_refused() {
    let dir = TempDir::new().unwrap();
    let path = dir.path().join("s.json");
    ok(&["fishing", "-n", "200", "-q", "--summary", s(&path)]);
    let mut summary = Summary::unseal(&fs::read_to_string(&path).unwrap()).unwrap();
    let st = summary
        .state
        .iter_mut()
        .find(|st| st.count > 0 && st.kind.min() == 0 && st.min < st.max)
        .expect("a metric with positive values");
    let raised = match st.kind {
        cardsim::sim::MetricKind::Integer { .. } => {
            cardsim::sim::MetricKind::Integer { min: st.max }
        }
        cardsim::sim::MetricKind::Fixed { scale, .. } => {
            cardsim::sim::MetricKind::Fixed { scale, min: st.max }
        }
        k => k,
    };
    st.kind = raised;
    let bytes = summary.seal().unwrap();
    fs::write(&path, bytes).unwrap();
    let err = bad(&["verify", s(&path)]);
    assert!(err.contains("below its kind's minimum"), "{err}");
}
