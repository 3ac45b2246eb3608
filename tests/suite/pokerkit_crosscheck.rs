//! The table engine against PokerKit, the reference rules engine: hands
//! rich in all-ins and multi-way pots (random tables and actions, short
//! stacks against big antes under both `ante_trimming_status` values, and
//! the `holdem` simulation's agents), played with PokerKit's switches,
//! exported as PHH and replayed strictly in PokerKit, each action through
//! `parse_action` with warnings as errors; the finishing stacks must match
//! for every hand. The 10,000-hand run is in docs/holdem.md.
//!
//! The PokerKit run needs python3 with pokerkit, so it is `#[ignore]`d:
//! `cargo test` lists it as ignored (never as a pass it did not earn), and
//! `.ci/run` runs it explicitly (`cargo test --test suite pokerkit --
//! --ignored`), where a missing PokerKit is a failure. The hand-made
//! PokerKit answers below run everywhere.

use std::io::Write as _;
use std::process::{Command, Stdio};

use rand::RngExt;

use cardsim::holdem::agents::AgentKind;
use cardsim::holdem::phh;
use cardsim::holdem::sim::{play_hand, HoldemGame, StackSpec};
use cardsim::holdem::table::pots::OddChips;
use cardsim::holdem::table::random::{
    play_random_actions, play_random_game_hand, play_random_hand,
};
use cardsim::holdem::table::{Betting, Config, HandState, ShortBigBlind};
use cardsim::holdem::variant::Game;
use cardsim::rng::{game_rng, GameRng};

use crate::common::cardsim;

/// A three-handed hand where p1 (3 chips) cannot post the 5-chip ante,
/// checked down to a showdown that p1 wins with aces and p3 wins against
/// p2 by a kicker. `trim` is the `ante_trimming_status` line (or none).
fn short_ante_hand(trim: &str) -> String {
    format!(
        "variant = 'NT'\n{trim}antes = [5, 5, 5]\nblinds_or_straddles = [1, 2, 0]\n\
         min_bet = 2\nstarting_stacks = [3, 50, 50]\nactions = ['d dh p1 AsAh', \
         'd dh p2 7c2d', 'd dh p3 8c3d', 'p3 cc', 'p2 cc', 'd db KsQh4d', 'p2 cc', \
         'p3 cc', 'd db 9s', 'p2 cc', 'p3 cc', 'd db Jc', 'p2 cc', 'p3 cc', \
         'p1 sm AsAh', 'p2 sm 7c2d', 'p3 sm 8c3d']\n"
    )
}

