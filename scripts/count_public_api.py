#!/usr/bin/env python3
"""Counts the public items of the core crate (core/src), a grep-level method.

Hand-written because the exact tools are not usable here: rustdoc JSON
needs a nightly toolchain and `cargo public-api` is not installed. The
method, kept stable so that counts taken at different commits compare:

- A module is public when every `mod` on its path from lib.rs is `pub mod`.
- An item counts when it is declared `pub` (not `pub(crate)`/`pub(super)`):
  at the top level of a file, `fn`, `struct`, `enum`, `trait`, `const`,
  `static`, `type` and `mod`; inside an inherent `impl T`, a `pub fn`;
  inside a `pub struct T { .. }`, a `pub` field.
- In a public module every such item counts. In a private module an item
  counts only when a `pub use` re-exports its name (a method or field, when
  its type's name is re-exported).
- `#[cfg(test)]` modules, other inline private modules, enum variants and
  trait methods are not counted.

Usage: scripts/count_public_api.py [--list] [CORE_SRC]   (default core/src)
"""

import re
import sys
from pathlib import Path

ITEM = re.compile(
    r"^pub\s+(?:(?:const|async|unsafe|extern\s+\"C\")\s+)*"
    r"(fn|struct|enum|trait|const|static|type|mod)\s+([A-Za-z_][A-Za-z0-9_]*)"
)
METHOD = re.compile(r"^pub\s+(?:(?:const|async|unsafe)\s+)*fn\s+([A-Za-z_][A-Za-z0-9_]*)")
FIELD = re.compile(r"^pub\s+([a-z_][A-Za-z0-9_]*)\s*:")
IMPL = re.compile(r"^impl(?:<[^{]*?>)?\s+([A-Za-z_][A-Za-z0-9_:]*)(?:<[^{]*>)?\s*(?:where\b.*)?\{?\s*$")
STRUCT = re.compile(r"^pub\s+struct\s+([A-Za-z_][A-Za-z0-9_]*)")
MOD_DECL = re.compile(r"^(pub\s+)?mod\s+([a-z_][a-z0-9_]*)\s*;")
INLINE_MOD = re.compile(r"^(pub(?:\([^)]*\))?\s+)?mod\s+[a-z_][a-z0-9_]*\s*\{")


def strip(line: str) -> str:
    """The line without string literals and `//` comments, for brace counts."""
    line = re.sub(r'"(?:\\.|[^"\\])*"', '""', line)
    line = re.sub(r"'(?:\\.|[^'\\])'", "''", line)
    return line.split("//", 1)[0]


def module_files(src: Path):
    """(file, public) for every module file reachable from lib.rs."""
    out = []

    def walk(path: Path, public: bool):
        out.append((path, public))
        base = path.parent if path.name in ("lib.rs", "mod.rs") else path.with_suffix("")
        for line in path.read_text().splitlines():
            m = MOD_DECL.match(line.strip())
            if not m or line.startswith((" ", "\t")):
                continue
            name = m.group(2)
            child = base / f"{name}.rs"
            if not child.exists():
                child = base / name / "mod.rs"
            if child.exists():
                walk(child, public and bool(m.group(1)))

    walk(src / "lib.rs", True)
    return out


def reexports(files):
    """Source names that a `pub use` in a public module re-exports."""
    names = set()
    for path, public in files:
        if not public:
            continue
        text = path.read_text()
        for stmt in re.findall(r"^pub use ([^;]*);", text, flags=re.M):
            body = stmt.split("::{", 1)[1] if "::{" in stmt else stmt.rsplit("::", 1)[-1]
            for part in re.split(r"[,{}\s]+", body.replace(" as ", " AS ")):
                pass
            for piece in body.strip("{} \n").split(","):
                piece = piece.strip().strip("{}").strip()
                if not piece:
                    continue
                source = piece.split(" as ")[0].strip().rsplit("::", 1)[-1]
                names.add(source)
    return names


def items(path: Path, public: bool, exported: set):
    found = []
    depth = 0
    ctx = []  # (kind, name, depth at which the block opened)
    skip_until = None  # depth at which a skipped inline module closes
    pending_test = False
    for raw in path.read_text().splitlines():
        line = raw.strip()
        code = strip(line)
        if skip_until is None:
            if line.startswith("#[cfg(test)]"):
                pending_test = True
            elif INLINE_MOD.match(line) and (pending_test or not line.startswith("pub mod")):
                skip_until = depth
                pending_test = False
            elif line and not line.startswith(("#", "//")):
                pending_test = False
        if skip_until is None:
            top = ctx[-1] if ctx else None
            if depth == 0:
                m = ITEM.match(line)
                if m and (public or m.group(2) in exported):
                    found.append(f"{m.group(1)} {m.group(2)}")
                im = IMPL.match(line)
                if im and " for " not in line:
                    ctx.append(("impl", im.group(1).rsplit("::", 1)[-1], depth))
                sm = STRUCT.match(line)
                if sm and "{" in code:
                    ctx.append(("struct", sm.group(1), depth))
            elif top and depth == top[2] + 1:
                visible = public or top[1] in exported
                if top[0] == "impl":
                    m = METHOD.match(line)
                    if m and visible:
                        found.append(f"fn {top[1]}::{m.group(1)}")
                elif top[0] == "struct":
                    m = FIELD.match(line)
                    if m and visible:
                        found.append(f"field {top[1]}.{m.group(1)}")
        depth += code.count("{") - code.count("}")
        while ctx and depth <= ctx[-1][2] and "}" in code:
            ctx.pop()
        if skip_until is not None and depth <= skip_until and "}" in code:
            skip_until = None
    return found


def main():
    args = [a for a in sys.argv[1:] if a != "--list"]
    src = Path(args[0] if args else "core/src")
    files = module_files(src)
    exported = reexports(files)
    total = 0
    for path, public in files:
        found = items(path, public, exported)
        total += len(found)
        if "--list" in sys.argv:
            for f in found:
                print(f"{path.relative_to(src)}\t{f}")
    print(f"public items of the core: {total}")


if __name__ == "__main__":
    main()
