//! Equity: exact figures enumerated to the last digit, the fast enumeration
//! against the slow reference, Monte Carlo against exact answers, and
//! thread-independence of seeded Monte Carlo.

use cardsim::cards::{parse_cards, CardSet};
use cardsim::holdem::equity::range::Range;
use cardsim::holdem::equity::{
    exact, exact_enumerated, monte_carlo, reference_exact, EquityError, Method, Query, Stop,
};

fn query(players: &[&str], board: &str, dead: &str) -> Query {
    Query {
        ranges: players.iter().map(|p| Range::parse(p).unwrap()).collect(),
        board: parse_cards(board).unwrap(),
        dead: parse_cards(dead).unwrap().into_iter().collect::<CardSet>(),
    }
}

fn percent4(x: f64) -> String {
    format!("{:.4}", 100.0 * x)
}

#[test]
fn aces_against_kings_over_every_combination() {
    let r = exact(&query(&["AA", "KK"], "", "").prepare().unwrap());
    assert_eq!(percent4(r.players[0].equity), "81.9461");
    assert_eq!(percent4(r.players[1].equity), "18.0539");
    assert_eq!(
        r.method,
        Method::Exact {
            combinations: 36,
            classes: 3,
            boards: 1_712_304
        }
    );
    // The same matchup with one combination gives the same figure (the suit
    // classes are each weighted by their size).
    let one = exact(&query(&["AsAh", "KsKd"], "", "").prepare().unwrap());
    assert_eq!(percent4(one.players[0].equity), "81.9461");
}

#[test]
fn ace_king_suited_against_queens() {
    let r = exact(&query(&["AKs", "QQ"], "", "").prepare().unwrap());
    assert_eq!(percent4(r.players[0].equity), "46.0485");
    assert_eq!(percent4(r.players[1].equity), "53.9515");
    let sum: f64 = r.players.iter().map(|p| p.equity).sum();
    assert!((sum - 1.0).abs() < 1e-12);
}

/// Heads-up before the flop the answer comes from the preflop table: it
/// must be the enumeration's to the last bit (the same integers, the same
/// arithmetic), hands and ranges alike; with a dead card the table is not
/// used and nothing changes either.
#[test]
fn preflop_table_answers_equal_the_enumeration() {
    let cases: &[(&[&str], &str)] = &[
        (&["AsAh", "KsKd"], ""),
        (&["7c2d", "AhKh"], ""),
        (&["Td9d", "9c8c"], ""),
        (&["QQ", "AKs"], ""),
        (&["22", "AKo,KQs"], ""),
        (&["AsAh", "KsKd"], "2c"),
    ];
    for &(players, dead) in cases {
        let p = query(players, "", dead).prepare().unwrap();
        let (fast, slow) = (exact(&p), exact_enumerated(&p));
        assert_eq!(fast, slow, "{players:?} dead {dead}");
        for (f, s) in fast.players.iter().zip(&slow.players) {
            assert_eq!(percent4(f.equity), percent4(s.equity));
            assert_eq!(f.equity.to_bits(), s.equity.to_bits());
        }
    }
}

/// The fast enumeration (suit classes, incremental hands, the heads-up
/// loop) against plain enumeration with the reference evaluator, on boards
/// small enough for the reference.
#[test]
fn fast_exact_matches_the_reference() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["AhKh", "2c2d"], "Qh Jh 3s", ""),
        (&["AA", "KK"], "2c 7d 9h", ""),
        (&["AKs", "QQ,JJ", "T9s"], "2c 7d 9h 4s", ""),
        (&["random", "AA"], "2c 7d 9h Ts Js", ""),
        (&["AhAd", "KK", "QQ:0.5,AKo"], "3c 4c 5c", "6c"),
        (&["22-44", "A2s+"], "Ah 2h 3h 4d", "Kd"),
        (&["KcQc", "JsTs", "9d9h", "AsKd"], "2c 3c 8s", ""),
    ];
    for &(players, board, dead) in cases {
        let p = query(players, board, dead).prepare().unwrap();
        let fast = exact(&p);
        let slow = reference_exact(&p);
        for (i, (f, s)) in fast.players.iter().zip(&slow).enumerate() {
            for (a, b, what) in [
                (f.equity, s.equity, "equity"),
                (f.win, s.win, "win"),
                (f.tie, s.tie, "tie"),
            ] {
                assert!(
                    (a - b).abs() < 1e-9,
                    "{players:?} on {board}: player {} {what} {a} vs {b}",
                    i + 1
                );
            }
        }
    }
}