/// `cardsim replay [--pokerkit] -` on `text`: its one output line.
fn replay_line(text: &str, pokerkit: bool) -> String {
    let mut cmd = cardsim();
    cmd.arg("replay").arg("-");
    if pokerkit {
        cmd.arg("--pokerkit");
    }
    let mut child = cmd
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("cardsim runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(text.as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim().to_string()
}

/// PokerKit's answers for [`short_ante_hand`], worked by hand from its
/// rules (`State.pots`, PokerKit 0.7.7) and confirmed by PokerKit itself.
/// Effective antes 3 + 5 + 5; p2 and p3 each put 2 more (the blinds).
/// `ante_trimming_status = false` (PHH's and PokerKit's default): the 13
/// ante chips are dead money in a pot open to all three, which p1's aces
/// win (p1 13); p3 wins the 4 blind chips (p2 50 - 7 = 43, p3 43 + 4 = 47).
/// `true`: the antes are contributions like any bet, so p1 wins 3 from
/// each (9) and p3 wins the other 8 (51). The file's value holds with and
/// without `--pokerkit` (whose odd-chip rule re-lays the pots after the
/// muck, and once laid them with trimmed antes whatever the file said).
#[test]
fn a_short_ante_replays_to_pokerkits_stacks_under_both_trimming_values() {
    let dead = "hand 1: p1 13, p2 43, p3 47";
    let trimmed = "hand 1: p1 9, p2 43, p3 51";
    for (trim, want) in [
        ("", dead),
        ("ante_trimming_status = false\n", dead),
        ("ante_trimming_status = true\n", trimmed),
    ] {
        for pokerkit in [false, true] {
            assert_eq!(
                replay_line(&short_ante_hand(trim), pokerkit),
                want,
                "{trim:?} --pokerkit {pokerkit}"
            );
        }
    }
}

/// PokerKit counts the first raise of a street as a full raise whatever
/// its size: p4's all-in to 3 over the big blind of 2 (an increment of 1)
/// lets p3, who had limped, raise again. The rules' engine refuses that
/// raise; a replay accepts what PokerKit accepts. PokerKit 0.7.7 played
/// this hand to these stacks (p3's queens beat p4's jacks).
#[test]
fn a_replay_accepts_pokerkits_reopening_after_a_short_first_raise() {
    let text = "variant = 'NT'\nantes = 0\nblinds_or_straddles = [1, 2, 0, 0]\nmin_bet = 2\n\
                starting_stacks = [100, 100, 100, 3]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', \
                'd dh p3 QsQh', 'd dh p4 JsJh', 'p3 cc', 'p4 cbr 3', 'p1 cc', 'p2 cc', \
                'p3 cbr 10', 'p1 f', 'p2 f', 'p3 sm QsQh', 'p4 sm JsJh', 'd db 2c3d4h', \
                'd db 7s', 'd db 8d']\n";
    assert_eq!(
        replay_line(text, true),
        "hand 1: p1 97, p2 97, p3 109, p4 0"
    );
    // The rules' engine: p3 faces only an incomplete raise.
    let config = Config {
        stacks: vec![100, 100, 100, 3],
        button: 3,
        small_blind: 1,
        big_blind: 2,
        ante: 0,
        ante_trimming: true,
        odd_chips: OddChips::FirstWinner,
        short_big_blind: ShortBigBlind::Posted,
        betting: Betting::NoLimit,
        game: Game::Holdem,
    };
    let deck: Vec<cardsim::cards::Card> = (0..52).map(cardsim::cards::Card::from_index).collect();
    let mut h = HandState::new(config, &deck).unwrap();
    use cardsim::holdem::table::Action;
    for a in [Action::Call, Action::RaiseTo(3), Action::Call, Action::Call] {
        h.apply(a).unwrap();
    }
    assert_eq!(h.to_act(), Some(2));
    assert_eq!(h.legal().unwrap().raise, None);
}

/// A random hand at a table of short stacks against a big ante (many
/// players all-in on the ante or the blind), with PokerKit's switches and
/// the given antes rule, played by random legal actions.
fn short_ante_random_hand(rng: &mut GameRng, ante_trimming: bool) -> HandState {
    let n = rng.random_range(2..=6usize);
    let bb = rng.random_range(2..=10u64);
    let ante = rng.random_range(1..=2 * bb);
    let config = Config {
        stacks: (0..n)
            .map(|_| {
                if rng.random_bool(0.5) {
                    rng.random_range(1..=ante + bb)
                } else {
                    rng.random_range(ante..=30 * bb)
                }
            })
            .collect(),
        button: rng.random_range(0..n),
        small_blind: bb / 2,
        big_blind: bb,
        ante,
        ante_trimming,
        odd_chips: OddChips::FirstWinner,
        short_big_blind: ShortBigBlind::Posted,
        betting: Betting::NoLimit,
        game: Game::Holdem,
    };
    play_random_actions(config, rng).0
}

#[test]
#[ignore = "needs PokerKit (pip install -r scripts/requirements-ci.txt); run: cargo test --test suite pokerkit -- --ignored"]
fn pokerkit_agrees_on_random_and_simulated_hands() {
    let has_pokerkit = Command::new("python3")
        .args(["-c", "import pokerkit"])
        .output()
        .is_ok_and(|o| o.status.success());
    // Asked for by name, so a missing reference is a failure, never a pass.
    assert!(
        has_pokerkit,
        "python3 with pokerkit not found: pip install -r scripts/requirements-ci.txt"
    );
    let mut hands: Vec<(HandState, u64)> = (0..1500)
        .map(|g| (play_random_hand(&mut game_rng(2026, g), true).0, g))
        .collect();
    let game = HoldemGame {
        agents: vec![
            AgentKind::Random,
            AgentKind::PushFold,
            AgentKind::Tag,
            AgentKind::Station,
            AgentKind::Random,
            AgentKind::PushFold,
        ]
        .into_iter()
        .map(Into::into)
        .collect(),
        stacks: StackSpec::Uniform(6, 300),
        ante: 1,
        odd_chips: OddChips::FirstWinner,
        short_big_blind: ShortBigBlind::Posted,
        allin_trials: 0,
        ..HoldemGame::new(Vec::new(), StackSpec::Fixed(0))
    };
    hands.extend((0..500).map(|g| (play_hand(&game, g, 2027).hand, 10_000 + g)));
    hands.extend((0..500).map(|g| {
        let h = short_ante_random_hand(&mut game_rng(2028, g), g % 2 == 0);
        (h, 20_000 + g)
    }));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hands.phhs");
    let text = phh::export_many(hands.iter().map(|(h, g)| (h, Some(*g))));
    std::fs::write(&path, text).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pokerkit_check.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&path)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("2500 hands replayed in PokerKit, 0 disagreements"),
        "{text}"
    );
}

