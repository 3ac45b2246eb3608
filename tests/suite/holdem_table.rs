//! The no-limit table engine: one test per rule of RULES.md §1 and per
//! classic engine bug, and a property test over random hands of random
//! actions (chips conserved, no illegal action accepted, illegal actions
//! change nothing).

use cardsim::cards::{parse_cards, Card};
use cardsim::holdem::table::pots::OddChips;
use cardsim::holdem::table::random::random_config;
use cardsim::holdem::table::{
    Action, Betting, Config, HandState, ShortBigBlind, Street, TableError,
};
use cardsim::holdem::variant::Game;
use cardsim::rng::game_rng;
use rand::seq::SliceRandom;
use rand::RngExt;

fn config(stacks: &[u64], button: usize) -> Config {
    Config {
        stacks: stacks.to_vec(),
        button,
        small_blind: 5,
        big_blind: 10,
        ante: 0,
        ante_trimming: true,
        odd_chips: OddChips::LeftOfButton,
        short_big_blind: ShortBigBlind::FullBlind,
        betting: Betting::NoLimit,
        game: Game::Holdem,
    }
}

/// A fixed deck: the listed cards first, then the rest in index order.
fn deck(first: &str) -> Vec<Card> {
    let mut d = parse_cards(first).unwrap();
    for i in 0..52 {
        let c = Card::from_index(i);
        if !d.contains(&c) {
            d.push(c);
        }
    }
    d
}

/// Chips on the table: stacks plus what is in the pot (only stacks once the
/// hand is paid).
fn total(h: &HandState) -> u64 {
    if h.street() == Street::Done {
        h.seats().iter().map(|s| s.stack).sum()
    } else {
        h.seats().iter().map(|s| s.stack + s.contributed).sum()
    }
}

fn stacks(h: &HandState) -> Vec<u64> {
    h.seats().iter().map(|s| s.stack).collect()
}

#[test]
fn heads_up_button_posts_small_blind_and_acts_first_preflop_last_after() {
    let mut h = HandState::new(config(&[100, 100], 0), &deck("")).unwrap();
    assert_eq!(h.blind_seats(), (0, 1));
    assert_eq!(h.seats()[0].street_bet, 5);
    assert_eq!(h.seats()[1].street_bet, 10);
    assert_eq!(h.to_act(), Some(0));
    h.apply(Action::Call).unwrap();
    // The big blind's option.
    assert_eq!(h.to_act(), Some(1));
    let legal = h.legal().unwrap();
    assert!(legal.can_check && legal.raise == Some((20, 100)));
    h.apply(Action::Check).unwrap();
    assert_eq!(h.street(), Street::Flop);
    assert_eq!(
        h.to_act(),
        Some(1),
        "the non-button acts first after the flop"
    );
}

#[test]
fn preflop_starts_left_of_the_big_blind_and_the_big_blind_keeps_its_option() {
    let mut h = HandState::new(config(&[100, 100, 100, 100], 0), &deck("")).unwrap();
    assert_eq!(h.blind_seats(), (1, 2));
    assert_eq!(h.to_act(), Some(3));
    h.apply(Action::Call).unwrap(); // 3
    h.apply(Action::Call).unwrap(); // 0
    h.apply(Action::Call).unwrap(); // 1 completes
    assert_eq!(h.to_act(), Some(2), "the big blind has the option");
    assert_eq!(h.legal().unwrap().raise, Some((20, 100)));
    h.apply(Action::Check).unwrap();
    assert_eq!(h.street(), Street::Flop);
    assert_eq!(h.to_act(), Some(1), "first live seat left of the button");
}

