//! Issue 24: real hand histories from the public PHH dataset
//! (tests/fixtures/phh/, sources in its README) and hand-made hands for
//! each feature real files use: decimal amounts, `inf` stacks, per-player
//! antes, straddles, dead blinds, folds where a check was possible,
//! unknown cards, winnings with a rake, omitted actions.

use std::path::PathBuf;

use cardsim::holdem::phh::{self, Outcome, ReplayOptions, Verdict, INF};

use crate::common::cardsim;

fn fixture(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/fixtures/phh")
        .join(name)
}

fn one(text: &str) -> phh::Replay {
    let t = phh::parse_all(text).unwrap();
    phh::replay(&t[0], ReplayOptions::default()).unwrap_or_else(|e| panic!("{e}\n{text}"))
}

fn hand(fields: &str, actions: &str) -> String {
    format!("variant = 'NT'\n{fields}\nactions = [{actions}]\n")
}

#[test]
fn real_absolute_hands_replay_in_exact_decimals_with_their_rake() {
    let out = cardsim()
        .args(["replay", "--json"])
        .arg(fixture("abs-100nl.phhs"))
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), 9);
    // Amounts are written exactly as decimals in the file's unit.
    let first = text.lines().next().unwrap();
    assert!(
        first.contains("\"finishing_stacks\":[201.30,80.60,197.00]"),
        "{first}"
    );
    for line in text.lines() {
        let v: serde_json::Value = serde_json::from_str(line).unwrap();
        assert_eq!(v["outcome"], "replayed", "{line}");
        if !v["winnings"].is_null() {
            assert_eq!(v["winnings_agree"], true, "{line}");
        }
    }
    // Hand 3017243048: the pot of 17.00 paid 15.65, a rake of 1.35.
    let line = text.lines().find(|l| l.contains("3017243048")).unwrap();
    assert!(line.contains("\"rake\":1.35"), "{line}");
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("9 hands: 9 replayed, 0 settled, 0 undetermined, 0 incomplete, 0 refused"),
        "{err}"
    );
}

#[test]
fn real_ipoker_hands_with_inf_stacks_replay_or_are_undetermined() {
    let out = cardsim()
        .arg("replay")
        .arg(fixture("ipoker-100nl.phhs"))
        .output()
        .unwrap();
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    // Nobody showed a hand: the pot is undetermined, named, not refused.
    assert!(
        text.contains(
            "hand 3406280350: undetermined: a pot of 48.00 only unknown cards decide (p1, p2)"
        ),
        "{text}"
    );
    // The history stops when the real stacks ran out: all-in for what
    // they put in, and the known hands decide (p5 flush beats p3 kings).
    assert!(
        text.contains("hand 3406285130: p1 inf (-0.50), p2 inf (-1.00), p3 inf (-32.25), p4 inf (+0.00), p5 inf (+33.75)"),
        "{text}"
    );
    assert!(
        text.contains("hand 3406284748: p1 inf (-0.50), p2 inf (-1.00), p3 inf (+1.50)"),
        "{text}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("6 hands: 3 replayed, 0 settled, 3 undetermined, 0 incomplete, 0 refused"),
        "{err}"
    );
}

/// iPoker hand 3406361218 (IPN 100NL) ends after the river card with no
/// river action: a preflop raise and call, then checks on the flop and
/// turn. iPoker writes those checks for players who are all-in, so the
/// second reading (each `inf` player all-in for what it put in, their
/// later checks no actions) explains the history: p2's cards are unknown,
/// so the pot is undetermined. It was refused before ("the hand is over").
#[test]
fn ipoker_checks_of_all_in_players_are_no_actions() {
    let text = hand(
        "antes = [0, 0, 0]\nblinds_or_straddles = [0.50, 1, 0]\nmin_bet = 1\n\
         starting_stacks = [inf, inf, inf]\nwinnings = [0, 0, 0]\nhand = 3406361218",
        "'d dh p1 ????', 'd dh p2 ????', 'd dh p3 AhKd', 'p3 cbr 3', 'p1 f', 'p2 cc', \
         'd db 2c7d9h', 'p2 cc', 'p3 cc', 'd db Js', 'p2 cc', 'p3 cc', 'd db 4h'",
    );
    let r = one(&text);
    assert_eq!(
        r.outcome,
        Outcome::Undetermined {
            pot: 650,
            players: vec![1, 2]
        }
    );
    // Both hands known: the all-in reading decides it (p2's pair of
    // fours beats ace-king high).
    let known = text.replace("'d dh p2 ????'", "'d dh p2 4c5d'");
    let r = one(&known);
    assert_eq!(r.outcome, Outcome::Replayed);
    assert_eq!(r.won, vec![0, 650, 0]);
}

