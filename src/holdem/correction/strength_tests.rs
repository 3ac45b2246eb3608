use super::*;
use crate::cards::parse_cards;
use crate::rng::game_rng;

fn cards(text: &str) -> Vec<Card> {
    parse_cards(text).expect("cards")
}

fn hole(text: &str) -> [Card; 2] {
    let c = cards(text);
    [c[0], c[1]]
}

#[test]
fn buckets_name_the_made_hand() {
    let cases = [
        ("2c 3d", "Ah Ks 9d", 0),       // high card
        ("2d 3d", "Ad Ks 9d", 1),       // high card, a flush draw
        ("4c 5d", "Ks Kh 9d", 2),       // the board's pair
        ("9c 8d", "Jh Ts 9d", 3),       // bottom pair
        ("9c 9d", "Jh Ts 2d", 3),       // a pocket pair under the board
        ("Tc 8d", "Jh Ts 9d", 4),       // second pair
        ("Ah 7d", "Ac 9s 2d", 5),       // top pair, a weak kicker
        ("Ah Kd", "Ac 7s 2d", 6),       // top pair, a good kicker
        ("Qc Qd", "Jh 7s 2d", 7),       // overpair
        ("9h 8h", "Jh Th 9d", 8),       // bottom pair and a flush draw
        ("Ah Kc", "As 7d 7c", 9),       // two pair, one on the board
        ("Ah 9c", "As 9d 2c", 10),      // two pair from both hole cards
        ("7h 7c", "7d Ks 2c", 11),      // a set
        ("5c 6d", "7h 8s 9c", 12),      // straight
        ("7h 6h", "Ah Kh 2h", 13),      // flush
        ("Ah Ac", "As Kd Kc", 14),      // full house
        ("Ah Kd", "Ac 7s 2d 4h", 6),    // top pair on the turn
        ("3h 2d", "Ac 7s 2c 4h 9s", 3), // bottom pair on the river
        ("2d 3d", "Ad Ks 9d 4d", 13),   // the flush made
        ("2d 3c", "Ad Ks 9d 4d Qd", 13),
    ];
    for (h, b, want) in cases {
        assert_eq!(bucket(hole(h), &cards(b)), want, "{h} on {b}");
    }
}

/// A three-way hand on the flop: seat 1 folded (its cards dead), seat 2
/// all-in for less (a side pot).
fn three_way() -> (Vec<[Card; 2]>, Vec<bool>, Vec<u64>, Vec<Card>) {
    let holes = vec![hole("Ah Qd"), hole("9s 9c"), hole("Ts Jh")];
    (
        holes,
        vec![true, false, true],
        vec![60, 20, 35],
        cards("Qs 8h 3c"),
    )
}

/// The cards neither in a hole of `holes` (folded ones included: dead)
/// nor on `board`, in order.
fn unseen(holes: &[[Card; 2]], board: &[Card]) -> Vec<Card> {
    let used: CardSet = holes.iter().flatten().chain(board).copied().collect();
    CardSet::FULL52.difference(used).iter().collect()
}

/// Each seat's exact expected chips from the pots on `board` (4 or 5
/// cards), the slow way of the chance correction's tests.
fn expected_slowly(holes: &[[Card; 2]], live: &[bool], pots: &[Pot], board: &[Card]) -> Vec<f64> {
    super::super::chance::tests::expected_slowly(holes, live, board, pots)
}

