"""Ctrl-C and kills: a long call (simulate, equity) raises KeyboardInterrupt
within a second of SIGINT and leaves no temporary directory; a process killed outright leaves
its run's directory, which the next simulate() removes, keeping those of
live processes; errors and a normal exit leave nothing either.

Each long call runs in a child interpreter (a signal to pytest's own
process would stop pytest), with TMPDIR set to a directory of the test's
own, so that what is left behind is exactly what the child left.
"""

import os
import signal
import subprocess
import sys
import tempfile
import textwrap
import time

import pytest

import cardsim
from cardsim import _run

# Far longer than any test waits: only a signal ends these calls.
SIMULATIONS = {
    "fishing": "cardsim.simulate('fishing', games=10**9, seed=1)",
    "holdem": "cardsim.simulate('holdem', games=10**9, seed=1)",
    "tienlen": "cardsim.simulate('tienlen', games=10**9, seed=1)",
    # The slowest games: thousands of them make one chunk of the runner.
    "solve": "cardsim.simulate('solve', games=10**9, seed=1)",
}

# Equity's long loops: Monte Carlo, exact class by class (about 10 s
# uncancelled) and exact board by board (minutes).
EQUITIES = {
    "monte_carlo": "cardsim.equity(['AA', 'KK'], trials=10**12)",
    "exact_classes": "cardsim.equity(['22+:0.5,A2s+', 'KTs+', 'TT+'], exact=True)",
    "exact_boards": "cardsim.equity(['random'] * 3, board='Ah 7d 2c', exact=True)",
}

# What the child runs: says "started" before the call, then "interrupted"
# with the seconds since the parent's signal (the parent sends SIGINT at a
# moment it writes down first) when the call raises KeyboardInterrupt.
CHILD = """
import signal, sys, time
import cardsim
# A child of a shell that ignores SIGINT (a background job) would inherit
# that: Python's own handler, the one that raises KeyboardInterrupt.
signal.signal(signal.SIGINT, signal.default_int_handler)
print("started", flush=True)
try:
    {call}
except KeyboardInterrupt:
    print("interrupted", time.time(), flush=True)
    sys.exit(0)
print("finished", flush=True)
"""


def run_dirs(directory):
    return sorted(p for p in os.listdir(directory) if p.startswith(_run._DIR_PREFIX))


def start_child(code, tmp_path):
    env = dict(os.environ, TMPDIR=str(tmp_path), PYTHONUNBUFFERED="1")
    child = subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert child.stdout.readline().strip() == "started", child.stderr.read()
    return child


def wait_for(condition, seconds):
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if condition():
            return True
        time.sleep(0.02)
    return condition()


def interrupt(child):
    """Sends SIGINT once the call is under way; returns the seconds from the
    signal to the child's KeyboardInterrupt."""
    time.sleep(0.5)
    assert child.poll() is None, child.stderr.read()
    sent = time.time()
    child.send_signal(signal.SIGINT)
    try:
        out, err = child.communicate(timeout=30)
    except subprocess.TimeoutExpired:
        child.kill()
        out, err = child.communicate()
        pytest.fail(f"still running 30 s after SIGINT: {err}")
    assert child.returncode == 0, err
    words = out.split()
    assert words[0] == "interrupted", out + err
    return float(words[1]) - sent


@pytest.mark.parametrize("game", sorted(SIMULATIONS))
def test_sigint_stops_simulate_within_a_second_and_leaves_nothing(game, tmp_path):
    child = start_child(CHILD.format(call=SIMULATIONS[game]), tmp_path)
    # The run is under way in its directory before the signal.
    assert wait_for(lambda: len(run_dirs(tmp_path)) == 1, 10), child.stderr.read()
    took = interrupt(child)
    print(f"{game}: KeyboardInterrupt {took:.3f} s after SIGINT")
    assert took < 1.0
    assert run_dirs(tmp_path) == []
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("kind", sorted(EQUITIES))
def test_sigint_stops_equity_within_a_second(kind, tmp_path):
    child = start_child(CHILD.format(call=EQUITIES[kind]), tmp_path)
    took = interrupt(child)
    print(f"equity {kind}: KeyboardInterrupt {took:.3f} s after SIGINT")
    assert took < 1.0
    assert os.listdir(tmp_path) == []


