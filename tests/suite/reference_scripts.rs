//! `scripts/reference_*.sh`, the scripts that rewrite the committed
//! `results/`: a missing tool stops them before any work with one line
//! saying how to install it; a failure or a signal halfway changes nothing
//! in `results/` and leaves nothing in the temporary folder; a finished run
//! replaces the files it made and keeps the rest (the README).
//!
//! Each test copies the scripts into a temporary repository (so the real
//! `results/` is never touched) and runs them with stand-ins put first on
//! PATH: a `python3` that has, or lacks, the plotting modules, and, as
//! `CARDSIM_BIN`, a `cardsim` that writes the `--summary` file it is given
//! and then succeeds, fails or sleeps. No build, no real run: fast.

use std::collections::BTreeMap;
use std::os::unix::fs::PermissionsExt as _;
use std::os::unix::process::CommandExt as _;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

/// The stand-in `python3`: import checks succeed when `FAKE_MODULES` is
/// `present`; the solver script's summary-to-CSV step prints one row; a
/// plot script writes its last argument (the picture).
const FAKE_PYTHON: &str = r#"#!/bin/sh
case "$1" in
  -c) [ "$FAKE_MODULES" = present ] && exit 0
      echo "ModuleNotFoundError: No module named 'matplotlib'" >&2; exit 1 ;;
  -) cat > /dev/null; echo "pairs,1,3,1.0000,0.4385,1.0000,1.0,1,0.01"; exit 0 ;;
  *plot_*.py) for last; do :; done; echo fake-png > "$last"; exit 0 ;;
esac
exit 1
"#;

/// The stand-in `cardsim`: writes `{"fake": true}` to the file after
/// `--summary`, touches `$FAKE_MARK`, then fails (`FAKE_FAIL`), becomes
/// `sleep` (`FAKE_SLEEP` seconds) or succeeds.
const FAKE_CARDSIM: &str = r#"#!/bin/sh
while [ $# -gt 0 ]; do
  [ "$1" = --summary ] && echo '{"fake": true}' > "$2"
  shift
done
[ -n "$FAKE_MARK" ] && : > "$FAKE_MARK"
[ -n "$FAKE_FAIL" ] && exit 1
[ -n "$FAKE_SLEEP" ] && exec sleep "$FAKE_SLEEP"
exit 0
"#;

const SCRIPTS: [&str; 4] = ["fishing", "holdem", "solver", "tienlen"];

/// A temporary repository with the real scripts, committed-looking
/// `results/` folders, the stand-ins and an empty temporary folder.
struct Repo {
    dir: tempfile::TempDir,
}

impl Repo {
    fn new() -> Repo {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        let scripts = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts");
        std::fs::create_dir_all(root.join("repo/scripts")).unwrap();
        for entry in std::fs::read_dir(&scripts).unwrap() {
            let path = entry.unwrap().path();
            if path.is_file() {
                std::fs::copy(
                    &path,
                    root.join("repo/scripts").join(path.file_name().unwrap()),
                )
                .unwrap();
            }
        }
        for game in SCRIPTS {
            let results = root.join("repo/results").join(game);
            std::fs::create_dir_all(&results).unwrap();
            std::fs::write(results.join("README.md"), format!("# {game}\n")).unwrap();
            std::fs::write(results.join("committed.summary.json"), "committed\n").unwrap();
        }
        std::fs::write(root.join("repo/results/solver/win_rate.csv"), "committed\n").unwrap();
        std::fs::create_dir_all(root.join("bin")).unwrap();
        std::fs::create_dir_all(root.join("tmp")).unwrap();
        for (name, text) in [("python3", FAKE_PYTHON), ("cardsim", FAKE_CARDSIM)] {
            let path = root.join("bin").join(name);
            std::fs::write(&path, text).unwrap();
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o755)).unwrap();
        }
        Repo { dir }
    }

    fn path(&self, rel: &str) -> PathBuf {
        self.dir.path().join(rel)
    }

    /// `bash scripts/reference_GAME.sh ARGS` with the stand-ins, in its own
    /// process group (as a shell runs a job), with INT, TERM and HUP at
    /// their defaults (a test harness started in the background may ignore
    /// SIGINT, and a shell cannot trap a signal ignored when it starts).
    fn command(&self, game: &str, args: &[&str], env: &[(&str, &str)]) -> Command {
        let mut c = Command::new("env");
        c.args(["--default-signal=INT,TERM,HUP", "bash"])
            .arg(self.path(&format!("repo/scripts/reference_{game}.sh")))
            .args(args)
            .env(
                "PATH",
                format!(
                    "{}:{}",
                    self.path("bin").display(),
                    std::env::var("PATH").unwrap_or_default()
                ),
            )
            .env("TMPDIR", self.path("tmp"))
            .env("CARDSIM_BIN", self.path("bin/cardsim"))
            .env_remove("FAKE_FAIL")
            .env_remove("FAKE_SLEEP")
            .env_remove("FAKE_MARK")
            .stdin(Stdio::null())
            .process_group(0);
        for (k, v) in env {
            c.env(k, v);
        }
        c
    }

    fn run(&self, game: &str, args: &[&str], env: &[(&str, &str)]) -> Output {
        self.command(game, args, env).output().unwrap()
    }

    /// Every file under `results/` with its bytes.
    fn results(&self) -> BTreeMap<PathBuf, Vec<u8>> {
        fn walk(dir: &Path, out: &mut BTreeMap<PathBuf, Vec<u8>>) {
            for entry in std::fs::read_dir(dir).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    walk(&path, out);
                } else {
                    out.insert(path.clone(), std::fs::read(&path).unwrap());
                }
            }
        }
        let mut out = BTreeMap::new();
        walk(&self.path("repo/results"), &mut out);
        out
    }

    /// What is left in the temporary folder.
    fn leftovers(&self) -> Vec<PathBuf> {
        std::fs::read_dir(self.path("tmp"))
            .unwrap()
            .map(|e| e.unwrap().path())
            .collect()
    }
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

