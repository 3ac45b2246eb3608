//! `-o FILE.parquet` (or `--format parquet`): the same rows as the CSV,
//! typed, the same bytes for any thread count, vouched for by the summary
//! and reproduced by `verify --rerun`, shards merged into the unsharded
//! file, a killed run resumed to the uncut file; bad requests refused on
//! one line; and real readers (DuckDB, polars) read a sweep's Parquet to
//! the summaries' numbers.

use std::path::Path;
use std::process::Command;

use tempfile::TempDir;

use crate::common::{bad, cardsim};

fn ok_in(dir: &Path, args: &[&str]) -> String {
    let out = cardsim()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("cardsim runs");
    assert!(
        out.status.success(),
        "{args:?}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).expect("utf-8")
}

#[test]
fn parquet_rows_are_thread_independent_vouched_for_and_rerun() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    std::fs::create_dir(d.join("a")).expect("mkdir");
    std::fs::create_dir(d.join("b")).expect("mkdir");
    let run = [
        "holdem",
        "-n",
        "3000",
        "--players",
        "3",
        "-q",
        "-o",
        "h.parquet",
    ];
    let mut one = run.to_vec();
    one.extend(["-j", "1", "--summary", "s.json"]);
    let mut two = run.to_vec();
    two.extend(["-j", "2", "--summary", "s.json"]);
    ok_in(&d.join("a"), &one);
    ok_in(&d.join("b"), &two);
    let a = std::fs::read(d.join("a/h.parquet")).expect("parquet");
    assert_eq!(&a[..4], b"PAR1");
    assert_eq!(&a[a.len() - 4..], b"PAR1");
    assert!(a == std::fs::read(d.join("b/h.parquet")).expect("parquet"));
    // The command in the metadata, without -j and the outputs.
    let text = String::from_utf8_lossy(&a);
    assert!(text.contains(r#"["holdem","-n","3000","--players","3"]"#));
    let out = ok_in(&d.join("a"), &["verify", "--rerun", "s.json"]);
    assert!(out.contains("CSV h.parquet (3000 rows"), "{out}");
    assert!(out.contains("rerun gives identical"), "{out}");
    // `--format` decides over the extension; a changed byte is caught.
    ok_in(
        d,
        &[
            "fishing",
            "-n",
            "500",
            "-q",
            "--format",
            "parquet",
            "-o",
            "f.bin",
            "--summary",
            "f.json",
        ],
    );
    assert_eq!(&std::fs::read(d.join("f.bin")).expect("file")[..4], b"PAR1");
    let mut bytes = std::fs::read(d.join("f.bin")).expect("file");
    bytes[100] ^= 1;
    std::fs::write(d.join("f.bin"), bytes).expect("write");
    let err = bad(&["verify", d.join("f.json").to_str().expect("utf-8")]);
    assert!(err.contains("f.bin"), "{err}");
}

/// A Parquet run stores each game's fields typed, never as text; its file
/// is, byte for byte, the same run's CSV rows turned into Parquet, for
/// every game (integers, reals, texts with commas, empty cells).
#[test]
fn parquet_files_are_their_csv_rows_for_every_game() {
    use cardsim::sim::parquet::ParquetRows;
    use parquet::file::reader::{FileReader, SerializedFileReader};
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    let runs: [&[&str]; 4] = [
        &[
            "holdem",
            "-n",
            "3000",
            "--players",
            "4",
            "--agents",
            "tag,random,station,tag",
        ],
        &["fishing", "-n", "3000", "--card-limit", "200"],
        &[
            "tienlen",
            "-n",
            "1000",
            "--agents",
            "greedy,random,planner,random",
        ],
        &["solve", "--random", "40", "--cards", "5"],
    ];
    for run in runs {
        let game = run[0];
        for out in ["r.csv", "r.parquet"] {
            ok_in(d, &[run, &["-q", "-o", out]].concat());
        }
        let file = std::fs::read(d.join("r.parquet")).expect("parquet");
        let reader = SerializedFileReader::new(bytes::Bytes::from(file.clone())).expect("reads");
        let metadata: Vec<(String, String)> = reader
            .metadata()
            .file_metadata()
            .key_value_metadata()
            .expect("metadata")
            .iter()
            .filter(|k| k.key != "ARROW:schema")
            .map(|k| (k.key.clone(), k.value.clone().unwrap_or_default()))
            .collect();
        let csv = std::fs::read(d.join("r.csv")).expect("csv");
        let newline = csv.iter().position(|&b| b == b'\n').expect("header");
        let header = String::from_utf8(csv[..newline].to_vec()).expect("utf-8");
        let columns: Vec<String> = header.split(',').skip(1).map(String::from).collect();
        let mut rows = ParquetRows::new(Vec::new(), game, &columns, metadata).expect("starts");
        rows.write_csv(&csv[newline + 1..]).expect("the CSV's rows");
        let from_csv = rows.finish().expect("finishes").inner;
        assert!(
            from_csv == file,
            "{game}: the Parquet file is not its CSV's rows"
        );
    }
}

/// The Parquet file of a run is at most a quarter of its CSV's bytes
/// (hold'em, fishing, Tien len, at two row groups' worth of games): the
/// `game` column, which counts up, was a dictionary's indices (about 180 KB
/// a row group) and hold'em's `board` a dictionary that filled and fell
/// back to plain, which put hold'em at 25.9% of the CSV and fishing at
/// 26.3%.
#[test]
fn parquet_files_are_at_most_a_quarter_of_the_csv() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    for game in ["holdem", "fishing", "tienlen"] {
        let mut sizes = Vec::new();
        for out in ["q.csv", "q.parquet"] {
            ok_in(d, &[game, "-n", "131072", "-q", "-o", out]);
            sizes.push(std::fs::metadata(d.join(out)).expect("written").len());
        }
        let ratio = sizes[1] as f64 / sizes[0] as f64;
        assert!(
            ratio <= 0.25,
            "{game}: Parquet {} bytes, CSV {} bytes ({:.1}%)",
            sizes[1],
            sizes[0],
            ratio * 100.0
        );
    }
}

/// The peak memory (resident set, in KB) of one `cardsim` run in `dir`.
#[cfg(target_os = "linux")]
// The child is reaped by `wait4`, which also gives its peak memory.
#[allow(clippy::zombie_processes)]
fn peak_rss_kb(dir: &Path, args: &[&str]) -> i64 {
    use std::process::Stdio;
    let child = cardsim()
        .current_dir(dir)
        .args(args)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .expect("cardsim runs");
    let pid = child.id() as libc::pid_t;
    let mut status = 0;
    // SAFETY: an all-zero rusage is a valid value, which wait4 fills.
    let mut usage: libc::rusage = unsafe { std::mem::zeroed() };
    // SAFETY: waits for our own child, with pointers to live locals.
    let waited = unsafe { libc::wait4(pid, &mut status, 0, &mut usage) };
    assert_eq!(waited, pid, "wait4");
    assert!(
        libc::WIFEXITED(status) && libc::WEXITSTATUS(status) == 0,
        "{args:?} failed"
    );
    usage.ru_maxrss
}

/// A Parquet run holds a slice of rows and the row group's column writers,
/// not more: its peak memory stays within 100 MB of the same run's to a
/// CSV. It was 180 MB to 250 MB more (each row-group boundary kept a copy
/// of every histogram, and a whole row group was held in Arrow builders).
#[cfg(target_os = "linux")]
#[test]
fn a_parquet_run_holds_little_more_memory_than_a_csv_run() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    let run = |out: &str| peak_rss_kb(d, &["holdem", "-n", "140000", "-j", "2", "-q", "-o", out]);
    let (csv, parquet) = (run("m.csv"), run("m.parquet"));
    assert!(
        parquet <= csv + 100 * 1024,
        "peak RSS: Parquet {parquet} KB, CSV {csv} KB"
    );
}

