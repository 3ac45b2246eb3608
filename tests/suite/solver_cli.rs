//! `cardsim solve` at the command line: the seed's example, the tree, JSON,
//! random deals as a reproducible simulation, and bad input.

use crate::common::{bad, ok};

#[test]
fn the_seed_example_gives_the_seed_answer() {
    let out = ok(&["solve", "9H 6H 6D 4H 3S", "8S 8H", "--all"]);
    assert!(out.contains("Winner: A"), "{out}");
    let moves = out
        .lines()
        .find(|l| l.starts_with("winning first moves: "))
        .unwrap_or_else(|| panic!("{out}"));
    assert!(moves.contains("Single [4h]"), "{out}");
    // The pair of sixes is no winning lead (the seed's tree shows it losing).
    assert!(!moves.contains("[6h,6d]"), "{out}");

    let v: serde_json::Value = serde_json::from_str(&ok(&[
        "solve",
        "9H 6H 6D 4H 3S",
        "8S 8H",
        "--json",
        "--stats",
        "--tree",
    ]))
    .unwrap();
    assert_eq!(v["winner"], "A");
    assert!(v["nodes"].as_u64().unwrap() > 0);
    assert_eq!(v["tree"]["children"].as_array().map(Vec::len), Some(1));
    let tree = ok(&["solve", "9h 6h 6d 4h 3s", "8s 8h", "--tree"]);
    assert!(tree.lines().count() > 5, "{tree}");
}

/// Input is case-insensitive; output is always cardsim's one notation
/// (rank upper case, suit lower case: `9h 6h 6d 4h 3s`), as in every other
/// command.
#[test]
fn cards_print_in_the_one_notation_whatever_the_input_case() {
    let upper = ok(&["solve", "9H 6H 6D 4H 3S", "8S 8H", "--tree"]);
    let lower = ok(&["solve", "9h 6h 6d 4h 3s", "8s 8h", "--tree"]);
    assert_eq!(upper, lower);
    assert!(
        upper.starts_with("A: 9h 6h 6d 4h 3s\nB: 8s 8h\n"),
        "{upper}"
    );
    assert!(upper.contains("A Single [3s] Win:True"), "{upper}");
    assert!(upper.contains("Double [6h,6d]"), "{upper}");
    let json = ok(&["solve", "9H 6H 6D 4H 3S", "8S 8H", "--json", "--tree"]);
    assert!(
        json.contains("Single [3s]") && !json.contains("[3S]"),
        "{json}"
    );
}

/// The tree names the players A and B, as the header does (it once said
/// `Player 0/1/2`, the seed's numbers, under an `A:`/`B:` header): the whole
/// drawing of a small endgame, and its JSON.
#[test]
fn the_tree_names_the_players_a_and_b_as_the_header_does() {
    let out = ok(&["solve", "9h 4h", "8s", "--tree"]);
    assert_eq!(
        out,
        "A: 9h 4h\nB: 8s\nWinner: A\na winning first move: Single [9h]\n\
         Start: A leads, A wins\n\
         |\n\
         `- A Single [9h] Win:True\n   \
         |\n   \
         `- B Pass Win:False\n      \
         |\n      \
         `- A Single [4h] Win:True\n"
    );
    // B wins: A's every lead appears, each with B's one winning answer.
    let out = ok(&["solve", "3s 4h", "As Ah 2d", "--tree"]);
    assert!(
        out.starts_with("A: 4h 3s\nB: As Ah 2d\nWinner: B\n"),
        "{out}"
    );
    assert!(out.contains("\nStart: A leads, B wins\n"), "{out}");
    assert!(!out.contains("Player"), "{out}");
    let firsts: Vec<&str> = out
        .lines()
        .filter(|l| l.starts_with("+- ") || l.starts_with("`- "))
        .collect();
    assert_eq!(
        firsts,
        ["+- A Single [3s] Win:False", "`- A Single [4h] Win:False"],
        "{out}"
    );
    assert!(
        out.lines().all(|l| {
            let l = l.trim_start_matches([' ', '|', '+', '-', '`']);
            l.is_empty() || l.starts_with("A ") || l.starts_with("B ") || !l.contains("Win:")
        }),
        "{out}"
    );

    let v: serde_json::Value =
        serde_json::from_str(&ok(&["solve", "9h 4h", "8s", "--tree", "--json"])).unwrap();
    let root = &v["tree"];
    assert_eq!(
        (root["player"].is_null(), root["play"].is_null()),
        (true, true)
    );
    assert_eq!(root["win"], true);
    let lead = &root["children"][0];
    assert_eq!(
        (&lead["player"], &lead["play"], &lead["win"]),
        (&"A".into(), &"Single [9h]".into(), &true.into())
    );
    let answer = &lead["children"][0];
    assert_eq!(
        (&answer["player"], &answer["play"], &answer["win"]),
        (&"B".into(), &"Pass".into(), &false.into())
    );
}

#[test]
fn solve_help_explains_the_game_without_outside_references() {
    let help = ok(&["solve", "--help"]);
    for needed in [
        "A leads",
        "passing",
        "empties their hand first wins",
        "pairs ",
        "tienlen ",
        "2 lowest, A highest",
        "Win:True",
    ] {
        assert!(
            help.contains(needed),
            "solve --help lacks {needed:?}:\n{help}"
        );
    }
    assert!(!help.to_lowercase().contains("blog"), "{help}");
}

#[test]
fn the_loser_side_is_reported() {
    // B holds the only pair and the top single: whatever A leads, B wins.
    let out = ok(&["solve", "3S 4H", "AS AH 2D"]);
    assert!(out.contains("Winner: B"), "{out}");
    assert!(out.contains("every first move of A loses"), "{out}");
}

#[test]
fn random_deals_rerun_byte_identical_on_any_thread_count() {
    let run = |threads: &str| {
        ok(&[
            "solve", "--random", "300", "--cards", "5", "--seed", "9", "-q", "-o", "-", "-j",
            threads,
        ])
    };
    let one = run("1");
    assert_eq!(one, run("2"));
    assert_eq!(one.lines().count(), 301);
    assert!(one.starts_with("game,hand_a,hand_b,winner,winning_first_moves,nodes\n"));
    let tl = ok(&[
        "solve", "--random", "50", "--cards", "4", "--rules", "tienlen", "-q", "-o", "-",
    ]);
    assert_eq!(tl.lines().count(), 51);
}

#[test]
fn bad_hands_exit_2_with_one_line() {
    assert!(bad(&["solve", "9H 6H", "9H 8S"]).contains("both hands"));
    assert!(bad(&["solve", "", "8S"]).contains("empty"));
    assert!(bad(&["solve", "2S 3S 4S 5S 6S 7S 8S 9S TS JS QS KS AS 2H", "8H"]).contains("13"));
    bad(&["solve", "9H 6H", "8S", "--rules", "bridge"]);
    assert!(bad(&["solve", "9X 6H", "8S"]).contains("9X"));
    bad(&["solve", "9H"]);
    bad(&["solve", "--random", "10", "--cards", "14"]);
    bad(&["solve", "--random", "0"]);
}
