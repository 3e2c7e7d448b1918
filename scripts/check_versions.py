#!/usr/bin/env python3
"""One version number across the project's manifests, and a CHANGELOG entry
for it. Run by `make test` (and `make dist`): the wheel, the npm packages,
the C tarball and the crate are published under the same number, so a bump
that misses one file fails here rather than on a registry.

Checks: the workspace version in Cargo.toml (every crate inherits it); the
Python package takes it from Cargo.toml (`dynamic = ["version"]`, maturin)
or states the same one; bindings/node/package.json and the platform packages
under bindings/node/npm/ (the published optionalDependencies on them are
written by scripts/dist-npm.mjs from the same number); the newest `## [x.y.z]` heading of CHANGELOG.md.
"""

from __future__ import annotations

import json
import re
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def main() -> int:
    errors: list[str] = []
    cargo = tomllib.loads((ROOT / "Cargo.toml").read_text(encoding="utf-8"))
    version = cargo["workspace"]["package"]["version"]

    for manifest in sorted(ROOT.glob("*/Cargo.toml")) + sorted(ROOT.glob("*/*/Cargo.toml")):
        pkg = tomllib.loads(manifest.read_text(encoding="utf-8")).get("package")
        if pkg is None or manifest.parent.name == "fuzz":
            continue
        v = pkg.get("version")
        if v != {"workspace": True} and v != version:
            errors.append(f"{manifest.relative_to(ROOT)}: version {v!r}; use `version.workspace = true`")

    py = tomllib.loads((ROOT / "bindings/python/pyproject.toml").read_text(encoding="utf-8"))["project"]
    if "version" in py.get("dynamic", []):
        pass  # maturin reads bindings/python/Cargo.toml, which inherits the workspace's.
    elif py.get("version") != version:
        errors.append(f"bindings/python/pyproject.toml: version {py.get('version')!r}, Cargo.toml has {version}")

    node = json.loads((ROOT / "bindings/node/package.json").read_text(encoding="utf-8"))
    if node["version"] != version:
        errors.append(f"bindings/node/package.json: version {node['version']!r}, Cargo.toml has {version}")
    optional = node.get("optionalDependencies", {})
    platforms = sorted((ROOT / "bindings/node/npm").glob("*/package.json"))
    if not platforms:
        errors.append("bindings/node/npm/: no platform packages")
    for p in platforms:
        pkg = json.loads(p.read_text(encoding="utf-8"))
        if pkg["version"] != version:
            errors.append(f"{p.relative_to(ROOT)}: version {pkg['version']!r}, Cargo.toml has {version}")
        # scripts/dist-npm.mjs writes the published optionalDependencies
        # (napi pre-publish's job); any committed pin must agree.
        if pkg["name"] in optional and optional[pkg["name"]] != version:
            errors.append(
                f"bindings/node/package.json: optionalDependencies[{pkg['name']!r}] is "
                f"{optional[pkg['name']]!r}; it must be exactly {version}"
            )

    changelog = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    m = re.search(r"^## \[(\d+\.\d+\.\d+[^\]]*)\]", changelog, flags=re.M)
    if not m or m.group(1) != version:
        errors.append(f"CHANGELOG.md: newest entry is {m.group(1) if m else 'missing'}; add `## [{version}]`")

    for e in errors:
        print(f"check_versions: {e}", file=sys.stderr)
    if not errors:
        print(f"check_versions: {version} everywhere")
    return 1 if errors else 0


if __name__ == "__main__":
    sys.exit(main())