def test_sigkill_leaves_a_directory_that_the_next_simulate_removes(tmp_path, monkeypatch):
    child = start_child(CHILD.format(call=SIMULATIONS["holdem"]), tmp_path)
    assert wait_for(lambda: len(run_dirs(tmp_path)) == 1, 10), child.stderr.read()
    left = run_dirs(tmp_path)
    # Rows on disk: the kill leaves something real behind.
    assert wait_for(lambda: any(os.path.getsize(tmp_path / left[0] / f) > 0
                                for f in os.listdir(tmp_path / left[0]) if f != "owner"), 10)
    child.kill()
    child.wait()
    assert run_dirs(tmp_path) == left, "a killed process cannot clean up"
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    run = cardsim.simulate("fishing", games=10, seed=1)
    # Only the new run's own directory is left.
    assert run_dirs(tmp_path) == [os.path.basename(run._dir)]
    del run
    assert run_dirs(tmp_path) == []


def fake_run_dir(parent, pid, start, name="x"):
    d = parent / f"{_run._DIR_PREFIX}{pid}-{name}"
    d.mkdir()
    (d / "owner").write_text(f"{pid} {start}\n" if start is not None else "")
    (d / "games.csv.partial").write_text("game\n0\n")
    return d


def test_stale_directories_go_and_live_ones_stay(tmp_path, monkeypatch):
    if _run._process_start(os.getpid()) is None:
        pytest.skip("no /proc: process start times cannot be read here")
    gone = subprocess.Popen([sys.executable, "-c", "pass"])
    gone.wait()
    live = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        assert wait_for(lambda: _run._process_start(live.pid) is not None, 5)
        live_start = _run._process_start(live.pid)
        dead = fake_run_dir(tmp_path, gone.pid, "12345")
        # Its owner file not written yet (a process making it, or killed
        # then): the pid alone decides.
        dead_unwritten = fake_run_dir(tmp_path, gone.pid, None, "y")
        alive = fake_run_dir(tmp_path, live.pid, live_start)
        alive_unwritten = fake_run_dir(tmp_path, live.pid, None, "y")
        # The live pid, but another process's start time: the pid was reused.
        reused = fake_run_dir(tmp_path, live.pid, int(live_start) + 1, "z")
        # Not run directories: left alone whatever their names say.
        other = tmp_path / "cardsim-run-notapid"
        other.mkdir()
        plain_file = tmp_path / f"{_run._DIR_PREFIX}{gone.pid}-file"
        plain_file.write_text("")
        monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
        run = cardsim.simulate("fishing", games=10, seed=1)
        assert not dead.exists() and not dead_unwritten.exists() and not reused.exists()
        assert alive.exists() and alive_unwritten.exists()
        assert other.exists() and plain_file.exists()
        # This process's own run is live too: a second call keeps it.
        second = cardsim.simulate("fishing", games=10, seed=2)
        assert os.path.isdir(run._dir) and os.path.isdir(second._dir)
        assert run.to_arrow().num_rows == 10
    finally:
        live.kill()
        live.wait()
    # Now that process is gone too; this process's runs stay.
    removed = _run.remove_stale_runs(str(tmp_path))
    assert sorted(removed) == sorted([str(alive), str(alive_unwritten)])
    assert os.path.isdir(run._dir) and os.path.isdir(second._dir)


def test_a_failed_run_and_a_normal_exit_leave_nothing(tmp_path, monkeypatch):
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    with pytest.raises(ValueError):
        cardsim.simulate("fishing", games=10, players=99)
    assert run_dirs(tmp_path) == []
    # A child that exits with its runs still referenced.
    child = start_child("""
        import cardsim
        print("started", flush=True)
        runs = [cardsim.simulate("fishing", games=100, seed=s) for s in range(3)]
        assert len(set(r._dir for r in runs)) == 3
        """, tmp_path)
    _, err = child.communicate(timeout=60)
    assert child.returncode == 0, err
    assert os.listdir(tmp_path) == []


def test_a_forked_child_leaves_its_parents_runs_alone(tmp_path, monkeypatch):
    if not hasattr(os, "fork"):
        pytest.skip("no fork here")
    monkeypatch.setattr(tempfile, "tempdir", str(tmp_path))
    run = cardsim.simulate("fishing", games=10, seed=1)
    pid = os.fork()
    if pid == 0:
        # The child's copy of the Run is finalized at its exit.
        try:
            run._cleanup()
        finally:
            os._exit(0)
    os.waitpid(pid, 0)
    assert os.path.isdir(run._dir)
    assert run.to_arrow().num_rows == 10
