//! Fault injection against the files cardsim writes (issue: no output that
//! lies). Devices, FIFOs and symlinks are written through, never replaced;
//! a full disk (injected with a file-size limit) never leaves a summary or
//! histogram under its final name beside a partial CSV; a checkpoint or
//! partial CSV edited or damaged is refused on `--resume`; shard files and
//! summaries tampered with are refused by `merge` and `verify`.
//!
//! Device nodes are made with `mknod` in a temporary directory (never the
//! system's `/dev/null`: a regression would replace it); where `mknod` is
//! not permitted (not root) those tests say SKIPPED and pass.

use std::fs;
use std::io::Read;
use std::os::unix::fs::FileTypeExt;
use std::path::{Path, PathBuf};
use std::process::{Command, Output, Stdio};

use cardsim::sim::checkpoint::Checkpoint;
use cardsim::sim::output::Summary;
use cardsim::sim::Sealed as _;
use tempfile::TempDir;

use crate::common::{bad, cardsim};

fn s(p: &Path) -> &str {
    p.to_str().expect("utf-8 path")
}

fn run(args: &[&str]) -> Output {
    cardsim().args(args).output().expect("cardsim runs")
}

fn ok(args: &[&str]) -> Vec<u8> {
    let out = run(args);
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    out.stdout
}

fn stderr(out: &Output) -> String {
    String::from_utf8_lossy(&out.stderr).into_owned()
}

/// A character device node like the system's (`c 1 3` is null, `c 1 7`
/// full), made in `dir`; `None` where mknod is not permitted.
fn device(dir: &Path, name: &str, minor: u32) -> Option<PathBuf> {
    let path = dir.join(name);
    let made = Command::new("mknod")
        .arg(&path)
        .args(["c", "1", &minor.to_string()])
        .status()
        .is_ok_and(|s| s.success());
    if !made {
        eprintln!("SKIPPED: mknod is not permitted here (run as root to test devices)");
        return None;
    }
    Some(path)
}

fn is_char_device(p: &Path) -> bool {
    fs::symlink_metadata(p).is_ok_and(|m| m.file_type().is_char_device())
}

/// The CSV of a plain fishing run of `games` games, for comparisons.
fn plain_csv(dir: &Path, games: &str) -> Vec<u8> {
    let path = dir.join(format!("plain-{games}.csv"));
    ok(&["fishing", "-n", games, "-q", "-o", s(&path)]);
    fs::read(path).unwrap()
}

#[test]
fn devices_are_written_in_place_and_never_replaced() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let (Some(null), Some(full)) = (device(d, "null", 3), device(d, "full", 7)) else {
        return;
    };
    // Every output to a null device: works, and it stays a device.
    let hist = d.join("h");
    ok(&[
        "fishing",
        "-n",
        "3000",
        "-q",
        "-o",
        s(&null),
        "--summary",
        s(&null),
        "--hist",
        s(&hist),
    ]);
    assert!(is_char_device(&null), "the null device was replaced");
    assert!(hist.join("cards_played.hgrm").exists());

    // A full device: "No space left on device", exit 1, still a device.
    let out = run(&["fishing", "-n", "100000", "-q", "-o", s(&full)]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("No space left on device") && err.contains(s(&full)),
        "{err}"
    );
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(is_char_device(&full), "the full device was replaced");

    // A summary to the full device fails after the CSV is complete and
    // final: the CSV is whole, the device untouched.
    let csv = d.join("x.csv");
    let out = run(&[
        "fishing",
        "-n",
        "3000",
        "-q",
        "-o",
        s(&csv),
        "--summary",
        s(&full),
    ]);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    assert_eq!(fs::read(&csv).unwrap(), plain_csv(d, "3000"));
    assert!(is_char_device(&full));

    // --resume on a device is refused before anything is written.
    let err = bad(&["fishing", "-n", "3000", "-q", "-o", s(&null), "--resume"]);
    assert!(err.contains("regular file"), "{err}");
}

