"""Response diff: the detector, options, formatter and compare_texts on the
shared fixtures (tests/fixtures/diff), checked against the Rust goldens."""

from __future__ import annotations

import json

import pytest

import response_diff as rd
from conftest import CORE_SNAPSHOTS, fixture, golden, same_text

CASES = {
    "case01_one_line": "diff",
    "case02_list_item_added": "diff",
    "case03_modal_inserted": "diff",
    "case04_navigation": "full",
    "case05_identical": "unchanged",
    "case06_whitespace_only": "unchanged",
    "case07_error_banner": "diff",
}
FORMATS = ["unified", "split", "minimal"]


def pair(case: str) -> tuple[str, str]:
    return fixture(f"diff/{case}.before.yml"), fixture(f"diff/{case}.after.yml")


def run(case: str, **options: object) -> rd.DiffResult:
    before, after = pair(case)
    d = rd.ResponseDiffDetector()
    assert d.detect("tab", before, **options).mode == "first"
    return d.detect("tab", after, **options)


@pytest.mark.parametrize("fmt", FORMATS)
@pytest.mark.parametrize("case", sorted(CASES))
def test_fixture_modes_and_goldens(case: str, fmt: str) -> None:
    r = run(case, enabled=True, format=fmt)
    assert r.mode == CASES[case]
    snap = CORE_SNAPSHOTS / f"diff_golden__{case}__{fmt}.snap"
    if snap.exists():
        assert same_text(r.formatted_diff, golden(snap))
    if case == "case04_navigation":
        first_line = golden(CORE_SNAPSHOTS / f"diff_golden__{case}__{fmt}__first_line.snap")
        assert r.formatted_diff.splitlines()[0] == first_line
        assert r.formatted_diff.endswith(pair(case)[1])
    if case == "case05_identical":
        assert r.formatted_diff == "No changes since the previous response (67 lines)."


@pytest.mark.parametrize("fmt", FORMATS)
def test_whitespace_only_change_shows_when_not_ignored(fmt: str) -> None:
    r = run("case06_whitespace_only", format=fmt, ignore_whitespace=False)
    assert r.mode == "diff"
    snap = CORE_SNAPSHOTS / f"diff_golden__case06_whitespace_only__{fmt}__ws_off.snap"
    assert same_text(r.formatted_diff, golden(snap))


def test_result_attributes_match_to_dict_and_to_json() -> None:
    r = run("case01_one_line")
    d = r.to_dict()
    assert d == json.loads(r.to_json())
    assert list(d) == ["hasDifference", "similarity", "changeRatio", "mode", "formattedDiff", "metadata"]
    assert d["mode"] == r.mode == "diff"
    assert d["hasDifference"] is r.has_difference is True
    assert d["similarity"] == r.similarity
    assert r.change_ratio == pytest.approx(1 - r.similarity)
    assert d["formattedDiff"] == r.formatted_diff == str(r)
    m = r.metadata
    assert (m.added_lines, m.removed_lines, m.total_lines) == (1, 1, 67)
    assert m.to_dict() == d["metadata"]
    assert d["metadata"]["addedLines"] == 1
    assert len(m.current_hash) == 16 and m.previous_hash is not None
    assert m.stored and m.exact and not m.budget_exhausted
    assert m.context_lines == 6
    assert "mode='diff'" in repr(r)


def test_options_as_kwargs_dict_json_object_and_snake_aliases_agree() -> None:
    before, after = pair("case02_list_item_added")
    forms = [
        ((), {"format": "split", "context": 1}),
        (({"format": "split", "context": 1},), {}),
        (('{"format": "split", "context": 1}',), {}),
        ((rd.DiffOptions(format="split", context=1),), {}),
        (({"format": "unified"},), {"format": "split", "context": 1}),  # kwargs win
    ]
    texts = set()
    for args, kwargs in forms:
        texts.add(rd.compare_texts(before, after, *args, **kwargs).formatted_diff)
    assert len(texts) == 1
    camel = rd.DiffOptions(maxDiffLines=7, ignoreWhitespace=False)
    snake = rd.DiffOptions(max_diff_lines=7, ignore_whitespace=False)
    assert camel == snake
    assert snake.to_dict() == {
        "enabled": False,
        "threshold": 0.1,
        "format": "unified",
        "maxDiffLines": 7,
        "ignoreWhitespace": False,
        "context": 3,
    }
    assert json.loads(snake.to_json()) == snake.to_dict()
    assert rd.DiffOptions(snake.to_dict()) == snake