#[test]
fn minimum_raise_is_the_largest_full_raise_so_far() {
    let mut h = HandState::new(config(&[1000, 1000, 1000], 0), &deck("")).unwrap();
    // Seat 0 (button) acts first three-handed.
    assert_eq!(h.to_act(), Some(0));
    assert_eq!(h.legal().unwrap().raise, Some((20, 1000)));
    assert_eq!(
        h.apply(Action::RaiseTo(15)),
        Err(TableError::RaiseSize {
            to: 15,
            min: 20,
            max: 1000
        })
    );
    h.apply(Action::RaiseTo(50)).unwrap(); // a raise of 40
    assert_eq!(h.legal().unwrap().raise, Some((90, 1000)));
    h.apply(Action::RaiseTo(200)).unwrap(); // a raise of 150
    assert_eq!(h.legal().unwrap().raise, Some((350, 1000)));
}

#[test]
fn a_short_all_in_raise_does_not_reopen_but_several_that_add_up_do() {
    // Seat 0 bets, 1 goes all-in for a little more, 2 calls; 0 may only
    // call or fold.
    let mut h = HandState::new(config(&[1000, 130, 1000, 1000], 3), &deck("")).unwrap();
    // Button 3: blinds 0 and 1... use seats: SB 0, BB 1, first to act 2.
    assert_eq!(h.blind_seats(), (0, 1));
    assert_eq!(h.to_act(), Some(2));
    h.apply(Action::RaiseTo(100)).unwrap(); // seat 2: full raise of 90
    h.apply(Action::Call).unwrap(); // seat 3
    h.apply(Action::Fold).unwrap(); // seat 0
                                    // Seat 1 (BB, 130 in all) goes all-in to 130: a raise of 30 < 90.
    h.apply(Action::RaiseTo(130)).unwrap();
    assert_eq!(h.to_act(), Some(2));
    let legal = h.legal().unwrap();
    assert_eq!(legal.call, Some(30));
    assert_eq!(legal.raise, None, "an incomplete raise does not reopen");
    assert_eq!(
        h.apply(Action::RaiseTo(400)),
        Err(TableError::CannotRaise(2))
    );

    // Cumulative: two short all-ins adding up to a full raise reopen it.
    let mut h = HandState::new(config(&[1000, 1000, 150, 200, 1000], 0), &deck("")).unwrap();
    // SB 1, BB 2, first to act 3.
    h.apply(Action::Call).unwrap(); // 3 calls 10
    h.apply(Action::Call).unwrap(); // 4 calls 10
    h.apply(Action::RaiseTo(100)).unwrap(); // 0 raises to 100 (full, +90)
    h.apply(Action::Fold).unwrap(); // 1
    h.apply(Action::RaiseTo(150)).unwrap(); // 2 all-in: +50 (short)
    assert_eq!(h.to_act(), Some(3));
    h.apply(Action::RaiseTo(200)).unwrap(); // 3 all-in: +50 (short), +100 in all
    h.apply(Action::Call).unwrap(); // 4 calls 200
    assert_eq!(h.to_act(), Some(0));
    let legal = h.legal().unwrap();
    assert_eq!(legal.call, Some(100));
    assert_eq!(
        legal.raise,
        Some((290, 1000)),
        "150 then 200 above 100 reopens"
    );
}

#[test]
fn the_uncalled_bet_goes_back_and_a_lone_player_wins_at_once() {
    let mut h = HandState::new(config(&[1000, 1000, 1000], 0), &deck("")).unwrap();
    let before = total(&h);
    h.apply(Action::RaiseTo(300)).unwrap(); // seat 0
    h.apply(Action::Fold).unwrap(); // 1 (SB, 5 in)
    h.apply(Action::Fold).unwrap(); // 2 (BB, 10 in)
    assert_eq!(h.street(), Street::Done);
    let p = h.payout().unwrap();
    assert!(!p.showdown);
    assert_eq!(stacks(&h), [1015, 995, 990]);
    assert_eq!(total(&h), before);
    assert_eq!(h.apply(Action::Check), Err(TableError::HandOver));
}

