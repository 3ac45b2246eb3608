"""equity: the same numbers as `cardsim equity --json`, the same one-line
errors, threads never change a Monte Carlo answer, and eval7 agrees."""

import json
import random

import pytest

import cardsim
from conftest import cli_error_line


def cli_json(cli, args):
    code, out, err = cli("equity", *args, "--json")
    assert code == 0, err
    d = json.loads(out)
    d.pop("seconds")
    return d


def ours(**kw):
    d = cardsim.equity(**kw).to_dict()
    d.pop("seconds")
    return d


@pytest.mark.parametrize("kw, args", [
    (dict(players=["AsAh", "KsKd"]), ["AsAh", "KsKd"]),
    (dict(players=["AKs", "QQ"], exact=True), ["AKs", "QQ", "--exact"]),
    (dict(players=["QQ+,AKs", "random", "T9s:0.5"], board="Ah 7d 2c", trials=20_000, seed=3),
     ["QQ+,AKs", "random", "T9s:0.5", "--board", "Ah 7d 2c", "--trials", "20000", "--seed", "3"]),
    (dict(players=["22+", "AKo"], dead="As Kd 7c", stderr=0.01, seed=11),
     ["22+", "AKo", "--dead", "As Kd 7c", "--stderr", "0.01", "--seed", "11"]),
    (dict(players=["Ah Kh", "7c 7d", "random"], board=["Qh", "Jh", "2c", "3d"]),
     ["Ah Kh", "7c 7d", "random", "--board", "Qh Jh 2c 3d"]),
    # Omaha and short deck, exact and seeded Monte Carlo.
    (dict(players=["AsAhKsKh", "QdQcJdJc"], board="2s 7h 9c", game="plo4"),
     ["AsAhKsKh", "QdQcJdJc", "--board", "2s 7h 9c", "--game", "plo4"]),
    (dict(players=["AsAhKsKhQs", "random"], trials=5_000, seed=5, game="plo5"),
     ["AsAhKsKhQs", "random", "--trials", "5000", "--seed", "5", "--game", "plo5"]),
    (dict(players=["AA", "KK"], board="6s 7h 8c", game="shortdeck"),
     ["AA", "KK", "--board", "6s 7h 8c", "--game", "shortdeck"]),
])
def test_equity_equals_the_cli(kw, args, cli):
    assert ours(**kw) == cli_json(cli, args)


def test_omaha_equity_names_its_game_and_bad_games_fail_as_the_cli_does(cli):
    r = cardsim.equity(["AsAhKsKh", "QdQcJdJc"], board="2s 7h 9c", game="plo4")
    assert r.game == "plo4" and r.exact
    assert round(r.players[0].equity, 4) == 0.789
    assert cardsim.equity(["AsAh", "KsKd"]).game == "holdem"
    with pytest.raises(ValueError) as e:
        cardsim.equity(["AsAh", "KsKd"], game="razz")
    code, _, err = cli("equity", "AsAh", "KsKd", "--game", "razz")
    assert code == 2 and str(e.value) == cli_error_line(err)
    with pytest.raises(TypeError):
        cardsim.equity(["AsAh", "KsKd"], game=4)


def test_result_object():
    r = cardsim.equity(["AsAh", "KsKd"])
    assert r.exact and r.trials is None and r.boards == 1_712_304
    assert abs(sum(p.equity for p in r.players) - 1) < 1e-12
    assert [p.hands for p in r.players] == ["AsAh", "KsKd"]
    mc = cardsim.equity(["AKs", "QQ"], trials=10_000, seed=1)
    assert not mc.exact and mc.trials == 10_000 and mc.seed == 1
    assert all(p.stderr is not None and p.stderr > 0 for p in mc.players)


def test_threads_never_change_the_answer():
    kw = dict(players=["QQ+,AKs", "random", "T9s"], trials=50_000, seed=5)
    one = ours(threads=1, **kw)
    assert ours(threads=2, **kw) == one
    assert ours(threads=3, **kw) == one


def test_agrees_with_eval7():
    """AKs vs QQ: the exact equity lies within 4 standard errors of eval7's
    Monte Carlo of 10^6 deals, and our Monte Carlo within 3 of our exact."""
    eval7 = pytest.importorskip("eval7")
    n = 1_000_000
    theirs = eval7.py_hand_vs_range_monte_carlo(
        [eval7.Card("As"), eval7.Card("Ks")], eval7.HandRange("QdQc"), [], n)
    exact = cardsim.equity(["AsKs", "QdQc"], exact=True).players[0].equity
    assert abs(exact - theirs) < 4 * (0.25 / n) ** 0.5
    mc = cardsim.equity(["AsKs", "QdQc"], trials=100_000, seed=9).players[0]
    assert abs(mc.equity - exact) < 3 * mc.stderr


