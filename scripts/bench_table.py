#!/usr/bin/env python3
"""Prints a Markdown table of criterion medians for the detector benchmark,
with each case as a multiple of the floor (compare both texts from each end
and split both into lines, core/benches/detector.rs). Usage: bench_table.py [target-dir]"""
import json, os, sys

target = sys.argv[1] if len(sys.argv) > 1 else os.environ.get("CARGO_TARGET_DIR", "target")
root = os.path.join(target, "criterion")
SIZES = ["2KB", "20KB", "200KB", "2.6MB"]
CHANGES = ["one_line", "scattered_1pct", "block_inserted", "refs_renumbered", "different_page"]
# core/benches/inputs: LARGE, on LARGE_CHANGES (no reference crates there).
LARGE = ("7MB", ["one_line", "scattered_1pct", "different_page"])
FNS = ["detector", "engine", "similar_lines", "imara_histogram", "floor"]

def median(group, fn):
    p = os.path.join(root, group, fn, "new", "estimates.json")
    try:
        with open(p) as f:
            return json.load(f)["median"]["point_estimate"]  # nanoseconds
    except OSError:
        return None

def fmt(ns):
    if ns is None:
        return "–"
    if ns >= 1e6:
        return f"{ns / 1e6:.2f} ms"
    if ns >= 1e3:
        return f"{ns / 1e3:.1f} µs"
    return f"{ns:.0f} ns"

print("| input | change | detector (end to end) | engine (trim + Myers) | similar lines, no trim | imara-diff Histogram | floor (compare + split lines) | detector / floor | under 10 ms |")
print("|---|---|---|---|---|---|---|---|---|")
worst = 0.0
for size, change in [(s, c) for s in SIZES for c in CHANGES] + [(LARGE[0], c) for c in LARGE[1]]:
    g = f"{size}_{change}"
    m = {fn: median(g, fn) for fn in FNS}
    ratio = (m["detector"] / m["floor"]) if m["detector"] and m["floor"] else None
    ok = m["detector"] is not None and m["detector"] < 10e6
    if size in SIZES:
        worst = max(worst, m["detector"] or 0)
    print(f"| {size} | {change} | {fmt(m['detector'])} | {fmt(m['engine'])} | {fmt(m['similar_lines'])} | "
          f"{fmt(m['imara_histogram'])} | {fmt(m['floor'])} | {ratio:.1f}× | {('yes' if ok else 'NO') if size in SIZES else '(no bar)'} |"
          if ratio else f"| {size} | {change} | – | – | – | – | – | – | – |")
print()
print(f"Slowest detector call: {fmt(worst)} (bar: under 10 ms for every input up to 2.6 MB).")
