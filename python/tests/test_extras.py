"""pyarrow and pandas are extras, not dependencies: without them, the methods
that need them raise an ImportError that names the extra to install, and
that extra exists in pyproject.toml with the module in it."""

import re
import sys

import pytest

import cardsim
from cardsim import _run
from conftest import ROOT


def extras():
    """pyproject.toml's [project.optional-dependencies]: extra -> packages."""
    text = (ROOT / "python" / "pyproject.toml").read_text(encoding="utf-8")
    section = text.split("[project.optional-dependencies]", 1)[1].split("\n[", 1)[0]
    found = {}
    for name, deps in re.findall(r"^(\w+)\s*=\s*\[(.*?)\]", section, flags=re.M | re.S):
        found[name] = [re.split(r"[<>=!~ \[]", d, maxsplit=1)[0]
                       for d in re.findall(r'"([^"]+)"', deps)]
    return found


@pytest.fixture(scope="module")
def run():
    return cardsim.simulate("fishing", games=20, seed=3)


def hide(monkeypatch, *modules):
    """Makes ``import`` of each module fail as if it were not installed."""
    for name in list(sys.modules):
        if name.split(".")[0] in modules:
            monkeypatch.delitem(sys.modules, name)
    for name in modules:
        monkeypatch.setitem(sys.modules, name, None)


@pytest.mark.parametrize("method, missing, extra", [
    ("to_pandas", "pandas", "pandas"),
    ("to_pandas", "pyarrow", "pandas"),
    ("to_arrow", "pyarrow", "arrow"),
    ("iter_batches", "pyarrow", "arrow"),
])
def test_a_missing_module_names_the_extra_to_install(run, monkeypatch, method, missing, extra):
    hide(monkeypatch, missing)
    with pytest.raises(ImportError) as err:
        result = getattr(run, method)()
        if method == "iter_batches":
            next(result)
    message = str(err.value)
    assert f"Run.{method}() needs {missing}, which is not installed" in message
    assert f"pip install 'cardsim[{extra}]'" in message
    assert f"pip install './python[{extra}]'" in message
    assert f"or what it brings: pip install {_run._EXTRA_MODULES[extra]}" in message
    assert err.value.name == missing
    # The extra it names brings the module.
    assert missing in extras()[extra]


def test_with_the_modules_back_the_methods_work(run):
    assert run.to_arrow().num_rows == 20
    assert len(run.to_pandas()) == 20
    assert sum(b.num_rows for b in run.iter_batches(7)) == 20


def test_the_extras_are_declared():
    declared = extras()
    for extra, modules in _run._EXTRA_MODULES.items():
        assert sorted(declared[extra]) == sorted(modules.split()), extra
