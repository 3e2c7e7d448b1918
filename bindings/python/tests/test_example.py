"""examples/python/session.py drives real Chromium (Playwright for Python,
the system's browser, a page on 127.0.0.1) through PageDiff and must run
clean."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def test_playwright_session_example() -> None:
    pytest.importorskip("playwright", reason="pip install playwright (make python-test does)")
    if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
        pytest.skip(f"no Chromium at {CHROMIUM} (make test installs Debian's chromium)")
    r = subprocess.run(
        [sys.executable, str(ROOT / "examples" / "python" / "session.py")],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert r.returncode == 0, r.stdout + r.stderr
    lines = r.stdout.splitlines()
    assert lines[0].split() == ["step", "action", "answer", "plain", "sent", "saved"]
    assert " full " in lines[1] and any(" patch " in line for line in lines[2:9])
    assert any(" unchanged " in line for line in lines[2:9])
    total = next(line for line in lines if line.split()[:1] == ["total"])
    plain, sent = (int(x) for x in total.split()[1:3])
    assert sent < plain / 2
    assert "error error_appeared:" in r.stdout
