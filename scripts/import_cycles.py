#!/usr/bin/env python3
"""Import circles among the files of a Rust crate.

A file imports another when it names an item of that file's module by
path: a `use` tree or an inline path starting with `crate::`, `super::`,
`self::` or a child module it declares (`mod x;` then `x::y`). A path
resolves to the file of the deepest module it names. Declaring a child
module (`mod x;`) is not an import; re-exporting from it (`pub use x::…`)
is, and a path to a re-exported name goes on to the file that defines
it. Prints every file pair that import each other and every strongly
connected set of more than one file, and "N circles" per directory. With
`--check` it exits 1 when any source directory has one (`make
import-cycles`, in `make lint`). Without directories it reads every
crate's sources (DIRS).

    python3 scripts/import_cycles.py [SRC_DIR ...] [--check] [--edges]

Hand-written (standard library only, docs/DECISIONS.md D38): the tools
that draw Rust module graphs (cargo-modules) need a full compiler build
and a nightly toolchain.
"""
import os
import re
import sys


def module_of(src, path):
    rel = os.path.relpath(path, src)[:-3].split(os.sep)
    if rel[-1] in ('mod', 'lib', 'main'):
        rel = rel[:-1]
    return tuple(rel)


def strip(text):
    """Source without comments, string and char literals (a small lexer:
    nested block comments, raw strings, escapes, char literals versus
    lifetimes)."""
    out, i, n = [], 0, len(text)
    while i < n:
        c = text[i]
        if text.startswith('//', i):
            j = text.find('\n', i)
            i = n if j < 0 else j
        elif text.startswith('/*', i):
            depth, i = 1, i + 2
            while i < n and depth:
                if text.startswith('/*', i):
                    depth, i = depth + 1, i + 2
                elif text.startswith('*/', i):
                    depth, i = depth - 1, i + 2
                else:
                    i += 1
        elif c == 'r' and re.match(r'r#*"', text[i:i + 10]) and not (i and (text[i - 1].isalnum() or text[i - 1] == '_')):
            hashes = re.match(r'r(#*)"', text[i:]).group(1)
            end = text.find('"' + hashes, i + len(hashes) + 2)
            i = n if end < 0 else end + 1 + len(hashes)
            out.append('""')
        elif c == '"':
            i += 1
            while i < n and text[i] != '"':
                i += 2 if text[i] == '\\' else 1
            i += 1
            out.append('""')
        elif c == "'":
            if text.startswith('\\', i + 1):
                j = i + 2
                while j < n and text[j] != "'":
                    j += 1
                i = j + 1
                out.append("''")
            elif i + 2 < n and text[i + 2] == "'":
                i += 3
                out.append("''")
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return ''.join(out)


def use_paths(tree, prefix=()):
    """Expands a use tree (`a::{b, c::d as e, f::*}`) to paths."""
    tree = tree.strip()
    out = []
    depth = 0
    if '{' in tree:
        i = tree.index('{')
        head = tuple(p for p in tree[:i].split('::') if p)
        body = tree[i + 1:tree.rindex('}')]
        parts, cur = [], ''
        for ch in body:
            depth += ch == '{'
            depth -= ch == '}'
            if ch == ',' and depth == 0:
                parts.append(cur)
                cur = ''
            else:
                cur += ch
        parts.append(cur)
        for p in parts:
            if p.strip():
                out += use_paths(p, prefix + head)
        return out
    tree = tree.split(' as ')[0].strip()
    return [prefix + tuple(p for p in tree.split('::') if p)]


# Every crate's sources (`make import-cycles` names its own list).
DIRS = ['core/src', 'server/src', 'ffi/src', 'bindings/node/src', 'bindings/python/src']


def main():
    dirs = [a for a in sys.argv[1:] if not a.startswith('--')] or DIRS
    circles = sum(cycles(d) for d in dirs)
    return 1 if circles and '--check' in sys.argv else 0