#[test]
fn the_turns_made_features_average_to_zero_over_every_turn() {
    let (holes, live, contributed, flop) = three_way();
    let tendencies = made_up();
    let turns = unseen(&holes, &flop);
    let mut mean = [[0.0; DEAL_FEATURES]; MAX_SEATS];
    for &t in &turns {
        let mut after = flop.clone();
        after.push(t);
        let expected = [0.0; MAX_SEATS];
        let seen = DealSeen {
            holes: &holes,
            live: &live,
            contributed: &contributed,
            before: &flop,
            after: &after,
            expected: &expected,
        };
        let f = features_with(&seen, &tendencies);
        for (m, row) in mean.iter_mut().zip(&f) {
            for (x, v) in m.iter_mut().zip(row) {
                *x += v / turns.len() as f64;
            }
        }
    }
    for s in [0, 2] {
        for (k, m) in mean[s][..BUCKETS].iter().enumerate() {
            assert!(m.abs() < 1e-9, "seat {s} bucket {k}: {m}");
        }
        // The tendencies' `pot × (t − E t)`, counted over every turn too.
        for k in [2 * BUCKETS, 2 * BUCKETS + 2] {
            assert!(
                mean[s][k].abs() < 1e-9,
                "seat {s} feature {k}: {}",
                mean[s][k]
            );
        }
    }
    // The folded seat has no features.
    assert!(mean[1].iter().all(|&x| x == 0.0));
}

/// No seat has tendencies: the features of the buckets alone.
fn no_tendencies(holes: &[[Card; 2]]) -> Lookup<'static> {
    Lookup::new(&[], 0, holes)
}

/// Tendencies of three seats, made up: every entry different, seat 1's
/// none (it folded).
fn made_up() -> Tendencies {
    let mut counts = TendencyCounts::default();
    let mut rng = game_rng(11, 0);
    use rand::RngExt;
    for street in 0..TENDENCY_STREETS {
        for key in 0..KEYS {
            for _ in 0..rng.random_range(0..4) {
                counts.add(&Observation {
                    seat: 0,
                    street,
                    key,
                    bet: rng.random_bool(0.4),
                    growth: rng.random_range(1.0..5.0),
                });
            }
        }
    }
    counts.tendencies()
}

fn made_up_tendencies(t: &Tendencies) -> [Option<&Tendencies>; 3] {
    [Some(t), None, Some(t)]
}

/// A deal's features with the made-up tendencies (seed and trials fixed).
fn features_with(seen: &DealSeen<'_>, t: &Tendencies) -> [[f64; DEAL_FEATURES]; MAX_SEATS] {
    let none = RiverStrengths::none();
    deal_features(seen, &made_up_tendencies(t), 10, &none, &mut game_rng(5, 0))
}

#[test]
fn the_tendency_features_average_to_zero_over_every_river_card() {
    // A three-way hand on the turn (a folded seat, a side pot): over every
    // river card, with the seats' expected chips after it (the showdown,
    // counted the slow way), each tendency feature's mean is exactly zero.
    let (holes, live, contributed, flop) = three_way();
    let mut board = flop.clone();
    board.push(cards("2d")[0]);
    let pots = build_pots(&contributed, &live);
    let tendencies = made_up();
    let rivers = unseen(&holes, &board);
    let mut mean = [[0.0; DEAL_FEATURES]; MAX_SEATS];
    let mut moved = [0.0; MAX_SEATS];
    for &r in &rivers {
        let mut after = board.clone();
        after.push(r);
        let mut expected = [0.0; MAX_SEATS];
        expected[..3].copy_from_slice(&expected_slowly(&holes, &live, &pots, &after));
        let seen = DealSeen {
            holes: &holes,
            live: &live,
            contributed: &contributed,
            before: &board,
            after: &after,
            expected: &expected,
        };
        let f = features_with(&seen, &tendencies);
        for s in 0..MAX_SEATS {
            for (x, v) in mean[s].iter_mut().zip(&f[s]) {
                *x += v / rivers.len() as f64;
            }
            moved[s] += f[s][2 * BUCKETS..].iter().map(|x| x.abs()).sum::<f64>();
        }
        // The river has no bucket features.
        assert!(f
            .iter()
            .all(|row| row[..2 * BUCKETS].iter().all(|&x| x == 0.0)));
    }
    for s in [0, 2] {
        for (k, m) in mean[s].iter().enumerate() {
            assert!(m.abs() < 1e-9, "seat {s} feature {k}: {m}");
        }
        // And they are not all zero: the river moves them.
        assert!(moved[s] > 1.0, "seat {s}: {}", moved[s]);
    }
    assert!(mean[1].iter().all(|&x| x == 0.0));
}

