#!/usr/bin/env python3
"""Two builds of a CPU-time example, before and after, in one run.

    python3 scripts/ab_cpu.py BEFORE AFTER [--runs 9] [--column N] [-- ARGS...]

BEFORE and AFTER are two builds of the same example
(core/examples/detector_cpu or tree_cpu): each prints a markdown table
whose rows start with the input's name and whose CPU-time column holds
`12.3 µs` / `4.5 ms`. They run alternately, RUNS times each, so both see
the same machine load; per row this prints the median over runs of each
and AFTER ÷ BEFORE, then the geometric mean of the ratios. The column is
the first one with a time unless --column says (0-based, after the row's
name cells). ARGS go to both (detector_cpu keeps the inputs whose name
contains its argument). Used for docs/DECISIONS.md D63–D67 (no regression beyond
5 %).
"""

from __future__ import annotations

import argparse
import math
import re
import statistics
import subprocess
import sys

TIME = re.compile(r"^([0-9.]+) (ns|µs|ms|s)$")
UNIT = {"ns": 1e-9, "µs": 1e-6, "ms": 1e-3, "s": 1.0}


def rows(binary: str, column: int | None, extra: list[str]) -> dict[str, float]:
    out = subprocess.run([binary, *extra], check=True, capture_output=True, text=True).stdout
    found: dict[str, float] = {}
    for line in out.splitlines():
        if not line.startswith("|") or line.startswith("|---"):
            continue
        cells = [c.strip() for c in line.strip("|").split("|")]
        times = [i for i, c in enumerate(cells) if TIME.match(c)]
        if not times:
            continue
        first = times[0]
        at = first + column if column is not None else first
        m = TIME.match(cells[at]) if at < len(cells) else None
        if m:
            found[" / ".join(cells[:first])] = float(m.group(1)) * UNIT[m.group(2)]
    if not found:
        sys.exit(f"ab_cpu: no timed rows in the output of {binary}")
    return found


def fmt(seconds: float) -> str:
    for unit in ("s", "ms", "µs"):
        if seconds >= UNIT[unit]:
            return f"{seconds / UNIT[unit]:.2f} {unit}"
    return f"{seconds / UNIT['ns']:.0f} ns"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("before")
    ap.add_argument("after")
    ap.add_argument("--runs", type=int, default=9)
    ap.add_argument("--column", type=int, default=None)
    extra: list[str] = []
    if "--" in argv:
        argv, extra = argv[: argv.index("--")], argv[argv.index("--") + 1 :]
    args = ap.parse_args(argv)
    args.extra = extra
    before: dict[str, list[float]] = {}
    after: dict[str, list[float]] = {}
    for _ in range(args.runs):
        for binary, into in ((args.before, before), (args.after, after)):
            for name, t in rows(binary, args.column, args.extra).items():
                into.setdefault(name, []).append(t)
    print("| row | before (median) | after (median) | after ÷ before |")
    print("|---|---:|---:|---:|")
    ratios = []
    for name, ts in before.items():
        if name not in after:
            continue
        b, a = statistics.median(ts), statistics.median(after[name])
        ratios.append(a / b)
        print(f"| {name} | {fmt(b)} | {fmt(a)} | {a / b:.3f} |")
    geo = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
    print(f"\nGeometric mean of after ÷ before over {len(ratios)} rows, {args.runs} runs each: {geo:.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
