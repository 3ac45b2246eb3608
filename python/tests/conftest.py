"""Shared helpers: the repository root and the `cardsim` binary the Python
results are held equal to."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]


def _find_cli():
    env = os.environ.get("CARDSIM_BIN")
    if env:
        # Named explicitly (CI does): it must be there.
        assert os.path.isfile(env), f"CARDSIM_BIN={env} does not exist"
        return env
    for profile in ("release", "debug"):
        p = ROOT / "target" / profile / "cardsim"
        if p.is_file():
            return str(p)
    return None


@pytest.fixture(scope="session")
def cli():
    """Runs the cardsim binary; returns (exit code, stdout, stderr)."""
    path = _find_cli()
    if path is None:
        pytest.skip("no cardsim binary: build it (cargo build) or set CARDSIM_BIN")

    def run(*args, input=None):
        p = subprocess.run([path, *args], capture_output=True, text=True, input=input,
                           stdin=None if input is not None else subprocess.DEVNULL)
        return p.returncode, p.stdout, p.stderr

    return run


def cli_error_line(stderr: str) -> str:
    """The CLI's one-line message: the first line of stderr without 'error: ',
    and without the '; usage: ...' tail of a usage error (the package leaves
    it out: it would show the command line the package built, not the call)."""
    line = stderr.strip().splitlines()[0]
    assert line.startswith("error: "), stderr
    return line[len("error: "):].split("; usage: ")[0]
