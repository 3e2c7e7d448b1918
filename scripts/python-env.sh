#!/usr/bin/env bash
# Makes the project's Python venv (.venv at the top level, gitignored) and
# installs what the Python tests and example need: maturin to build the
# extension, pytest, mypy (stubtest) and Playwright for Python (the
# package only: the example launches Debian's chromium, nothing else is
# downloaded). Idempotent; PYTHON picks the interpreter (default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV=.venv
if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.response-diff-deps"
want="maturin>=1.9,<2 pytest>=8 mypy>=1.10 playwright>=1.59"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check $want
    echo "$want" > "$stamp"
fi