/// Board-major enumeration against the class-by-class enumeration: the
/// same integer totals (wins, ties, pot shares in 1/2520ths, deal-boards),
/// so the same rational answer, on flops, turns and rivers, 2 to 5
/// players, overlapping ranges and dead cards; and the answer `exact`
/// gives is those totals'.
#[test]
fn board_major_totals_equal_the_class_enumeration() {
    let cases: &[(&[&str], &str, &str)] = &[
        (&["QQ+,AKs", "random", "T9s,22-55"], "Ah 7d 2c", ""),
        (&["AhKh", "2c2d"], "Qh Jh 3s", ""),
        (&["AKs", "QQ,JJ", "T9s"], "2c 7d 9h 4s", ""),
        (&["random", "AA"], "2c 7d 9h Ts Js", ""),
        (&["22-44", "A2s+", "KQ"], "Ah 2h 3h 4d", "Kd"),
        (&["KcQc", "JsTs", "9d9h", "AsKd"], "2c 3c 8s", ""),
        (&["JJ+,AQs+", "TT-88,KQ", "A5s-A2s,76s"], "Jh Th 4s", "8c"),
        (&["AA", "KK", "QQ", "JJ", "TT"], "2c 3d 4h 9s", ""),
        (&["random", "KK,QJs,87"], "Kc 8h 8d 2s", ""),
    ];
    for &(players, board, dead) in cases {
        let p = query(players, board, dead).prepare().unwrap();
        let fast = p.board_major_totals().expect("equal weights, a board");
        let slow = p.enumerated_totals().expect("equal weights");
        assert_eq!(fast, slow, "{players:?} on {board}, dead {dead}");
        let r = exact(&p);
        let n = fast.deal_boards as f64;
        let old = exact_enumerated(&p);
        for (i, (e, o)) in r.players.iter().zip(&old.players).enumerate() {
            assert_eq!(e.equity, fast.shares[i] as f64 / 2520.0 / n);
            assert!(
                (e.equity - o.equity).abs() < 1e-12,
                "{players:?}: {e:?} vs {o:?}"
            );
        }
        let Method::Exact {
            combinations,
            boards,
            ..
        } = r.method
        else {
            panic!("exact")
        };
        assert_eq!(combinations * boards, fast.deal_boards);
    }
    // Unequal weights within a range: the class enumeration answers.
    let weighted = query(&["QQ:0.5,AKo", "T9s", "22-55"], "9c 5d 2s", "")
        .prepare()
        .unwrap();
    assert_eq!(weighted.board_major_totals(), None);
}

#[test]
fn monte_carlo_is_within_three_standard_errors_of_exact() {
    let cases: &[(&[&str], &str)] = &[
        (&["AA", "KK"], ""),
        (&["AKs", "QQ"], ""),
        (&["AhKh", "2c2d"], "Qh Jh 3s"),
        (&["AA", "KK", "QQ"], ""),
        (&["QQ+,AKs:0.5", "T9s", "22-55"], "9c 5d 2s"),
    ];
    for (seed, &(players, board)) in cases.iter().enumerate() {
        let p = query(players, board, "").prepare().unwrap();
        let truth = exact(&p);
        let mc = monte_carlo(&p, seed as u64, Stop::Trials(400_000)).unwrap();
        for (t, m) in truth.players.iter().zip(&mc.players) {
            let se = m.stderr.unwrap();
            assert!(se > 0.0 && se < 0.002);
            assert!(
                (t.equity - m.equity).abs() < 3.0 * se,
                "{players:?}: exact {} vs MC {} (se {se})",
                t.equity,
                m.equity
            );
        }
    }
}

#[test]
fn monte_carlo_does_not_depend_on_threads() {
    let p = query(&["QQ+,AKs", "random", "T9s:0.7,JJ"], "", "")
        .prepare()
        .unwrap();
    let run = |threads: usize, stop: Stop| {
        rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap()
            .install(|| monte_carlo(&p, 42, stop).unwrap())
    };
    for stop in [Stop::Trials(100_003), Stop::StdErr(0.002)] {
        assert_eq!(run(1, stop), run(2, stop));
        assert_eq!(run(1, stop), run(3, stop));
    }
    assert_eq!(
        run(2, Stop::Trials(100_003)).method,
        Method::MonteCarlo {
            trials: 100_003,
            seed: 42
        }
    );
}