#[test]
fn side_pots_by_level_with_folded_chips_and_no_folded_winner() {
    // Seat 0 has the best hand but folds; 1 is all-in short; 2 wins the
    // side pot. Deck: holes dealt left of the button (button 2: seats 0,1,2),
    // one card per round.
    let d = deck("As 7c 2d Ah 7d 3h Kc 8s 9h 4c Jd");
    let mut h = HandState::new(config(&[500, 50, 500], 2), &d).unwrap();
    // Button 2: SB 0, BB 1, first to act 2.
    assert_eq!(h.seats()[0].hole, parse_cards("As Ah").unwrap().as_slice());
    h.apply(Action::RaiseTo(200)).unwrap(); // 2
    h.apply(Action::Call).unwrap(); // 0 calls 200
    h.apply(Action::Call).unwrap(); // 1 calls all-in (50)
    assert_eq!(h.street(), Street::Flop);
    h.apply(Action::Check).unwrap(); // 0
    h.apply(Action::RaiseTo(100)).unwrap(); // 2 bets
    h.apply(Action::Fold).unwrap(); // 0 folds aces
    assert_eq!(h.street(), Street::Done);
    let p = h.payout().unwrap();
    assert!(p.showdown);
    let amounts: Vec<u64> = p.pots.iter().map(|x| x.amount).collect();
    // Main pot 3 x 50; side pot: 150 from each of 0 and 2 (the uncalled 100
    // went back to 2).
    assert_eq!(amounts, [150, 300]);
    assert_eq!(p.pots[0].eligible[..], [1, 2]);
    assert_eq!(p.pots[1].eligible[..], [2]);
    assert!(
        p.shares.iter().flatten().all(|&(s, _)| s != 0),
        "folded seat wins nothing"
    );
    // The all-in seat (sevens) is live and wins the main pot; seat 2 the side.
    assert_eq!(p.shares[0], [(1, 150)]);
    assert_eq!(p.shares[1], [(2, 300)]);
    assert_eq!(stacks(&h), [300, 150, 600]);
    assert_eq!(total(&h), 1050);
}

#[test]
fn split_pots_give_odd_chips_left_of_the_button_or_to_the_first_winner() {
    // Four seats, button 3; everyone plays the board (a royal flush). Seat 0
    // posts the small blind and folds; 1, 2 and 3 split 35 chips: 11 each
    // and 2 odd chips.
    let d = deck("2c 3c 4d 5h 2h 3d 4h 5c As Ks Qs Js Ts");
    for (odd, expect) in [
        (OddChips::LeftOfButton, [0, 12, 12, 11]),
        (OddChips::FirstWinner, [0, 13, 11, 11]),
    ] {
        let mut c = config(&[100, 100, 100, 100], 3);
        c.odd_chips = odd;
        let mut h = HandState::new(c, &d).unwrap();
        h.apply(Action::Call).unwrap(); // 2
        h.apply(Action::Call).unwrap(); // 3
        h.apply(Action::Fold).unwrap(); // 0
        h.apply(Action::Check).unwrap(); // 1
        while h.street() != Street::Done {
            h.apply(Action::Check).unwrap();
        }
        let p = h.payout().unwrap();
        assert_eq!(p.pots.len(), 1);
        let mut won = [0u64; 4];
        for &(s, chips) in &p.shares[0] {
            won[s] += chips;
        }
        assert_eq!(won, expect, "{odd:?}");
        assert_eq!(total(&h), 400);
    }
}

#[test]
fn a_short_all_in_big_blind_under_both_switches() {
    // The big blind has 4 chips of a 10 blind.
    let mut full = HandState::new(config(&[100, 100, 4], 0), &deck("")).unwrap();
    assert!(full.seats()[2].all_in());
    assert_eq!(full.to_act(), Some(0));
    assert_eq!(
        full.legal().unwrap().call,
        Some(10),
        "others match the full blind"
    );
    let mut c = config(&[100, 100, 4], 0);
    c.short_big_blind = ShortBigBlind::Posted;
    let mut posted = HandState::new(c, &deck("")).unwrap();
    assert_eq!(
        posted.legal().unwrap().call,
        Some(5),
        "only what was posted"
    );
    full.apply(Action::Fold).unwrap();
    posted.apply(Action::Fold).unwrap();
    // The small blind completes; nobody can act afterwards: run-out.
    full.apply(Action::Call).unwrap();
    assert_eq!(full.street(), Street::Done);
    assert_eq!(total(&full), 204);
}