#[test]
fn the_river_strengths_held_give_the_rivers_features_to_the_bit() {
    // The three-way hand on the turn, its river strengths counted when
    // every seat was still in (seat 1 folds on the turn): each river's
    // features with them are those counted afresh, bit for bit.
    let (holes, live, contributed, flop) = three_way();
    let mut board = flop.clone();
    board.push(cards("2d")[0]);
    let held = RiverStrengths::new(&holes, &board, &[true; 3]);
    let tendencies = made_up();
    for r in unseen(&holes, &board) {
        let mut after = board.clone();
        after.push(r);
        let seen = DealSeen {
            holes: &holes,
            live: &live,
            contributed: &contributed,
            before: &board,
            after: &after,
            expected: &[7.0; MAX_SEATS],
        };
        let t = made_up_tendencies(&tendencies);
        let with = deal_features(&seen, &t, 10, &held, &mut game_rng(5, 0));
        let without = features_with(&seen, &tendencies);
        for (a, b) in with.iter().zip(&without) {
            assert_eq!(a.map(f64::to_bits), b.map(f64::to_bits), "river {r}");
        }
    }
}

#[test]
fn tendencies_shrink_each_key_to_its_bucket_and_the_bucket_to_its_street() {
    // On the flop: key A of bucket 5 bet 3 times in 4 hands, key B of the
    // same bucket once in 1; bucket 0 (key C) never in 5. The street's
    // mean is 4/10, bucket 5's (4 + 10 × 0.4) / (5 + 10) and key A's
    // (3 + 10 × that) / (4 + 10).
    let mut counts = TendencyCounts::default();
    let (a, b, c) = (5 * HOLE_RANKS + 90, 5 * HOLE_RANKS + 3, 7);
    let obs = |key, bet, growth| Observation {
        seat: 0,
        street: 0,
        key,
        bet,
        growth,
    };
    for bet in [true, true, true, false] {
        counts.add(&obs(a, bet, 2.0));
    }
    counts.add(&obs(b, true, 4.0));
    for _ in 0..5 {
        counts.add(&obs(c, false, 1.0));
    }
    let t = counts.tendencies();
    let bucket = (4.0 + 10.0 * 0.4) / 15.0;
    let close = |x: f64, y: f64| (x - y).abs() < 1e-12;
    assert!(close(t.of(0, a)[0], (3.0 + 10.0 * bucket) / 14.0));
    assert!(close(t.of(0, b)[0], (1.0 + 10.0 * bucket) / 11.0));
    // A key never seen gets its bucket's mean; bucket 0's is shrunk too.
    assert!(close(t.of(0, 5 * HOLE_RANKS)[0], bucket));
    assert!(close(t.of(0, c + 1)[0], 10.0 * 0.4 / 15.0));
    // The growth: the street's mean is 17/10.
    let growth = (12.0 + 10.0 * 1.7) / 15.0;
    assert!(close(t.of(0, a)[1], (8.0 + 10.0 * growth) / 14.0));
    // Streets never seen: zeros.
    assert_eq!(t.of(2, a), [0.0, 0.0]);
}

#[test]
fn observations_say_who_bet_on_each_street_with_which_hand() {
    // Raised preflop, bet and called on the flop, checked on the turn, bet
    // and folded to on the river (seat 0 bets both times).
    let hand = super::super::chance::tests::raised_flop_bet_turn_river_fold();
    let seen = observations(&hand).expect("hold'em");
    let got: Vec<(usize, usize, bool)> = seen.iter().map(|o| (o.street, o.seat, o.bet)).collect();
    let want = [
        (0, 0, true),
        (0, 1, false),
        (1, 0, false),
        (1, 1, false),
        (2, 0, true),
        (2, 1, false),
    ];
    assert_eq!(got, want);
    let board = hand.board();
    for o in &seen {
        let h = hand.seats()[o.seat].hole;
        assert_eq!(
            o.key / HOLE_RANKS,
            bucket([h[0], h[1]], &board[..3 + o.street])
        );
    }
    // The pot was 12 at the flop and 32 at the turn and the river.
    assert!((seen[0].growth * 12.0 - seen[2].growth * 32.0).abs() < 1e-12);
    assert_eq!(seen[2].growth, seen[4].growth);
    assert!(seen[2].growth >= 1.0);
}

