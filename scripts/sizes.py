#!/usr/bin/env python3
"""Sizes of what an embedder links (make sizes; make bench runs it).

    python3 scripts/sizes.py --target <cargo target dir> --out bench-out

Builds the C library as shipped (`--profile c-release`, docs/DECISIONS.md
D37) and records `libresponse_diff.so` as built, stripped (`strip
--strip-all`, what a size-minded host ships), `libresponse_diff.a` as built
and as the dist tarball holds it (`strip --strip-debug -R .llvmbc -R
.llvmcmd`: no debug info, no LLVM bitcode), the lean library's `.so`
stripped (built without the `images` feature, D67), and the core's crate
counts with and without default features
(`cargo tree -e normal`, deduplicated, the core left out, proc-macros
counted: the number `make core-lean` checks). Writes <out>/sizes.json and
<out>/sizes.md; docs/bench/README.md shows the table.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile

CARGO = os.environ.get("CARGO", "cargo")


def crates(no_default: bool) -> list[str]:
    cmd = [CARGO, "tree", "-q", "-p", "response-diff", "-e", "normal", "--prefix", "none"]
    if no_default:
        cmd.append("--no-default-features")
    out = subprocess.run(cmd, check=True, capture_output=True, text=True).stdout
    names = {re.sub(r" \((\*|proc-macro)\)$", "", line.strip()) for line in out.splitlines() if line.strip()}
    return sorted(n for n in names if not n.startswith("response-diff v"))


def stripped(path: str, *flags: str) -> int:
    with tempfile.TemporaryDirectory() as tmp:
        copy = os.path.join(tmp, os.path.basename(path))
        shutil.copyfile(path, copy)
        subprocess.run(["strip", *flags, copy], check=True)
        return os.path.getsize(copy)


def mb(n: int) -> str:
    return f"{n / 1e6:.2f} MB"


def main(argv: list[str]) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--target", default=os.environ.get("CARGO_TARGET_DIR", "target"))
    ap.add_argument("--out", default="bench-out")
    args = ap.parse_args(argv)
    if shutil.which("strip") is None:
        sys.exit("sizes: `strip` (binutils) is needed; run `make setup`.")
    build = [CARGO, "build", "-q", "--profile", "c-release", "-p", "response-diff-ffi", "--lib"]
    lib = os.path.join(args.target, "c-release")
    so = os.path.join(lib, "libresponse_diff_ffi.so")
    a = os.path.join(lib, "libresponse_diff_ffi.a")
    # The lean build first: both write the same paths, the full one stays.
    subprocess.run(build + ["--no-default-features"], check=True)
    lean_so = stripped(so, "--strip-all")
    subprocess.run(build, check=True)
    default, lean = crates(False), crates(True)
    result = {
        "profile": "c-release",
        "so": os.path.getsize(so),
        "soStripped": stripped(so, "--strip-all"),
        "soLeanStripped": lean_so,
        "a": os.path.getsize(a),
        "aDist": stripped(a, "--strip-debug", "-R", ".llvmbc", "-R", ".llvmcmd"),
        "cratesDefault": len(default),
        "cratesNoDefault": len(lean),
        "noDefaultCrates": lean,
    }
    os.makedirs(args.out, exist_ok=True)
    with open(os.path.join(args.out, "sizes.json"), "w") as f:
        json.dump(result, f, indent=1)
    md = markdown(result)
    with open(os.path.join(args.out, "sizes.md"), "w") as f:
        f.write(md)
    print(md, end="")
    return 0


def markdown(r: dict) -> str:
    """The table docs/bench/README.md shows (bench_report.py calls this)."""
    rows = [
        ("`libresponse_diff.so`", mb(r["so"])),
        ("`libresponse_diff.so`, stripped (`strip --strip-all`)", mb(r["soStripped"])),
        (
            "lean `libresponse_diff.so` (no `images` feature: `make c-lib-lean`, `libresponse_diff-lean` in `make dist`), stripped",
            mb(r["soLeanStripped"]) if "soLeanStripped" in r else "not measured",
        ),
        ("`libresponse_diff.a`", mb(r["a"])),
        ("`libresponse_diff.a` as in the dist tarball (no debug info, no LLVM bitcode)", mb(r["aDist"])),
        ("crates the core depends on, default features (`std`, `images`, `patterns`)", str(r["cratesDefault"])),
        ("crates the core depends on, `default-features = false` (`no_std`)", str(r["cratesNoDefault"])),
    ]
    out = ["|  |  |", "|---|---|"] + [f"| {k} | {v} |" for k, v in rows]
    out.append("")
    out.append("Without default features: " + ", ".join(c.split(" v")[0] for c in r["noDefaultCrates"]) + ".")
    return "\n".join(out) + "\n"


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