/// Shards that write Parquet, run as separate processes, merge into the
/// unsharded run's file byte for byte (the metadata records the command
/// without its outputs and shard).
#[test]
fn parquet_shards_merge_into_the_unsharded_file() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    let run = ["fishing", "-n", "70000", "--card-limit", "300", "-q"];
    fn with<'a>(run: &[&'a str], extra: &[&'a str]) -> Vec<&'a str> {
        [run, extra].concat()
    }
    ok_in(
        d,
        &with(&run, &["-o", "all.parquet", "--summary", "all.json"]),
    );
    let mut summaries = Vec::new();
    for k in 0..3 {
        let (shard, out, sum) = (
            format!("{k}/3"),
            format!("p{k}.parquet"),
            format!("p{k}.json"),
        );
        ok_in(
            d,
            &with(&run, &["--shard", &shard, "-o", &out, "--summary", &sum]),
        );
        summaries.push(sum);
    }
    let mut merge = vec!["merge", "-q", "-o", "m.parquet", "--summary", "m.json"];
    merge.extend(summaries.iter().map(String::as_str));
    ok_in(d, &merge);
    assert!(
        std::fs::read(d.join("all.parquet")).expect("file")
            == std::fs::read(d.join("m.parquet")).expect("file")
    );
    let out = ok_in(d, &["verify", "m.json"]);
    assert!(out.contains("CSV m.parquet (70000 rows"), "{out}");
    // Into a CSV name, or mixed with CSV shards: refused.
    let mut into_csv = merge.clone();
    into_csv[3] = "m.csv";
    let path = |n: &str| d.join(n).display().to_string();
    let args: Vec<String> = into_csv
        .iter()
        .map(|a| {
            if a.ends_with(".json") || a.ends_with(".csv") {
                path(a)
            } else {
                a.to_string()
            }
        })
        .collect();
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let err = bad(&args);
    assert!(err.contains("names a CSV file"), "{err}");
    ok_in(
        d,
        &with(
            &run,
            &["--shard", "2/3", "-o", "c2.csv", "--summary", "c2.json"],
        ),
    );
    let err = bad(&[
        "merge",
        &path("p0.json"),
        &path("p1.json"),
        &path("c2.json"),
        "-o",
        &path("x.parquet"),
    ]);
    assert!(err.contains("Parquet and some as CSV"), "{err}");
}

