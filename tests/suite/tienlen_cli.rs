//! `cardsim tienlen` at the command line: the simulation (columns,
//! reproducibility, seat rotation), hint and classify, and bad input.

use crate::common::{bad, ok};

#[test]
fn games_stream_the_documented_columns_identically_for_any_threads() {
    let run = |threads: &str| {
        ok(&[
            "tienlen",
            "-n",
            "2000",
            "--agents",
            "greedy,random,planner,random",
            "-q",
            "-o",
            "-",
            "-j",
            threads,
        ])
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    let mut lines = one.lines();
    assert_eq!(
        lines.next().unwrap(),
        "game,position_s1,position_s2,position_s3,position_s4,winner,plays,tricks,passes,chops,\
         left_s1,left_s2,left_s3,left_s4,first_leader"
    );
    for line in lines {
        let f: Vec<u32> = line.split(',').map(|x| x.parse().unwrap()).collect();
        let mut pos = f[1..5].to_vec();
        pos.sort_unstable();
        assert_eq!(pos, [1, 2, 3, 4], "{line}");
        let winner = f[5] as usize;
        assert_eq!(f[winner], 1, "the winner finished first: {line}");
        assert_eq!(f[9 + winner], 0, "the winner holds no cards: {line}");
    }
}

#[test]
fn rotation_adds_per_agent_statistics() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    ok(&[
        "tienlen",
        "-n",
        "400",
        "--agents",
        "planner,greedy,greedy",
        "--rotate",
        "--rules",
        "vietnamese",
        "-q",
        "--summary",
        summary.to_str().unwrap(),
    ]);
    let v: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    let names: Vec<&str> = v["metrics"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert!(names.contains(&"agent1_planner_win"), "{names:?}");
    assert!(names.contains(&"seat3_position"), "{names:?}");
}

#[test]
fn hint_and_classify() {
    assert_eq!(
        ok(&[
            "tienlen",
            "hint",
            "--hand",
            "3h 4h 5h 5s 9c 2s",
            "--beat",
            "4d"
        ]),
        "single [5h]\nsingle [5s]\nsingle [9c]\nsingle [2s]\n"
    );
    let v: serde_json::Value =
        serde_json::from_str(&ok(&["tienlen", "classify", "3h 4h 5h", "--json"])).unwrap();
    assert_eq!(v["kind"], "straight");
    assert_eq!(ok(&["tienlen", "classify", "3h 4d"]), "not a combination\n");
    assert_eq!(
        ok(&["tienlen", "hint", "--hand", "3h 9c", "--beat", "2s"]),
        "no legal play: pass\n"
    );
}

#[test]
fn bad_input_exits_2_with_one_line() {
    assert!(bad(&["tienlen", "--agents", "greedy,smart"]).contains("smart"));
    assert!(bad(&["tienlen", "--agents", "greedy"]).contains("2 to 4"));
    assert!(bad(&["tienlen", "--rules", "klondike"]).contains("klondike"));
    assert!(bad(&["tienlen", "hint", "--hand", "3h 3h", "--beat", "4d"]).contains("twice"));
    assert!(
        bad(&["tienlen", "hint", "--hand", "3h 9c", "--beat", "4d 7s"])
            .contains("not a combination")
    );
    bad(&["tienlen", "hint", "--hand", "3h Zz"]);
    bad(&["tienlen", "classify", "3h 4h 5h", "--rules", "x"]);
}
