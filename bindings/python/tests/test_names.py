"""docs/NAMES.md against what each binding exports.

Reads the Python stubs, the Node declarations, the C header and the core's
sources as text (no build needed) and checks that the table names every
exported name, that every name it gives is exported (a Rust name: public in
its module), and that each row's Python and Node names are the same up to
snake_case vs camelCase unless a `by design` note says why. No row may be
marked `drift` (issue 18 removed the last ones).
"""

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[3]
NAMES = ROOT / "docs" / "NAMES.md"
PYI = ROOT / "bindings" / "python" / "python" / "response_diff" / "__init__.pyi"
DTS = ROOT / "bindings" / "node" / "index.d.ts"
HEADER = ROOT / "include" / "response_diff.h"
CORE = ROOT / "core" / "src"

COLUMNS = ("concept", "rust", "c", "python", "node", "note")


def cells(line):
    return [c.strip() for c in line.strip().strip("|").split("|")]


def names(cell):
    return re.findall(r"`([^`]+)`", cell)


def tables():
    """The concept table's rows (dicts) and the alias table's rows."""
    rows, aliases, current = [], [], None
    for line in NAMES.read_text().splitlines():
        if not line.startswith("|"):
            current = None
            continue
        c = cells(line)
        if c[0] == "concept":
            current = rows
            continue
        if c[0] == "alias":
            current = aliases
            continue
        if current is None or set(c[0]) <= {"-"}:
            continue
        if current is rows:
            assert len(c) == len(COLUMNS), f"NAMES.md row has {len(c)} cells: {line}"
            current.append(dict(zip(COLUMNS, c)))
        else:
            current.append({"alias": names(c[0])[0], "language": c[1], "instead": c[2]})
    return rows, aliases


def python_exports():
    text = PYI.read_text()
    block = re.search(r"__all__\s*=\s*\[(.*?)\]", text, re.S)
    assert block, "__all__ not found in the stubs"
    return set(re.findall(r'"([^"]+)"', block.group(1)))


def node_exports():
    """(values, everything): classes, functions and consts; then types too."""
    text = DTS.read_text()
    values = set(
        re.findall(r"^export declare (?:class|function|const) (\w+)", text, re.M)
    )
    types = set(
        re.findall(r"^export (?:declare )?(?:interface|type|const enum|enum) (\w+)", text, re.M)
    )
    return values, values | types


def c_exports():
    text = HEADER.read_text()
    functions = set(re.findall(r"\b(rd_\w+)\s*\(", text))
    handles = set(re.findall(r"typedef struct (rd_\w+)", text))
    return functions | handles


def column(rows, key):
    out = set()
    for r in rows:
        out.update(names(r[key]))
    return out


def aliases_for(aliases, language):
    return {a["alias"] for a in aliases if a["language"] == language}


def test_python_aliases_are_stubbed_and_kept_out_of_all():
    _, aliases = tables()
    stub = PYI.read_text()
    for alias in aliases_for(aliases, "Python"):
        assert re.search(rf"^{alias} = \w+$", stub, re.M), f"{alias} is not aliased in the stubs"
        assert alias not in python_exports(), f"{alias} is deprecated: keep it out of __all__"


def check_column(key, values, everything, language):
    """`values` (what must be listed) against the table's `key` column,
    whose names must all be in `everything`."""
    rows, _ = tables()
    listed = column(rows, key)
    assert values - listed == set(), f"{language} names missing from docs/NAMES.md"
    assert listed - everything == set(), f"docs/NAMES.md names {language} names not exported"


def test_every_python_name_is_in_the_table():
    exported = python_exports()
    check_column("python", exported, exported, "Python")


def test_every_node_name_is_in_the_table():
    _, aliases = tables()
    values, everything = node_exports()
    # A deprecated alias is exported but listed under its alias only.
    check_column("node", values - aliases_for(aliases, "Node"), everything, "Node")


def test_every_c_name_is_in_the_table():
    exported = c_exports()
    check_column("c", exported, exported, "C")


def fold(name):
    return name.replace("_", "").lower()


def test_python_and_node_names_agree():
    rows, _ = tables()
    drift = []
    for r in rows:
        py, node = names(r["python"]), names(r["node"])
        if not py or not node:
            continue
        if fold(py[0]) != fold(node[0]) and not r["note"].startswith("by design"):
            drift.append(f"{r['concept']}: Python {py[0]} vs Node {node[0]}")
    assert drift == [], "names drift without a `by design` note in docs/NAMES.md"


def test_no_row_is_left_drifting():
    rows, _ = tables()
    drifting = [r["concept"] for r in rows if r["note"].lower().startswith("drift")]
    assert drifting == [], "rename these (or say `by design` and why) instead of noting drift"


def core_module(name):
    """The source text of the core's public module `name` ("" if none)."""
    single = CORE / f"{name}.rs"
    if single.exists():
        return single.read_text()
    folder = CORE / name
    if (folder / "mod.rs").exists():
        # Submodules too: a module split by job (tree/carry/) keeps its names.
        return "\n".join(f.read_text() for f in sorted(folder.rglob("*.rs")))
    return ""


def module_exports(name):
    """Names a core module makes public: its own `pub` items (the module
    file, or mod.rs) and what mod.rs re-exports with `pub use`."""
    single = CORE / f"{name}.rs"
    root = single if single.exists() else CORE / name / "mod.rs"
    text = root.read_text()
    items = re.findall(
        r"^pub\s+(?:const\s+|unsafe\s+)?(?:fn|struct|enum|type|const|static|trait|mod)\s+(\w+)",
        text,
        re.M,
    )
    for use in re.findall(r"^pub use ([^;]*);", text, re.M | re.S):
        items += re.findall(r"\b(\w+)\b", use)
    return set(items)


def rust_name_exists(path):
    """Whether `module::Item` (or `module::Item::member`, `Error::Variant`)
    is public in the core, at the grep level of scripts/count_public_api.py."""
    if "!" in path or path == "String":  # a std macro or type, not the core's
        return True
    segments = path.split("::")
    lib = (CORE / "lib.rs").read_text()
    public_mods = set(re.findall(r"^pub mod (\w+);", lib, re.M))
    if segments[0] in public_mods:
        module, rest = segments[0], segments[1:]
    elif re.search(rf"^pub use (\w+)::\{{?[^;]*\b{segments[0]}\b", lib, re.M):
        module = re.search(rf"^pub use (\w+)::\{{?[^;]*\b{segments[0]}\b", lib, re.M).group(1)
        rest = segments
    else:
        return False
    if not rest or rest[0] not in module_exports(module):
        return False
    if len(rest) == 1:
        return True
    member = rest[-1]
    source = core_module(module)
    return bool(
        re.search(rf"\bpub\s+(?:const\s+)?fn\s+{member}\b", source)
        or re.search(rf"^\s+{member}\b\s*[,({{]", source, re.M)  # an enum variant
    )


def test_every_rust_name_is_public_in_the_core():
    rows, _ = tables()
    missing = [n for n in column(rows, "rust") if not rust_name_exists(n)]
    assert missing == [], "docs/NAMES.md names Rust items the core does not make public"


def test_deprecated_aliases_are_in_the_changelog():
    _, aliases = tables()
    changelog = (ROOT / "CHANGELOG.md").read_text()
    missing = [a["alias"] for a in aliases if f"`{a['alias']}`" not in changelog]
    assert missing == [], "deprecated aliases not in CHANGELOG.md"


def test_python_aliases_are_the_same_objects():
    import response_diff as rd

    assert rd.DomFingerprint is rd.Fingerprint