#[test]
fn a_symlink_is_followed_and_kept() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("data")).unwrap();
    // One link to an existing file, one dangling into another directory.
    fs::write(d.join("data/old.csv"), b"not cardsim's").unwrap();
    std::os::unix::fs::symlink("data/old.csv", d.join("out.csv")).unwrap();
    std::os::unix::fs::symlink("data/new.json", d.join("sum.json")).unwrap();
    ok(&[
        "fishing",
        "-n",
        "3000",
        "-q",
        "-o",
        s(&d.join("out.csv")),
        "--summary",
        s(&d.join("sum.json")),
    ]);
    for link in ["out.csv", "sum.json"] {
        assert!(
            fs::symlink_metadata(d.join(link))
                .unwrap()
                .file_type()
                .is_symlink(),
            "{link} was replaced by a file"
        );
    }
    assert_eq!(
        fs::read(d.join("data/old.csv")).unwrap(),
        plain_csv(d, "3000")
    );
    assert!(d.join("data/new.json").exists());
    assert!(!d.join("data/old.csv.partial").exists());
    let out = String::from_utf8(ok(&["verify", s(&d.join("sum.json"))])).unwrap();
    assert!(out.starts_with("ok: "), "{out}");
}

#[test]
fn a_fifo_is_written_through() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let fifo = d.join("rows.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || {
            let mut bytes = Vec::new();
            fs::File::open(&fifo)
                .unwrap()
                .read_to_end(&mut bytes)
                .unwrap();
            bytes
        })
    };
    ok(&["fishing", "-n", "3000", "-q", "-o", s(&fifo)]);
    assert_eq!(reader.join().unwrap(), plain_csv(d, "3000"));
    assert!(fs::symlink_metadata(&fifo).unwrap().file_type().is_fifo());
    let err = bad(&["fishing", "-n", "3000", "-q", "-o", s(&fifo), "--resume"]);
    assert!(err.contains("device or FIFO"), "{err}");
}

#[test]
fn summary_dash_is_printed_on_stdout() {
    let out = ok(&["fishing", "-n", "500", "-q", "--summary", "-"]);
    let v: serde_json::Value = serde_json::from_slice(&out).expect("stdout is the summary");
    assert_eq!(v["format"], "cardsim-summary/2");
    assert_eq!(v["games"], 500);
    let err = bad(&["fishing", "-n", "500", "-q", "--summary", "-", "-o", "-"]);
    assert!(err.contains("stdout"), "{err}");
}

/// Runs cardsim with a file-size limit (`ulimit -f`, in bash's KiB
/// blocks): a write past it fails with "File too large", as a full disk
/// would fail it.
fn run_limited(kib: u64, args: &[&str]) -> Output {
    let bin = assert_cmd::cargo::cargo_bin("cardsim");
    Command::new("bash")
        .arg("-c")
        .arg(format!("trap '' XFSZ; ulimit -f {kib}; exec \"$0\" \"$@\""))
        .arg(bin)
        .args(args)
        .env_remove("RUST_BACKTRACE")
        .stdin(Stdio::null())
        .output()
        .expect("bash runs")
}

const SIXTY_K: &[&str] = &[
    "fishing",
    "-n",
    "60000",
    "-j",
    "1",
    "-q",
    "--checkpoint-every",
    "0.000001",
];

/// Leaves `x.csv.partial` and a checkpoint in `d`, cut by a full disk.
fn cut_run(d: &Path) -> Vec<String> {
    let args: Vec<String> = SIXTY_K
        .iter()
        .map(|a| a.to_string())
        .chain(
            [
                "-o",
                s(&d.join("x.csv")),
                "--summary",
                s(&d.join("x.json")),
                "--hist",
                s(&d.join("h")),
            ]
            .map(String::from),
        )
        .collect();
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let out = run_limited(1000, &argv);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("x.csv.partial")
            && err.contains("File too large")
            && err.contains("x.csv.partial.ckpt")
            && err.contains("--resume"),
        "the error names the file and what was kept: {err}"
    );
    args
}