/// Whether python3 can import pokerkit; a missing reference is a failure
/// for the tests asked for by name.
fn assert_pokerkit() {
    let has_pokerkit = Command::new("python3")
        .args(["-c", "import pokerkit"])
        .output()
        .is_ok_and(|o| o.status.success());
    assert!(
        has_pokerkit,
        "python3 with pokerkit not found: pip install -r scripts/requirements-ci.txt"
    );
}

/// Pot-limit Omaha (PLO4, PLO5, PLO6) and short-deck hands both ways:
/// cardsim's random hands exported and replayed strictly in PokerKit
/// (`scripts/pokerkit_check.py`; PLO5 and PLO6 by PokerKit's pot-limit
/// Omaha class with more hole dealings), and random hands PokerKit plays
/// (`scripts/pokerkit_random_hands.py`, hold'em too) replayed by `cardsim
/// replay --check --pokerkit`: the same finishing stacks for every hand.
#[test]
#[ignore = "needs PokerKit (pip install -r scripts/requirements-ci.txt); run: cargo test --test suite pokerkit -- --ignored"]
fn pokerkit_agrees_on_omaha_and_short_deck_hands_both_ways() {
    assert_pokerkit();
    let dir = tempfile::tempdir().unwrap();
    let games = [Game::Plo4, Game::Plo5, Game::Plo6, Game::ShortDeck];
    let hands: Vec<(HandState, u64)> = games
        .iter()
        .enumerate()
        .flat_map(|(k, &game)| {
            (0..400u64).map(move |g| {
                let seed = 3000 + k as u64;
                (
                    play_random_game_hand(&mut game_rng(seed, g), game, true).0,
                    g,
                )
            })
        })
        .collect();
    let path = dir.path().join("cardsim.phhs");
    let text = phh::export_many(hands.iter().map(|(h, g)| (h, Some(*g))));
    std::fs::write(&path, text).unwrap();
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/scripts/pokerkit_check.py");
    let out = Command::new("python3")
        .arg(script)
        .arg(&path)
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&out.stdout).into_owned() + &String::from_utf8_lossy(&out.stderr);
    assert!(out.status.success(), "{text}");
    assert!(
        text.contains("1600 hands replayed in PokerKit, 0 disagreements"),
        "{text}"
    );
    // PokerKit's hands in cardsim.
    let script = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scripts/pokerkit_random_hands.py"
    );
    for (variant, count) in [
        ("NT", 300),
        ("PO", 400),
        ("PO5", 200),
        ("PO6", 100),
        ("NS", 400),
    ] {
        let out = Command::new("python3")
            .args([script, variant, &count.to_string(), "28"])
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let path = dir.path().join(format!("pokerkit_{variant}.phhs"));
        std::fs::write(&path, &out.stdout).unwrap();
        let out = cardsim()
            .args(["replay", "--check", "--pokerkit"])
            .arg(&path)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{variant}: {err}");
        assert!(
            err.contains(&format!(
                "{count} hands: {count} replayed, 0 settled, 0 undetermined, 0 incomplete, 0 refused"
            )),
            "{variant}: {err}"
        );
    }
}