/// An `inf` history that stops where no reading explains it (a river bet
/// with nothing after it) is incomplete: counted, every action legal, no
/// result; a history of finite stacks that stops is a cut file, refused.
#[test]
fn an_inf_history_that_just_stops_is_incomplete_not_refused() {
    let text = hand(
        "antes = [0, 0, 0]\nblinds_or_straddles = [0.50, 1, 0]\nmin_bet = 1\n\
         starting_stacks = [inf, inf, inf]\nwinnings = [0, 0, 0]",
        "'d dh p1 ????', 'd dh p2 ????', 'd dh p3 AhKd', 'p3 cbr 3', 'p1 f', 'p2 cc', \
         'd db 2c7d9h', 'p2 cc', 'p3 cc', 'd db Js', 'p2 cc', 'p3 cc', 'd db 4h', 'p2 cbr 5'",
    );
    let r = one(&text);
    assert_eq!(
        r.outcome,
        Outcome::Incomplete {
            to_act: 2,
            pot: 1150
        }
    );
    assert_eq!(r.outcome.key(), "incomplete");
    assert!(!r.outcome.is_determined());
    assert_eq!(r.finishing_stacks, vec![INF; 3]);
    assert_eq!(r.rake(), None);
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("stops.phh");
    std::fs::write(&path, &text).unwrap();
    let out = cardsim()
        .args(["replay", "--json"])
        .arg(&path)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let line = String::from_utf8(out.stdout).unwrap();
    assert!(line.contains("\"outcome\":\"incomplete\""), "{line}");
    assert!(line.contains("\"to_act\":\"p3\""), "{line}");
    let finite = text.replace("[inf, inf, inf]", "[100, 100, 100]");
    let t = phh::parse_all(&finite).unwrap();
    assert!(matches!(
        phh::replay(&t[0], ReplayOptions::default()),
        Err(phh::PhhError::Unfinished(3))
    ));
}

#[test]
fn the_wsop_big_blind_ante_and_its_omitted_fold_replay_as_pokerkit_does() {
    let text = std::fs::read_to_string(fixture("wsop-2019-42-3-00-01-07.phh")).unwrap();
    let r = one(&text);
    assert_eq!(r.inferred, 1, "p8's fold is left out of the transcript");
    // PokerKit 0.7.7 ends this hand with p1 17600000 too: with
    // ante_trimming_status = true p2's ante, which nobody matched, goes
    // back to p2. The file's finishing_stacks say the site kept it dead.
    assert_eq!(r.finishing_stacks[0], 17_600_000);
    assert_eq!(r.finishing_stacks[1], 6_125_000);
    assert_eq!(r.stacks_verdict(), Some(Verdict::Differs));
    let dead = text.replace(
        "ante_trimming_status = true",
        "ante_trimming_status = false",
    );
    let r = one(&dead);
    assert_eq!(r.stacks_verdict(), Some(Verdict::Match));
}