#[test]
fn a_full_disk_leaves_no_final_file_and_resumes_to_the_uncut_result() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let args = cut_run(d);
    assert!(!d.join("x.csv").exists());
    assert!(!d.join("x.json").exists(), "a summary beside a partial CSV");
    let finals: Vec<_> = fs::read_dir(d.join("h"))
        .map(|r| r.flatten().map(|e| e.path()).collect())
        .unwrap_or_default();
    assert!(
        finals.is_empty(),
        "histograms left under final names: {finals:?}"
    );
    assert!(d.join("x.csv.partial").exists() && d.join("x.csv.partial.ckpt").exists());

    let mut resume: Vec<&str> = args.iter().map(String::as_str).collect();
    resume.push("--resume");
    ok(&resume);
    assert_eq!(fs::read(d.join("x.csv")).unwrap(), plain_csv(d, "60000"));
    assert!(!d.join("x.csv.partial").exists() && !d.join("x.csv.partial.ckpt").exists());
    ok(&["verify", "--rerun", "-j", "1", s(&d.join("x.json"))]);

    // The CSV is complete but a histogram cannot be written (its name is
    // taken by a directory): nothing is renamed into place, the complete
    // CSV waits as .partial with its checkpoint.
    let e = d.join("e");
    fs::create_dir_all(e.join("h/captures.hgrm")).unwrap();
    let (y_csv, y_json, y_hist) = (e.join("y.csv"), e.join("y.json"), e.join("h"));
    let small = [
        "fishing",
        "-n",
        "200",
        "-q",
        "-o",
        s(&y_csv),
        "--summary",
        s(&y_json),
        "--hist",
        s(&y_hist),
    ];
    let out = run(&small);
    assert_eq!(out.status.code(), Some(1), "{}", stderr(&out));
    let err = stderr(&out);
    assert!(
        err.contains("nothing was renamed") && err.contains("--resume"),
        "{err}"
    );
    assert!(!e.join("y.csv").exists() && !e.join("y.json").exists());
    assert!(e.join("y.csv.partial").exists());
    assert!(
        !e.join("h/cards_played.hgrm").exists(),
        "a histogram made final early"
    );
    fs::remove_dir(e.join("h/captures.hgrm")).unwrap();
    let mut resume = small.to_vec();
    resume.push("--resume");
    ok(&resume);
    assert_eq!(fs::read(e.join("y.csv")).unwrap(), plain_csv(d, "200"));
    ok(&["verify", s(&e.join("y.json"))]);
}