#[test]
fn a_missing_plotting_module_stops_every_script_before_any_work() {
    let repo = Repo::new();
    let before = repo.results();
    let mark = repo.path("started");
    for game in SCRIPTS {
        let started = Instant::now();
        let out = repo.run(
            game,
            &[],
            &[
                ("FAKE_MODULES", "absent"),
                ("FAKE_MARK", mark.to_str().unwrap()),
            ],
        );
        let err = stderr(&out);
        assert_eq!(out.status.code(), Some(1), "{game}: {err}");
        assert_eq!(err.lines().count(), 1, "{game}: {err}");
        assert!(
            err.starts_with(&format!("error: scripts/reference_{game}.sh needs "))
                && err.contains("matplotlib")
                && err.contains("pip install -r scripts/requirements.txt"),
            "{game}: {err}"
        );
        assert!(
            !mark.exists(),
            "{game} ran cardsim before checking its tools"
        );
        assert!(started.elapsed() < Duration::from_secs(20), "{game}");
    }
    assert_eq!(repo.results(), before);
    assert_eq!(repo.leftovers(), Vec::<PathBuf>::new());
}

#[test]
fn a_failure_halfway_changes_no_result_and_leaves_no_scratch() {
    let repo = Repo::new();
    let before = repo.results();
    for game in SCRIPTS {
        let out = repo.run(
            game,
            &[],
            &[("FAKE_MODULES", "present"), ("FAKE_FAIL", "1")],
        );
        // fishing may lack GNU time on this machine: then it stops at the
        // check, which changes nothing either.
        assert_eq!(out.status.code(), Some(1), "{game}: {}", stderr(&out));
        assert_eq!(repo.results(), before, "{game}");
        assert_eq!(repo.leftovers(), Vec::<PathBuf>::new(), "{game}");
    }
}

#[test]
fn a_signal_halfway_changes_no_result_and_leaves_no_scratch() {
    let repo = Repo::new();
    let before = repo.results();
    let mark = repo.path("started");
    for (signal, code) in [("INT", 130), ("TERM", 143), ("HUP", 129)] {
        let _ = std::fs::remove_file(&mark);
        let child = repo
            .command(
                "solver",
                &["5"],
                &[
                    ("FAKE_MODULES", "present"),
                    ("FAKE_SLEEP", "60"),
                    ("FAKE_MARK", mark.to_str().unwrap()),
                ],
            )
            .stdout(Stdio::null())
            .stderr(Stdio::piped())
            .spawn()
            .unwrap();
        // Wait until the first solve is under way (its summary staged).
        let started = Instant::now();
        while !mark.exists() {
            assert!(
                started.elapsed() < Duration::from_secs(30),
                "the script never started"
            );
            std::thread::sleep(Duration::from_millis(20));
        }
        assert_eq!(repo.leftovers().len(), 1, "the scratch folder exists");
        // Let the stand-in get from the mark to its `exec sleep`: a signal
        // that reaches `sh` just before it starts a command can be held
        // until the command ends (seen twice in CI: 60 s), which is the
        // stand-in's way, not the script's under test.
        std::thread::sleep(Duration::from_millis(300));
        // Timed from the signal: a loaded machine may take long to start
        // the script, which is not what this checks.
        let signalled = Instant::now();
        // To the whole job, as a terminal's Ctrl-C or a batch system does.
        let killed = Command::new("kill")
            .args([
                format!("-{signal}"),
                "--".into(),
                format!("-{}", child.id()),
            ])
            .status()
            .unwrap();
        assert!(killed.success());
        let out = child.wait_with_output().unwrap();
        assert_eq!(out.status.code(), Some(code), "{signal}: {}", stderr(&out));
        assert!(
            signalled.elapsed() < Duration::from_secs(30),
            "{signal} waited for the sleep ({:?} after the signal, {:?} after the start)",
            signalled.elapsed(),
            started.elapsed()
        );
        assert_eq!(repo.results(), before, "{signal}");
        assert_eq!(repo.leftovers(), Vec::<PathBuf>::new(), "{signal}");
    }
}

#[test]
fn a_finished_run_replaces_what_it_made_and_keeps_the_rest() {
    let repo = Repo::new();
    let out = repo.run("solver", &["3"], &[("FAKE_MODULES", "present")]);
    assert!(out.status.success(), "{}", stderr(&out));
    let dir = repo.path("repo/results/solver");
    let read = |name: &str| std::fs::read_to_string(dir.join(name)).unwrap();
    // 13 pairs and 10 tienlen card counts, each a summary and a CSV row.
    let csv = read("win_rate.csv");
    assert_eq!(csv.lines().count(), 24, "{csv}");
    assert!(csv.starts_with("rules,cards,deals,a_win_rate,"), "{csv}");
    assert_eq!(read("pairs-13.summary.json"), "{\"fake\": true}\n");
    assert_eq!(read("tienlen-10.summary.json"), "{\"fake\": true}\n");
    assert_eq!(read("win_rate.png"), "fake-png\n");
    // Files the run does not make stay as they were.
    assert_eq!(read("README.md"), "# solver\n");
    assert_eq!(read("committed.summary.json"), "committed\n");
    assert_eq!(repo.leftovers(), Vec::<PathBuf>::new());
}
