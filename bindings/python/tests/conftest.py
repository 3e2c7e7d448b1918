"""Shared helpers: the repository's fixtures (the same files the Rust, C
and Node tests read) and the Rust tests' golden outputs (insta snapshots)."""

from __future__ import annotations

from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[3]
FIXTURES = ROOT / "tests" / "fixtures"
CORE_SNAPSHOTS = ROOT / "core" / "tests" / "snapshots"
FINGERPRINT_SNAPSHOTS = FIXTURES / "fingerprint" / "snapshots"


def fixture(relative: str) -> str:
    return (FIXTURES / relative).read_text(encoding="utf-8")


def golden(path: Path) -> str:
    """The body of an insta snapshot file (the text after its header)."""
    text = path.read_text(encoding="utf-8")
    assert text.startswith("---\n"), path
    header_end = text.index("\n---\n", 4) + len("\n---\n")
    # insta trims trailing whitespace; compare with `same_text`.
    return text[header_end:].rstrip()


def same_text(value: str, expected: str) -> bool:
    return value.rstrip() == expected


@pytest.fixture
def root() -> Path:
    return ROOT
