//! Mixed answers through the real binary: an `exec:` program may answer
//! with probabilities, which cardsim draws from (the same for any threads),
//! a sure mix plays exactly as its action, the action correction takes the
//! draws' luck out without moving the estimate, and a bad mix ends the run
//! with one line and exit status 2. Built-in agents that draw (`tag`'s
//! c-bets and bluffs, a chart's weighted ranges) report the chances they
//! drew from, and those chances are the frequencies of their actions.

use std::path::{Path, PathBuf};

use cardsim::cards::deck;
use cardsim::holdem::agents::spec::builtin;
use cardsim::holdem::agents::Drawn;
use cardsim::holdem::table::{Config, HandState};
use cardsim::rng::game_rng;
use rand::seq::SliceRandom;
use serde_json::Value;

use crate::common::{agent_estimate, bad, cardsim};

const EXAMPLES: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/examples/agents");

/// A program answering the text of the file named by its argument at every
/// decision.
const FIXED_ANSWER: &str = r#"import sys
answer = open(sys.argv[1]).read().strip()
sys.stdin.readline()
print('{"protocol": 1}', flush=True)
for line in sys.stdin:
    print(answer, flush=True)
"#;

/// The `exec:` spec of a program answering `answer` at every decision.
fn answering(dir: &Path, name: &str, answer: &str) -> String {
    let script = dir.join("fixed.py");
    std::fs::write(&script, FIXED_ANSWER).unwrap();
    let file = dir.join(format!("{name}.txt"));
    std::fs::write(&file, answer).unwrap();
    format!("exec:python3 {} {}", script.display(), file.display())
}

/// Heads-up hold'em of `hands` hands, seed 5, the first seat played by
/// `first` against `second`: the CSV and the summary.
fn heads_up(
    first: &str,
    second: &str,
    hands: &str,
    threads: &str,
    extra: &[&str],
    dir: &Path,
) -> (Vec<u8>, Value) {
    let tag = format!("{}-{threads}", dir.read_dir().unwrap().count());
    let (csv, summary): (PathBuf, PathBuf) = (
        dir.join(format!("{tag}.csv")),
        dir.join(format!("{tag}.json")),
    );
    let out = cardsim()
        .args(["holdem", "--players", "2", "--seed", "5", "-n", hands, "-q"])
        .args(["-j", threads, "--agents", &format!("{first},{second}")])
        .args(extra)
        .arg("-o")
        .arg(&csv)
        .arg("--summary")
        .arg(&summary)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "{first}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let s = serde_json::from_str(&std::fs::read_to_string(&summary).unwrap()).unwrap();
    (std::fs::read(&csv).unwrap(), s)
}

#[test]
fn a_sure_mix_plays_exactly_as_its_action() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (station, _) = heads_up("station", "tag", "1500", "2", &[], d);
    for (name, answer) in [
        ("sure", r#"{"cc": 1}"#),
        // Zero-probability actions need not be legal: a fold that could check.
        ("zeros", r#"{"f": 0, "cc": 1.0, "cbr 1000000": 0}"#),
    ] {
        let spec = answering(d, name, answer);
        let (csv, _) = heads_up(&spec, "tag", "1500", "2", &[], d);
        assert!(csv == station, "{answer}");
    }
}

#[test]
fn mixed_answers_are_drawn_alike_for_any_threads() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mixed = format!("exec:'python3 {EXAMPLES}/bot.py mix'");
    let pure = format!("exec:'python3 {EXAMPLES}/bot.py'");
    let (one, _) = heads_up(&mixed, "tag", "2000", "1", &[], d);
    let (two, _) = heads_up(&mixed, "tag", "2000", "2", &[], d);
    assert!(one == two);
    let (own, _) = heads_up(&pure, "tag", "2000", "2", &[], d);
    assert!(one != own, "the draws change some actions");
}

#[test]
fn the_action_correction_takes_out_the_draws_without_moving_the_estimate() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let mixed = format!("exec:'python3 {EXAMPLES}/bot.py mix'");
    let pure = format!("exec:'python3 {EXAMPLES}/bot.py'");
    let (_, s) = heads_up(&mixed, "station", "6000", "2", &["--corrections"], d);
    let (net, half) = agent_estimate(&s, "exec", "net");
    let (chance, _) = agent_estimate(&s, "exec", "chance");
    let (both, both_half) = agent_estimate(&s, "exec", "chance_action");
    assert!(both != chance, "the mixed answers are corrected");
    assert!((both - net).abs() < half, "{both} vs {net} ± {half}");
    assert!(both_half < half, "{both_half} vs {half}");
    // A program answering single actions has no draws to correct.
    let (_, s) = heads_up(&pure, "station", "2000", "2", &["--corrections"], d);
    assert_eq!(
        agent_estimate(&s, "exec", "chance"),
        agent_estimate(&s, "exec", "chance_action")
    );
}