/// [`bucket`] as first written, slowly: the board's ranks scanned each
/// time.
fn bucket_slowly(hole: [Card; 2], board: &[Card]) -> usize {
    let strength = Hand::from_cards(board)
        .combine(Hand::from_cards(&hole))
        .strength();
    let (a, b) = (hole[0].rank(), hole[1].rank());
    let draw = board.len() < 5
        && hole.iter().any(|h| {
            let suited = |c: &&Card| c.suit() == h.suit();
            hole.iter().filter(suited).count() + board.iter().filter(suited).count() == 4
        });
    match category(strength) {
        Category::HighCard => usize::from(draw),
        Category::Pair => {
            let top = board.iter().map(|c| c.rank()).max();
            let second = board
                .iter()
                .map(|c| c.rank())
                .filter(|&r| Some(r) != top)
                .max();
            let on_board = |r| board.iter().any(|c| c.rank() == r);
            let k = if a == b {
                if Some(a) > top {
                    7
                } else {
                    3
                }
            } else {
                match (on_board(a), on_board(b)) {
                    (false, false) => 2,
                    (true, _) if Some(a) == top => 5 + usize::from(b.index() >= 8),
                    (_, true) if Some(b) == top => 5 + usize::from(a.index() >= 8),
                    (true, _) if Some(a) == second => 4,
                    (_, true) if Some(b) == second => 4,
                    _ => 3,
                }
            };
            if (k == 3 || k == 4) && draw {
                8
            } else {
                k
            }
        }
        Category::TwoPair => {
            let paired = board
                .iter()
                .enumerate()
                .any(|(i, c)| board[i + 1..].iter().any(|d| d.rank() == c.rank()));
            if paired {
                9
            } else {
                10
            }
        }
        Category::Trips => 11,
        Category::Straight => 12,
        Category::Flush => 13,
        _ => 14,
    }
}

#[test]
fn buckets_from_rank_masks_equal_the_slow_count() {
    use rand::seq::SliceRandom;
    let mut rng = game_rng(12, 0);
    let mut deck = crate::cards::deck::standard52();
    let mut seen = [0u32; BUCKETS];
    for i in 0..60_000 {
        deck.shuffle(&mut rng);
        let hole = [deck[0], deck[1]];
        let board = &deck[2..5 + i % 3];
        let k = bucket(hole, board);
        assert_eq!(k, bucket_slowly(hole, board), "{hole:?} on {board:?}");
        seen[k] += 1;
    }
    // Every bucket came up.
    assert!(seen.iter().all(|&n| n > 0), "{seen:?}");
}

/// The turn's exact `chips` means, the slow way: over every turn card of
/// `unseen`, the expected chips after it times [bucket = k], for the live
/// seats 0 and 2 of [`three_way`].
fn turns_chips_means_slowly(
    holes: &[[Card; 2]],
    live: &[bool],
    pots: &[Pot],
    flop: &[Card],
    unseen: &[Card],
) -> [[f64; BUCKETS]; MAX_SEATS] {
    let mut exact = [[0.0; BUCKETS]; MAX_SEATS];
    for &t in unseen {
        let mut board = flop.to_vec();
        board.push(t);
        let after = expected_slowly(holes, live, pots, &board);
        for s in [0, 2] {
            exact[s][bucket(holes[s], &board)] += after[s] / unseen.len() as f64;
        }
    }
    exact
}

