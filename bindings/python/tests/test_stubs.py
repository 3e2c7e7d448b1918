"""The hand-written stubs match the compiled module (mypy.stubtest) and
type-check; every public name is in the stubs and in __all__."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

import response_diff as rd

STUB = Path(rd.__file__).with_name("__init__.pyi")


def test_stub_and_py_typed_ship_with_the_package() -> None:
    assert STUB.is_file()
    assert STUB.with_name("py.typed").is_file()


def test_every_public_name_is_exported_and_stubbed() -> None:
    from response_diff import _native

    public = {n for n in dir(_native) if not n.startswith("_")} | {"__version__"}
    assert set(rd.__all__) == public
    stub = STUB.read_text(encoding="utf-8")
    for name in rd.__all__:
        assert f"{name}" in stub, name


def test_stubtest() -> None:
    pytest.importorskip("mypy")
    r = subprocess.run(
        [sys.executable, "-m", "mypy.stubtest", "response_diff"],
        capture_output=True,
        text=True,
        cwd=STUB.parent.parent.parent,  # not the package's parent: import the installed module
    )
    assert r.returncode == 0, r.stdout + r.stderr


def test_docstrings_in_stubs() -> None:
    import ast

    tree = ast.parse(STUB.read_text(encoding="utf-8"))
    classes = [n for n in tree.body if isinstance(n, ast.ClassDef)]
    functions = [n for n in tree.body if isinstance(n, ast.FunctionDef)]
    missing = [n.name for n in classes + functions if ast.get_docstring(n) is None]
    assert not missing, f"no docstring: {missing}"
