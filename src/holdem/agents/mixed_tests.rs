use super::*;
use rand::RngExt;

use crate::rng::game_rng;

/// Facing a bet of 20 with 200 behind: fold, call 20, raise 40 to 200.
fn facing_bet() -> Legal {
    Legal {
        seat: 0,
        can_fold: true,
        can_check: false,
        call: Some(20),
        raise: Some((40, 200)),
    }
}

/// Nothing to call: check, or bet 2 to 200; no fold.
fn unopened() -> Legal {
    Legal {
        seat: 0,
        can_fold: false,
        can_check: true,
        call: None,
        raise: Some((2, 200)),
    }
}

fn mixed(text: &str) -> Vec<(Answer, f64)> {
    match Reply::parse(text) {
        Ok(Reply::Mixed(m)) => m,
        other => panic!("{text}: {other:?}"),
    }
}

#[test]
fn plain_answers_read_as_before() {
    assert_eq!(Reply::parse(" cc\n"), Ok(Reply::Pure(Answer::CheckCall)));
    assert_eq!(Reply::parse("cbr 60"), Ok(Reply::Pure(Answer::RaiseTo(60))));
    assert!(matches!(
        Reply::parse("call"),
        Err(BadReply::NotAnAction(_))
    ));
}

#[test]
fn a_mixed_answer_reads_its_pairs_in_order() {
    assert_eq!(
        mixed(r#" {"f": 0.25, "cc": 0.5, "cbr 300": 0.25} "#),
        vec![
            (Answer::Fold, 0.25),
            (Answer::CheckCall, 0.5),
            (Answer::RaiseTo(300), 0.25)
        ]
    );
    // Integers are probabilities too.
    assert_eq!(mixed(r#"{"cc": 1}"#), vec![(Answer::CheckCall, 1.0)]);
}

#[test]
fn bad_mixed_answers_are_refused_with_one_line() {
    for (text, says) in [
        (r#"{"cc": 0.5"#, "not a JSON object"),
        (r#"["cc", 1]"#, "is not an action"),
        (r#"{"cc": "1"}"#, "not a JSON object"),
        (r#"{"call": 1}"#, "'call' is not an action"),
        (r#"{"cc": 0.5, "cc": 0.5}"#, "named twice"),
        (r#"{"cc": 1.5, "f": -0.5}"#, "not between 0 and 1"),
        (r#"{"cc": 0.5, "f": 0.4}"#, "add up to 0.9"),
        (r#"{}"#, "add up to 0"),
    ] {
        let e = Reply::parse(text).expect_err(text).to_string();
        assert!(e.contains(says), "{text}: {e}");
        assert!(!e.contains('\n'), "{text}: {e}");
    }
    let many: Vec<String> = (0..=MOST_CHOICES)
        .map(|k| format!("\"cbr {}\": 0", k + 2))
        .collect();
    let e = Reply::parse(&format!("{{{}}}", many.join(","))).unwrap_err();
    assert!(e.to_string().contains("more than 64 actions"), "{e}");
}

#[test]
fn rounding_within_the_tolerance_is_divided_out() {
    let m = Mix::new(
        &mixed(r#"{"f": 0.3333333, "cc": 0.3333333, "cbr 40": 0.3333333}"#),
        &facing_bet(),
    )
    .unwrap();
    let sum: f64 = m.choices().iter().map(|&(_, p)| p).sum();
    assert!((sum - 1.0).abs() < 1e-15);
}

#[test]
fn a_mix_is_checked_against_the_table() {
    let legal = facing_bet();
    let m = Mix::new(&mixed(r#"{"cbr 60": 0.5, "cc": 0.25, "f": 0.25}"#), &legal).unwrap();
    // Canonical order: fold, call, raises by size.
    assert_eq!(
        m.choices(),
        &[
            (Action::Fold, 0.25),
            (Action::Call, 0.25),
            (Action::RaiseTo(60), 0.5)
        ]
    );
    let e = Mix::new(&mixed(r#"{"cbr 500": 0.5, "cc": 0.5}"#), &legal).unwrap_err();
    assert!(e.contains("'cbr 500' is not legal"), "{e}");
    // An illegal action of probability 0 is left out: a fold that could check.
    let m = Mix::new(&mixed(r#"{"f": 0, "cc": 1}"#), &unopened()).unwrap();
    assert_eq!(m.choices(), &[(Action::Check, 1.0)]);
    let e = Mix::new(&mixed(r#"{"f": 1, "cc": 0}"#), &unopened()).unwrap_err();
    assert!(e.contains("'f' is not legal"), "{e}");
}

#[test]
fn draws_follow_the_probabilities() {
    let m = Mix::new(
        &mixed(r#"{"f": 0.2, "cc": 0.5, "cbr 100": 0.3}"#),
        &facing_bet(),
    )
    .unwrap();
    let mut rng = game_rng(7, 0);
    let n = 200_000;
    let mut seen = [0u32; 3];
    for _ in 0..n {
        match m.draw(&mut rng) {
            Action::Fold => seen[0] += 1,
            Action::Call => seen[1] += 1,
            Action::RaiseTo(100) => seen[2] += 1,
            other => panic!("{other:?}"),
        }
    }
    for (count, p) in seen.iter().zip([0.2, 0.5, 0.3]) {
        let share = f64::from(*count) / f64::from(n);
        // Five standard errors.
        let sd = (p * (1.0 - p) / f64::from(n)).sqrt();
        assert!((share - p).abs() < 5.0 * sd, "{share} vs {p}");
    }
}

#[test]
fn the_cumulative_pick_is_exact_at_the_edges() {
    let choices = [(Action::Fold, 0.25), (Action::Call, 0.75)];
    assert_eq!(pick(&choices, 0.0), Action::Fold);
    assert_eq!(pick(&choices, 0.249_999), Action::Fold);
    assert_eq!(pick(&choices, 0.25), Action::Call);
    assert_eq!(pick(&choices, 0.999_999_999), Action::Call);
}

#[test]
fn a_single_choice_draws_nothing() {
    let m = Mix::new(&mixed(r#"{"cc": 1}"#), &unopened()).unwrap();
    let mut rng = game_rng(1, 1);
    let before = rng.clone();
    assert_eq!(m.draw(&mut rng), Action::Check);
    assert_eq!(rng, before);
}

#[test]
fn the_json_form_reads_back() {
    let text = mix_json([("cc", 0.7), ("cbr 300", 0.3)]);
    assert_eq!(
        mixed(&text),
        vec![(Answer::CheckCall, 0.7), (Answer::RaiseTo(300), 0.3)]
    );
    // A probability JSON cannot hold is refused when read back.
    assert!(Reply::parse(&mix_json([("cc", f64::NAN)])).is_err());
}

#[test]
fn a_built_in_draw_merges_equal_actions_and_drops_sure_ones() {
    let m = Mix::of_actions(&[
        (Action::RaiseTo(200), 0.25),
        (Action::Check, 0.5),
        (Action::RaiseTo(200), 0.25),
        (Action::Fold, 0.0),
    ])
    .expect("two actions");
    assert_eq!(
        m.choices(),
        &[(Action::Check, 0.5), (Action::RaiseTo(200), 0.5)]
    );
    assert_eq!(
        Mix::of_actions(&[(Action::Check, 1.0), (Action::Fold, 0.0)]),
        None
    );
    assert_eq!(
        Mix::of_actions(&[(Action::Call, 0.5), (Action::Call, 0.5)]),
        None
    );
}

#[test]
fn the_chance_of_a_draw_is_the_share_of_uniform_numbers_below_it() {
    // rand's f32 has 2^24 values, k / 2^24: below w = 0.3 are ceil(0.3 x 2^24).
    let w = 0.3f32;
    let below = (f64::from(w) * f64::from(1u32 << 24)).ceil();
    assert_eq!(chance_below_f32(w), below / f64::from(1u32 << 24));
    assert_eq!(chance_below_f32(0.0), 0.0);
    assert_eq!(chance_below_f32(1.0), 1.0);
    assert_eq!(chance_below_f32(0.5), 0.5);
    assert_eq!(chance_below_f64(0.5), 0.5);
    assert!((chance_below_f64(0.1) - 0.1).abs() < 1e-16);
    // The edges of the draw itself: the smallest uniform number is 0, so
    // any positive weight can pass; the largest is 1 - 2^-24.
    let mut rng = game_rng(9, 9);
    let n = 100_000;
    let hits = (0..n).filter(|_| rng.random::<f32>() < w).count();
    let share = hits as f64 / f64::from(n);
    assert!((share - chance_below_f32(w)).abs() < 0.01, "{share}");
}
