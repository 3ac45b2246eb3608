//! Omaha and short-deck equity: the fast exact enumeration against the
//! slow twin (every deal and board through the reference evaluators) and
//! against the plain enumeration with the fast evaluators, hand-made
//! answers, and seeded Monte Carlo that gives the same bytes whatever the
//! threads.

use cardsim::cards::{parse_cards, CardSet};
use cardsim::holdem::equity::variants::hands::HandList;
use cardsim::holdem::equity::variants::{
    exact, monte_carlo, plain_exact, reference_exact, VariantPrepared, VariantQuery,
};
use cardsim::holdem::equity::{EquityError, EquityResult, Stop};
use cardsim::holdem::variant::Game;

fn prepare(
    game: Game,
    players: &[&str],
    board: &str,
    dead: &str,
) -> Result<VariantPrepared, EquityError> {
    VariantQuery {
        game,
        players: players
            .iter()
            .map(|t| HandList::parse(game, t).expect("test hands"))
            .collect(),
        board: parse_cards(board).unwrap(),
        dead: parse_cards(dead).unwrap().into_iter().collect::<CardSet>(),
    }
    .prepare()
}

fn close(a: f64, b: f64, what: &str) {
    assert!((a - b).abs() < 1e-12, "{what}: {a} vs {b}");
}

fn same_answer(fast: &EquityResult, slow: &[cardsim::holdem::equity::PlayerEquity], what: &str) {
    for (f, s) in fast.players.iter().zip(slow) {
        close(f.equity, s.equity, what);
        close(f.win, s.win, what);
        close(f.tie, s.tie, what);
    }
}

/// Small cases (turn and river, lists with weights, multiway, dead cards,
/// every game) against the slow twin.
#[test]
fn exact_equals_the_reference() {
    let cases: &[(Game, &[&str], &str, &str)] = &[
        (Game::Plo4, &["AsKsQhJh", "7c7d8c9d"], "2s 7h Tc 3s", ""),
        (
            Game::Plo4,
            &["AsKsQhJh", "7c7d8c9d", "2h2d3h3d"],
            "Kc 7h Tc Qd",
            "4c",
        ),
        (
            Game::Plo4,
            &["AsKsQhJh,AcAdKcKd:0.5", "7c7d8c9d,6h6s5h5s:0.25"],
            "2s 7h Tc 3s",
            "",
        ),
        (
            Game::Plo5,
            &["AsKsQhJh9c", "7c7d8c9d2d"],
            "2s 7h Tc 3s Ts",
            "",
        ),
        (
            Game::Plo6,
            &["AsKsQhJh9c3d", "7c7d8c9d2d4h"],
            "2s 7h Tc 5s",
            "",
        ),
        (Game::Plo4, &["AsKsQhJh", "7c7d8c9d"], "2s 7h Tc 3s 9h", ""),
        (Game::ShortDeck, &["AsKs", "7c7d"], "6s 9h Tc", ""),
        (
            Game::ShortDeck,
            &["AsKs", "QQ+,AKo", "8h9h"],
            "6s 9c Tc Jd",
            "7h",
        ),
    ];
    for &(game, players, board, dead) in cases {
        let p = prepare(game, players, board, dead).unwrap();
        let what = format!("{game} {players:?} {board}");
        same_answer(&exact(&p, None).unwrap(), &reference_exact(&p), &what);
        same_answer(&plain_exact(&p), &reference_exact(&p), &what);
    }
}

/// Boards to come in full (the Omaha table of every triple of the cards
/// left) and a flop, against the plain enumeration.
#[test]
fn exact_equals_the_plain_enumeration_preflop_and_on_a_flop() {
    let cases: &[(Game, &[&str], &str)] = &[
        (Game::Plo4, &["AsAhKsKh", "Tc9d8c7d"], ""),
        (Game::Plo4, &["AsKsQhJh", "7c7d8c9d"], "2s 7h Tc"),
        (
            Game::Plo4,
            &["AsKsQhJh", "7c7d8c9d", "AdKd2c3c"],
            "2s 7h Tc",
        ),
        (Game::Plo6, &["AsKsQhJh9c3d", "7c7d8c9d2d4h"], "2s 7h Th"),
        (Game::ShortDeck, &["AsKs", "7c7d"], ""),
        (Game::ShortDeck, &["AsKs", "7c7d", "JhTh"], "6s 8h 9c"),
    ];
    for &(game, players, board) in cases {
        let p = prepare(game, players, board, "").unwrap();
        let (fast, plain) = (exact(&p, None).unwrap(), plain_exact(&p));
        assert_eq!(fast.method, plain.method);
        for (f, s) in fast.players.iter().zip(&plain.players) {
            assert_eq!(
                (f.equity, f.win, f.tie),
                (s.equity, s.win, s.tie),
                "{players:?}"
            );
        }
    }
}