@pytest.mark.parametrize("kw, args", [
    (dict(players=["AsAs", "KK"]), ["AsAs", "KK"]),
    (dict(players=["QQ+,AKz", "KK"]), ["QQ+,AKz", "KK"]),
    (dict(players=["AA"]), ["AA"]),
    (dict(players=["AA", "KK"], board="Ah 7d"), ["AA", "KK", "--board", "Ah 7d"]),
    (dict(players=["AA", "KK"], board="Zz"), ["AA", "KK", "--board", "Zz"]),
    (dict(players=["AA", "KK"], trials=0), ["AA", "KK", "--trials", "0"]),
    (dict(players=["AA", "KK"], exact=True, trials=10), ["AA", "KK", "--exact", "--trials", "10"]),
    (dict(players=["AA", "KK"], stderr=-1.0), ["AA", "KK", "--stderr", "-1.0"]),
    (dict(players=["AsKs", "AsQs"]), ["AsKs", "AsQs"]),
    (dict(players=["AA", "KK"], dead="Ah As Ad"), ["AA", "KK", "--dead", "Ah As Ad"]),
    (dict(players=["A\u00e9", "KK"]), ["A\u00e9", "KK"]),
    (dict(players=["AA"] * 11), ["AA"] * 11),
])
def test_bad_input_is_the_cli_message(kw, args, cli):
    with pytest.raises(ValueError) as err:
        cardsim.equity(**kw)
    code, _, stderr = cli("equity", *args)
    assert code == 2, stderr
    assert str(err.value) == cli_error_line(stderr)


def test_wrong_types_raise_type_error():
    with pytest.raises(TypeError):
        cardsim.equity("AA KK")
    with pytest.raises(TypeError):
        cardsim.equity(["AA", "KK"], trials=1.5)
    with pytest.raises(TypeError):
        cardsim.equity(["AA", 3])
    with pytest.raises(TypeError):
        cardsim.equity(["AA", "KK"], board=7)


@pytest.mark.parametrize("hero, villain, board", [
    ("As Ks", "Qd Qc", ""),
    ("Ah Kh", "7c 7d", "Qh Jh 2c"),
    ("9s 8s", "Ac Kd", "7s 6d 2h Kh"),
])
def test_exact_equals_an_independent_enumeration(hero, villain, board):
    """Exact equity equals, to the last digit, a plain enumeration of every
    board completion scored with evaluate_many."""
    import itertools
    import numpy as np
    known = cardsim.encode(" ".join([hero, villain, board]))
    rest = [c for c in range(52) if c not in set(known.tolist())]
    b = cardsim.encode(board) if board else np.zeros(0, dtype=np.uint8)
    need = 5 - len(b)
    runs = np.array(list(itertools.combinations(rest, need)), dtype=np.uint8)
    boards = np.hstack([np.tile(b, (len(runs), 1)), runs])
    ours = cardsim.evaluate_many(np.hstack([np.tile(cardsim.encode(hero), (len(runs), 1)), boards]))
    theirs = cardsim.evaluate_many(np.hstack([np.tile(cardsim.encode(villain), (len(runs), 1)), boards]))
    win, tie = int((ours > theirs).sum()), int((ours == theirs).sum())
    r = cardsim.equity([hero, villain], board=board, exact=True)
    assert r.boards == len(runs)
    assert r.players[0].win == win / len(runs)
    assert r.players[0].tie == tie / len(runs)
    assert abs(r.players[0].equity - (win + tie / 2) / len(runs)) < 1e-15


def test_fuzzed_input_raises_value_error_never_crashes():
    rng = random.Random(15)
    alphabet = "AKQJT98765432shdcxXW10 ,+-:.\u00e9\u2660\x00\n"
    for _ in range(300):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12)))
        for call in (lambda: cardsim.evaluate(text),
                     lambda: cardsim.equity([text, "random"], trials=100),
                     lambda: cardsim.equity(["AA", "KK"], board=text, trials=100)):
            try:
                call()
            except ValueError:
                pass
