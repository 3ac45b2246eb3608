#!/usr/bin/env python3
"""Reads cardsim's Parquet with real readers and compares the numbers.

Usage: check_parquet_readers.py SWEEP_DIR RUN.parquet RUN.csv

- DuckDB reads every cell of a sweep written with ``--format parquet``
  through its hive partitions (``read_parquet('SWEEP_DIR/**/games.parquet',
  hive_partitioning=true)``): per cell, the games and the mean of
  ``cards_played`` must be the cell summary's.
- polars reads ``results.parquet``: every row must equal ``results.csv`` and
  the cell summary's figures (n, mean, ci95, sd, percentiles).
- polars reads one run's Parquet and its CSV of the same command: equal
  frames, with the column types of the Python package (int64, float64 for
  equity columns, strings), and the command, seed and version in the
  file's metadata.
- DuckDB reads the same run's Parquet: the same rows as the CSV, the
  ``game`` column delta-encoded and ``board`` as DELTA_LENGTH_BYTE_ARRAY
  (the encodings that keep the file small are ones the readers read).

Prints one line per check and exits non-zero at the first difference (the
test suite's ``sweep::parquet_is_read_by_duckdb_and_polars`` runs it).
"""

import json
import math
import os
import sys

import duckdb
import polars as pl


def close(a, b):
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, rel_tol=1e-12, abs_tol=1e-12)


def cells(sweep):
    manifest = json.load(open(os.path.join(sweep, "sweep.json"), encoding="utf-8"))
    for cell in manifest["cells"]:
        summary = json.load(
            open(os.path.join(sweep, cell["dir"], "summary.json"), encoding="utf-8")
        )
        yield manifest["keys"], cell, summary


def check_cells_with_duckdb(sweep):
    pattern = os.path.join(sweep, "**", "games.parquet")
    got = duckdb.sql(
        f"select players, reverse_captures, count(*) as games, avg(cards_played) as mean "
        f"from read_parquet('{pattern}', hive_partitioning = true) group by all"
    ).fetchall()
    by_cell = {(str(p), str(r).lower()): (g, m) for p, r, g, m in got}
    n = 0
    for keys, cell, summary in cells(sweep):
        params = dict(zip(keys, cell["params"]))
        games, mean = by_cell[(params["players"], params["reverse_captures"])]
        metric = next(m for m in summary["metrics"] if m["name"] == "cards_played")
        assert games == summary["end_game"] - summary["first_game"], (cell["dir"], games)
        assert close(mean, metric["mean"]), (cell["dir"], mean, metric["mean"])
        n += 1
    assert n == len(by_cell), (n, by_cell)
    print(f"duckdb: {n} cells read through hive partitions, games and means equal")


def check_results_with_polars(sweep):
    table = pl.read_parquet(os.path.join(sweep, "results.parquet"))
    text = pl.read_csv(os.path.join(sweep, "results.csv"), schema=table.schema)
    assert table.equals(text), "results.parquet and results.csv differ"
    rows = table.iter_rows(named=True)
    n = 0
    for keys, cell, summary in cells(sweep):
        for m in summary["metrics"]:
            row = next(rows)
            for k, v in zip(keys, cell["params"]):
                assert str(row[k]).lower() == v, (row, k, v)
            assert row["metric"] == m["name"] and row["n"] == m["count"], (row, m)
            ci = m["ci95"] or [None, None]
            for col, want in [("mean", m["mean"]), ("ci95_low", ci[0]), ("ci95_high", ci[1]),
                              ("sd", m["sd"]), ("min", m["min"]), ("p50", m["p50"]),
                              ("p90", m["p90"]), ("p99", m["p99"]), ("p999", m["p999"]),
                              ("max", m["max"])]:
                assert row[col] == want, (cell["dir"], m["name"], col, row[col], want)
            n += 1
    assert next(rows, None) is None
    print(f"polars: results.parquet equals results.csv and the summaries ({n} rows)")


def check_run_with_polars(parquet, csv):
    frame = pl.read_parquet(parquet)
    types = {"street": pl.String, "winning_category": pl.String, "allin_street": pl.String,
             "board": pl.String}
    for name, dtype in frame.schema.items():
        if name in types:
            want = types[name]
        elif name.startswith("hole_s"):
            want = pl.String
        elif name.startswith(("equity_s", "ev_net_s")):
            want = pl.Float64
        else:
            want = pl.Int64
        assert dtype == want, (name, dtype, want)
    text = pl.read_csv(csv, schema=frame.schema)
    assert frame.equals(text), "the Parquet rows are not the CSV's"
    meta = pl.read_parquet_metadata(parquet)
    command = json.loads(meta["cardsim.command"])
    assert command[0] == "holdem" and meta["cardsim.game"] == "holdem", command
    assert meta["cardsim.seed"].isdigit(), meta
    if "--seed" in command:
        assert meta["cardsim.seed"] == command[command.index("--seed") + 1], meta
    assert meta["cardsim.version"], meta
    print(f"polars: {frame.height} hands, Parquet equals CSV with the package's types")


def check_run_with_duckdb(parquet, csv):
    text = pl.read_csv(csv, schema=pl.read_parquet_schema(parquet))
    rows = duckdb.sql(f"select * from read_parquet('{parquet}') order by game").fetchall()
    assert rows == text.rows(), "DuckDB's rows of the Parquet file are not the CSV's"
    encodings = dict(
        duckdb.sql(
            f"select path_in_schema, string_agg(distinct encodings, ',') "
            f"from parquet_metadata('{parquet}') group by all"
        ).fetchall()
    )
    assert "DELTA_BINARY_PACKED" in encodings["game"], encodings["game"]
    assert "DELTA_LENGTH_BYTE_ARRAY" in encodings["board"], encodings["board"]
    print(f"duckdb: {len(rows)} hands, Parquet equals CSV (game and board delta-encoded)")


def main():
    if len(sys.argv) != 4:
        sys.exit(__doc__.split("\n\n")[1])
    sweep, parquet, csv = sys.argv[1:]
    check_cells_with_duckdb(sweep)
    check_results_with_polars(sweep)
    check_run_with_polars(parquet, csv)
    check_run_with_duckdb(parquet, csv)
    print("4 passed, 0 failed")


if __name__ == "__main__":
    main()