#[test]
fn all_in_players_are_never_asked_and_nobody_bets_alone() {
    let mut h = HandState::new(config(&[1000, 1000, 1000], 0), &deck("")).unwrap();
    h.apply(Action::RaiseTo(1000)).unwrap(); // 0 all-in
    h.apply(Action::Call).unwrap(); // 1 all-in call
    h.apply(Action::Fold).unwrap(); // 2
    assert_eq!(h.street(), Street::Done, "both all-in: the board runs out");
    assert_eq!(h.board().len(), 5);
    assert_eq!(total(&h), 3000);

    // One all-in short, one caller with chips left: no betting after.
    let mut h = HandState::new(config(&[1000, 200, 1000], 0), &deck("")).unwrap();
    h.apply(Action::Fold).unwrap(); // 0
    h.apply(Action::RaiseTo(200)).unwrap(); // 1 (SB) all-in
    assert_eq!(h.to_act(), Some(2));
    assert_eq!(
        h.legal().unwrap().raise,
        None,
        "nobody left to raise against"
    );
    h.apply(Action::Call).unwrap();
    assert_eq!(h.street(), Street::Done);
}

#[test]
fn illegal_actions_are_typed_errors_and_change_nothing() {
    let mut h = HandState::new(config(&[100, 100, 100], 0), &deck("")).unwrap();
    let before = format!("{h:?}");
    assert_eq!(
        h.apply(Action::Check),
        Err(TableError::CannotCheck {
            seat: 0,
            to_call: 10
        })
    );
    assert!(matches!(
        h.apply(Action::RaiseTo(500)),
        Err(TableError::RaiseSize { .. })
    ));
    assert_eq!(format!("{h:?}"), before);
    h.apply(Action::Call).unwrap();
    h.apply(Action::Call).unwrap();
    assert_eq!(h.apply(Action::Fold), Err(TableError::NeedlessFold(2)));
    assert_eq!(h.apply(Action::Call), Err(TableError::NothingToCall(2)));
    // Bad tables.
    assert_eq!(
        HandState::new(config(&[100], 0), &deck("")).unwrap_err(),
        TableError::Seats(1)
    );
    assert_eq!(
        HandState::new(config(&[100, 0], 0), &deck("")).unwrap_err(),
        TableError::EmptyStack(1)
    );
    assert_eq!(
        HandState::new(config(&[100, 100], 2), &deck("")).unwrap_err(),
        TableError::Button(1)
    );
}