/// A seeded Monte Carlo answer is pinned: the same seed gives the same
/// figures from one version to the next (these are the figures of the
/// version before the sampler's ranges were laid out per player), so a
/// change to how trials draw shows up here.
#[test]
fn a_seeded_monte_carlo_answer_is_pinned() {
    let p = query(&["QQ:0.5,AK", "JJ-99,AQs:0.25", "random"], "", "")
        .prepare()
        .unwrap();
    let r = monte_carlo(&p, 5, Stop::Trials(300_000)).unwrap();
    let wins: Vec<String> = r.players.iter().map(|e| format!("{:.8}", e.win)).collect();
    let ties: Vec<String> = r.players.iter().map(|e| format!("{:.8}", e.tie)).collect();
    assert_eq!(wins, ["0.42560333", "0.40052333", "0.16374333"]);
    assert_eq!(ties, ["0.00831333", "0.00604667", "0.00931000"]);
}

#[test]
fn bad_questions_are_refused() {
    let err = |players: &[&str], board: &str, dead: &str| {
        query(players, board, dead).prepare().unwrap_err()
    };
    assert_eq!(err(&["AA"], "", ""), EquityError::PlayerCount(1));
    assert_eq!(err(&["AA", "KK"], "2c 3c", ""), EquityError::BoardSize(2));
    assert_eq!(
        err(&["AhAs", "AhKd"], "", ""),
        EquityError::CardTwice("Ah".into())
    );
    assert_eq!(
        err(&["AhAs", "KK"], "2c 3c 4c", "3c"),
        EquityError::CardTwice("3c".into())
    );
    assert!(matches!(
        err(&["AhAs", "AA"], "Ad 2c 3c", ""),
        EquityError::EmptyRange { player: 2, .. }
    ));
    assert_eq!(err(&["AhAs", "AA", "AA"], "", ""), EquityError::NoDeal);
}

/// The rank-pattern enumeration against plain card-by-card enumeration of
/// every preflop board (the fast evaluator, which the oracle tests check),
/// on suited and flush-rich matchups where the flush corrections matter.
#[test]
fn rank_pattern_enumeration_matches_card_by_card_boards() {
    use cardsim::cards::Card;
    use cardsim::holdem::equity::board_enum::enumerate_boards;
    use cardsim::holdem::eval::{tables, Hand};
    let t = tables();
    for (holes, board, dead) in [
        ("AhKh QhJh", "", ""),
        ("7c8c 2c2d", "", "3c"),
        ("AsAd KhQh 9h8h", "", ""),
        ("5d6d AcKc", "2d 7d", ""),
        ("Th9h 2s3s", "Ah 4h Kc", ""),
    ] {
        let cards = parse_cards(holes).unwrap();
        let deal: Vec<[Card; 2]> = cards.chunks(2).map(|c| [c[0], c[1]]).collect();
        let board = parse_cards(board).unwrap();
        let used: CardSet = cards
            .iter()
            .chain(&board)
            .chain(&parse_cards(dead).unwrap())
            .copied()
            .collect();
        let deck = CardSet::FULL52.difference(used).to_vec();
        let fast = enumerate_boards(t, &deal, &board, &deck);
        // Card by card: every completion of the board.
        let n = deal.len();
        let base: Vec<Hand> = deal.iter().map(|h| Hand::from_cards(h)).collect();
        let (mut wins, mut ties, mut boards) = (vec![0i64; n], vec![0i64; n], 0i64);
        let missing = 5 - board.len();
        let mut pick = vec![0usize; missing];
        fn each(
            k: usize,
            from: usize,
            deck_len: usize,
            pick: &mut Vec<usize>,
            f: &mut dyn FnMut(&[usize]),
        ) {
            if k == pick.len() {
                f(pick);
                return;
            }
            for i in from..deck_len {
                pick[k] = i;
                each(k + 1, i + 1, deck_len, pick, f);
            }
        }
        each(0, 0, deck.len(), &mut pick, &mut |idx| {
            let b = idx
                .iter()
                .map(|&i| deck[i])
                .chain(board.iter().copied())
                .fold(Hand::EMPTY, |h, c| h.with(c));
            let s: Vec<u16> = base.iter().map(|h| t.strength(h.combine(b))).collect();
            let best = *s.iter().max().unwrap();
            let k = s.iter().filter(|&&x| x == best).count();
            for i in 0..n {
                if s[i] == best {
                    if k == 1 {
                        wins[i] += 1;
                    } else {
                        ties[i] += 1;
                    }
                }
            }
            boards += 1;
        });
        assert_eq!(fast.boards, boards, "{holes} / {board:?}");
        assert_eq!(&fast.wins[..n], &wins[..], "{holes} / {board:?}");
        assert_eq!(&fast.ties[..n], &ties[..], "{holes} / {board:?}");
    }
}
