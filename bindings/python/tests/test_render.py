"""render_response: sections, filters, the snapshot diff chain, images."""

from __future__ import annotations

import base64
import struct
import zlib

import pytest

import response_diff as rd
from conftest import fixture


def response(aria: str, **extra: object) -> dict:
    r = {
        "result": "Clicked",
        "page": {"url": "http://127.0.0.1:8000/", "title": "Shop"},
        "snapshot": {"aria": aria},
    }
    r.update(extra)
    return r


def test_sections_in_order_and_filters() -> None:
    shop = fixture("aria/shop.yml")
    r = rd.render_response(
        response(
            shop,
            code="await page.click('#buy')",
            tabs=[{"index": 0, "title": "Shop", "url": "http://127.0.0.1:8000/", "current": True}],
            console=[
                {"level": "error", "text": "Cart service down"},
                {"level": "log", "text": "hello"},
                {"level": "error", "text": "Cart service down"},
            ],
        ),
        "browser_click",
        {"consoleOptions": {"levels": ["error"]}},
    )
    t = r.text
    heads = [line for line in t.splitlines() if line.startswith("### ")]
    assert heads == [
        "### Result",
        "### Ran Playwright code",
        "### Open tabs",
        "### Page state",
        "### Page snapshot",
        "### Console messages",
    ]
    assert "Cart service down (×2)" in t and "hello" not in t
    assert r.is_error is False and r.images == [] and r.snapshot_diff is None
    assert str(r) == t
    assert r.to_dict()["text"] == t


def test_selector_scopes_the_snapshot() -> None:
    r = rd.render_response(
        response(fixture("aria/shop.yml")), "browser_snapshot", {"snapshotOptions": {"selector": "navigation"}}
    )
    snap = r.text.split("### Page snapshot\n", 1)[1]
    assert snap.startswith("```yaml\n- navigation")
    assert "Add to cart" not in snap


def test_diff_chain_through_a_detector_and_layers() -> None:
    d = rd.ResponseDiffDetector()
    before = fixture("diff/case02_list_item_added.before.yml")
    after = fixture("diff/case02_list_item_added.after.yml")
    layers = [{"diffOptions": {"enabled": True}}, rd.Expectation(diff_options={"format": "minimal"})]
    first = rd.render_response(response(before), "browser_click", layers, detector=d, key="tab-1")
    assert first.snapshot_diff is not None and first.snapshot_diff.mode == "first"
    second = rd.render_response(response(after), "browser_click", layers, detector=d, key="tab-1")
    assert second.snapshot_diff is not None and second.snapshot_diff.mode == "diff"
    # A patch by ref: shorter than even the minimal line diff, and lossless.
    assert "### Page snapshot (patch)" in second.text
    assert len(second.text) < len(first.text) / 2
    patch = second.snapshot_diff.formatted_diff.split("\n", 1)[1]
    assert rd.apply_snapshot_patch(before, patch) == after.rstrip("\n")
    with pytest.raises(rd.ParseError, match=r"\[e999\] is not in the previous snapshot"):
        rd.apply_snapshot_patch(before, "- [e999] row")
    # Diffing off: the stored snapshot is neither read nor moved.
    peek = rd.render_response(response(before), "browser_click", None, detector=d, key="tab-1")
    assert peek.snapshot_diff is None
    third = rd.render_response(response(after), "browser_click", layers, detector=d, key="tab-1")
    assert third.snapshot_diff is not None and third.snapshot_diff.mode == "unchanged"


def test_detector_needs_a_key() -> None:
    with pytest.raises(TypeError):
        rd.render_response(response("- a"), "browser_click", detector=rd.ResponseDiffDetector())


def test_response_json_string_and_snake_case_keys() -> None:
    a = rd.render_response('{"result": "x", "isError": true}', "browser_click")
    b = rd.render_response({"result": "x", "is_error": True}, "browser_click")
    assert a.is_error and b.is_error and a.text == b.text


def test_unknown_response_key_is_an_invalid_option() -> None:
    with pytest.raises(rd.InvalidOptionError) as err:
        rd.render_response({"reslt": "x"}, "browser_click")
    assert err.value.field == "response.reslt"


def png(width: int, height: int) -> bytes:
    """A solid grey RGB PNG, made with the standard library."""

    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    raw = b"".join(b"\x00" + b"\x80" * (3 * width) for _ in range(height))
    return (
        b"\x89PNG\r\n\x1a\n"
        + chunk(b"IHDR", struct.pack(">IIBBBBB", width, height, 8, 2, 0, 0, 0))
        + chunk(b"IDAT", zlib.compress(raw))
        + chunk(b"IEND", b"")
    )


def test_images_are_resized_and_reencoded() -> None:
    data = png(40, 20)
    for given in (data, base64.b64encode(data).decode()):
        r = rd.render_response(
            {"images": [{"mimeType": "image/png", "data": given}]},
            "browser_take_screenshot",
            {"imageOptions": {"maxWidth": 10, "format": "jpeg", "quality": 50}},
        )
        (img,) = r.images
        assert img.mime_type == "image/jpeg"
        assert img.data[:2] == b"\xff\xd8"
        assert img.to_dict()["data"] == base64.b64encode(img.data).decode()
        # 10 x 5 after keeping the aspect ratio: read the JPEG SOF0 header.
        sof = img.data.index(b"\xff\xc0")
        h, w = struct.unpack(">HH", img.data[sof + 5 : sof + 9])
        assert (w, h) == (10, 5)
