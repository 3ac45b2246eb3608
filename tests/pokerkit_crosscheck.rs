//! The table engine against PokerKit, the reference rules engine: random
//! hands rich in all-ins and multi-way pots, played with PokerKit's
//! switches, replayed action by action in PokerKit (warnings as errors);
//! the finishing stacks must match for every hand. Skipped, with a note,
//! when python3 with pokerkit is not installed (`pip install
//! pokerkit==0.7.7`; CI installs it). The 10,000-hand run is in the README.

use std::io::Write;
use std::process::Command;

use cardsim::holdem::table::random::{hand_record, play_random_hand};
use cardsim::rng::game_rng;

#[test]
fn pokerkit_agrees_on_random_hands() {
    let has_pokerkit = Command::new("python3")
        .args(["-c", "import pokerkit"])
        .output()
        .is_ok_and(|o| o.status.success());
    if !has_pokerkit {
        eprintln!("note: python3 with pokerkit not found; PokerKit cross-check skipped");
        return;
    }
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("hands.jsonl");
    let mut f = std::fs::File::create(&path).unwrap();
    for g in 0..1500 {
        let (h, deck) = play_random_hand(&mut game_rng(2026, g), true);
        writeln!(f, "{}", hand_record(&h, &deck, g)).unwrap();
    }
    drop(f);
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
        text.contains("1500 hands replayed in PokerKit, 0 disagreements"),
        "{text}"
    );
}