/// Random hands (2 to 10 seats, random stacks, blinds, antes, both
/// switches, no-limit and pot-limit) of random actions, legal and illegal: chips are conserved,
/// every legal action is accepted, every illegal one refused without a
/// change, the largest raise is the stack or the pot as the structure
/// says, and every hand ends.
#[test]
fn random_hands_conserve_chips_and_refuse_illegal_actions() {
    for g in 0..20_000u64 {
        let mut rng = game_rng(99, g);
        let c = random_config(&mut rng, 300);
        let start: u64 = c.stacks.iter().sum();
        let mut d: Vec<Card> = (0..52).map(Card::from_index).collect();
        d.shuffle(&mut rng);
        let mut h = HandState::new(c, &d).unwrap();
        let mut steps = 0;
        while let Some(legal) = h.legal() {
            assert!(!h.seats()[legal.seat].all_in() && !h.seats()[legal.seat].folded);
            if let Some((lo, hi)) = legal.raise {
                // The cap: the whole stack, or at pot limit the bet plus
                // the pot after calling (never under the minimum).
                let s = &h.seats()[legal.seat];
                let all_in = s.street_bet + s.stack;
                let bet = h.view().unwrap().current_bet();
                let pot: u64 = h.seats().iter().map(|s| s.contributed).sum();
                let cap = match h.config().betting {
                    Betting::NoLimit => all_in,
                    Betting::PotLimit => (2 * bet - s.street_bet + pot).max(lo).min(all_in),
                };
                assert_eq!(hi, cap, "game {g}: {legal:?}");
            }
            let action = match rng.random_range(0..6) {
                0 => Action::Fold,
                1 => Action::Check,
                2 => Action::Call,
                _ => Action::RaiseTo(rng.random_range(0..=400)),
            };
            let ok = match action {
                Action::Fold => legal.can_fold,
                Action::Check => legal.can_check,
                Action::Call => legal.call.is_some(),
                Action::RaiseTo(to) => legal.raise.is_some_and(|(lo, hi)| lo <= to && to <= hi),
            };
            let before = format!("{h:?}");
            match h.apply(action) {
                Ok(()) => assert!(ok, "game {g}: accepted {action:?} outside {legal:?}"),
                Err(e) => {
                    assert!(!ok, "game {g}: refused legal {action:?}: {e}");
                    assert_eq!(format!("{h:?}"), before, "game {g}: refusal changed state");
                }
            }
            assert_eq!(total(&h), start, "game {g}: chips");
            steps += 1;
            assert!(steps < 10_000, "game {g}: never ends");
        }
        assert_eq!(h.street(), Street::Done);
        let end: u64 = h.seats().iter().map(|s| s.stack).sum();
        assert_eq!(end, start, "game {g}: chips after payout");
        let p = h.payout().unwrap();
        assert!(p
            .shares
            .iter()
            .flatten()
            .all(|&(s, _)| !h.seats()[s].folded));
    }
}

/// [`config`] at a pot-limit table.
fn pot_limit(stacks: &[u64], button: usize) -> Config {
    Config {
        betting: Betting::PotLimit,
        ..config(stacks, button)
    }
}

/// Pot-limit preflop with blinds 5/10: the first to act may raise to the
/// bet to match (10) plus the pot after calling (15 + 10), so 35; each
/// later player's pot raise counts the raises and calls before it.
#[test]
fn pot_limit_preflop_raises_count_the_blinds_and_every_call() {
    // Four seats, button 0: small blind 1, big blind 2, seat 3 opens.
    let mut h = HandState::new(pot_limit(&[1000; 4], 0), &deck("")).unwrap();
    assert_eq!(h.to_act(), Some(3));
    assert_eq!(h.legal().unwrap().raise, Some((20, 35)));
    assert_eq!(
        h.apply(Action::RaiseTo(36)),
        Err(TableError::RaiseSize {
            to: 36,
            min: 20,
            max: 35
        })
    );
    h.apply(Action::RaiseTo(35)).unwrap();
    // The button faces 35 with 50 in the pot: 35 + (50 + 35) = 120; the
    // minimum is 35 + the 25 raise.
    assert_eq!(h.legal().unwrap().raise, Some((60, 120)));
    h.apply(Action::Call).unwrap();
    // The small blind: 30 to call, 85 in the pot: 35 + (85 + 30) = 150.
    assert_eq!(h.legal().unwrap().raise, Some((60, 150)));
    h.apply(Action::RaiseTo(150)).unwrap();
    // The big blind: 140 to call, 230 in the pot: 150 + 370 = 520; the
    // minimum is 150 + the 115 raise.
    assert_eq!(h.legal().unwrap().raise, Some((265, 520)));
}

/// Heads-up the button's small blind may raise to three big blinds.
#[test]
fn pot_limit_heads_up_small_blind_raises_to_three_big_blinds() {
    let h = HandState::new(pot_limit(&[500, 500], 0), &deck("")).unwrap();
    assert_eq!(h.to_act(), Some(0));
    assert_eq!(h.legal().unwrap().raise, Some((20, 30)));
}

