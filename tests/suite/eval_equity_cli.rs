//! `cardsim eval` and `cardsim equity` at the command line: results, JSON,
//! stdin streaming, determinism, and one-line errors with exit status 2.

use std::io::Write;
use std::process::Stdio;

use crate::common::{bad, cardsim, ok};

#[test]
fn eval_prints_category_best_five_and_strength() {
    assert_eq!(
        ok(&["eval", "As Ks Qs Js Ts 2c 3d"]),
        "straight flush: As Ks Qs Js Ts (strength 7462)\n"
    );
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["eval", "--json", "2c 3d 4h 5s 7c"])).unwrap();
    assert_eq!(v["category"], "high_card");
    assert_eq!(v["strength"], 1);
}

#[test]
fn eval_streams_stdin_line_by_line() {
    let mut child = cardsim()
        .args(["eval", "-"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    child
        .stdin
        .take()
        .unwrap()
        .write_all(b"Ah Ad Ac Kd Ks\n\n2c 3c 4c 5c 7d 9h\n")
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(lines.len(), 2, "{text}");
    assert!(lines[0].starts_with("full house: "), "{text}");
    assert!(lines[1].starts_with("high card: "), "{text}");
}

#[test]
fn equity_is_exact_by_default_when_cheap() {
    let out = ok(&["equity", "AA", "KK"]);
    assert!(
        out.starts_with("exact: 36 hole-card combination(s)"),
        "{out}"
    );
    assert!(
        out.contains("81.9461%") && out.contains("18.0539%"),
        "{out}"
    );
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["equity", "AKs", "QQ", "--json"])).unwrap();
    assert_eq!(v["method"], "exact");
    assert_eq!(v["boards"], 1_712_304);
    let e = v["players"][0]["equity"].as_f64().unwrap();
    assert_eq!(format!("{:.6}", e), "0.460485");
}

#[test]
fn monte_carlo_output_is_the_same_for_any_thread_count() {
    let run = |threads: &str| {
        let v: serde_json::Value = serde_json::from_str(&ok(&[
            "equity", "QQ+,AKs", "random", "--trials", "50000", "--seed", "7", "--json", "-j",
            threads,
        ]))
        .unwrap();
        v["players"].clone()
    };
    assert_eq!(run("1"), run("2"));
}

#[test]
fn bad_equity_questions_exit_2_with_one_line() {
    assert!(bad(&["equity", "AhAs", "AhKd"]).contains("Ah is used twice"));
    assert!(bad(&["equity", "AA", "KK", "--board", "2c 3c"]).contains("0, 3, 4 or 5"));
    assert!(bad(&["equity", "QQ+,AKx", "KK"]).contains("'AKx'"));
    assert!(bad(&["equity", "AhAs", "AA", "--board", "Ad Ac 2c"]).contains("no combination left"));
    assert!(bad(&["equity", "AA"]).contains("2 to 10 players"));
    let eleven = [
        "equity", "AA", "KK", "QQ", "JJ", "TT", "99", "88", "77", "66", "55", "44",
    ];
    assert!(bad(&eleven).contains("2 to 10 players"));
    assert!(bad(&["equity", "AA", "KK", "--dead", "Zz"]).contains("--dead"));
    bad(&["equity", "AA", "KK", "--stderr", "0"]);
    bad(&["equity", "AA", "KK", "--time", "-1"]);
    bad(&["equity", "AA", "KK", "--trials", "0"]);
    bad(&["eval", "As Ks"]);
    bad(&["eval", "As Ks Qs Js Xx"]);
}
