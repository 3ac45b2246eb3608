//! Hand histories of pot-limit Omaha (PHH's `PO`) and no-limit short deck
//! (`NS`): hands PokerKit played, replayed by cardsim to PokerKit's
//! stacks, their illegal variants refused, and every random hand cardsim
//! plays exported and replayed to the same stacks.

use cardsim::holdem::phh::{self, Outcome, ReplayOptions};
use cardsim::holdem::table::random::play_random_game_hand;
use cardsim::holdem::table::Betting;
use cardsim::holdem::variant::Game;
use cardsim::rng::game_rng;

use crate::common::cardsim;

/// Played by PokerKit 0.7.7 (`PotLimitOmahaHoldem`, dumped by
/// `HandHistory.from_game_state`; the finishing stacks are its `stacks`):
/// p1's ten of spades on a board of A-K-Q-J of spades is no flush in
/// Omaha; p2's pair of twos with the board's two is three of a kind.
/// p3's 7 and p1's 22 are within the pot limit (7 and 23 at most).
const PO_HAND: &str = "variant = 'PO'\nante_trimming_status = false\nantes = [0, 0, 0]\n\
    blinds_or_straddles = [1, 2, 0]\nmin_bet = 2\nstarting_stacks = [100, 100, 100]\n\
    actions = ['d dh p1 Ts3c4c5c', 'd dh p2 9h9d2c2h', 'd dh p3 KdKh8s7d', 'p3 cbr 7', \
    'p1 cbr 22', 'p2 cc', 'p3 cc', 'd db AsKsQs', 'p1 cbr 66', 'p2 cc', 'p3 f', 'd db Js', \
    'p1 cc', 'p2 cc', 'd db 2d', 'p1 cc', 'p2 cc', 'p1 sm Ts3c4c5c', 'p2 sm 9h9d2c2h']\n\
    finishing_stacks = [12, 210, 78]\n";

/// Played by PokerKit 0.7.7 (`NoLimitShortDeckHoldem`): an ante of 1 from
/// each and a button blind of 2 (p3); p1's flush beats p2's full house.
const NS_HAND: &str = "variant = 'NS'\nante_trimming_status = false\nantes = [1, 1, 1]\n\
    blinds_or_straddles = [0, 0, 2]\nmin_bet = 2\nstarting_stacks = [100, 60, 100]\n\
    actions = ['d dh p1 AhKh', 'd dh p2 9c9d', 'd dh p3 TsTd', 'p1 cc', 'p2 cbr 10', 'p3 cc', \
    'p1 cc', 'd db Qh7h6h', 'p1 cc', 'p2 cbr 49', 'p3 f', 'p1 cc', 'p2 sm 9c9d', \
    'p1 sm AhKh', 'd db 9s', 'd db 6c']\nfinishing_stacks = [171, 0, 89]\n";

fn replay(text: &str) -> Result<phh::Replay, String> {
    let t = phh::parse_all(text).map_err(|e| e.to_string())?;
    phh::replay(&t[0], ReplayOptions::default()).map_err(|e| e.to_string())
}

#[test]
fn pokerkits_omaha_and_short_deck_hands_replay_to_its_stacks() {
    let r = replay(PO_HAND).unwrap();
    assert_eq!(r.outcome, Outcome::Replayed);
    assert_eq!(r.finishing_stacks, [12, 210, 78]);
    assert_eq!(r.state.config().game, Game::Plo4);
    assert_eq!(r.state.config().betting, Betting::PotLimit);
    let r = replay(NS_HAND).unwrap();
    assert_eq!(r.outcome, Outcome::Replayed);
    assert_eq!(r.finishing_stacks, [171, 0, 89]);
    assert_eq!(r.state.config().game, Game::ShortDeck);
    assert_eq!(r.state.config().betting, Betting::NoLimit);
}

#[test]
fn omaha_and_short_deck_histories_are_held_to_their_rules() {
    // Above the pot: p3 may raise to 7 at most.
    let over = PO_HAND.replace("'p3 cbr 7'", "'p3 cbr 8'");
    assert_eq!(
        replay(&over).unwrap_err(),
        "action 3 ('p3 cbr 8'): raise to 8 is outside the legal range 4..=7"
    );
    // Three hole cards in Omaha.
    let three = PO_HAND.replace("'d dh p3 KdKh8s7d'", "'d dh p3 KdKh8s'");
    assert_eq!(
        replay(&three).unwrap_err(),
        "field 'actions': p3 is dealt 3 hole card(s), not 4 ('d dh p3 ...')"
    );
    // A five in short deck.
    let five = NS_HAND.replace("'d db 9s'", "'d db 5s'");
    assert_eq!(
        replay(&five).unwrap_err(),
        "action 14 ('d db 5s'): card 5s is not in the shortdeck deck"
    );
    // Four hole cards in short deck.
    let four = NS_HAND.replace("'d dh p1 AhKh'", "'d dh p1 AhKhAsKs'");
    assert_eq!(
        replay(&four).unwrap_err(),
        "action 0 ('d dh p1 AhKhAsKs'): short deck deals 2 hole cards, got 4"
    );
    let other = PO_HAND.replace("'PO'", "'FO/8'");
    assert!(replay(&other)
        .unwrap_err()
        .starts_with("variant 'FO/8' is not supported"));
}

