#!/usr/bin/env python3
"""Import circles between the files of a Rust crate.

    python3 scripts/import_cycles.py core/src [server/src ...] [--check]

For each crate source root (the directory of lib.rs or main.rs), reads every
`.rs` file, takes the `crate::…` and `super::…` paths it uses (in `use`
declarations and inline; `#[cfg(test)] mod tests` blocks left out), and
resolves each to the file that defines the item, following the `pub use`
re-exports of `mod.rs` / `lib.rs`. Prints the pairs of files that import
each other and the larger circles (strongly connected components). With
`--check` it exits 1 when there is any circle (`make lint`).

Hand-written (docs/DECISIONS.md D38): a module graph of two small crates
needs paths and re-exports only, not a Rust parser; a path this misses
(a macro-generated one) errs on the side of an edge left out.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

PATH = re.compile(r"\b(crate|super)((?:::(?:\w+|\{[^;]*?\}))+)")
USE = re.compile(r"\bpub(?:\([\w:]+\))?\s+use\s+([^;]+);", re.S)


def strip(text: str) -> str:
    """Comments, strings and test modules removed."""
    text = re.sub(r"//[^\n]*", "", text)
    text = re.sub(r'r#*"(?:.|\n)*?"#*|"(?:\\.|[^"\\])*"', '""', text)
    out, i = [], 0
    for m in re.finditer(r"#\[cfg\(test\)\]\s*mod\s+\w+\s*\{", text):
        if m.start() < i:
            continue
        out.append(text[i : m.start()])
        depth, j = 1, m.end()
        while j < len(text) and depth:
            depth += {"{": 1, "}": -1}.get(text[j], 0)
            j += 1
        i = j
    out.append(text[i:])
    return "".join(out)


def expand(tail: str) -> list[list[str]]:
    """`::a::{b, c::d}` as [[a, b], [a, c, d]] (nested braces too)."""
    tail = tail.strip().lstrip(":")
    m = re.match(r"^((?:\w+::)*)\{(.*)\}$", tail, re.S)
    if not m:
        segs = [s for s in tail.split("::") if s]
        return [segs] if segs else []
    head = [s for s in m.group(1).split("::") if s]
    body, parts, depth, cur = m.group(2), [], 0, ""
    for ch in body:
        if ch == "," and depth == 0:
            parts.append(cur)
            cur = ""
            continue
        depth += {"{": 1, "}": -1}.get(ch, 0)
        cur += ch
    parts.append(cur)
    out = []
    for p in parts:
        p = re.sub(r"\s+as\s+\w+", "", p).strip()
        if not p or p == "self":
            out.append(head)
        elif p == "*":
            out.append(head)
        else:
            out.extend(head + sub for sub in expand(p))
    return out


class Crate:
    def __init__(self, root: Path):
        self.root = root
        self.files: dict[tuple[str, ...], Path] = {}
        for f in sorted(root.rglob("*.rs")):
            rel = f.relative_to(root).with_suffix("").parts
            if rel[-1] in ("mod", "lib", "main"):
                rel = rel[:-1]
            self.files[tuple(rel)] = f
        self.text = {m: strip(f.read_text(encoding="utf-8")) for m, f in self.files.items()}
        # name -> module path it is re-exported from, per module
        self.reexports: dict[tuple[str, ...], dict[str, tuple[str, ...]]] = {}
        for mod, text in self.text.items():
            names: dict[str, tuple[str, ...]] = {}
            for m in USE.finditer(text):
                for segs in expand("::" + m.group(1).strip()):
                    if len(segs) < 2:
                        continue
                    target = self.absolute(mod, segs[:-1])
                    if target is not None:
                        names[segs[-1]] = target
            self.reexports[mod] = names

    def absolute(self, mod: tuple[str, ...], segs: list[str]) -> tuple[str, ...] | None:
        """A `use` path written in `mod` as an absolute module path."""
        if not segs:
            return mod
        if segs[0] == "crate":
            return tuple(segs[1:])
        if segs[0] == "super":
            base = list(mod)
            while segs and segs[0] == "super":
                base.pop()
                segs = segs[1:]
            return tuple(base + segs)
        if segs[0] == "self":
            return tuple(mod) + tuple(segs[1:])
        if tuple(mod) + (segs[0],) in self.files:
            return tuple(mod) + tuple(segs)
        return None

    def resolve(self, path: tuple[str, ...], seen: int = 0) -> tuple[str, ...]:
        """The module whose file defines what `path` names."""
        cur: tuple[str, ...] = ()
        for i, seg in enumerate(path):
            if cur + (seg,) in self.files:
                cur = cur + (seg,)
                continue
            target = self.reexports.get(cur, {}).get(seg)
            if target is not None and seen < 8 and target != cur:
                return self.resolve(target + (seg,) + path[i + 1 :], seen + 1)
            return cur
        return cur

    def file_of(self, mod: tuple[str, ...]) -> tuple[str, ...]:
        """The file module holding `mod` (an inline module is in its parent's)."""
        while mod not in self.files:
            mod = mod[:-1]
        return mod

    def edges(self) -> dict[tuple[str, ...], set[tuple[str, ...]]]:
        out: dict[tuple[str, ...], set[tuple[str, ...]]] = {m: set() for m in self.files}
        for mod, text in self.text.items():
            inline = []
            for m in re.finditer(r"\bmod\s+(\w+)\s*\{", text):
                depth, j = 1, m.end()
                while j < len(text) and depth:
                    depth += {"{": 1, "}": -1}.get(text[j], 0)
                    j += 1
                inline.append((m.start(), j, m.group(1)))
            for m in PATH.finditer(text):
                # `super` inside an inline `mod x { … }` is relative to it.
                here = mod + tuple(n for a, b, n in inline if a < m.start() < b)
                for segs in expand(m.group(2)):
                    start = [m.group(1)]
                    # `super::super::x` arrives as [super, x] after `super`.
                    absolute = self.absolute(here, start + segs)
                    if absolute is None:
                        continue
                    target = self.file_of(self.resolve(absolute))
                    # A module's own children and the root's declarations
                    # are structure, not imports.
                    if target != mod and target in self.files:
                        out[mod].add(target)
        return out

    def name(self, mod: tuple[str, ...]) -> str:
        return str(self.files[mod])


def sccs(graph: dict) -> list[list]:
    index, low, stack, on, out, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def main(argv: list[str]) -> int:
    check = "--check" in argv
    roots = [a for a in argv if a != "--check"] or ["core/src"]
    found = 0
    for root in roots:
        crate = Crate(Path(root))
        graph = crate.edges()
        pairs = sorted(
            (crate.name(a), crate.name(b))
            for a in graph
            for b in graph[a]
            if a in graph.get(b, ()) and crate.name(a) < crate.name(b)
        )
        comps = sccs(graph)
        print(f"{root}: {len(pairs)} pairs of files that import each other, {len(comps)} circles")
        for a, b in pairs:
            print(f"  {a} <-> {b}")
        for comp in comps:
            print("  circle: " + ", ".join(crate.name(m) for m in comp))
        found += len(comps)
    return 1 if check and found else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