/// Answers worked out by hand.
#[test]
fn hand_made_answers() {
    let eq = |game, players: &[&str], board: &str| -> Vec<f64> {
        let p = prepare(game, players, board, "").unwrap();
        exact(&p, None)
            .unwrap()
            .players
            .iter()
            .map(|x| x.equity)
            .collect()
    };
    // River: the nut flush (two hole spades) against a set.
    assert_eq!(
        eq(Game::Plo4, &["AsKs2c3d", "7c7d8h9h"], "7s 2s Ts Jh 4c"),
        [1.0, 0.0]
    );
    // Four spades on the board and one in the hand is no flush: the set wins.
    assert_eq!(
        eq(Game::Plo4, &["As2c3d4h", "7c7d8h9h"], "7s 2s Ts Js 4c"),
        [0.0, 1.0]
    );
    // Both play the same straight with two hole cards: a split.
    assert_eq!(
        eq(Game::Plo4, &["Kc9d2h3h", "Kd9c2s3s"], "Qh Jd Tc 5s 4c"),
        [0.5, 0.5]
    );
    // Turn: one river of the 40 left (52 - 4 board - 8 hole cards). The
    // nut flush (AsKs on 7s 2s Ts) leads the set of sevens, which fills
    // up on 2d 2h, Tc Td Th, Jc Jd Js and 7h: 9 rivers; 31 of 40.
    let e = eq(Game::Plo4, &["AsKs2c3d", "7c7d8h9h"], "7s 2s Ts Jh");
    assert!(
        (e[0] - 31.0 / 40.0).abs() < 1e-12 && (e[1] - 9.0 / 40.0).abs() < 1e-12,
        "{e:?}"
    );
    // Short deck: a flush beats a full house on the river.
    assert_eq!(
        eq(Game::ShortDeck, &["Ah9h", "KcKd"], "Kh 6h 7h 6c 8s"),
        [1.0, 0.0]
    );
}

/// Seeded Monte Carlo: the same bytes from the same seed on one thread or
/// two, near the exact answer, and another seed gives another answer.
#[test]
fn seeded_monte_carlo_is_reproducible_and_near_exact() {
    for (game, players, board) in [
        (Game::Plo4, &["AsKsQhJh", "7c7d8c9d"][..], "2s 7h Tc"),
        (Game::Plo5, &["AsKsQhJh9c", "random", "7c7d8c9d2d"], ""),
        (Game::ShortDeck, &["AsKs", "QQ+:0.5,AKo"], ""),
    ] {
        let p = prepare(game, players, board, "").unwrap();
        let run = |threads: usize, seed: u64| {
            let pool = rayon::ThreadPoolBuilder::new()
                .num_threads(threads)
                .build()
                .unwrap();
            pool.install(|| monte_carlo(&p, seed, Stop::Trials(100_000), None).unwrap())
        };
        let one = run(1, 7);
        assert_eq!(
            format!("{one:?}"),
            format!("{:?}", run(2, 7)),
            "{players:?}"
        );
        assert_ne!(format!("{one:?}"), format!("{:?}", run(2, 8)));
        if p.exact_is_cheap() {
            let ex = exact(&p, None).unwrap();
            for (m, e) in one.players.iter().zip(&ex.players) {
                let se = m.stderr.unwrap();
                assert!(
                    (m.equity - e.equity).abs() < 5.0 * se,
                    "{players:?}: {m:?} vs {e:?}"
                );
            }
        }
        let total: f64 = one.players.iter().map(|x| x.equity).sum();
        assert!((total - 1.0).abs() < 1e-9);
    }
}

