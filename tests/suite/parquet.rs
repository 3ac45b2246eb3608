//! `-o FILE.parquet` (or `--format parquet`): the same rows as the CSV,
//! typed, the same bytes for any thread count, vouched for by the summary
//! and reproduced by `verify --rerun`; what Parquet cannot do yet (resume,
//! merge) is refused on one line; and real readers (DuckDB, polars) read a
//! sweep's Parquet to the summaries' numbers.

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
    // The command in the metadata, without -j.
    let text = String::from_utf8_lossy(&a);
    assert!(text.contains(
        r#"["holdem","-n","3000","--players","3","-o","h.parquet","--summary","s.json"]"#
    ));
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

#[test]
fn what_parquet_cannot_do_yet_is_refused_on_one_line() {
    let dir = TempDir::new().expect("temp dir");
    let p = dir.path().join("g.parquet");
    let p = p.to_str().expect("utf-8");
    let err = bad(&["fishing", "-n", "100", "-o", p, "--resume"]);
    assert!(err.contains("--resume does not work with Parquet"), "{err}");
    let err = bad(&["fishing", "-n", "100", "--format", "parquet"]);
    assert!(err.contains("needs --out"), "{err}");
    let err = bad(&["fishing", "-n", "100", "--format", "arrow", "-o", p]);
    assert!(err.contains("csv or parquet"), "{err}");
    let s0 = dir.path().join("s0.json");
    let s0 = s0.to_str().expect("utf-8");
    let o0 = dir.path().join("p0.parquet");
    let o0 = o0.to_str().expect("utf-8");
    let out = cardsim()
        .args([
            "fishing",
            "-n",
            "100",
            "-q",
            "--shard",
            "0/1",
            "-o",
            o0,
            "--summary",
            s0,
        ])
        .output()
        .expect("runs");
    assert!(out.status.success());
    let all = dir.path().join("all.csv");
    let err = bad(&["merge", s0, "-o", all.to_str().expect("utf-8")]);
    assert!(err.contains("Parquet"), "{err}");
    let err = bad(&["merge", s0, "-o", p]);
    assert!(err.contains("merge writes CSV"), "{err}");
    assert!(!Path::new(p).exists() && !all.exists());
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
    assert!(String::from_utf8_lossy(&out.stdout).contains("3 passed, 0 failed"));
}
