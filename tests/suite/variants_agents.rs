//! The built-in agents at Omaha and short-deck tables: every agent a game
//! takes plays only legal actions with the chips conserved, `tag` rates an
//! Omaha hand by exactly two hole cards and three of the board, runs replay
//! byte for byte on one thread or two, and the agents a game refuses get
//! one line.

use cardsim::cards::{parse_cards, Card};
use cardsim::holdem::agents::{spec, AgentKind, AgentSpec};
use cardsim::holdem::sim::{HoldemGame, StackSpec};
use cardsim::holdem::table::{Action, Betting, Config, HandState, Street};
use cardsim::holdem::variant::Game;
use cardsim::rng::game_rng;
use rand::seq::SliceRandom;
use rand::RngExt;

use crate::common;

const VARIANTS: [Game; 4] = [Game::Plo4, Game::Plo5, Game::Plo6, Game::ShortDeck];

fn chart_path() -> String {
    format!("{}/examples/agents/chart.toml", env!("CARGO_MANIFEST_DIR"))
}

/// The agents `game` takes: every built-in one, with parameters too;
/// `pushfold` and `chart` only in short deck.
fn agents_for(game: Game) -> Vec<AgentSpec> {
    let mut specs = vec![
        "tag".to_string(),
        "tag(open=0.4,call=0.3,cbet=0.6,bluff=0.2,bet=1)".into(),
        "random".into(),
        "station".into(),
    ];
    if !game.is_omaha() {
        specs.push("pushfold".into());
        specs.push(format!("chart(file={})", chart_path()));
    }
    specs
        .iter()
        .map(|s| spec::builtin(s).unwrap_or_else(|e| panic!("{s}: {e}")))
        .collect()
}

fn config(game: Game, stacks: Vec<u64>, button: usize) -> Config {
    Config {
        betting: if game.is_omaha() {
            Betting::PotLimit
        } else {
            Betting::NoLimit
        },
        game,
        ..Config::holdem(stacks, button, 1, 2)
    }
}

/// 1,000 hands per game and table size (2 to 6 seats), each seat a random
/// one of the agents the game takes, stacks of 3 to 300 chips (short
/// all-ins too): every action is one of the legal ones (checked here, not
/// only by the engine), the chips are conserved after every action and
/// the payout, and every agent acted.
#[test]
fn every_agent_plays_every_variant_legally_with_the_chips_conserved() {
    for game in VARIANTS {
        let agents = agents_for(game);
        let mut acted = vec![0u64; agents.len()];
        let deck = game.deck().to_vec();
        for players in 2..=6 {
            for g in 0..1000u64 {
                let mut rng = game_rng(game.hole_cards() as u64 * 100 + players, g);
                let stacks: Vec<u64> = (0..players).map(|_| rng.random_range(3..=300)).collect();
                let start: u64 = stacks.iter().sum();
                let seated: Vec<usize> = (0..players)
                    .map(|_| rng.random_range(0..agents.len()))
                    .collect();
                let mut cards = deck.clone();
                cards.shuffle(&mut rng);
                let button = rng.random_range(0..players as usize);
                let mut h = HandState::new(config(game, stacks, button), &cards).unwrap();
                let mut steps = 0;
                while let Some(view) = h.view() {
                    let legal = view.legal();
                    let at = seated[view.seat()];
                    let action = agents[at].act_builtin(&view, &mut rng).unwrap();
                    let ok = match action {
                        Action::Fold => legal.can_fold,
                        Action::Check => legal.can_check,
                        Action::Call => legal.call.is_some(),
                        Action::RaiseTo(to) => {
                            legal.raise.is_some_and(|(lo, hi)| (lo..=hi).contains(&to))
                        }
                    };
                    let who = &agents[at];
                    assert!(
                        ok,
                        "{game} {players}p hand {g}: {who} chose {action:?}, legal {legal:?}"
                    );
                    h.apply(action).unwrap();
                    acted[at] += 1;
                    assert_eq!(common::chips_on_table(&h), start, "{game} hand {g}: chips");
                    steps += 1;
                    assert!(steps < 1000, "{game} hand {g}: never ends");
                }
                assert_eq!(
                    common::chips_on_table(&h),
                    start,
                    "{game} hand {g}: chips after payout"
                );
            }
        }
        for (a, n) in agents.iter().zip(&acted) {
            assert!(*n > 500, "{game}: {a} acted {n} times");
        }
    }
}