#[test]
fn impossible_questions_are_typed_errors() {
    let err =
        |game, players: &[&str], board: &str, dead: &str| match prepare(game, players, board, dead)
        {
            Ok(_) => panic!("{players:?} {board} {dead}: no error"),
            Err(e) => e,
        };
    assert!(matches!(
        err(Game::ShortDeck, &["AsKs", "7c7d"], "2c 7h 9d", ""),
        EquityError::NotInDeck { .. }
    ));
    assert!(matches!(
        err(Game::ShortDeck, &["AsKs", "7c7d"], "", "5d"),
        EquityError::NotInDeck { .. }
    ));
    assert!(matches!(
        err(Game::Plo4, &["AsKsQhJh", "AsKd8c9d"], "", ""),
        EquityError::CardTwice(_)
    ));
    assert!(matches!(
        err(Game::Plo4, &["AsKsQhJh", "7c7d8c9d"], "Qh 2c 3c", ""),
        EquityError::CardTwice(_)
    ));
    assert!(matches!(
        err(Game::Plo4, &["AsKsQhJh", "AsKd8c9d,QhJd2c3c"], "", ""),
        EquityError::EmptyRange { player: 2, .. }
    ));
    let ten: Vec<&str> = vec!["random"; 10];
    assert!(matches!(
        err(Game::Plo6, &ten, "", ""),
        EquityError::TooManyCards { need: 65, .. }
    ));
    let twelve = "6s 6h 6d 6c 7s 7h 7d 7c 8s 8h 8d 8c";
    assert!(matches!(
        err(Game::ShortDeck, &ten, "", twelve),
        EquityError::TooManyCards {
            need: 37,
            deck: 36,
            ..
        }
    ));
}

/// `cardsim equity --game`: the table names the game, the JSON carries it,
/// seeded Monte Carlo prints the same numbers on one thread or two, and bad
/// hands are one-line errors with exit status 2.
#[test]
fn the_equity_command_plays_each_game() {
    use crate::common::{bad, ok};
    let table = ok(&[
        "equity", "--game", "plo4", "AsKsQhJh", "7c7d8c9d", "--board", "2s 7h Tc",
    ]);
    assert!(
        table.starts_with("plo4 exact: 1 deal(s) of hole cards, 820 board(s) each"),
        "{table}"
    );
    // 130 of the 820 turn-river pairs: the flush-and-straight draws.
    assert!(
        table.contains("15.8537%") && table.contains("84.1463%"),
        "{table}"
    );
    let json = |threads: &str| {
        let text = ok(&[
            "equity",
            "-g",
            "plo5",
            "AsKsQhJh9c",
            "random",
            "--trials",
            "30000",
            "--seed",
            "3",
            "--json",
            "-j",
            threads,
        ]);
        let mut v: serde_json::Value = serde_json::from_str(&text).unwrap();
        v.as_object_mut().unwrap().remove("seconds");
        v
    };
    let one = json("1");
    assert_eq!(one, json("2"));
    assert_eq!(one["game"], "plo5");
    assert_eq!(one["trials"], 30000);
    let sd = ok(&[
        "equity",
        "--game",
        "shortdeck",
        "Ah9h",
        "KcKd",
        "--board",
        "Kh 6h 7h 6c 8s",
    ]);
    assert!(sd.contains("100.0000%"), "{sd}");
    for (args, says) in [
        (
            &["equity", "--game", "plo4", "AsKsQh", "7c7d8c9d"][..],
            "each hand has 4",
        ),
        (
            &["equity", "--game", "shortdeck", "AsKs", "22"],
            "short deck",
        ),
        (
            &[
                "equity",
                "--game",
                "shortdeck",
                "AsKs",
                "QQ",
                "--board",
                "2c 7h 9d",
            ],
            "not in the shortdeck deck",
        ),
        (
            &["equity", "--game", "plo7", "AsKsQhJh", "7c7d8c9d"],
            "unknown game",
        ),
    ] {
        let e = bad(args);
        assert!(e.contains(says), "{args:?}: {e}");
    }
}