def cycles(src_dir):
    """Prints the pairs and circles of one crate's sources; returns how many circles."""
    src = os.path.abspath(src_dir)
    files = {}
    for root, _, names in os.walk(src):
        for n in names:
            if n.endswith('.rs'):
                p = os.path.join(root, n)
                files[module_of(src, p)] = os.path.relpath(p)
    edges = {f: set() for f in files.values()}
    texts = {f: strip(open(f).read()) for f in files.values()}
    # `pub use x::Y;` re-exports: a path to Y through this file goes on to x.
    reexports = {}
    for mod, f in files.items():
        for m in re.finditer(r'\bpub(?:\([^)]*\))?\s+use\s+([^;]+);', texts[f]):
            for p in use_paths(m.group(1)):
                if p and p[-1] != '*':
                    reexports[(mod, p[-1])] = (mod, p)

    def resolve(base, rest, children_of, depth=0):
        target = base
        i = 0
        for i, part in enumerate(rest):
            if base + (part,) in files:
                base = base + (part,)
                target = base
            else:
                break
        else:
            return target
        name = rest[i]
        if depth < 8 and (target, name) in reexports:
            rmod, p = reexports[(target, name)]
            b, r = resolve_start(rmod, list(p), children_of(rmod))
            if b is not None:
                return resolve(b, r, children_of, depth + 1)
        return target

    def resolve_start(mod, rest, children):
        base = mod
        if rest[0] == 'crate':
            return (), rest[1:]
        if rest[0] in ('self', 'super'):
            while rest and rest[0] in ('self', 'super'):
                if rest.pop(0) == 'super':
                    base = base[:-1]
            return base, rest
        if rest[0] in children:
            return base, rest
        return None, rest

    child_cache = {}

    def children_of(mod):
        if mod not in child_cache:
            child_cache[mod] = set(re.findall(
                r'^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;', texts[files[mod]], re.M))
        return child_cache[mod]

    for mod, f in files.items():
        text = texts[f]
        children = set(re.findall(r'^\s*(?:pub(?:\([^)]*\))?\s+)?mod\s+(\w+)\s*;', text, re.M))
        # Inline modules (`mod tests { … }`): paths in them start one level
        # deeper, so their `super::*` is the file itself.
        inline = []
        for m in re.finditer(r'\bmod\s+(\w+)\s*\{', text):
            depth, i = 1, m.end()
            while depth and i < len(text):
                depth += {'{': 1, '}': -1}.get(text[i], 0)
                i += 1
            inline.append((m.start(), i, m.group(1)))
        paths = []
        for m in re.finditer(r'\buse\s+([^;]+);', text):
            paths += [(m.start(), p) for p in use_paths(m.group(1))]
        # (a visibility such as `pub(in crate::ax)` names no item)
        # Inline paths, outside the `use` items read above.
        code = re.sub(r'\buse\s+[^;]+;|\bpub\(in [^)]*\)', lambda m: ' ' * len(m.group(0)), text)
        paths += [(m.start(), tuple(m.group(0).split('::')))
                  for m in re.finditer(r'\b(?:crate|super|self)(?:::\w+)+', code)]
        paths += [(m.start(), tuple(m.group(0).split('::')))
                  for m in re.finditer(r'(?<![\w:])\w+(?:::\w+)+', code)
                  if m.group(0).split('::')[0] in children]
        for at, p in paths:
            start = mod
            for a, b, name in inline:
                if a <= at < b:
                    start = start + (name,)
            base, rest = resolve_start(start, list(p), children)
            if base is None:
                continue
            t = files.get(resolve(base, rest, children_of))
            if t and t != f:
                edges[f].add(t)
    if '--edges' in sys.argv:
        for f in sorted(edges):
            for t in sorted(edges[f]):
                print(f'{f} -> {t}')
    pairs = sorted({tuple(sorted((a, b))) for a in edges for b in edges[a] if a in edges[b]})
    # Tarjan's strongly connected components.
    index, low, stack, on, sccs, counter = {}, {}, [], set(), [], [0]

    def visit(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
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
                sccs.append(sorted(comp))

    sys.setrecursionlimit(10000)
    for v in sorted(edges):
        if v not in index:
            visit(v)
    print(f'{src_dir}: {len(pairs)} file pairs that import each other, {len(sccs)} circles')
    for a, b in pairs:
        print(f'  {a} <-> {b}')
    for c in sorted(sccs):
        print(f'  circle of {len(c)} files: ' + ', '.join(c))
    return len(sccs)


if __name__ == '__main__':
    sys.exit(main())