#[test]
fn decimals_are_played_in_minor_units_and_odd_chips_are_the_smallest_unit() {
    // A pot of 3.01 split: the odd cent goes to one winner, never lost.
    let text = hand(
        "antes = [0.01, 0, 0]\nblinds_or_straddles = [0.50, 1, 0]\nmin_bet = 1\n\
         starting_stacks = [10.00, 10.00, 10.005]",
        "'d dh p1 AsKd', 'd dh p2 AhKc', 'd dh p3 2c3d', 'p3 f', 'p1 cc', 'p2 cc', \
         'd db QsJh9c', 'p1 cc', 'p2 cc', 'd db 5d', 'p1 cc', 'p2 cc', 'd db 7s', \
         'p1 cc', 'p2 cc', 'p1 sm AsKd', 'p2 sm AhKc'",
    );
    let r = one(&text);
    assert_eq!(r.decimals, 3);
    assert_eq!(r.pot, 2010);
    assert_eq!(r.won, vec![1005, 1005, 0]);
    assert_eq!(r.amount(r.finishing_stacks[0]), "9.995");
    let sum: u64 = r.finishing_stacks.iter().sum();
    assert_eq!(sum, 30_005);
}

#[test]
fn straddles_dead_blinds_and_needless_folds_follow_pokerkit() {
    // A straddle of 4 by p3: p4 opens, and the straddler acts last.
    let text = hand(
        "antes = 0\nblinds_or_straddles = [1, 2, 4, 0]\nmin_bet = 2\n\
         starting_stacks = [100, 100, 100, 100]",
        "'d dh p1 AsKd', 'd dh p2 AhKc', 'd dh p3 2c3d', 'd dh p4 QdQc', 'p4 cbr 12', \
         'p1 f', 'p2 f', 'p3 f'",
    );
    let r = one(&text);
    assert_eq!(r.finishing_stacks, vec![99, 98, 96, 107]);
    // A dead blind (negative) posted by p4 out of position: it is in the
    // pot and counts as p4's bet, but p3 still opens.
    let text = hand(
        "antes = 0\nblinds_or_straddles = [1, 2, 0, -2]\nmin_bet = 2\n\
         starting_stacks = [100, 100, 100, 100]",
        "'d dh p1 AsKd', 'd dh p2 AhKc', 'd dh p3 2c3d', 'd dh p4 QdQc', 'p3 f', \
         'p4 cbr 6', 'p1 f', 'p2 f'",
    );
    let r = one(&text);
    assert_eq!(r.finishing_stacks, vec![99, 98, 100, 103]);
    // Blinds [x, 0, 0] with a min_bet above the missing big blind.
    let text = hand(
        "antes = 0\nblinds_or_straddles = [1, 0, 0]\nmin_bet = 2\n\
         starting_stacks = [100, 100, 100]",
        "'d dh p1 AsKd', 'd dh p2 AhKc', 'd dh p3 2c3d', 'p2 cbr 3', 'p3 f', 'p1 f'",
    );
    let r = one(&text);
    assert_eq!(r.finishing_stacks, vec![99, 101, 100]);
    // The big blind folds where it could check: real sites allow it.
    let text = hand(
        "antes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]",
        "'d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cc', 'p1 f'",
    );
    assert_eq!(one(&text).finishing_stacks, vec![98, 102]);
    // A big-blind ante, per player.
    let text = hand(
        "antes = [0, 3, 0]\nblinds_or_straddles = [1, 2, 0]\nmin_bet = 2\n\
         starting_stacks = [100, 100, 100]",
        "'d dh p1 AsKd', 'd dh p2 AhKc', 'd dh p3 2c3d', 'p3 f', 'p1 f'",
    );
    assert_eq!(one(&text).finishing_stacks, vec![99, 101, 100]);
}

#[test]
fn unknown_cards_settle_from_winnings_or_stay_undetermined() {
    let base = |winnings: &str| {
        hand(
            &format!(
                "antes = 0\nblinds_or_straddles = [0.50, 1]\nmin_bet = 1\n\
                 starting_stacks = [50, 50]{winnings}"
            ),
            "'d dh p1 ????', 'd dh p2 ????', 'p2 cc', 'p1 cc', 'd db 2c3d4h', 'p1 cc', \
             'p2 cc', 'd db 9s', 'p1 cc', 'p2 cc', 'd db Jc', 'p1 cc', 'p2 cc', \
             'p1 sm ????', 'p2 sm ????'",
        )
    };
    let r = one(&base(""));
    assert_eq!(
        r.outcome,
        Outcome::Undetermined {
            pot: 200,
            players: vec![0, 1]
        }
    );
    // iPoker's all-zero winnings are no record.
    assert!(matches!(
        one(&base("\nwinnings = [0, 0]")).outcome,
        Outcome::Undetermined { .. }
    ));
    let r = one(&base("\nwinnings = [1.90, 0]"));
    assert_eq!(r.outcome, Outcome::Settled);
    assert_eq!(r.amount(r.finishing_stacks[0]), "50.90");
    assert_eq!(r.rake(), Some(10));
}

