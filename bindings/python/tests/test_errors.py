"""Each exception class: raised for its core error, with the core's fields,
in the hierarchy (ResponseDiffError plus the matching built-in)."""

from __future__ import annotations

import errno
import shutil
from pathlib import Path

import pytest

import response_diff as rd

TINY = '{"url": "/", "structure": {}}'


def test_hierarchy() -> None:
    assert issubclass(rd.ResponseDiffError, Exception)
    for cls, builtin in [
        (rd.InvalidOptionError, ValueError),
        (rd.ParseError, ValueError),
        (rd.InputTooLargeError, ValueError),
        (rd.InvalidNameError, ValueError),
        (rd.BaselineNotFoundError, LookupError),
        (rd.ImageError, ValueError),
        (rd.StoreIOError, OSError),
    ]:
        assert issubclass(cls, rd.ResponseDiffError) and issubclass(cls, builtin), cls
        assert cls.__module__ == "response_diff" and cls.__doc__


def test_invalid_option() -> None:
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.ResponseDiffDetector(deadline_ms=0)
    e = err.value
    assert e.field == "detectorConfig.deadlineMs"
    assert e.message == "0 is out of range; use 1 to 60000, or leave it out for no deadline"
    assert str(e) == f"invalid option `{e.field}`: {e.message}"
    # Values Python cannot send as JSON are refused the same way.
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.DiffOptions(threshold=float("nan"))
    assert err.value.field == "diffOptions.threshold"
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.DiffOptions(context={1, 2})
    assert err.value.field == "diffOptions.context"


def test_parse() -> None:
    with pytest.raises(rd.ParseError) as err:
        rd.parse_snapshot('- main:\n  - button "Save')
    assert (err.value.what, err.value.line) == ("aria snapshot", 2)
    with pytest.raises(rd.ParseError) as err:
        rd.DomFingerprint('{\n"url": "/",\n"structure": {"landmarks": 7}}')
    assert err.value.what == "fingerprint" and err.value.line == 3
    with pytest.raises(rd.ParseError) as err:
        rd.Tree.from_json('[{"role": "x", "nmae": "y"}]')
    assert err.value.what == "JSON tree" and "nmae" in err.value.message


def test_input_too_large() -> None:
    d = rd.ResponseDiffDetector(max_input_bytes=16)
    with pytest.raises(rd.InputTooLargeError) as err:
        d.detect("k", "x" * 17)
    assert (err.value.what, err.value.size, err.value.limit) == ("response text", 17, 16)
    with pytest.raises(rd.InputTooLargeError):
        d.store("k", "é" * 9)  # 18 bytes: the limit counts bytes
    with pytest.raises(rd.InputTooLargeError) as err:
        rd.DomFingerprint(" " * (3 * 1024 * 1024))
    assert err.value.what == "fingerprint"


def test_invalid_name() -> None:
    store = rd.BaselineStore()
    for bad in ["../etc/passwd", "", "a/b", "CON", "x" * 65]:
        with pytest.raises(rd.InvalidNameError) as err:
            store.save(bad, TINY)
        assert err.value.reason
    with pytest.raises(rd.InvalidNameError) as err:
        store.get("a b")
    assert err.value.name == "a b"


def test_baseline_not_found() -> None:
    store = rd.BaselineStore()
    store.save("home", TINY)
    with pytest.raises(rd.BaselineNotFoundError) as err:
        store.compare("checkout", TINY)
    assert err.value.name == "checkout" and err.value.known == ["home"]
    assert "known: home" in str(err.value)
    with pytest.raises(LookupError):
        store.get("deadbeef")


def test_image() -> None:
    with pytest.raises(rd.ImageError) as err:
        rd.render_response(
            {"images": [{"mimeType": "image/png", "data": b"not a png"}]},
            "browser_take_screenshot",
            {"imageOptions": {"maxWidth": 10}},
        )
    assert "image/png" in err.value.message


def test_store_io(tmp_path: Path) -> None:
    file = tmp_path / "file"
    file.write_text("x")
    with pytest.raises(rd.StoreIOError) as err:
        rd.BaselineStore(file)
    assert err.value.path == str(file) and isinstance(err.value, OSError)
    d = tmp_path / "gone"
    store = rd.BaselineStore(d)
    shutil.rmtree(d)
    with pytest.raises(rd.StoreIOError) as err:
        store.save("home", TINY)
    assert err.value.errno == errno.ENOENT
    assert str(err.value).startswith("i/o error on ")


def test_catching_the_base_class() -> None:
    for call in [
        lambda: rd.Expectation(bogus=1),
        lambda: rd.parse_snapshot('- "'),
        lambda: rd.BaselineStore().get("nope"),
    ]:
        with pytest.raises(rd.ResponseDiffError):
            call()


def test_wrong_python_types_are_type_errors() -> None:
    d = rd.ResponseDiffDetector()
    with pytest.raises(TypeError):
        d.detect("k", 42)  # type: ignore[arg-type]
    with pytest.raises(TypeError):
        rd.parse_snapshot(None)  # type: ignore[arg-type]
