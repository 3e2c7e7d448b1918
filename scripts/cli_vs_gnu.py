#!/usr/bin/env python3
"""The response-diff CLI against GNU `diff -u`, as whole processes, on the
benchmark's large inputs (`make bench`; docs/bench/README.md). For each
change kind, runs `response-diff diff OLD NEW` and `diff -u OLD NEW` in
alternating pairs (so a burst of load on the shared machine hits both),
output to /dev/null, and records each process's wall time (wait4) and,
in a second run of each pair, its peak memory as GNU time's `%M` prints it
("Maximum resident set size"). Not wait4's ru_maxrss of a child Python
spawned: that counts the image the child replaced at exec, Python's own
(13 MiB and more), so no process could measure below it; GNU time's own
image is about 1 MiB. Also times `cmp` and `cat` on the same files: the
floor of reading and comparing them as a process. Writes JSON and prints a
table.

    cli_vs_gnu.py --bin target/release/response-diff --inputs DIR [--pairs 7] [--out bench-out/cli.json]

DIR holds `<change>.old` / `<change>.new` (core/examples/bench_inputs.rs).
"""
import argparse
import json
import os
import statistics
import subprocess
import sys
import time

CHANGES = [("one_line", "one line changed"), ("scattered_1pct", "1 % of lines changed"), ("different_page", "another page")]


def run(cmd):
    """(seconds, peak KiB, exit code) of one process, stdout to /dev/null."""
    with open(os.devnull, "wb") as null:
        t = time.perf_counter()
        p = subprocess.Popen(cmd, stdout=null, stderr=subprocess.PIPE)
        _, status, ru = os.wait4(p.pid, 0)
        dt = time.perf_counter() - t
        err = p.stderr.read().decode(errors="replace")
        p.stderr.close()
        p.returncode = os.waitstatus_to_exitcode(status)
    if p.returncode not in (0, 1):
        sys.exit(f"cli_vs_gnu: {' '.join(cmd)} exited {p.returncode}: {err.strip()}")
    return dt, ru.ru_maxrss, p.returncode


def peak_kib(cmd):
    """Peak resident memory (KiB) of one process, read by GNU time."""
    r = subprocess.run(["/usr/bin/time", "-f", "%M", *cmd], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
    if r.returncode not in (0, 1):
        sys.exit(f"cli_vs_gnu: {' '.join(cmd)} exited {r.returncode}: {r.stderr.strip()}")
    return int(r.stderr.strip().splitlines()[-1])


def fmt_ms(s):
    return f"{s * 1e3:.1f} ms"


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--bin", required=True)
    ap.add_argument("--inputs", required=True)
    ap.add_argument("--pairs", type=int, default=7)
    ap.add_argument("--out")
    a = ap.parse_args()
    if not os.access("/usr/bin/time", os.X_OK):
        sys.exit("cli_vs_gnu: GNU time (/usr/bin/time, Debian package `time`; `make setup` installs it) is needed to read peak memory")
    rows = []
    for change, label in CHANGES:
        old, new = (os.path.join(a.inputs, f"{change}.{s}") for s in ("old", "new"))
        if not (os.path.exists(old) and os.path.exists(new)):
            sys.exit(f"cli_vs_gnu: {old} or {new} is missing; write them with "
                     "`cargo run --release -p response-diff --example bench_inputs -- DIR`")
        ours_cmd, gnu_cmd = [a.bin, "diff", old, new], ["diff", "-u", old, new]
        run(ours_cmd), run(gnu_cmd)  # page cache and binaries warm
        ours, gnu, ratios = [], [], []
        for i in range(a.pairs):
            # Alternate which goes first, so neither always runs second.
            first, second = (ours_cmd, gnu_cmd) if i % 2 == 0 else (gnu_cmd, ours_cmd)
            r1, r2 = run(first), run(second)
            o, g = (r1, r2) if first is ours_cmd else (r2, r1)
            m1, m2 = peak_kib(first), peak_kib(second)
            om, gm = (m1, m2) if first is ours_cmd else (m2, m1)
            ours.append((o[0], om))
            gnu.append((g[0], gm))
            ratios.append(o[0] / g[0])
        floor_cmp = statistics.median(run(["cmp", "-s", old, new])[0] for _ in range(a.pairs))
        floor_cat = statistics.median(run(["cat", old, new])[0] for _ in range(a.pairs))
        lines = sum(1 for _ in open(old, "rb"))
        rows.append({
            "change": change, "label": label, "bytes": os.path.getsize(old), "lines": lines,
            "oursS": statistics.median(x[0] for x in ours), "gnuS": statistics.median(x[0] for x in gnu),
            "ratio": statistics.median(ratios),
            "oursPeakKiB": max(x[1] for x in ours), "gnuPeakKiB": max(x[1] for x in gnu),
            "cmpS": floor_cmp, "catS": floor_cat, "pairs": a.pairs,
        })
    print(f"| change | ours | GNU `diff -u` | ours ÷ GNU (median of {a.pairs} pairs) | peak memory, ours | peak memory, GNU | `cmp` | `cat` both |")
    print("|---|---:|---:|---:|---:|---:|---:|---:|")
    for r in rows:
        print(f"| {r['label']} ({r['bytes'] / 1e6:.1f} MB, {r['lines']:,} lines) | {fmt_ms(r['oursS'])} | {fmt_ms(r['gnuS'])} | "
              f"{r['ratio']:.2f} | {r['oursPeakKiB'] / 1024:.1f} MiB | {r['gnuPeakKiB'] / 1024:.1f} MiB | {fmt_ms(r['cmpS'])} | {fmt_ms(r['catS'])} |")
    if a.out:
        with open(a.out, "w") as f:
            json.dump({"rows": rows, "loadavg": list(os.getloadavg()),
                       "gnuDiff": subprocess.run(["diff", "--version"], capture_output=True, text=True).stdout.splitlines()[0]}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