#[test]
fn a_rake_is_told_apart_by_check_and_winnings_with_the_uncalled_bet_match() {
    let text = hand(
        "antes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\n\
         finishing_stacks = [98, 101]\nwinnings = [0, 3]",
        "'d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 6', 'p1 f'",
    );
    let r = one(&text);
    assert_eq!(r.stacks_verdict(), Some(Verdict::Rake(1)));
    let dir = tempfile::tempdir().unwrap();
    let f = dir.path().join("raked.phh");
    std::fs::write(&f, &text).unwrap();
    let out = cardsim()
        .args(["replay", "--check"])
        .arg(&f)
        .output()
        .unwrap();
    assert!(out.status.success());
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        stdout.contains("(matches finishing_stacks after a rake of 1)"),
        "{stdout}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("1 hands checked, all match finishing_stacks or winnings (1 after a rake)"),
        "{err}"
    );
    // Winnings that count the uncalled bet given back (p2's 4 over 2).
    let text = hand(
        "antes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]\n\
         winnings = [0, 8]",
        "'d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 6', 'p1 f'",
    );
    assert_eq!(
        one(&text).winnings_verdict(),
        Some((Verdict::Match, phh::Convention::WithUncalled))
    );
    assert_eq!(INF, u64::MAX);
}

#[test]
fn one_bad_hand_does_not_stop_its_file_and_patterns_expand() {
    let dir = tempfile::tempdir().unwrap();
    let good = hand(
        "antes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\nstarting_stacks = [100, 100]",
        "'d dh p1 AsAh', 'd dh p2 KsKh', 'p2 f'",
    );
    // Section [2] is not even TOML: the file is cut at its headers.
    let text = format!("[1]\n{good}\n[2]\nvariant = = 'NT'\n\n[3]\n{good}\n");
    std::fs::write(dir.path().join("a.phhs"), &text).unwrap();
    std::fs::write(dir.path().join("b.phhs"), format!("[1]\n{good}\n")).unwrap();
    let pattern = dir.path().join("*.phhs");
    let out = cardsim().arg("replay").arg(&pattern).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert_eq!(stdout.lines().count(), 4, "{stdout}");
    assert!(
        stdout.contains("a.phhs: hand [2]: not a PHH file"),
        "{stdout}"
    );
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(
        err.contains("4 hands: 3 replayed, 0 settled, 0 undetermined, 0 incomplete, 1 refused"),
        "{err}"
    );
    assert!(err.contains("refused 1: not a PHH file"), "{err}");
}

/// A directory argument is walked to any depth, as a clone of the dataset
/// nests its files (data/handhq/SITE-.../BLINDS/*.phhs); hidden
/// directories (.git) are not entered. Before, only the top level was read.
#[test]
fn directories_are_read_to_any_depth_but_not_hidden_ones() {
    let dir = tempfile::tempdir().unwrap();
    let deep = dir.path().join("data/handhq/ABS-100NLH/1");
    std::fs::create_dir_all(&deep).unwrap();
    std::fs::copy(fixture("abs-100nl.phhs"), deep.join("abs.phhs")).unwrap();
    let hidden = dir.path().join(".git");
    std::fs::create_dir_all(&hidden).unwrap();
    std::fs::write(hidden.join("junk.phhs"), "not toml [[[").unwrap();
    for command in ["replay", "stats"] {
        let out = cardsim().arg(command).arg(dir.path()).output().unwrap();
        assert!(
            out.status.success(),
            "{command}: {}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = String::from_utf8_lossy(&out.stderr).to_string()
            + &String::from_utf8_lossy(&out.stdout);
        assert!(text.contains("9 hands"), "{command}: {text}");
        assert!(!text.contains("refused 1"), "{command}: {text}");
    }
}