#[test]
fn a_damaged_or_edited_checkpoint_or_partial_csv_is_refused() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    let args = cut_run(d);
    let mut resume: Vec<&str> = args.iter().map(String::as_str).collect();
    resume.push("--resume");
    let ckpt_path = d.join("x.csv.partial.ckpt");
    let partial = d.join("x.csv.partial");
    let sealed = fs::read(&ckpt_path).unwrap();
    let partial_bytes = fs::read(&partial).unwrap();

    // Single-bit flips anywhere in the checkpoint.
    let mut x: u64 = 0x9e37_79b9_7f4a_7c15;
    for _ in 0..20 {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        let mut bytes = sealed.clone();
        let at = (x % bytes.len() as u64) as usize;
        bytes[at] ^= 1 << (x >> 61);
        fs::write(&ckpt_path, &bytes).unwrap();
        let err = bad(&resume);
        assert!(err.contains("checkpoint"), "{err}");
        assert_eq!(
            fs::read(&partial).unwrap(),
            partial_bytes,
            "refused, yet changed"
        );
    }

    // Edits made by someone who re-seals the checkpoint: its claims are
    // checked against the partial CSV.
    let ckpt = Checkpoint::unseal(&sealed).unwrap();
    let mut edited = ckpt.clone();
    edited.next_game += 1;
    fs::write(&ckpt_path, edited.seal().unwrap()).unwrap();
    let err = bad(&resume);
    assert!(err.contains("does not match"), "{err}");
    let mut edited = ckpt.clone();
    edited.csv.bytes -= 1;
    fs::write(&ckpt_path, edited.seal().unwrap()).unwrap();
    let err = bad(&resume);
    assert!(
        err.contains("not those its checkpoint vouches for"),
        "{err}"
    );

    // A row edited in the partial CSV before the checkpoint.
    fs::write(&ckpt_path, &sealed).unwrap();
    let mut bytes = partial_bytes.clone();
    let at = bytes.len() / 3;
    let at = at + bytes[at..].iter().position(u8::is_ascii_digit).unwrap();
    bytes[at] = if bytes[at] == b'9' {
        b'8'
    } else {
        bytes[at] + 1
    };
    fs::write(&partial, &bytes).unwrap();
    let err = bad(&resume);
    assert!(err.contains("edited or damaged"), "{err}");

    // Intact again: resumes to the uncut result.
    fs::write(&partial, &partial_bytes).unwrap();
    ok(&resume);
    assert_eq!(fs::read(d.join("x.csv")).unwrap(), plain_csv(d, "60000"));
}

/// Two shards of a 4,000-game run in `d` (`s0.json`/`s0.csv`, `s1...`).
fn shards(d: &Path, seed: &str, tag: &str) {
    for k in 0..2 {
        ok(&[
            "fishing",
            "-n",
            "4000",
            "--seed",
            seed,
            "-q",
            "--shard",
            &format!("{k}/2"),
            "-o",
            s(&d.join(format!("{tag}{k}.csv"))),
            "--summary",
            s(&d.join(format!("{tag}{k}.json"))),
        ]);
    }
}

/// Merging `d/s0.json d/s1.json` must fail with exit 2 naming `needle`,
/// and leave no merged file.
fn merge_refused(d: &Path, needles: &[&str]) {
    let out = d.join("merged.csv");
    let err = bad(&[
        "merge",
        s(&d.join("s0.json")),
        s(&d.join("s1.json")),
        "-o",
        s(&out),
        "--summary",
        s(&d.join("merged.json")),
    ]);
    for n in needles {
        assert!(err.contains(n), "{n:?} not in: {err}");
    }
    assert!(!out.exists() && !d.join("merged.csv.partial").exists());
    assert!(!d.join("merged.json").exists());
}

/// Rewrites a shard summary through the library, sealed again (as a
/// forger who knows the format would): its consistency is what is tested.
fn reseal(path: &Path, edit: impl FnOnce(&mut Summary)) {
    let mut sum = Summary::unseal(&fs::read_to_string(path).unwrap()).unwrap();
    edit(&mut sum);
    fs::write(path, sum.seal().unwrap()).unwrap();
}

