#!/usr/bin/env bash
# Writes docs/bench/README.md and its plots from bench-out/ (make bench).
# Makes a venv (.venv-bench, gitignored) with the pinned matplotlib of
# scripts/bench/requirements.txt on first use. Arguments go to
# bench_report.py (`report` by default).
set -euo pipefail
cd "$(dirname "$0")/.."
PYTHON="${PYTHON:-python3}"
VENV=.venv-bench
if [ ! -x "$VENV/bin/python" ]; then
    "$PYTHON" -m venv "$VENV"
fi
stamp="$VENV/.requirements"
if ! cmp -s scripts/bench/requirements.txt "$stamp"; then
    "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -r scripts/bench/requirements.txt
    cp scripts/bench/requirements.txt "$stamp"
fi
exec "$VENV/bin/python" scripts/bench_report.py "${@:-report}"
