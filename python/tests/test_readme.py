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