#[test]
fn merge_refuses_shard_files_and_summaries_that_were_tampered_with() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    shards(d, "5", "s");
    shards(d, "6", "t");
    let csv0 = fs::read(d.join("s0.csv")).unwrap();
    let csv1 = fs::read(d.join("s1.csv")).unwrap();
    let sum0 = fs::read(d.join("s0.json")).unwrap();
    let restore = || {
        fs::write(d.join("s0.csv"), &csv0).unwrap();
        fs::write(d.join("s1.csv"), &csv1).unwrap();
        fs::write(d.join("s0.json"), &sum0).unwrap();
    };

    // Truncated by one row.
    let cut = csv1.len()
        - 1
        - csv1[..csv1.len() - 1]
            .iter()
            .rev()
            .position(|&b| b == b'\n')
            .unwrap();
    fs::write(d.join("s1.csv"), &csv1[..cut]).unwrap();
    merge_refused(d, &["s1.json", "s1.csv", "bytes"]);
    restore();

    // One digit edited (same length).
    let mut edited = csv0.clone();
    let at = edited.len() / 2;
    // A digit after a comma: a statistic, not the game column.
    let at = at
        + edited[at..]
            .windows(2)
            .position(|w| w[0] == b',' && w[1].is_ascii_digit())
            .unwrap()
        + 1;
    edited[at] = if edited[at] == b'9' {
        b'8'
    } else {
        edited[at] + 1
    };
    fs::write(d.join("s0.csv"), &edited).unwrap();
    merge_refused(d, &["s0.json", "s0.csv", "BLAKE3"]);
    restore();

    // The shards' CSVs swapped.
    fs::write(d.join("s0.csv"), &csv1).unwrap();
    fs::write(d.join("s1.csv"), &csv0).unwrap();
    merge_refused(d, &["s0.json", "s0.csv"]);
    restore();

    // A CSV from a run with another seed (same shard, same games).
    fs::copy(d.join("t0.csv"), d.join("s0.csv")).unwrap();
    merge_refused(d, &["s0.json", "s0.csv"]);
    restore();

    // A summary edited by hand: its seal breaks.
    let text = String::from_utf8(sum0.clone()).unwrap();
    fs::write(
        d.join("s0.json"),
        text.replacen("\"end_game\": 2000", "\"end_game\": 4000", 1),
    )
    .unwrap();
    merge_refused(d, &["s0.json", "checksum"]);
    restore();

    // Resealed edits: a widened range, min > max, a changed mean.
    reseal(&d.join("s0.json"), |s| s.end_game = 4000);
    merge_refused(d, &["s0.json", "covers games 0..4000"]);
    restore();
    reseal(&d.join("s0.json"), |s| {
        let st = &mut s.state[0];
        std::mem::swap(&mut st.min, &mut st.max);
    });
    merge_refused(d, &["s0.json", "min"]);
    restore();
    reseal(&d.join("s0.json"), |s| s.metrics[0].mean = Some(1.0));
    merge_refused(d, &["s0.json", "figures"]);
    restore();

    // Untouched, the merge works and verifies.
    ok(&[
        "merge",
        s(&d.join("s0.json")),
        s(&d.join("s1.json")),
        "-o",
        s(&d.join("merged.csv")),
        "--summary",
        s(&d.join("merged.json")),
        "-q",
    ]);
    ok(&["verify", s(&d.join("merged.json"))]);
}

#[test]
fn verify_checks_files_and_reruns() {
    let dir = TempDir::new().unwrap();
    let d = dir.path();
    fs::create_dir(d.join("out")).unwrap();
    let csv = d.join("out/g.csv");
    let sum = d.join("g.json");
    ok(&[
        "fishing",
        "-n",
        "3000",
        "--seed",
        "3",
        "-q",
        "-o",
        s(&csv),
        "--summary",
        s(&sum),
    ]);
    // Paths are recorded relative to the summary.
    let v: serde_json::Value = serde_json::from_slice(&fs::read(&sum).unwrap()).unwrap();
    assert_eq!(v["csv"]["path"], "out/g.csv");
    assert_eq!(v["csv"]["rows"], 3000);
    let out = String::from_utf8(ok(&["verify", "--rerun", s(&sum)])).unwrap();
    assert!(out.contains("rerun gives identical"), "{out}");
    // A moved folder still verifies.
    fs::rename(d, d.with_extension("moved")).unwrap();
    let moved = d.with_extension("moved");
    ok(&["verify", s(&moved.join("g.json"))]);
    // An extended CSV does not.
    let mut f = fs::OpenOptions::new()
        .append(true)
        .open(moved.join("out/g.csv"))
        .unwrap();
    std::io::Write::write_all(&mut f, b"3000,1\n").unwrap();
    let err = bad(&["verify", s(&moved.join("g.json"))]);
    assert!(err.contains("g.csv") && err.contains("bytes"), "{err}");
    fs::rename(&moved, d).unwrap();
}
