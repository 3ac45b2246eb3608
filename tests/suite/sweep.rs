//! `cardsim sweep`: a grid of runs into one folder that explains itself
//! (hive-style cells, results.csv, a manifest that `verify` checks), seeds
//! as documented, bad specs refused on one line, and a sweep killed at
//! random moments or split into shards ending byte-identical to an uncut
//! one.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use tempfile::TempDir;

use crate::common::{bad, cardsim};

const SPEC: &str = "game = \"fishing\"\ngames = 1500\nseed = 11\n\n[base]\n\
                    reverse-captures = true\n\n[grid]\nplayers = [2, 3]\n\
                    card-limit = [3000, 100000]\n";

/// A temporary folder in memory when the machine has one: the kill test
/// writes some 400 small files, each synced, and syncs on a disk would
/// take most of its time.
fn temp_dir() -> TempDir {
    TempDir::new_in("/dev/shm")
        .or_else(|_| TempDir::new())
        .expect("temp dir")
}

fn ok(cmd: &mut Command) -> String {
    let out = cmd.output().expect("cardsim runs");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

fn write_spec(dir: &Path, text: &str) -> PathBuf {
    let path = dir.join("spec.toml");
    std::fs::write(&path, text).expect("spec written");
    path
}

/// Every file under `dir`, relative path to bytes.
fn files(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    fn walk(root: &Path, dir: &Path, out: &mut BTreeMap<String, Vec<u8>>) {
        for e in std::fs::read_dir(dir).expect("readable") {
            let p = e.expect("entry").path();
            if p.is_dir() {
                walk(root, &p, out);
            } else {
                let rel = p.strip_prefix(root).expect("inside").display().to_string();
                out.insert(rel, std::fs::read(&p).expect("readable"));
            }
        }
    }
    let mut out = BTreeMap::new();
    walk(dir, dir, &mut out);
    out
}

/// Asserts two sweep folders equal: the same files, byte for byte, but
/// for the timing fields of the cells' summaries (when and how fast each
/// ran, and the summary's checksum over them).
fn assert_same_sweep(a: &Path, b: &Path) {
    let (fa, fb) = (files(a), files(b));
    let only = |x: &BTreeMap<String, Vec<u8>>, y: &BTreeMap<String, Vec<u8>>| {
        x.keys()
            .filter(|k| !y.contains_key(*k))
            .cloned()
            .collect::<Vec<_>>()
    };
    assert!(
        only(&fa, &fb).is_empty() && only(&fb, &fa).is_empty(),
        "the two folders hold other files: {:?} / {:?}",
        only(&fa, &fb),
        only(&fb, &fa)
    );
    for (name, bytes) in &fa {
        if name.ends_with("summary.json") {
            let strip = |b: &[u8]| {
                let mut v: serde_json::Value = serde_json::from_slice(b).expect("json");
                for k in [
                    "started_unix_s",
                    "finished_unix_s",
                    "wall_time_s",
                    "games_per_s",
                    "threads",
                    "checksum",
                ] {
                    v.as_object_mut().expect("object").remove(k);
                }
                v
            };
            assert_eq!(strip(bytes), strip(&fb[name]), "{name} differs");
        } else {
            assert!(bytes == &fb[name], "{name} differs");
        }
    }
}

#[test]
fn a_sweep_writes_hive_cells_a_tidy_table_and_a_manifest_that_verify_checks() {
    let dir = temp_dir();
    let d = dir.path();
    let spec = write_spec(d, SPEC);
    ok(cardsim()
        .current_dir(d)
        .args(["sweep", "-q", "-j", "2", "-o", "sw"])
        .arg(&spec));
    let sw = d.join("sw");
    let cells = [
        "players=2/card_limit=3000",
        "players=2/card_limit=100000",
        "players=3/card_limit=3000",
        "players=3/card_limit=100000",
    ];
    let table = std::fs::read_to_string(sw.join("results.csv")).expect("results.csv");
    let mut lines = table.lines();
    assert_eq!(
        lines.next(),
        Some(
            "players,card_limit,metric,kind,n,mean,ci95_low,ci95_high,sd,min,p50,p90,p99,\
             p999,max"
        )
    );
    let rows: Vec<Vec<&str>> = lines.map(|l| l.split(',').collect()).collect();
    let mut at = 0;
    for cell in cells {
        let summary: serde_json::Value = serde_json::from_slice(
            &std::fs::read(sw.join(cell).join("summary.json")).expect("summary"),
        )
        .expect("json");
        assert_eq!(summary["seed"], 11, "common random numbers by default");
        assert!(sw.join(cell).join("games.csv").exists());
        assert!(sw.join(cell).join("hist/cards_played.hgrm").exists());
        let (p, c) = cell.split_once('/').expect("two levels");
        for m in summary["metrics"].as_array().expect("metrics") {
            let row = &rows[at];
            at += 1;
            assert_eq!(row[0], p.trim_start_matches("players="));
            assert_eq!(row[1], c.trim_start_matches("card_limit="));
            assert_eq!(row[2], m["name"].as_str().expect("name"));
            assert_eq!(row[4], m["count"].to_string());
            match m["mean"].as_f64() {
                Some(mean) => assert_eq!(row[5].parse::<f64>().ok(), Some(mean)),
                None => assert_eq!(row[5], ""),
            }
            if let Some(ci) = m["ci95"].as_array() {
                assert_eq!(row[6].parse::<f64>().ok(), ci[0].as_f64());
                assert_eq!(row[7].parse::<f64>().ok(), ci[1].as_f64());
            }
        }
    }
    assert_eq!(at, rows.len());
    // The cells played the same deals: 3 players differ from 2, but the
    // card limit only cuts the longest games.
    let csv = |c: &str| std::fs::read_to_string(sw.join(c).join("games.csv")).expect("csv");
    let first_rows = |t: String| t.lines().take(20).map(String::from).collect::<Vec<_>>();
    assert_ne!(first_rows(csv(cells[0])), first_rows(csv(cells[2])));

    let out = ok(cardsim().current_dir(d).args(["verify", "sw"]));
    assert!(out.starts_with("ok: sw: sweep of 4 cells"), "{out}");
    let one = format!("sw/{}/summary.json", cells[3]);
    let out = ok(cardsim().current_dir(d).args(["verify", "--rerun", &one]));
    assert!(out.contains("rerun gives identical"), "{out}");

    // A changed byte anywhere is caught: a cell's CSV, a histogram, the
    // table, the manifest.
    for victim in [
        format!("{}/games.csv", cells[1]),
        format!("{}/hist/cards_played.hgrm", cells[2]),
        "results.csv".to_string(),
        "sweep.json".to_string(),
    ] {
        let path = sw.join(&victim);
        let original = std::fs::read(&path).expect("file");
        let mut changed = original.clone();
        let last = changed.len() - 2;
        changed[last] ^= 1;
        std::fs::write(&path, &changed).expect("write");
        let err = bad(&["verify", sw.to_str().expect("utf-8")]);
        assert!(err.contains("sw"), "{victim}: {err}");
        std::fs::write(&path, &original).expect("write");
    }
    // A file the manifest does not know.
    std::fs::write(sw.join(cells[0]).join("stray.txt"), "x").expect("write");
    let err = bad(&["verify", sw.to_str().expect("utf-8")]);
    assert!(err.contains("stray.txt"), "{err}");
}

#[test]
fn seeds_per_cell_follow_the_documented_derivation() {
    let dir = temp_dir();
    let d = dir.path();
    let spec = write_spec(
        d,
        "game = \"fishing\"\ngames = 50\nseed = 42\nseed_per_cell = true\n[grid]\n\
         players = [2, 3]\n",
    );
    let listed = ok(cardsim().args(["sweep", "--list"]).arg(&spec));
    for (line, players) in listed.lines().zip(["2", "3"]) {
        let mut h = blake3::Hasher::new();
        h.update(b"cardsim-sweep-seed");
        h.update(&42u64.to_le_bytes());
        h.update(format!("players={players}\n").as_bytes());
        let mut first = [0u8; 8];
        first.copy_from_slice(&h.finalize().as_bytes()[..8]);
        let seed = u64::from_le_bytes(first);
        assert!(
            line.starts_with(&format!(
                "players={players}\tcardsim fishing --games 50 --seed {seed} "
            )),
            "{line}"
        );
    }
}

#[test]
fn bad_specs_and_overrides_fail_on_one_line_naming_the_key() {
    let dir = temp_dir();
    let d = dir.path();
    let spec = write_spec(d, SPEC);
    let s = spec.to_str().expect("utf-8");
    let out = d.join("o");
    let o = out.to_str().expect("utf-8");
    for (args, want) in [
        (vec!["--set", "colour=red"], "key 'colour'"),
        (vec!["--set", "players=9"], "--players"),
        (vec!["--set", "out=x.csv"], "key 'out'"),
        (vec!["--set", "games=0"], "--set games"),
        (vec!["--set", "players"], "--set"),
    ] {
        let mut all = vec!["sweep", s, "-o", o];
        all.extend(args);
        let err = bad(&all);
        assert!(err.contains(want), "{all:?}: {err}");
    }
    for (text, want) in [
        ("game = \"fishing\"\n[grid]\nplayers = [2]\n", "key 'games'"),
        (
            "game = \"go\"\ngames = 1\n[grid]\nplayers = [2]\n",
            "key 'game'",
        ),
        (
            "game = \"fishing\"\ngames = 1\n[grid]\nplayers = \"two\"\n",
            "--players",
        ),
        ("game = \"fishing\"\ngames = 1\n[grid\n", "line 3"),
    ] {
        write_spec(d, text);
        let err = bad(&["sweep", s, "-o", o]);
        assert!(err.contains(want), "{text:?}: {err}");
    }
    assert!(!out.exists(), "a refused sweep wrote its folder");
    let err = bad(&["sweep", "/nonexistent/spec.toml", "-o", o]);
    assert!(err.contains("spec.toml"), "{err}");
}

/// A 4x5 grid killed (SIGKILL, no chance to clean up) three times at
/// random moments, then resumed with the same command: the folder is the
/// uncut sweep's, byte for byte (the cells' summaries but for their
/// timings), whatever the threads.
#[test]
fn a_sweep_killed_three_times_resumes_to_the_uncut_folder() {
    let dir = temp_dir();
    let d = dir.path();
    let spec = write_spec(
        d,
        "game = \"fishing\"\ngames = 600\nseed = 3\n[grid]\nplayers = [2, 3, 4, 5]\n\
         card-limit = [500, 1000, 2000, 4000, 100000]\n",
    );
    ok(cardsim()
        .current_dir(d)
        .args(["sweep", "-q", "-j", "1", "-o", "whole"])
        .arg(&spec));
    let args = |resume: bool| {
        let mut a: Vec<String> = ["sweep", "-q", "-j", "2", "--checkpoint-every", "0.01"]
            .map(String::from)
            .to_vec();
        a.push(spec.display().to_string());
        a.extend(["-o".to_string(), "cut".to_string()]);
        if resume {
            a.push("--resume".into());
        }
        a
    };
    // Moments drawn from the clock: each run differs, each is short.
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(7, |t| t.subsec_nanos() as u64);
    let mut killed = 0;
    for k in 0..3u64 {
        let wait = 40 + (nanos / (k + 1) * 2_654_435_761) % 260;
        let mut child = cardsim()
            .current_dir(d)
            .args(args(k > 0))
            .stderr(Stdio::null())
            .spawn()
            .expect("sweep starts");
        std::thread::sleep(Duration::from_millis(wait));
        let _ = child.kill(); // SIGKILL
        let status = child.wait().expect("wait");
        killed += usize::from(!status.success());
    }
    assert!(killed > 0, "every run finished before its kill");
    let started = Instant::now();
    ok(cardsim().current_dir(d).args(args(true)));
    assert!(started.elapsed() < Duration::from_secs(30));
    assert_same_sweep(&d.join("whole"), &d.join("cut"));
    ok(cardsim().current_dir(d).args(["verify", "cut"]));
}

/// Shards run as separate processes into folders of their own; the folders
/// copied together and finished with `--resume` give the unsharded folder
/// (cells written as Parquet).
#[test]
fn shards_of_a_sweep_join_into_the_unsharded_folder() {
    let dir = temp_dir();
    let d = dir.path();
    let spec = write_spec(d, SPEC);
    ok(cardsim()
        .current_dir(d)
        .args(["sweep", "-q", "--format", "parquet", "-o", "whole"])
        .arg(&spec));
    for k in 0..3 {
        let shard = format!("{k}/3");
        let out = format!("part{k}");
        ok(cardsim()
            .current_dir(d)
            .args([
                "sweep", "-q", "--format", "parquet", "--shard", &shard, "-o", &out,
            ])
            .arg(&spec));
        assert!(!d.join(&out).join("results.csv").exists());
        std::fs::create_dir_all(d.join("joined")).expect("mkdir");
        let copied = Command::new("cp")
            .args(["-r", &format!("{out}/."), "joined"])
            .current_dir(d)
            .status()
            .expect("cp runs");
        assert!(copied.success());
    }
    let err = String::from_utf8(
        cardsim()
            .current_dir(d)
            .args(["sweep", "--resume", "--format", "parquet", "-o", "joined"])
            .arg(&spec)
            .output()
            .expect("runs")
            .stderr,
    )
    .expect("utf-8");
    assert_eq!(err.matches("done before, kept").count(), 4, "{err}");
    assert_same_sweep(&d.join("whole"), &d.join("joined"));
}
