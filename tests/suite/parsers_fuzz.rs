//! Property tests of every parser a user's text reaches: over arbitrary
//! Unicode and over mutations of valid inputs, each gives a value or an
//! error on one line, and never panics. `cargo test` runs a few dozen cases
//! each; `PROPTEST_CASES=100000 cargo test --release --test parsers_fuzz`
//! runs them long.

use cardsim::cards::parse_cards;
use cardsim::fishing::parse_deal;
use cardsim::holdem::equity::range::Range;
use cardsim::holdem::phh::{parse_sections, replay, ReplayOptions};
use cardsim::solver::parse_hand;
use cardsim::tienlen::{classify, RuleSet};
use clap::Parser;
use proptest::prelude::*;

fn config() -> ProptestConfig {
    let cases = std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|c| c.parse().ok())
        .unwrap_or(48);
    ProptestConfig::with_cases(cases)
}

/// A value, or an error whose message is one non-empty line.
fn one_line<T, E: std::fmt::Display>(r: Result<T, E>) -> Result<(), TestCaseError> {
    if let Err(e) = r {
        let text = e.to_string();
        prop_assert!(!text.is_empty() && !text.contains('\n'), "{text:?}");
        prop_assert!(
            text.chars().count() < 400,
            "an error of {} characters",
            text.len()
        );
    }
    Ok(())
}

/// Mutations of a valid input: a character inserted, replaced or removed,
/// a cut, a long repeat.
fn mutated(valid: &'static [&'static str]) -> impl Strategy<Value = String> {
    (
        prop::sample::select(valid),
        prop::collection::vec((0usize..400, any::<char>(), 0u8..5), 1..4),
    )
        .prop_map(|(base, edits)| {
            let mut chars: Vec<char> = base.chars().collect();
            for (at, c, op) in edits {
                let i = at % (chars.len() + 1);
                match op {
                    0 => chars.insert(i, c),
                    1 if i < chars.len() => chars[i] = c,
                    2 if i < chars.len() => {
                        chars.remove(i);
                    }
                    3 => chars.truncate(i),
                    _ => chars
                        .splice(i..i, std::iter::repeat_n(c, at))
                        .for_each(drop),
                }
            }
            chars.into_iter().collect()
        })
}

const CARDS: &[&str] = &[
    "As Kd Qd Jd Td",
    "AsKd7c",
    "10h 9h",
    "A♠ K♦",
    "2c3c4c5c6c7c8c",
];
const RANGES: &[&str] = &[
    "QQ+,AKs", "AKo:0.5", "22-55", "KTo-K7o", "random", "AhAs", "A2s+",
];
const DEALS: &[&str] = &[
    "A 7 W 10 3 4 5 6 8 9 J Q K 2 A 7 W 10 3 4 5 6 8 9 J Q K 2 A 7 10 3 4 5 6 8 9 J Q K 2 A 7 10 3 4 5 6 8 9 J Q K 2",
];
const HANDS: &[&str] = &["9H 6H 6D 4H 3S", "8S 8H", "3h 4h 5h 5s 9c 2s"];
const PHH: &[&str] = &[
    "variant = 'NT'\nantes = 0\nblinds_or_straddles = [1, 2]\nmin_bet = 2\n\
    starting_stacks = [100, 100]\nactions = ['d dh p1 AsAh', 'd dh p2 KsKh', 'p2 cbr 100', \
    'p1 cc', 'd db 2c3d4h', 'd db 9s', 'd db Jc', 'p1 sm AsAh', 'p2 sm KsKh']\n\
    finishing_stacks = [200, 0]\n",
];

fn check_phh(text: &str) -> Result<(), TestCaseError> {
    match parse_sections(text) {
        Err(e) => one_line(Err::<(), _>(e)),
        Ok(hands) => {
            for (_, t) in hands {
                one_line(replay(&t, ReplayOptions::default()))?;
            }
            Ok(())
        }
    }
}

/// A numeric flag through the real command-line parser: a value or clap's
/// error, never a panic.
fn check_flag(args: &[&str]) {
    let argv = std::iter::once("cardsim").chain(args.iter().copied());
    let _ = cardsim::cli::Cli::try_parse_from(argv);
}

proptest! {
    #![proptest_config(config())]

    #[test]
    fn card_text(text in "\\PC*", m in mutated(CARDS)) {
        for t in [&text, &m] {
            one_line(parse_cards(t))?;
        }
    }

    #[test]
    fn ranges(text in "\\PC*", m in mutated(RANGES)) {
        for t in [&text, &m] {
            one_line(Range::parse(t))?;
        }
    }

    #[test]
    fn fishing_deals(text in "\\PC*", m in mutated(DEALS)) {
        for t in [&text, &m] {
            one_line(parse_deal(t))?;
        }
    }

    #[test]
    fn solver_and_tienlen_hands(text in "\\PC*", m in mutated(HANDS)) {
        for t in [&text, &m] {
            one_line(parse_hand(t))?;
            if let Ok(cards) = parse_cards(t) {
                let set = cards.into_iter().collect();
                let _ = classify(RuleSet::Cambodian, set);
            }
        }
    }

    #[test]
    fn hand_histories(text in "\\PC*", m in mutated(PHH)) {
        check_phh(&text)?;
        check_phh(&m)?;
    }

    #[test]
    fn numeric_flags(value in prop_oneof![
        "\\PC*",
        "-?[0-9]{1,30}",
        "[0-9]{1,20}/[0-9]{1,20}",
        prop::sample::select(vec!["nan", "inf", "1e-320", "4.9e-324", "1e308", "-0", "0x10"])
            .prop_map(String::from),
    ]) {
        for flag in ["-n", "--seed", "-j", "--shard", "--checkpoint-every"] {
            check_flag(&["fishing", flag, &value]);
        }
        for flag in ["--trials", "--stderr", "--time", "-j"] {
            check_flag(&["equity", "AA", "KK", flag, &value]);
        }
        check_flag(&["solve", "--table-bits", &value, "3s", "4s"]);
        check_flag(&["solve", "--random", &value, "--cards", &value]);
        check_flag(&["holdem", "--hands", &value, "--ante", &value, "--blinds", &value]);
    }
}
