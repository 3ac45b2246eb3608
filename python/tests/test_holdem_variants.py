"""cardsim.holdem.Hand and cardsim.simulate for Omaha and short deck:
``variant=`` deals the game's cards and ranks its showdowns, pot limit caps
raises at the pot, chips are conserved, PHH round trips, and the built-in and
Python agents play the variants through ``simulate``."""

import random

import pytest

import cardsim
from cardsim.holdem import Hand, IllegalAction
from test_holdem import illegal_actions, random_action, snapshot

VARIANTS = {"plo4": 4, "plo5": 5, "plo6": 6, "shortdeck": 2}


@pytest.mark.parametrize("variant,holes", VARIANTS.items())
def test_variants_deal_their_cards_and_play_legally(variant, holes):
    rng = random.Random(holes)
    tried = 0
    for _ in range(60):
        n = rng.randint(2, 6)
        h = Hand(stacks=[rng.randint(3, 300) for _ in range(n)], button=rng.randrange(n),
                 seed=rng.randrange(2**63), variant=variant)
        assert h.variant == variant
        assert h.betting == ("no_limit" if variant == "shortdeck" else "pot_limit")
        dealt = [c for s in range(n) for c in h.hole(s).split()]
        assert len(dealt) == holes * n and len(set(dealt)) == len(dealt)
        if variant == "shortdeck":
            assert all(c[0] in "6789TJQKA" for c in dealt)
        start = sum(h.stacks) + sum(h.contributed)
        while not h.is_over:
            legal = h.legal()
            for action, to in illegal_actions(legal):
                before = snapshot(h)
                with pytest.raises(IllegalAction):
                    h.apply(action, to)
                assert snapshot(h) == before
                tried += 1
            h.apply(*random_action(rng, legal))
            assert sum(h.stacks) + sum(h.contributed) - sum(h.payouts() or [0]) == start
        assert sum(h.stacks) == sum(h.starting_stacks)
        # The history replays to the same result, in the game's PHH code.
        text = h.to_phh()
        assert ("variant = 'NS'" if variant == "shortdeck" else "variant = 'PO'") in text
        again = Hand.from_phh(text)
        assert again.variant == variant
        assert sorted(again.payouts()) == sorted(h.payouts())
    assert tried > 100


def test_pot_limit_caps_a_raise_at_the_pot_and_betting_can_be_named():
    # Heads-up, blinds 1/2: the button (small blind) calls 1 and raises the
    # pot of 4: to 6. At no limit it may go all-in.
    assert Hand(stacks=[200, 200], variant="plo4").legal()["raise_max"] == 6
    assert Hand(stacks=[200, 200], variant="plo4", betting="no_limit").legal()["raise_max"] == 200
    assert Hand(stacks=[200, 200], variant="nlhe", betting="pot-limit").legal()["raise_max"] == 6
    h = Hand(stacks=[200, 200], variant="plo5", seed=4)
    with pytest.raises(IllegalAction):
        h.apply("raise", to=7)
    h.apply("raise", to=6)
    assert h.view(1)["variant"] == "plo5" and len(h.view(1)["hole"].split()) == 5


def test_omaha_showdowns_take_two_hole_cards_and_three_of_the_board():
    # Dealt one card a round from left of the button: seat 1 first.
    zero, one = ["Ah", "Kh", "3h", "2h"], ["9c", "9d", "4s", "4c"]
    deck = [c for pair in zip(one, zero) for c in pair] + ["Qh", "8c", "7d", "5s", "Jc"]
    h = Hand(stacks=[100, 100], deck=" ".join(deck), variant="plo4")
    assert h.hole(0) == " ".join(zero)
    h.apply("call")
    while not h.is_over:
        h.apply("check")
    # Four hearts in hand and one on the board is no flush: ace high loses
    # to the pair of nines.
    assert h.payouts() == [0, 4]
    # Three hearts on the board: two of the hand's make the flush.
    deck[9], deck[12] = "8h", "Jh"
    h = Hand(stacks=[100, 100], deck=" ".join(deck), variant="plo4")
    h.apply("call")
    while not h.is_over:
        h.apply("check")
    assert h.payouts() == [4, 0]


def test_bad_variants_and_betting_raise_value_error():
    for kw, msg in [
        (dict(variant="razz"), "variant must be 'nlhe', 'plo4', 'plo5', 'plo6' or 'shortdeck'"),
        (dict(betting="fixed"), "betting must be 'no_limit' or 'pot_limit'"),
        (dict(variant="shortdeck", deck="2s 3s 4s 5s 6s 7s 8s 9s Ts"), "card 2s"),
        (dict(variant="plo6", stacks=[100] * 8), "plo6 deals at most 7 seats"),
    ]:
        kw.setdefault("stacks", [100, 100])
        with pytest.raises(ValueError) as err:
            Hand(**kw)
        assert msg in str(err.value), (kw, str(err.value))


def test_simulate_plays_the_variants_with_builtin_and_python_agents():
    seen = []

    def omaha(view):
        seen.append((view.variant, len(view.hole)))
        if view.legal.max_raise_to is not None and "A" in view.hole[0::2]:
            return f"cbr {view.legal.max_raise_to}"
        return "cc"

    run = cardsim.simulate("holdem", games=300, seed=2, players=4, variant="plo5",
                           agents=[omaha, "tag", "random", "station"])
    assert run.summary["games"] == 300
    assert set(seen) == {("plo5", 10)}
    table = run.to_arrow()
    assert all(len(h) == 10 for h in table.column("hole_s1").to_pylist())
    again = cardsim.simulate("holdem", games=300, seed=2, players=4, variant="plo5", threads=1,
                             agents=[omaha, "tag", "random", "station"])
    assert again.to_arrow().equals(table)
    short = cardsim.simulate("holdem", games=200, seed=3, players=3, variant="shortdeck",
                             agents=["tag", "pushfold", "station"])
    assert short.summary["games"] == 200
    with pytest.raises(ValueError, match="agent 'pushfold' moves all-in preflop"):
        cardsim.simulate("holdem", games=10, seed=1, variant="plo4", agents="pushfold")