#[test]
fn a_bad_mix_ends_the_run_with_one_line() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let out = d.join("x.csv");
    for (name, answer, says) in [
        (
            "short",
            r#"{"cc": 0.5}"#,
            "the probabilities add up to 0.5, not 1",
        ),
        (
            "huge",
            r#"{"cc": 0.5, "cbr 99999": 0.5}"#,
            "'cbr 99999' is not legal (legal: ",
        ),
        ("text", r#"{"cc": 1"#, "is not a JSON object of actions"),
        ("twice", r#"{"cc": 0.5, "cc": 0.5}"#, "named twice"),
    ] {
        let spec = answering(d, name, answer);
        let err = bad(&[
            "holdem",
            "--players",
            "2",
            "-n",
            "50",
            "-q",
            "--agents",
            &format!("{spec},station"),
            "-o",
            out.to_str().unwrap(),
        ]);
        assert!(err.contains("seat 1 (exec:"), "{err}");
        assert!(err.contains(says), "{answer}: {err}");
    }
}

/// A chart whose ranges have weights below 1 for many hands (opens,
/// calls, 3-bets).
const WEIGHTED_CHART: &str = r#"
[preflop.open]
default = "22+:0.5,A2s+:0.5,K9o+:0.25,AKo"

[preflop.call]
default = "22+:0.4,A2+:0.6,KTs+"

[preflop.threebet]
default = "TT+:0.5,AKs:0.5"

[postflop]
bet = "two_pair"
call = "pair"
"#;

fn weighted_chart(dir: &Path) -> String {
    let path = dir.join("weighted.toml");
    std::fs::write(&path, WEIGHTED_CHART).unwrap();
    format!("chart(file={})", path.display())
}

#[test]
fn built_in_draws_report_the_chances_their_actions_follow() {
    // At every decision where a built-in agent drew, the chance it reports
    // for each action adds up, over the decisions, to the number of times
    // it took that action (within 5 standard deviations), and the action
    // taken is always one it gave a chance.
    let dir = tempfile::tempdir().unwrap();
    let specs = [
        "tag(open=0.18,cbet=0.65,bluff=0.3)".to_string(),
        weighted_chart(dir.path()),
    ];
    for spec in &specs {
        let agent = builtin(spec).unwrap();
        let station = builtin("station").unwrap();
        let (mut expected, mut taken, mut variance, mut draws) = (0.0, 0.0, 0.0, 0);
        for g in 0..6000u64 {
            let mut rng = game_rng(77, g);
            let mut cards = deck::standard52();
            cards.shuffle(&mut rng);
            let stacks = vec![[200, 30, 400][g as usize % 3]; 3];
            let mut hand =
                HandState::new(Config::holdem(stacks, g as usize % 3, 1, 2), &cards).unwrap();
            while let Some(view) = hand.view() {
                let who = if view.seat() == 0 { &agent } else { &station };
                let mut drawn = Drawn::default();
                let action = who.act_builtin_drawn(&view, &mut rng, &mut drawn).unwrap();
                if let Some(mix) = drawn.mix {
                    let sum: f64 = mix.choices().iter().map(|&(_, p)| p).sum();
                    assert!((sum - 1.0).abs() < 1e-12, "{spec}: {sum}");
                    assert!(mix.choices().iter().any(|&(a, _)| a == action), "{spec}");
                    // The most aggressive choice: its chance against its count.
                    let &(top, p) = mix.choices().last().unwrap();
                    expected += p;
                    variance += p * (1.0 - p);
                    taken += f64::from(u8::from(action == top));
                    draws += 1;
                }
                hand.apply(action).unwrap();
            }
        }
        assert!(draws > 300, "{spec}: {draws} draws");
        let sd = variance.sqrt();
        assert!(
            (taken - expected).abs() < 5.0 * sd,
            "{spec}: {taken} vs {expected} ± {sd}"
        );
    }
}

#[test]
fn built_in_draws_are_corrected_and_change_no_hand() {
    // tag with c-bets and bluffs against a station: the action correction
    // now covers tag's draws (chance_action differs from chance), inside
    // the plain interval; the hands are those of a run without corrections.
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let tag = "tag(cbet=0.65,bluff=0.3)";
    let (plain, _) = heads_up(tag, "station", "6000", "2", &[], d);
    let (csv, s) = heads_up(tag, "station", "6000", "2", &["--corrections"], d);
    assert!(csv == plain);
    let (net, half) = agent_estimate(&s, "tag", "net");
    let (chance, _) = agent_estimate(&s, "tag", "chance");
    let (both, _) = agent_estimate(&s, "tag", "chance_action");
    assert!(both != chance);
    assert!((both - net).abs() < half, "{both} vs {net} ± {half}");
}
