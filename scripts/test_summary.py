#!/usr/bin/env python3
"""Totals the closing lines of every test runner in a log (cargo test,
pytest, node --test) and prints one plain line: `summary: N passed, M failed`.
Exits 1 when anything failed or nothing ran."""
import re, sys

passed = failed = 0
for line in open(sys.argv[1], errors="replace"):
    m = re.search(r"test result: \w+\. (\d+) passed; (\d+) failed", line)
    if m:
        passed += int(m.group(1)); failed += int(m.group(2)); continue
    m = re.match(r"=+ (.*) in [\d.]+s", line.strip())  # pytest's last line
    if m and ("passed" in m.group(1) or "failed" in m.group(1)):
        p = re.search(r"(\d+) passed", m.group(1)); f = re.search(r"(\d+) failed", m.group(1))
        passed += int(p.group(1)) if p else 0; failed += int(f.group(1)) if f else 0; continue
    m = re.match(r"^# (pass|fail) (\d+)$", line.strip())  # node --test (TAP)
    if m:
        if m.group(1) == "pass": passed += int(m.group(2))
        else: failed += int(m.group(2))
print(f"summary: {passed} passed, {failed} failed")
sys.exit(1 if failed or not passed else 0)
