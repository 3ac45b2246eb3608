//! Agents the user brings: the view and PHH answers, illegal answers ending
//! a run with every hand before them kept, configurable built-ins, `exec:`
//! programs.

use std::sync::Arc;

use cardsim::holdem::agents::{AgentKind, AgentSpec, AgentView, External, Session};
use cardsim::holdem::sim::{HoldemGame, StackSpec};
use cardsim::sim::{run, RunConfig, RunError};

use crate::common;

/// An agent answering `answer(view)`, with the spec text `spec`.
struct Scripted {
    spec: &'static str,
    answer: fn(&AgentView) -> String,
}

struct ScriptedSession(fn(&AgentView) -> String);

impl Session for ScriptedSession {
    fn act(&mut self, view: &AgentView) -> Result<String, String> {
        Ok((self.0)(view))
    }
}

impl External for Scripted {
    fn spec(&self) -> &str {
        self.spec
    }
    fn name(&self) -> &'static str {
        "scripted"
    }
    fn session(&self) -> Result<Box<dyn Session>, String> {
        Ok(Box::new(ScriptedSession(self.answer)))
    }
    fn give_back(&self, _session: Box<dyn Session>) {}
}

fn scripted(spec: &'static str, answer: fn(&AgentView) -> String) -> AgentSpec {
    AgentSpec::External(Arc::new(Scripted { spec, answer }))
}

fn game(agents: Vec<AgentSpec>) -> HoldemGame {
    HoldemGame {
        allin_trials: 100,
        ..HoldemGame::new(agents, StackSpec::Uniform(20, 300))
    }
}

/// Seat 1 station, seats 2-4 tag/random/pushfold, seat 5 `agent`.
fn table(agent: AgentSpec) -> Vec<AgentSpec> {
    vec![
        AgentKind::Station.into(),
        AgentKind::Tag.into(),
        AgentKind::Random.into(),
        AgentKind::PushFold.into(),
        agent,
    ]
}

#[test]
fn an_agent_answering_cc_plays_exactly_as_the_station() {
    let dir = tempfile::tempdir().unwrap();
    let station = common::holdem_csv(&game(table(AgentKind::Station.into())), 3000, 2, dir.path());
    let cc = game(table(scripted("station", |_| "cc".into())));
    assert_eq!(common::holdem_csv(&cc, 3000, 1, dir.path()), station);
    assert_eq!(common::holdem_csv(&cc, 3000, 2, dir.path()), station);
}

#[test]
fn an_illegal_answer_ends_the_run_keeping_every_hand_before_it() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("hands.csv");
    // Answers cc, except a raise to 1 chip (never legal) in hand 2500.
    let bad = scripted("mine", |v| {
        if v.hand == 2500 { "cbr 1" } else { "cc" }.into()
    });
    let mut config = RunConfig::new(4000, 7);
    config.threads = Some(2);
    config.out = Some(out.clone());
    let e = run(&game(table(bad)), &config).unwrap_err();
    assert!(e.is_bad_input(), "exit status 2");
    let RunError::GameFailed(line) = &e else {
        panic!("{e:?}")
    };
    assert!(!line.contains('\n'), "{line}");
    assert!(
        line.starts_with("hand 2500, seat 5 (mine): answer 'cbr 1' is not legal (legal: "),
        "{line}"
    );
    assert!(line.contains("cc ("), "{line}");
    assert!(line.contains("complete up to game 2500"), "{line}");
    assert!(line.contains("--resume"), "{line}");
    let partial = std::fs::read_to_string(dir.path().join("hands.csv.partial")).unwrap();
    assert_eq!(
        partial.lines().count(),
        1 + 2500,
        "the header and hands 0..2500"
    );

    // The same agent, fixed, resumes at hand 2500 and ends with the CSV of
    // an uninterrupted run.
    let fixed = game(table(scripted("mine", |_| "cc".into())));
    config.resume = true;
    run(&fixed, &config).unwrap();
    let resumed = std::fs::read(&out).unwrap();
    let whole = common::holdem_csv(&fixed, 4000, 1, dir.path());
    assert_eq!(resumed, whole);
}

