"""The README's Python example runs as written (every ```python block of the
'## Python' section, in order, in one namespace)."""

import re

from conftest import ROOT


def python_blocks():
    text = (ROOT / "README.md").read_text(encoding="utf-8")
    section = text.split("\n## Python\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_readme_example_runs():
    blocks = python_blocks()
    assert blocks, "the README's Python section has no example"
    namespace = {}
    for code in blocks:
        exec(compile(code, "README.md", "exec"), namespace)
    # The example's own checks ran; its results are there.
    assert namespace["strengths"].dtype.name == "uint16"
    assert len(namespace["df"]) == namespace["run"].summary["games"]


def test_the_strategies_page_gives_one_result_from_python_and_the_cli(cli, tmp_path, capsys):
    """docs/strategies.md: its Python function and its program (the same
    idea) play the same hands, so their seat's results are equal."""
    import json
    import re
    import sys

    text = (ROOT / "docs" / "strategies.md").read_text(encoding="utf-8")
    function, program = re.findall(r"```python\n(.*?)```", text, flags=re.S)[:2]
    namespace = {}
    exec(compile(function.replace("50_000", "3_000"), "strategies.md", "exec"), namespace)
    printed = capsys.readouterr().out
    assert printed.count(" bb/100 ") == 4 and printed.startswith("net_s1_python ")
    python_net = next(m for m in namespace["run"].summary["metrics"] if m["name"] == "net_s1_python")
    bot = tmp_path / "pairs.py"
    bot.write_text(program, encoding="utf-8")
    summary = tmp_path / "s.json"
    code, _, err = cli("holdem", "-n", "3000", "--seed", "1", "--players", "4", "-q",
                       "--agents", f"exec:'{sys.executable} {bot}',tag,pushfold,station",
                       "--summary", str(summary))
    assert code == 0, err
    metrics = json.loads(summary.read_text())["metrics"]
    exec_net = next(m for m in metrics if m["name"] == "net_s1_exec")
    assert {**exec_net, "name": None} == {**python_net, "name": None}
