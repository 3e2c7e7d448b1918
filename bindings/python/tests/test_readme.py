"""The README's Python example runs as a test, so it cannot rot."""

from __future__ import annotations

import re

from conftest import ROOT


def python_blocks() -> list[str]:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    start = readme.index("## Use it from Python")
    end = readme.find("\n## ", start + 1)
    section = readme[start : end if end != -1 else None]
    return re.findall(r"```python\n(.*?)```", section, flags=re.S)


def test_readme_python_example_runs() -> None:
    blocks = python_blocks()
    assert blocks, "README.md has no ```python block under 'Use it from Python'"
    for block in blocks:
        assert "import response_diff" in block
        code = compile(block, "README.md (Use it from Python)", "exec")
        exec(code, {"__name__": "readme_example"})
