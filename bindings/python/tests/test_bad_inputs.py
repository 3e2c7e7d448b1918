"""The bad-input matrix (tests/fixtures/bad-inputs/matrix.json), the same
file the Rust, C and Node tests read: every case raises its typed exception
with a message naming what was wrong, or gives its defined result. Deep
inputs run on this (main) thread, whose stack is the interpreter's."""

from __future__ import annotations

import json
import math
from typing import Any

import pytest

import response_diff as rd
from conftest import FIXTURES

MATRIX = json.loads((FIXTURES / "bad-inputs" / "matrix.json").read_text(encoding="utf-8"))
CASES = MATRIX["cases"]

FINGERPRINT = '{"url": "/", "structure": {"interactive": [{"type": "button", "text": "Save"}]}}'

CLASSES = {
    "invalid_option": rd.InvalidOptionError,
    "parse": rd.ParseError,
    "input_too_large": rd.InputTooLargeError,
    "invalid_name": rd.InvalidNameError,
    "baseline_not_found": rd.BaselineNotFoundError,
    "python:UnicodeEncodeError": UnicodeEncodeError,
}


def gen_string(v: Any) -> str:
    if isinstance(v, str):
        return v
    g = v["$gen"]
    if g == "repeat":
        return v["unit"] * (v["bytes"] // len(v["unit"]))
    if g == "nest":
        d = v["depth"]
        return v["prefix"] + v["open"] * d + v["middle"] + v["close"] * d + v["suffix"]
    if g == "chain":
        d = v["depth"]
        return "".join(" " * i + (v["last"] if i + 1 == d else v["line"]) + "\n" for i in range(d))
    if g == "hex":
        # The closest a Python str gets to invalid UTF-8: lone surrogates.
        return bytes.fromhex(v["hex"]).decode("utf-8", "surrogateescape")
    raise AssertionError(f"unknown generator {g}")


def option(v: Any) -> Any:
    """An option value as Python passes it: `$text`/`$json` as the text
    (the bindings accept option text), `$float` as a real float."""
    if isinstance(v, dict):
        if "$text" in v:
            return gen_string(v["$text"])
        if "$json" in v:
            return gen_string(v["$json"])
        if "$float" in v:
            return float(v["$float"])
        if "$gen" in v:
            return gen_string(v)
        return {k: option(x) for k, x in v.items()}
    if isinstance(v, list):
        return [option(x) for x in v]
    return v


def call(api: str, args: dict[str, Any]) -> dict[str, Any]:
    s = lambda k: gen_string(args[k]) if k in args and args[k] is not None else None  # noqa: E731
    o = lambda k: option(args[k]) if k in args else None  # noqa: E731
    out: dict[str, Any] = {}
    if api == "detector.new":
        rd.ResponseDiffDetector(o("config"))
    elif api == "detector.detect":
        d = rd.ResponseDiffDetector(o("config"))
        if "previous" in args:
            d.detect(s("key"), s("previous"), o("options"))
        r = d.detect(s("key"), s("text"), o("options"))
        out = {"mode": r.mode, "text": r.formatted_diff}
    elif api == "diff.compare":
        r = rd.compare_texts(s("old"), s("new"), o("options"))
        out = {"mode": r.mode}
    elif api == "expectation.validate":
        rd.Expectation(o("expectation"))
    elif api == "response.render":
        r = rd.render_response(o("response"), s("tool"), o("layers"))
        out = {"text": r.text}
    elif api == "tree.parse":
        t = rd.parse_snapshot(s("text"), lenient=bool(args.get("lenient")))
        out = {"roots": len(t.roots), "text": t.to_aria()}
    elif api == "tree.print":
        out = {"text": rd.Tree.from_json(s("json")).to_aria()}
    elif api == "tree.diff":
        out = {"text": rd.tree_diff(s("old"), s("new"), o("options")).render()}
    elif api == "fingerprint.parse":
        rd.DomFingerprint(s("json"))
    elif api == "fingerprint.compare":
        out = {"text": str(rd.compare_fingerprints(s("baseline"), s("current"), s("threshold")))}
    elif api == "baseline.save":
        rd.BaselineStore().save(s("name"), FINGERPRINT)
    elif api == "baseline.compare":
        store = rd.BaselineStore()
        store.save("home", FINGERPRINT)
        out = {"text": str(store.compare(s("against"), FINGERPRINT))}
    elif api == "since.read":
        r = rd.SinceStore().read(s("key"), s("text"), args.get("since"))
        out = {"text": r.render()}
    else:
        raise AssertionError(f"unknown api {api}")
    return out


def expectation(case: dict[str, Any]) -> dict[str, Any] | None:
    mine = case.get("python")
    if mine is None:
        return case["expect"]
    if "skip" in mine:
        return None
    return mine["expect"]


@pytest.mark.parametrize("case", CASES, ids=[c["name"] for c in CASES])
def test_bad_input(case: dict[str, Any]) -> None:
    want = expectation(case)
    if want is None:
        pytest.skip(case["python"]["skip"])
    if "ok" in want:
        out = call(case["api"], case["args"])
        ok = want["ok"]
        if "mode" in ok:
            assert out["mode"] == ok["mode"]
        if "roots" in ok:
            assert out["roots"] == ok["roots"]
        if "contains" in ok:
            assert ok["contains"] in out["text"]
        return
    cls = CLASSES[want["error"]]
    with pytest.raises(cls) as info:
        call(case["api"], case["args"])
    e = info.value
    message = str(e)
    if "field" in want:
        assert e.field == want["field"], message
    if "what" in want:
        assert e.what == want["what"], message
    if "line" in want:
        assert e.line == want["line"], message
    for needle in want.get("message", []):
        assert needle in message, f"{needle!r} not in {message[:300]!r}"


def test_the_matrix_is_whole() -> None:
    assert len(CASES) >= 60
    ran = [c for c in CASES if expectation(c) is not None]
    assert len(ran) >= 60
    assert math.isnan(option({"$float": "NaN"}))