/// `PO` of five or six hole cards is PLO5 or PLO6 (PokerKit's own `PO`
/// deals four).
#[test]
fn pot_limit_omaha_of_five_cards_replays_as_plo5() {
    let five = PO_HAND
        .replace("Ts3c4c5c", "Ts3c4c5c6c")
        .replace("9h9d2c2h", "9h9d2c2h3h")
        .replace("KdKh8s7d", "KdKh8s7d6d")
        .replace("finishing_stacks = [12, 210, 78]\n", "");
    let r = replay(&five).unwrap();
    assert_eq!(r.state.config().game, Game::Plo5);
    assert_eq!(r.finishing_stacks, [12, 210, 78]);
}

/// Random hands of every game, both switch settings: exported, replayed,
/// the same stacks and actions.
#[test]
fn random_omaha_and_short_deck_hands_round_trip_through_phh() {
    for game in [Game::Plo4, Game::Plo5, Game::Plo6, Game::ShortDeck] {
        let code = if game == Game::ShortDeck { "NS" } else { "PO" };
        for g in 0..800u64 {
            let pokerkit = g % 2 == 0;
            let (h, _) = play_random_game_hand(&mut game_rng(61, g), game, pokerkit);
            let text = phh::export(&h, Some(g));
            assert!(text.starts_with(&format!("variant = '{code}'\n")));
            assert!(!text.contains("_cardsim_betting"));
            let r = replay(&text).unwrap_or_else(|e| panic!("{game} hand {g}: {e}\n{text}"));
            let n = h.seats().len();
            let b = h.config().button;
            let by_player: Vec<u64> = (0..n).map(|i| h.seats()[(b + 1 + i) % n].stack).collect();
            assert_eq!(r.finishing_stacks, by_player, "{game} hand {g}\n{text}");
            assert_eq!(r.state.config().game, game);
            // The same actions by the same players (the replay seats p1
            // at seat 0).
            let seat = |s: usize| (s + n - b - 1) % n;
            let played: Vec<_> = h.history().iter().map(|&(s, a)| (seat(s), a)).collect();
            assert_eq!(r.state.history(), played, "{game} hand {g}");
        }
    }
}

/// `cardsim holdem --variant`: Omaha and short-deck hands simulated by
/// the game-blind agents, their histories written as `PO` and `NS` and
/// replayed to the same stacks; agents that rate hold'em hands refused.
#[test]
fn holdem_variants_simulate_and_replay_their_histories() {
    let dir = tempfile::tempdir().unwrap();
    for (variant, code, cards) in [
        ("plo4", "PO", 8),
        ("plo5", "PO", 10),
        ("shortdeck", "NS", 4),
    ] {
        let phhs = dir.path().join(format!("{variant}.phhs"));
        let csv = dir.path().join(format!("{variant}.csv"));
        let out = cardsim()
            .args([
                "holdem",
                "-n",
                "200",
                "--variant",
                variant,
                "--players",
                "4",
                "-q",
            ])
            .args([
                "--agents",
                "random,station,random,station",
                "--phh-every",
                "1",
            ])
            .arg("--phh")
            .arg(&phhs)
            .arg("-o")
            .arg(&csv)
            .output()
            .unwrap();
        assert!(
            out.status.success(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        let text = std::fs::read_to_string(&phhs).unwrap();
        assert!(text.contains(&format!("variant = '{code}'")), "{variant}");
        // Every hole_sK field holds the game's cards (two characters each).
        let table = std::fs::read_to_string(&csv).unwrap();
        let mut lines = table.lines();
        let header: Vec<&str> = lines.next().unwrap().split(',').collect();
        let hole = header.iter().position(|h| *h == "hole_s1").unwrap();
        for line in lines {
            let fields: Vec<&str> = line.split(',').collect();
            assert_eq!(fields[hole].len(), cards, "{variant}: {line}");
        }
        let out = cardsim()
            .args(["replay", "--check"])
            .arg(&phhs)
            .output()
            .unwrap();
        let err = String::from_utf8_lossy(&out.stderr);
        assert!(out.status.success(), "{variant}: {err}");
        assert!(
            err.contains("200 hands checked, all match"),
            "{variant}: {err}"
        );
    }
    let out = cardsim()
        .args([
            "holdem",
            "-n",
            "5",
            "--variant",
            "plo4",
            "--agents",
            "random,pushfold",
            "--players",
            "2",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: agent 'pushfold' moves all-in preflop, which pot limit does not allow; plo4 \
         tables take random, station, tag, exec: and Python agents"
    );
    let out = cardsim()
        .args([
            "holdem",
            "-n",
            "5",
            "--variant",
            "shortdeck",
            "--corrections",
        ])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(
        String::from_utf8_lossy(&out.stderr).trim(),
        "error: --corrections values hold'em deals only; drop it for --variant shortdeck"
    );
}