#[test]
fn garbage_and_agent_errors_name_the_hand_and_seat() {
    let dir = tempfile::tempdir().unwrap();
    let mut config = RunConfig::new(100, 7);
    config.out = Some(dir.path().join("x.csv"));
    let garbage = scripted("noise", |_| "raise please".into());
    let e = run(&game(table(garbage)), &config).unwrap_err();
    assert!(
        e.to_string().starts_with(
            "hand 0, seat 5 (noise): answer 'raise please' is not an action \
             (expected f, cc or cbr AMOUNT); kept "
        ),
        "{e}"
    );
    // A file run keeps its checkpoint even at hand 0: the fixed agent
    // resumes there.
    assert!(e.to_string().contains("(complete up to game 0)"), "{e}");
}

#[test]
fn every_view_is_consistent_with_its_legal_actions() {
    // An agent that checks the view it gets and always raises the most it
    // may: legal by construction, so the run ends.
    let shove = scripted("shove", |v| {
        assert_eq!(v.stacks.len(), v.players);
        assert_eq!(v.pot, v.contributed.iter().sum::<u64>());
        assert_eq!(v.hole.len(), 4);
        assert!(!v.folded[v.seat - 1]);
        match v.legal.max_raise_to {
            Some(max) => format!("cbr {max}"),
            None => "cc".into(),
        }
    });
    let mut config = RunConfig::new(2000, 3);
    config.threads = Some(2);
    run(&game(table(shove)), &config).unwrap();
}

#[test]
fn tag_and_pushfold_with_their_default_parameters_play_as_today() {
    use cardsim::holdem::agents::{PushFoldParams, TagParams};
    let dir = tempfile::tempdir().unwrap();
    let plain: Vec<AgentSpec> = vec![
        AgentKind::Tag.into(),
        AgentKind::PushFold.into(),
        AgentKind::Random.into(),
        AgentKind::Tag.into(),
    ];
    let tuned: Vec<AgentSpec> = vec![
        AgentSpec::Tag(TagParams::DEFAULT, "tag".into()),
        AgentSpec::PushFold(PushFoldParams::DEFAULT, "pushfold".into()),
        AgentKind::Random.into(),
        AgentSpec::Tag(TagParams::DEFAULT, "tag".into()),
    ];
    let a = common::holdem_csv(&game(plain), 3000, 2, dir.path());
    let b = common::holdem_csv(&game(tuned), 3000, 2, dir.path());
    assert_eq!(a, b);
}