#[test]
fn the_turns_chips_means_estimate_the_exact_mean() {
    // The exact mean over every turn of (expected chips after it) ×
    // [bucket = k], counted the slow way, against the sampled means of
    // many draws: within 4.5 standard errors, for every seat and bucket.
    let (holes, live, contributed, flop) = three_way();
    let pots = build_pots(&contributed, &live);
    let turns = unseen(&holes, &flop);
    let exact = turns_chips_means_slowly(&holes, &live, &pots, &flop, &turns);
    let mut square = [[0.0; BUCKETS]; 3];
    for &t in &turns {
        let mut board = flop.clone();
        board.push(t);
        let rest: Vec<Card> = turns.iter().copied().filter(|&r| r != t).collect();
        for s in [0, 2] {
            let k = bucket(holes[s], &board);
            for &r in &rest {
                let mut full = board.clone();
                full.push(r);
                let chips = expected_slowly(&holes, &live, &pots, &full)[s];
                square[s][k] += chips * chips / (turns.len() * rest.len()) as f64;
            }
        }
    }
    let seats = [0, 2];
    let unseen = turns.clone();
    let seen = Seen {
        holes: &holes,
        seats: &seats,
        pots: &pots,
        before: &flop,
        unseen: &unseen,
    };
    let trials = 40_000;
    let means = turn_means(&seen, &no_tendencies(&holes), trials, &mut game_rng(6, 0));
    for s in seats {
        for k in 0..BUCKETS {
            let var = square[s][k] - exact[s][k] * exact[s][k];
            let se = (var.max(0.0) / f64::from(trials)).sqrt();
            let diff = means.chips[s][k] - exact[s][k];
            assert!(
                diff.abs() <= 4.5 * se + 1e-12,
                "seat {s} bucket {k}: {} vs {} (se {se})",
                means.chips[s][k],
                exact[s][k]
            );
        }
    }
}

#[test]
fn every_pair_counted_both_ways_gives_the_turns_exact_chips_means() {
    // The turn's `chips` means from each unordered pair of unseen cards,
    // its showdown shared between the two buckets it makes as the turn:
    // summed over every pair, exactly the mean over each turn of the
    // expected chips after it times [bucket = k] (counted the slow way).
    // So a mean over uniformly drawn pairs is unbiased.
    let (holes, live, contributed, flop) = three_way();
    let pots = build_pots(&contributed, &live);
    let unseen = unseen(&holes, &flop);
    let seats = [0, 2];
    let exact = turns_chips_means_slowly(&holes, &live, &pots, &flop, &unseen);
    let mut buckets = vec![[0u8; MAX_SEATS]; unseen.len()];
    for (i, &t) in unseen.iter().enumerate() {
        let mut board = flop.clone();
        board.push(t);
        for s in seats {
            buckets[i][s] = bucket(holes[s], &board) as u8;
        }
    }
    let seen = Seen {
        holes: &holes,
        seats: &seats,
        pots: &pots,
        before: &flop,
        unseen: &unseen,
    };
    let hands = seen.hands();
    let look = no_tendencies(&holes);
    let mut means = Means::ZERO;
    let mut pairs = 0.0;
    for a in 0..unseen.len() {
        for b in a + 1..unseen.len() {
            add_pair(&seen, &look, &hands, &buckets, [a, b], &mut means);
            pairs += 1.0;
        }
    }
    means.scale(&seats, pairs);
    let mut total = 0.0;
    for s in seats {
        for (k, (got, want)) in means.chips[s].iter().zip(&exact[s]).enumerate() {
            assert!(
                (got - want).abs() < 1e-9,
                "seat {s} bucket {k}: {got} vs {want}"
            );
            total += want;
        }
    }
    // Not all in one bucket: the test sees the split.
    assert!(total > 0.0 && exact[0].iter().filter(|&&x| x > 0.0).count() > 3);
}