/// A Parquet run to a file killed (SIGKILL) after its first checkpoint
/// resumes with the same command to the uncut file, byte for byte; the
/// same rows streamed to stdout are the same bytes too.
#[test]
fn a_killed_parquet_run_resumes_to_the_uncut_file() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    let run = [
        "fishing",
        "-n",
        "400000",
        "--card-limit",
        "300",
        "-q",
        "--checkpoint-every",
        "0.02",
        "-o",
        "cut.parquet",
    ];
    let mut child = cardsim()
        .current_dir(d)
        .args(run)
        .spawn()
        .expect("run starts");
    let started = std::time::Instant::now();
    let ckpt = d.join("cut.parquet.partial.ckpt");
    while !ckpt.exists() && started.elapsed() < std::time::Duration::from_secs(30) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let _ = child.kill();
    let status = child.wait().expect("wait");
    assert!(!status.success(), "the run ended before its kill");
    assert!(
        !d.join("cut.parquet").exists(),
        "a killed run left a final file"
    );
    let mut resume = run.to_vec();
    resume.push("--resume");
    ok_in(d, &resume);
    let uncut = cardsim()
        .current_dir(d)
        .args([
            "fishing",
            "-n",
            "400000",
            "--card-limit",
            "300",
            "--format",
            "parquet",
            "-o",
            "-",
        ])
        .output()
        .expect("runs");
    assert!(uncut.status.success());
    assert!(std::fs::read(d.join("cut.parquet")).expect("file") == uncut.stdout);
    let left: Vec<_> = std::fs::read_dir(d)
        .expect("dir")
        .map(|e| e.expect("entry").file_name())
        .collect();
    assert_eq!(
        left,
        ["cut.parquet"],
        "the row-group index, checkpoint or lock stayed"
    );
}

/// Runs in `dir`, expects exit status 2 and one `error:` line; returns it.
fn bad_in(dir: &Path, args: &[&str]) -> String {
    let out = cardsim()
        .current_dir(dir)
        .args(args)
        .output()
        .expect("cardsim runs");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
    assert!(err.starts_with("error: "), "{args:?}: {err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{args:?}: {err}");
    err
}