def test_detector_store_previous_clear_len_memory() -> None:
    d = rd.ResponseDiffDetector()
    assert len(d) == 0 and d.memory_usage() == 0
    before, after = pair("case01_one_line")
    assert d.store("a", before) is True
    assert d.previous("a") == before and "a" in d and "b" not in d
    assert d.detect("a", after).mode == "diff"
    assert d.previous("a") == after
    d.detect("b", before)
    assert len(d) == 2
    # keys + texts + 96 bytes per entry
    assert d.memory_usage() == len("a") + len(after.encode()) + len("b") + len(before.encode()) + 2 * 96
    assert d.clear("a") is True and d.clear("a") is False
    assert d.detect("a", after).mode == "first"
    d.clear_all()
    assert len(d) == 0 and d.memory_usage() == 0


def test_detector_config_and_store_cap() -> None:
    d = rd.ResponseDiffDetector(max_stored_bytes=200, max_input_bytes=1000, deadline_ms=50)
    assert (d.max_stored_bytes, d.max_input_bytes, d.deadline_ms) == (200, 1000, 50)
    assert rd.ResponseDiffDetector({"maxStoredBytes": 200}).max_stored_bytes == 200
    assert rd.ResponseDiffDetector().max_stored_bytes == rd.DEFAULT_MAX_STORED_BYTES == 10 * 1024 * 1024
    r = d.detect("k", "y" * 500)
    assert r.metadata.stored is False
    assert r.formatted_diff.startswith("(Not kept for the next diff")
    assert d.memory_usage() == 0
    assert d.store("k", "z" * 500) is False


def test_compare_texts_first_and_full() -> None:
    r = rd.compare_texts(None, "a\nb\n")
    assert r.mode == "first" and r.metadata.previous_hash is None
    r = rd.compare_texts("a\nb\n", "a\nc\n")
    assert r.mode == "full"  # 1 of 2 lines changed: a diff would not save anything
    assert r.formatted_diff.startswith("Full response (")


def test_formatter_matches_core_examples() -> None:
    f = rd.DiffFormatter(format="unified", context=1)
    assert f.format("a\nb\nc\n", "a\nB\nc\n") == "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    assert rd.DiffFormatter(format="minimal").format("a\nb\nc\n", "a\nB\nc\n") == "- b\n+ B\n"
    split = rd.DiffFormatter({"format": "split"}).format("a\nb\nc\n", "a\nB\nc\n")
    assert "before:" in split and "after:" in split
    assert rd.DiffFormatter().format("same\n", "same\n") == ""
    assert f.options.format == "unified" and f.options.context == 1


def test_format_diff_is_the_formatter_as_a_function() -> None:
    old, new = "a\nb\nc\n", "a\nB\nc\n"
    assert rd.format_diff(old, new, format="unified", context=1) == "@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    assert rd.format_diff(old, new, {"format": "minimal"}) == "- b\n+ B\n"
    for options in ({}, {"format": "split", "context": 0}, {"ignoreWhitespace": False}):
        assert rd.format_diff(old, new, options) == rd.DiffFormatter(options).format(old, new)
    assert rd.format_diff("same\n", "same\n") == ""
    with pytest.raises(rd.InvalidOptionError) as e:
        rd.format_diff(old, new, context=-1)
    assert e.value.field == "diffOptions.context"


def test_estimate_tokens_is_bytes_over_four_rounded_up() -> None:
    assert rd.estimate_tokens("") == 0
    assert rd.estimate_tokens("abcdefgh") == 2
    assert rd.estimate_tokens("abcdefghi") == 3
    assert rd.estimate_tokens("é") == 1  # 2 UTF-8 bytes


def test_formatter_on_fixture_matches_detector_body() -> None:
    before, after = pair("case03_modal_inserted")
    body = rd.DiffFormatter(format="unified").format(before, after)
    r = rd.compare_texts(before, after, format="unified")
    # The detector's text is a one-line header followed by the formatter's output.
    assert r.formatted_diff.split("\n", 1)[1] == body