/// After the flop: a first bet may be the pot, a raise of a bet B into a
/// pot P may go to B + (P + B + B).
#[test]
fn pot_limit_after_the_flop_bet_and_raise_the_pot() {
    let mut h = HandState::new(pot_limit(&[1000; 3], 0), &deck("")).unwrap();
    for _ in 0..2 {
        h.apply(Action::Call).unwrap();
    }
    h.apply(Action::Check).unwrap();
    assert_eq!(h.street(), Street::Flop);
    // 30 in the pot, nothing to call: bet 10 (the big blind) to 30.
    assert_eq!(h.legal().unwrap().raise, Some((10, 30)));
    h.apply(Action::RaiseTo(20)).unwrap();
    // Facing 20 with 50 in: 20 + (50 + 20) = 90; minimum 40.
    assert_eq!(h.legal().unwrap().raise, Some((40, 90)));
    h.apply(Action::Call).unwrap();
    // Multiway: the third player faces 20 with 70 in: 20 + 90 = 110.
    assert_eq!(h.legal().unwrap().raise, Some((40, 110)));
    h.apply(Action::RaiseTo(110)).unwrap();
    // The first bettor faces 90 more with 180 in: 110 + 270 = 380.
    assert_eq!(h.legal().unwrap().raise, Some((200, 380)));
}

/// Antes are in the pot: three seats posting 2 each and blinds 5/10 make
/// 21, so the button (first to act three-handed) may raise to 10 + 31.
#[test]
fn pot_limit_counts_the_antes() {
    let c = Config {
        ante: 2,
        ..pot_limit(&[1000; 3], 0)
    };
    let h = HandState::new(c, &deck("")).unwrap();
    assert_eq!(h.to_act(), Some(0));
    assert_eq!(h.legal().unwrap().raise, Some((20, 41)));
}

/// Short stacks: below the minimum raise only all-in is left (min = max);
/// between the minimum and the pot, all-in is the cap; a short all-in
/// raise does not reopen the betting, as in no-limit.
#[test]
fn pot_limit_short_stacks_go_all_in_below_the_cap() {
    // Seat 3 holds 15: it may only go all-in to 15.
    let h = HandState::new(pot_limit(&[1000, 1000, 1000, 15], 0), &deck("")).unwrap();
    assert_eq!(h.legal().unwrap().raise, Some((15, 15)));
    // Seat 3 holds 30: 20 to 30, all-in under the pot.
    let h = HandState::new(pot_limit(&[1000, 1000, 1000, 30], 0), &deck("")).unwrap();
    assert_eq!(
        h.legal().unwrap().raise,
        Some((20, 30)),
        "all-in under the pot"
    );
    let mut h = HandState::new(pot_limit(&[1000, 1000, 1000, 35], 0), &deck("")).unwrap();
    h.apply(Action::RaiseTo(20)).unwrap();
    // The button: 20 to call, 35 in: 20 + 55 = 75.
    assert_eq!(h.legal().unwrap().raise, Some((30, 75)));
    for _ in 0..3 {
        h.apply(Action::Call).unwrap();
    }
    // Flop, 80 in: seat 1 bets 10, seat 2 calls, seat 3 raises all-in to
    // 15, less than a full raise.
    assert_eq!(h.street(), Street::Flop);
    assert_eq!(h.to_act(), Some(1));
    h.apply(Action::RaiseTo(10)).unwrap();
    h.apply(Action::Call).unwrap();
    assert_eq!(h.legal().unwrap().raise, Some((15, 15)), "all-in for 15");
    h.apply(Action::RaiseTo(15)).unwrap();
    // The button has not acted: facing 15 with 115 in, 15 + 130 = 145.
    assert_eq!(h.legal().unwrap().raise, Some((25, 145)));
    h.apply(Action::Call).unwrap();
    // Seats 1 and 2 face only the short all-in: call or fold.
    assert_eq!(h.to_act(), Some(1));
    assert_eq!(h.legal().unwrap().raise, None);
    h.apply(Action::Call).unwrap();
    h.apply(Action::Call).unwrap();
    assert_eq!(h.street(), Street::Turn);
    let total: u64 = h.seats().iter().map(|s| s.contributed).sum();
    assert_eq!(total, 140);
}

