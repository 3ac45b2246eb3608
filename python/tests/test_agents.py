"""Python agents in the runner: a function (or an object's act method) plays
seats of simulate("holdem"); the rows are a pure function of the seed and
the agents, whatever the threads; an exception ends the run naming the hand
and seat, with the agent's own exception as its cause."""

import json
import sys

import pytest

import cardsim
from conftest import ROOT

OPTIONS = dict(players=3, stacks="uniform:10bb-150bb")
# Statistics and options that do not depend on how the run was made.
TIMING = ("started_unix_s", "finished_unix_s", "wall_time_s", "games_per_s", "threads",
          "command", "csv", "checksum")


def same_summary(a, b):
    """The summaries are equal but for the clock, the command and the agents'
    names (in the options, the metric names: net_s1_python, net_s1_station,
    and the table per agent's labels)."""
    def norm(run):
        kept = {k: v for k, v in run.summary.items() if k not in TIMING}
        kept["options"] = {**kept["options"], "agents": None}
        kept["agents"] = [{**a, "agent": None} for a in kept["agents"]]
        return json.dumps(kept, sort_keys=True).replace("_python", "_X").replace("_station", "_X")
    assert norm(a) == norm(b)


@pytest.mark.parametrize("threads", [1, 2])
def test_an_agent_answering_cc_plays_exactly_as_the_station(threads):
    station = cardsim.simulate("holdem", games=2000, seed=5, threads=2,
                               agents=["station", "tag", "random"], **OPTIONS)
    mine = cardsim.simulate("holdem", games=2000, seed=5, threads=threads,
                            agents=[lambda v: "cc", "tag", "random"], **OPTIONS)
    assert mine.to_arrow().equals(station.to_arrow())
    assert mine.summary["options"]["agents"] == "python:<lambda>,tag,random"
    same_summary(mine, station)
    assert len(mine.to_pandas()) == 2000


class Raiser:
    """Raises the minimum now and then (view.random), checks what it sees."""

    def __init__(self):
        self.seen = 0

    def act(self, view):
        self.seen += 1
        d = view.to_dict()
        assert d["legal"]["to_call"] == view.legal.to_call
        assert d["hole"] == view.hole and len(view.hole) == 4
        assert view.variant == d["variant"] == "nlhe"
        assert view.pot == sum(view.contributed) and len(view.stacks) == view.players
        assert not view.folded[view.seat - 1]
        assert set(d) == {"hand", "seed", "seat", "players", "button", "small_blind",
                          "big_blind", "ante", "variant", "street", "hole", "board", "pot",
                          "stacks",
                          "bets", "contributed", "folded", "legal", "actions"}
        r = view.random()
        assert 0.0 <= r < 1.0
        if r < 0.2 and view.legal.min_raise_to is not None:
            return f"cbr {view.legal.min_raise_to}"
        if r > 0.95 and view.legal.fold:
            return "f"
        return "cc"


def test_objects_with_act_and_seeded_randomness_replay_for_any_threads():
    runs = [cardsim.simulate("holdem", games=1500, seed=8, threads=t,
                             agents=[Raiser(), "tag", Raiser()], **OPTIONS) for t in (1, 2)]
    assert runs[0].to_arrow().equals(runs[1].to_arrow())
    # Two objects of one class are two agents.
    assert runs[0].summary["options"]["agents"] == "python:Raiser,tag,python:Raiser#2"
    # Their draws changed play: not the station's rows.
    station = cardsim.simulate("holdem", games=1500, seed=8, agents=["station", "tag", "station"],
                               **OPTIONS)
    assert not runs[0].to_arrow().equals(station.to_arrow())
    # The same object on every seat is one agent.
    bot = Raiser()
    run = cardsim.simulate("holdem", games=200, seed=8, agents=bot, players=4)
    assert run.summary["options"]["agents"] == ",".join(["python:Raiser"] * 4)
    assert bot.seen > 200


