"""The README's Python example runs as a test, so it cannot rot."""

from __future__ import annotations

import os
import re
import shutil

import pytest

from conftest import ROOT

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def python_blocks(heading: str) -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index(f"## {heading}\n")
    end = readme.find("\n## ", start + 1)
    section = readme[start : end if end != -1 else None]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def run_blocks(heading: str) -> None:
    blocks = python_blocks(heading)
    assert blocks, f"README.md has no ```python block under '{heading}'"
    for block in blocks:
        assert "import response_diff" in block
        code = compile(block, f"README.md ({heading})", "exec")
        exec(code, {"__name__": "readme_example"})


def test_readme_python_example_runs() -> None:
    run_blocks("Use it from Python")


def test_readme_python_agents_example_runs() -> None:
    # PageDiff on Playwright for Python and Debian's chromium.
    pytest.importorskip("playwright", reason="pip install playwright (make python-test does)")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    run_blocks("Python agents: Playwright for Python and browser-use")
