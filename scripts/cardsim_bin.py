"""Finds the cardsim binary for the scripts: a path given, else this checkout's release build, else `cardsim` on PATH."""

import os
import shutil
import sys


def find_cardsim(given):
    if given:
        return given
    here = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "target", "release", "cardsim")
    if os.access(here, os.X_OK):
        return here
    found = shutil.which("cardsim")
    if not found:
        sys.exit("error: no cardsim binary: build it (cargo build --release) or pass --cardsim PATH")
    return found