/// A fixed deck of `game`: the listed cards first, then the rest of the
/// game's deck in index order.
fn game_deck(first: &str, game: Game) -> Vec<Card> {
    let mut d = parse_cards(first).unwrap();
    d.extend(
        game.deck()
            .iter()
            .filter(|c| !d.contains(c))
            .collect::<Vec<_>>(),
    );
    d
}

fn game_config(stacks: &[u64], button: usize, game: Game, betting: Betting) -> Config {
    Config {
        game,
        betting,
        ..config(stacks, button)
    }
}

/// Checks (or calls) to the end of the hand.
fn check_down(h: &mut HandState) {
    while let Some(legal) = h.legal() {
        let a = if legal.can_check {
            Action::Check
        } else {
            Action::Call
        };
        h.apply(a).unwrap();
    }
}

/// An Omaha seat is dealt four cards, one per round from left of the
/// button, and its hand is two of them with three of the board: the ten
/// of spades on a board of A-K-Q-J of spades makes no royal flush (that
/// would take one hole card and four of the board), and a pair of twos
/// with the board's two makes three of a kind, which wins.
#[test]
fn omaha_deals_four_cards_and_plays_exactly_two_of_them() {
    // Heads-up, button 0: seat 1 is dealt first in each round.
    let d = game_deck("9h Ts 9d 3c 2c 4c 2h 5c As Ks Qs Js 2d", Game::Plo4);
    let mut h = HandState::new(
        game_config(&[100, 100], 0, Game::Plo4, Betting::PotLimit),
        &d,
    )
    .unwrap();
    assert_eq!(
        h.seats()[0].hole,
        parse_cards("Ts 3c 4c 5c").unwrap().as_slice()
    );
    assert_eq!(
        h.seats()[1].hole,
        parse_cards("9h 9d 2c 2h").unwrap().as_slice()
    );
    check_down(&mut h);
    assert_eq!(h.board(), parse_cards("As Ks Qs Js 2d").unwrap().as_slice());
    let p = h.payout().unwrap();
    let board = h.board().to_vec();
    for s in 0..2 {
        let hole = h.seats()[s].hole;
        assert_eq!(
            p.strengths[s],
            Some(cardsim::holdem::omaha::evaluate(&hole, &board).unwrap())
        );
    }
    assert!(p.strengths[1] > p.strengths[0]);
    assert_eq!(stacks(&h), [90, 110]);
}

/// Short deck: 36 cards (a five is refused), and a flush beats a full
/// house (hold'em ranks them the other way).
#[test]
fn short_deck_ranks_a_flush_over_a_full_house_and_deals_six_and_up() {
    let d = game_deck("9c Ah 9d Kh Qh 7h 6h 9s 6c", Game::ShortDeck);
    assert_eq!(d.len(), 36);
    let c = game_config(&[100, 100], 0, Game::ShortDeck, Betting::NoLimit);
    let mut h = HandState::new(c.clone(), &d).unwrap();
    check_down(&mut h);
    assert_eq!(stacks(&h), [110, 90], "the flush wins");
    // The same cards in hold'em: the full house wins.
    let mut holdem =
        HandState::new(config(&[100, 100], 0), &deck("9c Ah 9d Kh Qh 7h 6h 9s 6c")).unwrap();
    check_down(&mut holdem);
    assert_eq!(stacks(&holdem), [90, 110]);
    let five = parse_cards("5c").unwrap()[0];
    let mut low = d.clone();
    low[20] = five;
    assert_eq!(
        HandState::new(c, &low).unwrap_err(),
        TableError::NotInDeck {
            card: five,
            game: Game::ShortDeck
        }
    );
}