/// A heads-up PLO4 hand dealt so that seat 0 (the button) holds `hole`
/// and the board is `board`, both seats having called and checked to the
/// river, where seat 1 bets the pot.
fn river_facing_a_pot_bet(hole: &str, board: &str) -> HandState {
    let hole = parse_cards(hole).unwrap();
    let board = parse_cards(board).unwrap();
    let mut rest: Vec<Card> = Game::Plo4
        .deck()
        .to_vec()
        .into_iter()
        .filter(|c| !hole.contains(c) && !board.contains(c))
        .collect();
    rest.truncate(4);
    // Dealt one card a round, left of the button (seat 1) first.
    let mut deck = Vec::new();
    for k in 0..4 {
        deck.push(rest[k]);
        deck.push(hole[k]);
    }
    deck.extend(&board);
    let mut h = HandState::new(config(Game::Plo4, vec![200, 200], 0), &deck).unwrap();
    h.apply(Action::Call).unwrap();
    h.apply(Action::Check).unwrap();
    for _ in 0..2 {
        h.apply(Action::Check).unwrap();
        h.apply(Action::Check).unwrap();
    }
    let pot = h.view().unwrap().pot();
    h.apply(Action::RaiseTo(pot)).unwrap();
    assert_eq!(h.view().unwrap().seat(), 0);
    h
}

/// Four hearts in hand and one on the board is no flush in Omaha (two hole
/// cards and three board cards make the hand): `tag` folds ace high to a
/// pot bet, every time, where the same cards under hold'em's rules would
/// be a flush it raises. With three hearts on the board its two hearts
/// make the nut flush, and it raises.
#[test]
fn tag_rates_omaha_hands_by_two_hole_cards_and_three_of_the_board() {
    let tag = AgentSpec::Builtin(AgentKind::Tag);
    let no_flush = river_facing_a_pot_bet("Ah Kh 3h 2h", "Qh 8c 7d 5s Jc");
    let nut_flush = river_facing_a_pot_bet("Ah Kh 3h 2h", "Qh 8h 7h 5s Jc");
    for seed in 0..50 {
        let mut rng = game_rng(9, seed);
        let view = no_flush.view().unwrap();
        assert_eq!(tag.act_builtin(&view, &mut rng), Some(Action::Fold));
        let view = nut_flush.view().unwrap();
        let Some(Action::RaiseTo(to)) = tag.act_builtin(&view, &mut rng) else {
            panic!("tag did not raise the nut flush");
        };
        // Pot-limit: no more than the pot raise.
        let (_, max) = view.legal().raise.unwrap();
        assert!(to <= max, "{to} > {max}");
    }
}

fn table(game: Game, agents: Vec<AgentSpec>) -> HoldemGame {
    HoldemGame {
        allin_trials: 100,
        variant: game,
        ..HoldemGame::new(agents, StackSpec::Uniform(20, 300))
    }
}

/// Every game's run is the same bytes on one thread or two: the agents'
/// draws come from each hand's own streams.
#[test]
fn variant_runs_replay_byte_for_byte_on_one_thread_or_two() {
    let dir = tempfile::tempdir().unwrap();
    for game in VARIANTS {
        let mut agents = agents_for(game);
        agents.truncate(5);
        let t = table(game, agents);
        t.check_agents().unwrap();
        let one = common::holdem_csv(&t, 1500, 1, dir.path());
        let two = common::holdem_csv(&t, 1500, 2, dir.path());
        assert!(one == two, "{game}");
        assert!(one.len() > 1500 * 20, "{game}");
    }
}

#[test]
fn agents_a_variant_cannot_seat_get_one_line() {
    for (agent, why) in [
        (
            "pushfold",
            "moves all-in preflop, which pot limit does not allow",
        ),
        (
            "chart(file=examples/agents/chart.toml)",
            "reads two-card hold'em ranges",
        ),
    ] {
        let agents = format!("tag,{agent}");
        let err = common::bad(&[
            "holdem",
            "-n",
            "5",
            "--variant",
            "plo5",
            "--players",
            "2",
            "--agents",
            &agents,
        ]);
        let name = agent.split('(').next().unwrap();
        assert_eq!(
            err.trim(),
            format!("error: agent '{name}' {why}; plo5 tables take random, station, tag, exec: and Python agents")
        );
    }
    // Short deck takes them all.
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("sd.csv");
    let agents = "pushfold,chart(file=examples/agents/chart.toml),tag";
    let sd = [
        "--variant",
        "shortdeck",
        "--players",
        "3",
        "--agents",
        agents,
    ];
    common::ok(
        &[
            &["holdem", "-n", "50", "-o", csv.to_str().unwrap()],
            &sd[..],
        ]
        .concat(),
    );
    assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 51);
    // The summary records the game (hold'em's has no such key, as
    // before), so two shards of one seed in two games do not merge.
    let shard = |k: &str, variant: &[&str]| {
        let summary = dir.path().join(format!("{}.json", k.replace('/', "-of-")));
        let path = summary.to_str().unwrap();
        let run = [
            "holdem",
            "-n",
            "50",
            "--players",
            "3",
            "--agents",
            agents,
            "--shard",
            k,
        ];
        common::ok(&[&run[..], &["--summary", path], variant].concat());
        let text = std::fs::read_to_string(&summary).unwrap();
        let json: serde_json::Value = serde_json::from_str(&text).unwrap();
        (summary, json["options"].get("variant").cloned())
    };
    let (one, v1) = shard("0/2", &["--variant", "shortdeck"]);
    let (two, v2) = shard("1/2", &["--variant", "nlhe"]);
    assert_eq!(v1, Some(serde_json::json!("shortdeck")));
    assert_eq!(v2, None);
    let err = common::bad(&["merge", one.to_str().unwrap(), two.to_str().unwrap()]);
    assert!(err.contains("variant"), "{err}");
}