def test_an_exception_ends_the_run_naming_hand_and_seat():
    def fragile(view):
        if view.hand == 321:
            return 1 // 0
        return "cc"

    with pytest.raises(cardsim.AgentError) as err:
        cardsim.simulate("holdem", games=1000, seed=2, threads=2,
                         agents=["tag", fragile, "random"], **OPTIONS)
    assert str(err.value).startswith("hand 321, seat 2 (python:fragile): raised ")
    assert "ZeroDivisionError" in str(err.value)
    cause = err.value.__cause__
    assert isinstance(cause, ZeroDivisionError)
    assert cause.__traceback__ is not None  # the agent's own traceback


def test_bad_answers_and_bad_agents():
    with pytest.raises(ValueError) as err:
        cardsim.simulate("holdem", games=50, agents=lambda v: 3)
    assert str(err.value).startswith("hand 0, seat ")
    assert "returned 3, not a string" in str(err.value)
    assert "--resume" not in str(err.value)
    with pytest.raises(ValueError) as err:
        cardsim.simulate("holdem", games=50, agents=lambda v: "raise")
    assert "answer 'raise' is not an action" in str(err.value)
    # The run's error is the earliest hand's: a bad answer in hand 5, not the
    # exception another worker met in hand 1500.
    def late_raise(view):
        if view.hand == 1500:
            raise KeyError("late")
        return "cc"

    def early_garbage(view):
        return "nonsense" if view.hand == 5 else "cc"

    with pytest.raises(ValueError) as err:
        cardsim.simulate("holdem", games=3000, seed=1, threads=2,
                         agents=[late_raise, early_garbage, "tag"], **OPTIONS)
    assert str(err.value).startswith("hand 5, seat 2 (python:early_garbage): answer 'nonsense'")
    with pytest.raises(ValueError, match="Python agents play holdem only"):
        cardsim.simulate("tienlen", games=5, agents=[lambda v: "cc"])
    with pytest.raises(TypeError, match="an agent is a name"):
        cardsim.simulate("holdem", games=5, agents=[3, "tag"])


def test_an_exec_agent_runs_from_python_too():
    bot = ROOT / "examples" / "agents" / "bot.py"
    spec = f"exec:'{sys.executable} {bot} cc'"
    run = cardsim.simulate("holdem", games=500, seed=1, agents=[spec, "tag", "random"], **OPTIONS)
    station = cardsim.simulate("holdem", games=500, seed=1, agents=["station", "tag", "random"],
                               **OPTIONS)
    assert run.to_arrow().equals(station.to_arrow())
    assert run.summary["options"]["agent_programs"].startswith(f"{bot}=blake3:")


def test_a_dict_is_a_mixed_answer_that_cardsim_draws():
    heads_up = dict(players=2, seed=3)
    station = cardsim.simulate("holdem", games=1000, agents=["station", "tag"], **heads_up)
    sure = cardsim.simulate("holdem", games=1000, agents=[lambda v: {"cc": 1, "f": 0}, "tag"],
                            **heads_up)
    assert sure.to_arrow().equals(station.to_arrow())

    def unsure(view):
        low = view.legal.min_raise_to
        return {"cc": 0.8, f"cbr {low}": 0.2} if low is not None else {"cc": 1}

    runs = [cardsim.simulate("holdem", games=3000, threads=t, corrections=True,
                             agents=[unsure, "station"], **heads_up) for t in (1, 2)]
    assert runs[0].to_arrow().equals(runs[1].to_arrow())
    mine = next(a for a in runs[0].summary["agents"] if a["agent"] == "python")
    by_name = {e["estimator"]: e["bb_per_100"] for e in mine["estimators"]}
    assert by_name["chance_action"] != by_name["chance"]  # the draws are corrected
    for answer, says in [({"cc": 0.5}, "the probabilities add up to 0.5, not 1"),
                         ({3: 1.0}, "the key 3, not an action string"),
                         ({"cc": "all"}, "probability of 'cc' is 'all', not a number"),
                         ({"cc": 0.5, "cbr 99999": 0.5}, "'cbr 99999' is not legal")]:
        with pytest.raises(ValueError) as err:
            cardsim.simulate("holdem", games=5, agents=lambda v, a=answer: a)
        assert says in str(err.value), str(err.value)