/// A hold'em run writing Parquet (and its pots CSV) killed with SIGKILL
/// while a row group is being filled, and with torn bytes after what its
/// checkpoint vouches for (a row group, and its index record, cut off in
/// the middle), resumes at its last whole row group and ends byte for byte
/// as an uncut run with another thread count. A row-group index edited
/// inside what the checkpoint vouches for is refused on one line.
#[test]
fn a_parquet_run_killed_inside_a_row_group_resumes_to_the_uncut_file() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    std::fs::create_dir(d.join("uncut")).expect("mkdir");
    let run = [
        "holdem",
        "-n",
        "200000",
        "--players",
        "3",
        "--checkpoint-every",
        "0.01",
        "-o",
        "h.parquet",
        "--pots",
        "p.csv",
        "--summary",
        "s.json",
    ];
    let mut killed = run.to_vec();
    killed.extend(["-q", "-j", "2"]);
    let mut child = cardsim()
        .current_dir(d)
        .args(&killed)
        .spawn()
        .expect("run starts");
    let started = std::time::Instant::now();
    let ckpt = d.join("h.parquet.partial.ckpt");
    while !ckpt.exists() && started.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    let _ = child.kill();
    let status = child.wait().expect("wait");
    assert!(!status.success(), "the run ended before its kill");
    assert!(
        !d.join("h.parquet").exists(),
        "a killed run left a final file"
    );
    let index = d.join("h.parquet.groups.partial");
    let partial = d.join("h.parquet.partial");
    assert!(index.exists(), "no row-group index beside the partial file");
    // Edited inside the vouched-for prefix: refused.
    let good = std::fs::read(&index).expect("index");
    let mut edited = good.clone();
    edited[10] ^= 0x20;
    std::fs::write(&index, &edited).expect("write");
    let mut resume = run.to_vec();
    resume.push("--resume");
    let err = bad_in(d, &resume);
    assert!(
        err.contains("cannot resume") && err.contains("h.parquet.groups.partial"),
        "{err}"
    );
    std::fs::write(&index, &good).expect("write");
    // Torn bytes past the checkpoint: cut off.
    for path in [&index, &partial] {
        let mut bytes = std::fs::read(path).expect("read");
        bytes.extend_from_slice(&[0x5a; 777]);
        std::fs::write(path, bytes).expect("write");
    }
    let out = cardsim()
        .current_dir(d)
        .args(&resume)
        .output()
        .expect("cardsim runs");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{err}");
    let at: u64 = err
        .split("resuming at game ")
        .nth(1)
        .and_then(|t| t.split_whitespace().next())
        .map(|n| n.replace(',', ""))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no resuming line: {err}"));
    assert!(
        at > 0 && at.is_multiple_of(65_536),
        "resumed at game {at}, not a row-group boundary"
    );
    let mut uncut = run.to_vec();
    uncut.extend(["-q", "-j", "1"]);
    ok_in(&d.join("uncut"), &uncut);
    for name in ["h.parquet", "p.csv"] {
        assert!(
            std::fs::read(d.join(name)).expect("file")
                == std::fs::read(d.join("uncut").join(name)).expect("file"),
            "{name} differs from the uncut run's"
        );
    }
    let out = ok_in(d, &["verify", "s.json"]);
    assert!(out.contains("CSV h.parquet (200000 rows"), "{out}");
    let mut left: Vec<_> = std::fs::read_dir(d)
        .expect("dir")
        .map(|e| e.expect("entry").file_name().to_string_lossy().into_owned())
        .collect();
    left.sort();
    assert_eq!(left, ["h.parquet", "p.csv", "s.json", "uncut"]);
}

/// Sends `signal` to a Parquet run in `dir` once `ready` holds (or at
/// once); returns its exit status and standard error.
fn signal_run(
    dir: &Path,
    args: &[&str],
    signal: &str,
    ready: impl Fn() -> bool,
) -> (Option<i32>, String) {
    let child = cardsim()
        .current_dir(dir)
        .args(args)
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("run starts");
    let started = std::time::Instant::now();
    while !ready() && started.elapsed() < std::time::Duration::from_secs(60) {
        std::thread::sleep(std::time::Duration::from_millis(10));
    }
    let killed = Command::new("kill")
        .args([signal, &child.id().to_string()])
        .status()
        .expect("kill runs");
    assert!(killed.success());
    let out = child.wait_with_output().expect("wait");
    let err = String::from_utf8_lossy(&out.stderr).into_owned();
    (out.status.code(), err)
}

