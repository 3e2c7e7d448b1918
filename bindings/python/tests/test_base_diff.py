"""diff_against_base: a state against a base the agent holds (D61)."""

from __future__ import annotations

import pytest

import response_diff as rd

BASE = "".join(f"[{i}]<button>Add item {i}</button>\n" for i in range(1, 81))


def test_a_small_change_is_a_diff_naming_the_base() -> None:
    now = BASE.replace("Add item 40<", "Added item 40<")
    d = rd.diff_against_base(BASE, now, base_name="<browser_state_base>", ignore_whitespace=False)
    assert (d.rebase, d.mode) == (False, "diff")
    assert d.text.startswith("Changes since <browser_state_base>: 80 lines, 2 changed: +1 \u22121\n```diff\n")
    assert "+[40]<button>Added item 40</button>" in str(d)


def test_unchanged_no_base_and_rewrites() -> None:
    same = rd.diff_against_base(BASE, BASE, base_name="the base")
    assert (same.rebase, same.text) == (False, "No changes since the base (80 lines).")
    fresh = rd.diff_against_base(None, BASE, base_name="the base")
    assert (fresh.rebase, fresh.text) == (True, "No changes since the base (80 lines).")
    assert rd.diff_against_base(BASE, "other\n", base_name="b").rebase
    assert rd.REBASE_SHARE == 0.5


def test_rebase_share() -> None:
    now = BASE.replace("Add item 40<", "Added item 40<")
    assert rd.diff_against_base(BASE, now, base_name="b", rebase_share=0.0).rebase
    with pytest.raises(rd.InvalidOptionError, match="rebaseShare"):
        rd.diff_against_base(BASE, now, base_name="b", rebase_share=2.0)
    with pytest.raises(rd.InvalidOptionError):
        rd.diff_against_base(BASE, now, base_name="b", context=-1)
