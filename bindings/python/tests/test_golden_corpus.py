"""The golden corpus (tests/fixtures/golden-corpus.json, explained in
core/tests/golden_corpus.rs) from Python: every case's detector result and
line diff, byte for byte (SHA-256 of the UTF-8 bytes and every field).
`make python-test` runs it on the dev build, `make golden-release` on a
release build of the extension."""

from __future__ import annotations

import hashlib
import json

import pytest

import response_diff as rd

from bench_inputs import SIZES, pair
from conftest import FIXTURES

CORPUS = json.loads((FIXTURES / "golden-corpus.json").read_text(encoding="utf-8"))["cases"]


def sha256(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def case_inputs(name: str) -> tuple[str, str]:
    parts = name.split("/")
    if parts[0] == "fixture":
        case = parts[1]
        read = lambda side: (FIXTURES / "diff" / f"{case}.{side}.yml").read_bytes().decode("utf-8")  # noqa: E731
        return read("before"), read("after")
    if parts[0] == "bench":
        size = dict(SIZES)[parts[1]]
        return pair(size, parts[2])
    raise ValueError(f"unknown case {name}")


@pytest.mark.parametrize("case", CORPUS, ids=[c["name"] for c in CORPUS])
def test_case_matches_the_corpus(case: dict) -> None:
    old, new = case_inputs(case["name"])
    assert sha256(old) == case["oldSha256"], "old input (bench_inputs.py drifted from the Rust generator?)"
    assert sha256(new) == case["newSha256"], "new input"

    d = rd.ResponseDiffDetector()
    assert d.store("k", old)
    r = d.detect("k", new, case["options"])
    result = r.to_dict()
    formatted = result.pop("formattedDiff")
    assert formatted == r.formatted_diff
    assert result == case["result"]
    assert r.metadata.budget_exhausted == case["result"]["metadata"]["budgetExhausted"]
    assert len(formatted.encode("utf-8")) == case["formattedDiffBytes"]
    assert sha256(formatted) == case["formattedDiffSha256"]
    if "formattedDiff" in case:
        assert formatted == case["formattedDiff"]

    line_diff = rd.DiffFormatter(case["options"]).format(old, new)
    assert len(line_diff.encode("utf-8")) == case["lineDiffBytes"]
    assert sha256(line_diff) == case["lineDiffSha256"]
    if "lineDiff" in case:
        assert line_diff == case["lineDiff"]