#[test]
fn parameters_change_play_and_are_recorded_in_the_summary() {
    let dir = tempfile::tempdir().unwrap();
    let summary = dir.path().join("s.json");
    let run = |agents: &str, out: &str| {
        let status = common::cardsim()
            .args([
                "holdem",
                "-n",
                "2000",
                "--players",
                "3",
                "-q",
                "--agents",
                agents,
            ])
            .args(["--summary", summary.to_str().unwrap(), "-o"])
            .arg(dir.path().join(out))
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::read(dir.path().join(out)).unwrap()
    };
    let plain = run("tag", "plain.csv");
    let spec = "tag(open=0.30,cbet=0.8,bluff=0.1,bet=3/4),pushfold(push=4),station";
    let tuned = run(spec, "tuned.csv");
    assert_ne!(plain, tuned);
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    assert_eq!(
        s["options"]["agents"],
        "tag(open=0.30,cbet=0.8,bluff=0.1,bet=3/4),pushfold(push=4),station"
    );
    // verify --rerun replays the parameters from the summary.
    let verified = common::cardsim()
        .args(["verify", "--rerun", summary.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(
        verified.status.success(),
        "{}",
        String::from_utf8_lossy(&verified.stderr)
    );
}

#[test]
fn bad_agent_specs_get_one_line_and_exit_2() {
    for (spec, says) in [
        (
            "tag(opne=8)",
            "tag has no parameter 'opne' (it has open, open_late,",
        ),
        (
            "tag(cbet=1.5)",
            "tag: cbet=1.5 is not a probability from 0 to 1",
        ),
        ("tag(open=8", "has an unclosed parenthesis"),
        ("station(x=1)", "station takes no parameters"),
        ("shark", "unknown agent 'shark'"),
    ] {
        let e = common::bad(&["holdem", "-n", "10", "--agents", spec]);
        assert!(e.contains(says), "{spec}: {e}");
        assert_eq!(e.trim_end().lines().count(), 1, "{e}");
    }
}

const CHART: &str = "examples/agents/chart.toml";

#[test]
fn the_chart_agent_replays_and_its_file_is_part_of_the_run() {
    let dir = tempfile::tempdir().unwrap();
    let chart = dir.path().join("c.toml");
    std::fs::copy(CHART, &chart).unwrap();
    let spec = format!("chart(file={}),tag,station,pushfold", chart.display());
    let summary = dir.path().join("s.json");
    let run = |threads: &str, out: &str| {
        let status = common::cardsim()
            .args([
                "holdem",
                "-n",
                "3000",
                "--players",
                "4",
                "-q",
                "-j",
                threads,
            ])
            .args([
                "--agents",
                &spec,
                "--summary",
                summary.to_str().unwrap(),
                "-o",
            ])
            .arg(dir.path().join(out))
            .status()
            .unwrap();
        assert!(status.success());
        std::fs::read(dir.path().join(out)).unwrap()
    };
    assert_eq!(run("1", "a.csv"), run("2", "b.csv"));
    let s: serde_json::Value = serde_json::from_slice(&std::fs::read(&summary).unwrap()).unwrap();
    let recorded = s["options"]["agents"].as_str().unwrap().to_string();
    assert!(recorded.starts_with("chart(file="), "{recorded}");
    assert!(recorded.contains(",blake3="), "{recorded}");
    // The recorded spec names the file's content: a changed chart is refused.
    let hash = recorded
        .split("blake3=")
        .nth(1)
        .unwrap()
        .split(')')
        .next()
        .unwrap();
    let mut text = std::fs::read_to_string(&chart).unwrap();
    text.push_str("\n# changed\n");
    std::fs::write(&chart, text).unwrap();
    let pinned = format!("chart(file={},blake3={hash})", chart.display());
    let e = common::bad(&["holdem", "-n", "10", "--players", "2", "--agents", &pinned]);
    assert!(e.contains("(the file changed)"), "{e}");
    let verified = common::cardsim()
        .args(["verify", "--rerun", summary.to_str().unwrap()])
        .output()
        .unwrap();
    assert!(!verified.status.success());
}

#[test]
fn bad_charts_get_one_line_naming_the_place() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "[preflop.open]\nearly = \"AA,ZZ\"\n",
            "preflop.open.early: bad range token 'ZZ'",
        ),
        (
            "[preflop.open]\nmiddle = \"AA\"\n",
            "preflop.open.middle is not a position",
        ),
        (
            "[preflop]\nopen_size = \"big\"\n",
            "preflop.open_size = big is not a positive number",
        ),
        (
            "[postflop]\nbet = \"monster\"\n",
            "postflop.bet = monster is not a hand class",
        ),
        ("[postflop]\nbluff = 1\n", "unknown field `bluff`"),
        ("[preflop\n", "(line 1)"),
    ];
    for (k, (text, says)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{k}.toml"));
        std::fs::write(&path, text).unwrap();
        let spec = format!("chart(file={})", path.display());
        let e = common::bad(&["holdem", "-n", "10", "--agents", &spec]);
        assert!(e.contains(says), "{text}: {e}");
    }
    let e = common::bad(&["holdem", "--agents", "chart(file=/nonexistent.toml)"]);
    assert!(e.contains("chart /nonexistent.toml: cannot be read"), "{e}");
    let e = common::bad(&["holdem", "--agents", "chart(path=x)"]);
    assert!(e.contains("chart has no parameter 'path'"), "{e}");
}