/// A table deals at most as many seats as its deck can serve: PLO6 seven
/// (7 x 6 + 5 = 47 of 52 cards), PLO5 nine.
#[test]
fn omaha_tables_refuse_more_seats_than_the_deck_serves() {
    let d: Vec<Card> = (0..52).map(Card::from_index).collect();
    let err =
        HandState::new(game_config(&[100; 8], 0, Game::Plo6, Betting::PotLimit), &d).unwrap_err();
    assert_eq!(
        err,
        TableError::TooManySeats {
            game: Game::Plo6,
            seats: 8,
            most: 7,
            holes: 6,
            deck: 52
        }
    );
    assert_eq!(
        err.to_string(),
        "plo6 deals at most 7 seats (6 hole cards each and a board of 5 from 52 cards), got 8"
    );
    assert!(HandState::new(game_config(&[100; 7], 0, Game::Plo6, Betting::PotLimit), &d).is_ok());
    assert!(HandState::new(game_config(&[100; 9], 0, Game::Plo5, Betting::PotLimit), &d).is_ok());
    assert!(HandState::new(
        game_config(&[100; 10], 0, Game::Plo5, Betting::PotLimit),
        &d
    )
    .is_err());
}

/// Random Omaha and short-deck hands under both betting structures and
/// random legal actions: chips are conserved, each showdown strength is
/// the slow reference evaluator's, and every pot goes to the best hands
/// among its contenders.
#[test]
fn random_omaha_and_short_deck_hands_pay_the_best_hand() {
    for (k, game) in [Game::Plo4, Game::Plo5, Game::Plo6, Game::ShortDeck]
        .into_iter()
        .enumerate()
    {
        let most = (game.deck().len() as usize - 5) / game.hole_cards();
        for g in 0..1500u64 {
            let mut rng = game_rng(31 + k as u64, g);
            let n = rng.random_range(2..=most.min(10));
            let stacks: Vec<u64> = (0..n).map(|_| rng.random_range(1..=300)).collect();
            let start: u64 = stacks.iter().sum();
            let betting = if g % 2 == 0 {
                Betting::PotLimit
            } else {
                Betting::NoLimit
            };
            let mut c = game_config(&stacks, rng.random_range(0..n), game, betting);
            c.ante = rng.random_range(0..=2);
            let mut d = game.deck().to_vec();
            d.shuffle(&mut rng);
            let mut h = HandState::new(c, &d).unwrap();
            while let Some(legal) = h.legal() {
                let mut options = vec![];
                if legal.can_fold {
                    options.push(Action::Fold);
                }
                if legal.can_check {
                    options.push(Action::Check);
                }
                if legal.call.is_some() {
                    options.extend([Action::Call, Action::Call]);
                }
                if let Some((lo, hi)) = legal.raise {
                    options.push(Action::RaiseTo(rng.random_range(lo..=hi)));
                }
                h.apply(options[rng.random_range(0..options.len())])
                    .unwrap();
            }
            let end: u64 = h.seats().iter().map(|s| s.stack).sum();
            assert_eq!(end, start, "{game} hand {g}: chips");
            let p = h.payout().unwrap();
            for (s, seat) in h.seats().iter().enumerate() {
                assert_eq!(seat.hole.len(), game.hole_cards());
                let want = (p.showdown && !seat.folded)
                    .then(|| game.reference_strength(&seat.hole, h.board()));
                assert_eq!(p.strengths[s], want, "{game} hand {g} seat {s}");
            }
            for (pot, shares) in p.pots.iter().zip(&p.shares) {
                let best = pot.eligible.iter().map(|&s| p.strengths[s]).max().unwrap();
                for &(s, _) in shares {
                    assert_eq!(
                        p.strengths[s], best,
                        "{game} hand {g}: a pot to a worse hand"
                    );
                }
            }
        }
    }
}
