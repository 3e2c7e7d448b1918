#!/usr/bin/env bash
# Makes the browser-use venv (.venv-browser-use at the top level,
# gitignored): the pinned browser-use that response_diff.browser_use
# supports (docs/DECISIONS.md D61), pytest and maturin; `make
# browser-use-test` builds the extension into it. browser-use wants Python
# >= 3.11 (PYTHON picks the interpreter, default python3). Nothing else is
# downloaded at run time: the tests turn off its telemetry, version check
# and extensions and drive Debian's chromium. Idempotent; about 45 s and
# 370 MB the first time.
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV=.venv-browser-use
if ! "$PYTHON" -c 'import sys; sys.exit(sys.version_info < (3, 11))'; then
    echo "browser-use-env: browser-use needs Python 3.11 or later; $("$PYTHON" --version) found (set PYTHON=)" >&2
    exit 1
fi
if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.response-diff-deps"
want="browser-use==0.13.14 maturin>=1.9,<2 pytest>=8"
if [ ! -f "$stamp" ] || [ "$(cat "$stamp")" != "$want" ]; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check $want
    echo "$want" > "$stamp"
fi
