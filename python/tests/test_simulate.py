"""simulate: the Arrow table equals the CLI's CSV for the same seed, for
every game; threads never change a result; batches stream the same rows."""

import csv
import json
import math

import pyarrow as pa
import pytest

import cardsim
from conftest import cli_error_line

# (game, CLI words, options): small runs with some of each game's switches.
RUNS = [
    ("fishing", ["fishing"], dict(players=3, reverse_captures=True)),
    ("fishing", ["fishing"], dict(card_limit=40)),
    ("holdem", ["holdem"], dict(players=4, agents=["tag", "station", "random", "pushfold"],
                                stacks="uniform:10bb-200bb")),
    ("holdem", ["holdem"], dict(players=3, agents=["tag", "station", "random"], duplicate=True)),
    ("holdem", ["holdem"], dict(players=2, agents=["random", "tag"], duplicate=True, calibrate=300)),
    ("tienlen", ["tienlen"], dict(agents="greedy,random,planner", rotate=True)),
    ("solve", ["solve"], dict(cards=5)),
]


def cli_words(options):
    words = []
    for k, v in options.items():
        flag = "--" + k.replace("_", "-")
        if v is True:
            words.append(flag)
        else:
            words += [flag, ",".join(v) if isinstance(v, list) else str(v)]
    return words


def assert_table_is_csv(table, path):
    with open(path, newline="", encoding="utf-8") as f:
        rows = list(csv.reader(f))
    header, body = rows[0], rows[1:]
    assert table.column_names == header
    assert table.num_rows == len(body)
    for j, name in enumerate(header):
        col = table.column(name).to_pylist()
        typ = table.schema.field(name).type
        cells = [r[j] for r in body]
        for value, cell in zip(col, cells):
            if cell == "":
                assert value is None, (name, cell)
            elif pa.types.is_integer(typ):
                assert value == int(cell), (name, cell)
            elif pa.types.is_floating(typ):
                assert value == float(cell) or (math.isnan(value) and cell.lower() == "nan"), (name, cell)
            elif pa.types.is_boolean(typ):
                assert value == (cell in ("true", "1")), (name, cell)
            else:
                assert value == cell, (name, cell)
        # Integer-looking columns are integers: nothing is left as text that
        # the CSV writes as whole numbers.
        if not pa.types.is_integer(typ) and all(c.lstrip("-").isdigit() for c in cells if c):
            assert not any(cells), f"column {name} holds integers but is {typ}"


@pytest.mark.parametrize("game, words, options", RUNS)
def test_arrow_equals_the_cli_csv(game, words, options, cli, tmp_path):
    run = cardsim.simulate(game, games=300, seed=42, threads=2, **options)
    out, summary = tmp_path / "games.csv", tmp_path / "summary.json"
    code, _, err = cli(*words, "--games", "300", "--seed", "42", "--threads", "1",
                       *cli_words(options), "--quiet", "-o", str(out), "--summary", str(summary))
    assert code == 0, err
    table = run.to_arrow()
    assert_table_is_csv(table, out)
    assert table.num_rows == 300
    cli_summary = json.loads(summary.read_text())
    # The same summary but for the clock, the threads and the file's path.
    timing = ("started_unix_s", "finished_unix_s", "wall_time_s", "games_per_s", "threads",
              "checksum")
    assert set(run.summary) == set(cli_summary)
    for key in cli_summary:
        if key == "csv":
            assert {**run.summary[key], "path": None} == {**cli_summary[key], "path": None}
        elif key == "command":
            # This run's own command line (threads 2 here, 1 for the CLI).
            assert run.summary[key] == run.args and run.args[0] == cli_summary[key][0]
        elif key not in timing:
            assert run.summary[key] == cli_summary[key], key
    assert run.command.startswith("cardsim " + " ".join(words))
    # Streaming gives the same rows in batches of at most 37.
    batches = list(run.iter_batches(37))
    assert all(0 < b.num_rows <= 37 for b in batches)
    assert pa.Table.from_batches(batches).equals(table)
    frame = run.to_pandas()
    assert list(frame.columns) == table.column_names and len(frame) == 300


@pytest.mark.parametrize("game, words, options", RUNS)
def test_threads_and_shards_never_change_the_rows(game, words, options):
    one = cardsim.simulate(game, games=200, seed=9, threads=1, **options).to_arrow()
    two = cardsim.simulate(game, games=200, seed=9, threads=2, **options).to_arrow()
    assert one.equals(two)
    halves = [cardsim.simulate(game, games=200, seed=9, shard=(k, 2), **options).to_arrow()
              for k in range(2)]
    assert pa.concat_tables(halves).equals(one)


@pytest.mark.parametrize("game, kw, words", [
    ("fishing", dict(games=0), ["fishing", "--games", "0"]),
    ("fishing", dict(games=10, players=99), ["fishing", "--games", "10", "--players", "99"]),
    ("fishing", dict(games=10, colour="red"), ["fishing", "--games", "10", "--colour", "red"]),
    ("holdem", dict(games=10, agents="tag,wizard"), ["holdem", "--games", "10", "--agents", "tag,wizard"]),
    ("holdem", dict(games=10, blinds="2/1"), ["holdem", "--games", "10", "--blinds", "2/1"]),
    ("tienlen", dict(games=10, rules="martian"), ["tienlen", "--games", "10", "--rules", "martian"]),
    ("solve", dict(games=10, cards=40), ["solve", "--games", "10", "--cards", "40"]),
    ("fishing", dict(games=10, shard="3/2"), ["fishing", "--games", "10", "--shard", "3/2"]),
])
def test_bad_options_are_the_cli_message(game, kw, words, cli, tmp_path):
    with pytest.raises(ValueError) as err:
        cardsim.simulate(game, **kw)
    code, _, stderr = cli(*words, "--quiet", "-o", str(tmp_path / "x.csv"))
    assert code == 2, stderr
    assert str(err.value) == cli_error_line(stderr)


def test_wrong_calls():
    with pytest.raises(ValueError, match="unknown game"):
        cardsim.simulate("bridge", games=10)
    with pytest.raises(TypeError):
        cardsim.simulate("fishing", games=10, out="x.csv")
    with pytest.raises(TypeError):
        cardsim.simulate("fishing", games="10")
    with pytest.raises(ValueError):
        cardsim.simulate("fishing", games=10).iter_batches(0).__next__()


def test_fuzzed_options_raise_value_error_never_crash():
    import random
    rng = random.Random(15)
    alphabet = "0123456789/-:,.bbuniform randomtagx\u00e9 "
    for _ in range(60):
        text = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 10)))
        key = rng.choice(["stacks", "blinds", "agents", "players", "ante", "odd_chips"])
        try:
            cardsim.simulate("holdem", games=3, seed=1, **{key: text})
        except ValueError:
            pass