/// An `exec:` program at each game's table: its view names the game and
/// holds the game's hole cards (a program checking both answers `cc`, and
/// `garbage`, which ends the run, when either is wrong); the example bot
/// plays every game too.
#[test]
fn exec_agents_see_the_variant_and_its_hole_cards() {
    let dir = tempfile::tempdir().unwrap();
    let check = dir.path().join("check.py");
    std::fs::write(
        &check,
        "import json, sys\n\
         sys.stdin.readline()\n\
         print(json.dumps({'protocol': 1, 'name': 'check'}), flush=True)\n\
         want, cards = sys.argv[1], int(sys.argv[2])\n\
         for line in sys.stdin:\n\
         \x20   v = json.loads(line)\n\
         \x20   ok = v['variant'] == want and len(v['hole']) == 2 * cards\n\
         \x20   print('cc' if ok else 'garbage', flush=True)\n",
    )
    .unwrap();
    let bot = format!("{}/examples/agents/bot.py", env!("CARGO_MANIFEST_DIR"));
    for (variant, cards) in [("nlhe", 2), ("plo4", 4), ("plo6", 6), ("shortdeck", 2)] {
        let agents = format!(
            "exec:'python3 {} {variant} {cards}',tag,exec:'python3 {bot}'",
            check.display()
        );
        let csv = dir.path().join(format!("{variant}.csv"));
        let args = [
            "holdem",
            "-n",
            "200",
            "--players",
            "3",
            "--variant",
            variant,
            "--agents",
            &agents,
            "-o",
            csv.to_str().unwrap(),
        ];
        common::ok(&args);
        assert_eq!(std::fs::read_to_string(&csv).unwrap().lines().count(), 201);
    }
}

/// Heads-up short deck, dealt so that seat 0 (the button) holds `hole`
/// and the board is `board`, checked to seat 0 on the river.
fn short_deck_river_checked_to(hole: &str, board: &str) -> HandState {
    let hole = parse_cards(hole).unwrap();
    let board = parse_cards(board).unwrap();
    let rest: Vec<Card> = Game::ShortDeck
        .deck()
        .to_vec()
        .into_iter()
        .filter(|c| !hole.contains(c) && !board.contains(c))
        .take(2)
        .collect();
    let mut deck = vec![rest[0], hole[0], rest[1], hole[1]];
    deck.extend(&board);
    let mut h = HandState::new(config(Game::ShortDeck, vec![200, 200], 0), &deck).unwrap();
    h.apply(Action::Call).unwrap();
    for _ in 0..6 {
        h.apply(Action::Check).unwrap();
    }
    assert_eq!((h.street(), h.view().unwrap().seat()), (Street::River, 0));
    h
}

/// A chart that bets a full house or better: in short deck a flush is
/// better (it beats a full house there), so the chart bets it; a straight
/// is not, so it checks.
#[test]
fn the_chart_ranks_short_deck_classes_in_short_decks_order() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("c.toml");
    std::fs::write(&file, "[postflop]\nbet = \"full_house\"\n").unwrap();
    let chart = spec::builtin(&format!("chart(file={})", file.display())).unwrap();
    let mut rng = game_rng(1, 1);
    let flush = short_deck_river_checked_to("As 9s", "Ks 7s 6s Td Jh");
    let action = chart.act_builtin(&flush.view().unwrap(), &mut rng);
    assert!(matches!(action, Some(Action::RaiseTo(_))), "{action:?}");
    let straight = short_deck_river_checked_to("8d 9c", "Ks 7s 6s Td Jh");
    let action = chart.act_builtin(&straight.view().unwrap(), &mut rng);
    assert_eq!(action, Some(Action::Check));
}

/// `tag` plays each game well enough to beat the calling station and the
/// random agent there: its whole 95% interval is above zero, and theirs
/// below (20,000 hands of six seats, as docs/holdem.md's table).
#[test]
fn tag_beats_station_and_random_in_every_variant() {
    let dir = tempfile::tempdir().unwrap();
    for variant in ["plo4", "plo5", "plo6", "shortdeck"] {
        let summary = dir.path().join(format!("{variant}.json"));
        common::ok(&[
            "holdem",
            "-n",
            "20000",
            "--variant",
            variant,
            "--agents",
            "tag,station,random,tag,tag,station",
            "--summary",
            summary.to_str().unwrap(),
            "-q",
        ]);
        let text = std::fs::read_to_string(&summary).unwrap();
        let s: serde_json::Value = serde_json::from_str(&text).unwrap();
        let (tag, tag_half) = common::agent_estimate(&s, "tag", "net");
        assert!(tag - tag_half > 0.0, "{variant}: tag {tag} ± {tag_half}");
        for loser in ["station", "random"] {
            let (bb, half) = common::agent_estimate(&s, loser, "net");
            assert!(bb + half < 0.0, "{variant}: {loser} {bb} ± {half}");
        }
    }
}