/// Ctrl-C stops a Parquet run on one line: before its first whole row
/// group nothing is kept (and nothing is left); after it, the partial file,
/// its row-group index and the checkpoint are kept, and the command the
/// line gives ends the file as an uncut run's.
#[test]
fn an_interrupted_parquet_run_keeps_whole_row_groups() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    let run = [
        "holdem",
        "-n",
        "150000",
        "--players",
        "3",
        "-q",
        "--checkpoint-every",
        "0.01",
        "-o",
        "i.parquet",
    ];
    // Once the partial file exists the run's signal handlers are armed; a
    // whole row group (65,536 hands) takes far longer than the wait.
    let partial = d.join("i.parquet.partial");
    let (code, err) = signal_run(d, &run, "-INT", || partial.exists());
    assert_eq!(code, Some(130), "{err}");
    assert!(
        err.contains("nothing was kept (a Parquet file resumes from its first whole row group"),
        "{err}"
    );
    let left: Vec<_> = std::fs::read_dir(d).expect("dir").collect();
    assert!(left.is_empty(), "{err}: left {left:?}");
    let ckpt = d.join("i.parquet.partial.ckpt");
    let (code, err) = signal_run(d, &run, "-INT", || ckpt.exists());
    assert_eq!(code, Some(130), "{err}");
    assert_eq!(err.trim_end().lines().count(), 1, "{err}");
    assert!(
        err.contains("kept i.parquet.partial")
            && err.contains("i.parquet.groups.partial")
            && err.contains("and its checkpoint i.parquet.partial.ckpt"),
        "{err}"
    );
    let command = err
        .trim_end()
        .split_once("to continue, run: cardsim ")
        .map(|(_, c)| c)
        .unwrap_or_else(|| panic!("{err}"));
    let next = shlex::split(command).unwrap_or_else(|| panic!("{command}"));
    let next: Vec<&str> = next.iter().map(String::as_str).collect();
    ok_in(d, &next);
    let uncut = cardsim()
        .current_dir(d)
        .args(&run[..run.len() - 2])
        .args(["--format", "parquet", "-o", "-"])
        .output()
        .expect("runs");
    assert!(uncut.status.success());
    assert!(std::fs::read(d.join("i.parquet")).expect("file") == uncut.stdout);
}

#[test]
fn bad_parquet_requests_are_refused_on_one_line() {
    let dir = TempDir::new().expect("temp dir");
    let p = dir.path().join("g.parquet");
    let p = p.to_str().expect("utf-8");
    let err = bad(&[
        "fishing", "-n", "100", "--format", "parquet", "-o", "-", "--resume",
    ]);
    assert!(
        err.contains("--resume needs --out to be a regular file"),
        "{err}"
    );
    let err = bad(&["fishing", "-n", "100", "--format", "parquet"]);
    assert!(err.contains("needs --out"), "{err}");
    let err = bad(&["fishing", "-n", "100", "--format", "arrow", "-o", p]);
    assert!(err.contains("csv or parquet"), "{err}");
    assert!(!Path::new(p).exists());
}

/// DuckDB reads a sweep's cells through their hive folders, polars reads
/// results.parquet and a hold'em run; every number is the summaries'
/// (scripts/check_parquet_readers.py). Needs python3 with duckdb and
/// polars (scripts/requirements-ci.txt), so it is run by CI with
/// --ignored.
#[test]
#[ignore = "needs python3 with duckdb and polars (pip install -r scripts/requirements-ci.txt); run: cargo test --test suite parquet_readers -- --ignored"]
fn parquet_readers_duckdb_and_polars_agree_with_the_summaries() {
    let dir = TempDir::new().expect("temp dir");
    let d = dir.path();
    std::fs::write(
        d.join("spec.toml"),
        "game = \"fishing\"\ngames = 3000\n[grid]\nplayers = [2, 3, 4]\n\
         reverse-captures = [false, true]\n",
    )
    .expect("spec");
    ok_in(
        d,
        &[
            "sweep",
            "spec.toml",
            "-q",
            "--format",
            "parquet",
            "-o",
            "sw",
        ],
    );
    ok_in(
        d,
        &[
            "holdem",
            "-n",
            "2000",
            "--players",
            "4",
            "--agents",
            "tag,station,tag,random",
            "-q",
            "-o",
            "h.parquet",
        ],
    );
    ok_in(
        d,
        &[
            "holdem",
            "-n",
            "2000",
            "--players",
            "4",
            "--agents",
            "tag,station,tag,random",
            "-q",
            "-o",
            "h.csv",
        ],
    );
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("scripts/check_parquet_readers.py");
    let out = Command::new("python3")
        .current_dir(d)
        .arg(script)
        .args(["sw", "h.parquet", "h.csv"])
        .output()
        .expect("python3 runs");
    assert!(
        out.status.success(),
        "{}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    assert!(String::from_utf8_lossy(&out.stdout).contains("4 passed, 0 failed"));
}