#[test]
fn disjoint_boards_are_less_noisy_than_independent_ones() {
    // The flop's made means from 16 boards, 400 times with other streams:
    // each mean's spread with boards drawn disjointly (and several flops
    // a board) is below the binomial spread of 16 independent flops, and
    // their average is the exact mean within 4.5 standard errors.
    let holes = vec![hole("Ah Kd"), hole("7c 7s")];
    let seats = [0, 1];
    let pots = build_pots(&[6, 6], &[true, true]);
    let unseen = unseen(&holes, &[]);
    let seen = Seen {
        holes: &holes,
        seats: &seats,
        pots: &pots,
        before: &[],
        unseen: &unseen,
    };
    let (runs, trials) = (400u32, 16);
    let mut sum = [[0.0; BUCKETS]; 2];
    let mut square = [[0.0; BUCKETS]; 2];
    for r in 0..runs {
        let means = flop_means(
            &seen,
            &no_tendencies(&holes),
            trials,
            &mut game_rng(9, u64::from(r)),
        );
        for s in seats {
            for k in 0..BUCKETS {
                sum[s][k] += means.made[s][k];
                square[s][k] += means.made[s][k] * means.made[s][k];
            }
        }
    }
    // The exact chance of each of seat 0's buckets, over every flop.
    let mut exact = [0.0; BUCKETS];
    let mut flops = 0.0;
    for i in 0..unseen.len() {
        for j in i + 1..unseen.len() {
            for k in j + 1..unseen.len() {
                exact[bucket(holes[0], &[unseen[i], unseen[j], unseen[k]])] += 1.0;
                flops += 1.0;
            }
        }
    }
    let (mut ours, mut binomial) = (0.0, 0.0);
    for k in 0..BUCKETS {
        let p = exact[k] / flops;
        let mean = sum[0][k] / f64::from(runs);
        let var = square[0][k] / f64::from(runs) - mean * mean;
        let se = (var.max(0.0) / f64::from(runs)).sqrt();
        assert!(
            (mean - p).abs() <= 4.5 * se + 1e-12,
            "bucket {k}: {mean} vs {p}"
        );
        ours += var;
        binomial += p * (1.0 - p) / f64::from(trials);
    }
    assert!(ours < 0.6 * binomial, "{ours} vs {binomial}");
}

#[test]
fn the_flops_made_means_estimate_the_exact_mean() {
    // Heads-up before the flop: every flop of the 48 unseen cards counted
    // against the sampled means.
    let holes = vec![hole("Ah Kd"), hole("7c 7s")];
    let seats = [0, 1];
    let pots = build_pots(&[6, 6], &[true, true]);
    let unseen = unseen(&holes, &[]);
    let mut exact = [[0.0; BUCKETS]; 2];
    let mut flops = 0.0;
    for i in 0..unseen.len() {
        for j in i + 1..unseen.len() {
            for k in j + 1..unseen.len() {
                let flop = [unseen[i], unseen[j], unseen[k]];
                for s in seats {
                    exact[s][bucket(holes[s], &flop)] += 1.0;
                }
                flops += 1.0;
            }
        }
    }
    let seen = Seen {
        holes: &holes,
        seats: &seats,
        pots: &pots,
        before: &[],
        unseen: &unseen,
    };
    let trials = 40_000;
    let means = flop_means(&seen, &no_tendencies(&holes), trials, &mut game_rng(7, 0));
    for s in seats {
        for (k, &count) in exact[s].iter().enumerate() {
            let p = count / flops;
            let se = (p * (1.0 - p) / f64::from(trials)).sqrt();
            let got = means.made[s][k];
            assert!(
                (got - p).abs() <= 4.5 * se + 1e-12,
                "seat {s} bucket {k}: {got} vs {p}"
            );
        }
        // The chips of a sampled board are all the pot's.
        let chips: f64 = seats.iter().flat_map(|&t| means.chips[t]).sum();
        assert!((chips - 12.0).abs() < 1e-9, "{chips}");
    }
}

#[test]
fn showdowns_give_each_pot_to_its_best_eligible_hands() {
    // Seat 2 best but only in the main pot; seats 0 and 1 tie the side pot.
    let pots = [
        Pot {
            amount: 30,
            eligible: [0, 1, 2].into_iter().collect(),
        },
        Pot {
            amount: 20,
            eligible: [0, 1].into_iter().collect(),
        },
    ];
    let mut strength = [0; MAX_SEATS];
    strength[..3].copy_from_slice(&[100, 100, 200]);
    let mut out = [0.0; MAX_SEATS];
    showdown(&strength, &pots, &mut out);
    assert_eq!(out[..3], [10.0, 10.0, 30.0]);
}
