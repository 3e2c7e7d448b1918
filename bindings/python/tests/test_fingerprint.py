"""DOM fingerprints on the Chromium-captured pairs (tests/fixtures/fingerprint),
checked against the Rust goldens; the baseline store in memory and on disk."""

from __future__ import annotations

import json
import os
import stat
from pathlib import Path

import pytest

import response_diff as rd
from conftest import FINGERPRINT_SNAPSHOTS, fixture, golden, same_text

CASES = range(1, 11)


def fp(name: str) -> rd.DomFingerprint:
    return rd.DomFingerprint(fixture(f"fingerprint/{name}"))


@pytest.mark.parametrize("n", CASES)
def test_golden_comparisons(n: int) -> None:
    before = fp(f"case{n:02}.before.json")
    after = fp(f"case{n:02}.after.json")
    cmp = rd.compare_fingerprints(before, after)
    assert same_text(str(cmp), golden(FINGERPRINT_SNAPSHOTS / f"case{n:02}.text.snap"))
    assert same_text(cmp.to_json(pretty=True), golden(FINGERPRINT_SNAPSHOTS / f"case{n:02}.json.snap"))
    d = cmp.to_dict()
    assert d == json.loads(cmp.to_json())
    assert d["status"] == cmp.status and d["severity"] == cmp.severity and d["summary"] == cmp.summary
    assert [c["type"] for c in d["changes"]] == [c.type for c in cmp.changes]
    assert [c.to_dict() for c in cmp.changes] == d["changes"]
    assert cmp.unchanged == d["unchanged"]


def test_typed_changes() -> None:
    cmp = rd.compare_fingerprints(fp("case07.before.json"), fp("case07.after.json"))
    assert cmp.status == "changed" and cmp.severity == "error" and not cmp.is_clean
    (hidden,) = [c for c in cmp.changes if c.type == "element_hidden"]
    assert hidden.severity == "error" and hidden.element["type"] == "button"
    assert hidden.description and hidden.location
    # case09: the page reloaded with new dates, times, counters and ids.
    same = rd.compare_fingerprints(fp("case09.before.json"), fp("case09.after.json"))
    assert same.status == "unchanged" and same.is_clean and same.changes == []
    assert same.baseline_hash == same.current_hash


def test_threshold() -> None:
    before, after = fp("case10.before.json"), fp("case10.after.json")
    assert rd.compare_fingerprints(before, after, "warning").changes == []
    info = rd.compare_fingerprints(before, after, severity_threshold="info")
    assert info.changes and all(c.severity == "info" for c in info.changes)
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.compare_fingerprints(before, after, "fatal")
    assert err.value.field == "severityThreshold"


def test_fingerprint_attributes() -> None:
    raw = fixture("fingerprint/case09.before.json")
    f = rd.DomFingerprint(raw)
    assert f == rd.DomFingerprint(json.loads(raw)) == rd.DomFingerprint.from_json(raw)
    assert f.url.startswith("http://127.0.0.1:8000/") and len(f.hash) == 16
    assert f.depth == "standard" and f.scope == "full"
    assert f.viewport[0] > 0 and f.token_count > 0 and f.is_loading is False
    assert set(f.structure) >= {"landmarks", "content", "interactive", "state"}
    assert rd.DomFingerprint(f.to_json()) == f
    assert f.to_dict()["hash"] == f.hash
    assert f.captured_at


def test_normalization_example() -> None:
    f = rd.DomFingerprint(
        {
            "url": "http://127.0.0.1:8000/orders/12345",
            "structure": {"interactive": [{"type": "button", "text": "Pay order 98231", "visible": True, "enabled": True}]},
        }
    )
    assert f.url == "http://127.0.0.1:8000/orders/[id]"
    assert f.structure["interactive"][0]["text"] == "Pay order [number]"


def test_script_and_expression() -> None:
    assert "function responseDiffFingerprint(options)" in rd.FINGERPRINT_SCRIPT
    e = rd.fingerprint_expression(scope="main", depth="detailed")
    assert e.startswith("JSON.stringify((") and '"scope":"main"' in e and '"depth":"detailed"' in e
    assert rd.fingerprint_expression() == rd.fingerprint_expression({"scope": "full", "depth": "standard"})


def test_store_save_get_compare_record_remove() -> None:
    store = rd.BaselineStore()
    before, after = fp("case01.before.json"), fp("case01.after.json")
    store.save("dashboard", before)
    assert store.names() == ["dashboard"] and len(store) == 1 and store.memory_usage() > 0
    assert store.get("dashboard") == before
    cmp = store.compare("dashboard", after)
    assert [c.type for c in cmp.changes] == ["element_missing"]
    h = store.record(fixture("fingerprint/case02.after.json"))
    assert store.get(h[:6]).hash == h
    assert store.compare(h, before, "info").status == "changed"
    assert store.remove("dashboard") is True and store.remove("dashboard") is False
    with pytest.raises(rd.BaselineNotFoundError):
        store.get("dashboard")
    assert store.directory is None


def test_store_persists_privately(tmp_path: Path) -> None:
    d = tmp_path / "baselines"
    store = rd.BaselineStore(d, memory_limit=1 << 20, recent_limit=4)
    assert store.directory == d
    store.save("home", fp("case03.before.json"))
    assert stat.S_IMODE(os.stat(d).st_mode) == 0o700
    assert stat.S_IMODE(os.stat(d / "home.json").st_mode) == 0o600
    again = rd.BaselineStore(str(d))
    assert again.names() == ["home"]
    assert again.get("home") == fp("case03.before.json")
