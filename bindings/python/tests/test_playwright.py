"""response_diff.playwright on real Playwright for Python and Debian's
Chromium, pages served from 127.0.0.1: sync and async, refs carried across
a framework re-render, locator(ref) acting on the right element after it,
a ref that is gone, a frame, a new document, and expectation filters."""

from __future__ import annotations

import asyncio
import http.server
import os
import re
import shutil
import threading
from collections.abc import Iterator

import pytest

import response_diff as rd

pytest.importorskip("playwright", reason="pip install playwright (make python-test does)")
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
if not (os.path.exists(CHROMIUM) or shutil.which(CHROMIUM)):
    pytest.skip(f"no Chromium at {CHROMIUM} (make setup installs Debian's chromium)", allow_module_level=True)

from playwright.async_api import async_playwright  # noqa: E402
from playwright.sync_api import Browser, Page, sync_playwright  # noqa: E402

import response_diff.playwright as rdp  # noqa: E402
from response_diff.playwright import AsyncPageDiff, PageDiff, RefGoneError  # noqa: E402

ARGS = ["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]

# A list rebuilt from scratch on every change, as a virtual-DOM framework
# that keys nothing does: every node is new, nothing the agent sees moves.
TODO = """<!doctype html><html><head><title>Todo</title></head><body>
<h1>Todo</h1>
<ul id="list" aria-label="Todos"></ul>
<p id="log">clicked: none</p>
<button id="rerender">Re-render</button>
<button id="add">Add Milk</button>
<script>
  let items = ['Tea', 'Bread', 'Jam'];
  function render() {
    const ul = document.getElementById('list');
    ul.innerHTML = '';
    for (const it of items) {
      const li = document.createElement('li');
      li.textContent = it + ' ';
      const b = document.createElement('button');
      b.textContent = 'Done';
      b.onclick = () => { document.getElementById('log').textContent = 'clicked: ' + it; };
      const d = document.createElement('button');
      d.textContent = 'Delete';
      d.onclick = () => { items = items.filter(x => x !== it); render(); };
      li.append(b, d);
      ul.append(li);
    }
  }
  render();
  document.getElementById('rerender').onclick = render;
  document.getElementById('add').onclick = () => { items.push('Milk'); render(); };
</script></body></html>"""

FRAMED = """<!doctype html><html><head><title>Framed</title></head><body>
<h1>Outer</h1>
<iframe title="inner" src="/inner"></iframe>
</body></html>"""

INNER = """<!doctype html><html><body>
<p id="said">inner: none</p>
<button onclick="document.getElementById('said').textContent='inner: pressed'">Press me</button>
</body></html>"""

OTHER = """<!doctype html><html><head><title>Other</title></head><body>
<h1>Other page</h1><a href="/todo">Back to todos</a><button>Only here</button>
</body></html>"""

PAGES = {"/todo": TODO, "/framed": FRAMED, "/inner": INNER, "/other": OTHER}


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = PAGES.get(self.path.split("?")[0])
        if body is None:
            self.send_error(404)
            return
        data = body.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def origin() -> Iterator[str]:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    with sync_playwright() as pw:
        b = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()


@pytest.fixture
def page(browser: Browser) -> Iterator[Page]:
    p = browser.new_page()
    yield p
    p.close()


def ref_of(snapshot: str, pattern: str) -> str:
    """The ref on the first line matching ``pattern`` (a regex)."""
    for line in snapshot.splitlines():
        if re.search(pattern, line):
            m = re.search(r"\[ref=([A-Za-z0-9]+)\]", line)
            assert m, line
            return m.group(1)
    raise AssertionError(f"no line matches {pattern!r} in:\n{snapshot}")


def done_ref(snapshot: str, item: str) -> str:
    """The ref of the Done button in the list item ``item``."""
    lines = snapshot.splitlines()
    at = next(i for i, line in enumerate(lines) if re.search(rf"- listitem.*{item}|text: {item}", line))
    return ref_of("\n".join(lines[at:]), r'button "Done"')


def test_first_answer_is_the_full_snapshot_then_unchanged(page: Page, origin: str) -> None:
    page.goto(origin + "/todo")
    pd = PageDiff(page)
    first = pd.snapshot()
    assert first.startswith("### Page state\n- Page URL: " + origin + "/todo\n- Page Title: Todo")
    assert "### Page snapshot\n```yaml\n" in first
    # The full AI snapshot, with Playwright's own refs on the first read.
    assert pd.last_snapshot is not None and pd.last_snapshot in first
    assert pd.last_snapshot == page.aria_snapshot(mode="ai")
    again = pd.snapshot()
    assert again == "### Page snapshot\nNo changes since the previous response (%d lines)." % len(
        pd.last_snapshot.splitlines()
    )


def test_rerender_keeps_refs_and_locator_clicks_the_right_element(page: Page, origin: str) -> None:
    page.goto(origin + "/todo")
    pd = PageDiff(page)
    pd.snapshot()
    before = pd.last_snapshot
    assert before is not None
    bread = done_ref(before, "Bread")
    page.evaluate("render()")
    # Every node of the list is new; Playwright gives them new refs ...
    raw = page.aria_snapshot(mode="ai")
    assert done_ref(raw, "Bread") != bread
    # ... the agent keeps the ones it was shown, and reads that nothing changed.
    answer = pd.snapshot()
    assert "No changes since the previous response" in answer
    assert pd.last_snapshot == before
    # The ref it was shown acts on the element that stands there now.
    pd.locator(bread).click()
    assert page.locator("#log").text_content() == "clicked: Bread"
    # Re-rendered again, not read: locator() reads the page itself.
    page.get_by_role("button", name="Re-render").click()
    pd.locator(done_ref(before, "Jam")).click()
    assert page.locator("#log").text_content() == "clicked: Jam"


def test_a_change_is_a_patch_that_rebuilds_the_page(page: Page, origin: str) -> None:
    page.goto(origin + "/todo")
    pd = PageDiff(page)
    pd.snapshot()
    before = pd.last_snapshot
    assert before is not None
    page.get_by_role("button", name="Add Milk").click()
    answer = pd.snapshot()
    assert answer.startswith("### Page snapshot (patch)\n"), answer
    body = re.search(r"```\n(.*)\n```", answer, re.S)
    assert body is not None
    # Nothing lost: the patch applied to what the agent held is the page.
    assert rd.apply_snapshot_patch(before, body.group(1)) == pd.last_snapshot
    assert 'listitem' in answer and "Milk" in answer
    assert len(answer) < len(pd.last_snapshot or "")


def test_a_gone_ref_raises_naming_it(page: Page, origin: str) -> None:
    page.goto(origin + "/todo")
    pd = PageDiff(page)
    pd.snapshot()
    shown = pd.last_snapshot
    assert shown is not None
    tea_done = done_ref(shown, "Tea")
    tea_delete = ref_of(shown[shown.index("Tea"):], r'button "Delete"')
    pd.locator(tea_delete).click()
    with pytest.raises(RefGoneError) as err:
        pd.locator(tea_done)
    assert err.value.ref == tea_done
    assert str(err.value) == (
        f'ref {tea_done} (button "Done") is no longer on the page; '
        "take a new snapshot (snapshot()) and use a ref from it"
    )
    assert isinstance(err.value, rd.ResponseDiffError) and isinstance(err.value, LookupError)
    with pytest.raises(RefGoneError, match="ref e999 is no longer on the page"):
        pd.locator("e999")


def test_a_new_document_never_lends_an_old_ref(page: Page, origin: str) -> None:
    page.goto(origin + "/todo")
    pd = PageDiff(page)
    pd.snapshot()
    shown = pd.last_snapshot
    assert shown is not None
    bread = done_ref(shown, "Bread")
    page.goto(origin + "/other")
    # Playwright numbers the new document from e1 again: the old ref must
    # not name whatever now has that number.
    with pytest.raises(RefGoneError):
        pd.locator(bread)
    answer = pd.snapshot()
    assert "- Page URL: " + origin + "/other" in answer
    only = ref_of(pd.last_snapshot or "", r'button "Only here"')
    assert pd.locator(only).text_content() == "Only here"
    assert not re.search(rf"\[ref={bread}\]", pd.last_snapshot or "")
    # Back on the first URL: its elements get their old refs back.
    page.goto(origin + "/todo")
    answer = pd.snapshot()
    assert done_ref(pd.last_snapshot or "", "Bread") == bread
    assert "since the last snapshot of this URL" in answer or "No changes" in answer, answer


def test_frame_refs(page: Page, origin: str) -> None:
    page.goto(origin + "/framed")
    page.frame_locator("iframe").locator("button").wait_for()
    pd = PageDiff(page)
    first = pd.snapshot()
    press = ref_of(pd.last_snapshot or "", r'button "Press me"')
    assert re.fullmatch(r"f\d+e\d+", press), press
    assert f"[ref={press}]" in first
    pd.locator(press).click()
    assert page.frames[1].locator("#said").text_content() == "inner: pressed"
    answer = pd.snapshot()
    assert "inner: pressed" in answer and "```yaml" not in answer, answer


def test_expectation_filters(page: Page, origin: str) -> None:
    page.goto(origin + "/todo")
    scoped = PageDiff(page, expectation={"snapshotOptions": {"selector": 'list "Todos"'}})
    text = scoped.snapshot()
    assert '- list "Todos"' in text and "Re-render" not in text and "heading" not in text
    short = PageDiff(page, expectation=rd.Expectation(snapshot_options={"maxLength": 80}))
    text = short.snapshot()
    body = re.search(r"```yaml\n(.*?)\n```", text, re.S)
    assert body is not None and 0 < len(body.group(1)) <= 80
    assert re.search(r"more lines \(\d+ characters\) not shown", text), text
    # Diffing off: the full page every time.
    off = PageDiff(page, expectation={"diffOptions": {"enabled": False}})
    assert off.snapshot() == off.snapshot()
    assert "```yaml" in off.snapshot()
    # Line diffs instead of patches.
    lines = PageDiff(page, expectation={"snapshotOptions": {"diff": "lines"}})
    lines.snapshot()
    page.get_by_role("button", name="Add Milk").click()
    text = lines.snapshot()
    assert "(diff since the previous snapshot)" in text and "```diff" in text, text
    # Bad options fail at once, naming the field.
    with pytest.raises(rd.InvalidOptionError, match="maxLength"):
        PageDiff(page, expectation={"snapshotOptions": {"maxLength": -1}})


def test_full_shows_everything_and_rebases(page: Page, origin: str) -> None:
    page.goto(origin + "/todo")
    pd = PageDiff(page)
    pd.snapshot()
    page.get_by_role("button", name="Add Milk").click()
    full = pd.snapshot(full=True)
    assert "```yaml" in full and "Milk" in full
    assert "No changes since the previous response" in pd.snapshot()


def test_shared_detector_keeps_pages_apart(browser: Browser, origin: str) -> None:
    detector = rd.ResponseDiffDetector(max_stored_bytes=1 << 20)
    a, b = browser.new_page(), browser.new_page()
    try:
        a.goto(origin + "/todo")
        b.goto(origin + "/other")
        da, db = PageDiff(a, detector=detector), PageDiff(b, detector=detector)
        assert "```yaml" in da.snapshot() and "```yaml" in db.snapshot()
        assert "No changes" in da.snapshot() and "No changes" in db.snapshot()
        assert 0 < detector.memory_usage() <= 1 << 20
    finally:
        a.close()
        b.close()


def test_an_old_playwright_gets_a_clear_error(page: Page, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(rdp, "playwright_version", lambda: "1.58.2")
    with pytest.raises(rdp.PlaywrightVersionError) as err:
        PageDiff(page)
    assert "needs Playwright for Python 1.59 or later" in str(err.value)
    assert "found 1.58.2" in str(err.value)


def test_async_page_diff(origin: str) -> None:
    async def run() -> None:
        async with async_playwright() as pw:
            b = await pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
            try:
                page = await b.new_page()
                await page.goto(origin + "/todo")
                pd = AsyncPageDiff(page)
                first = await pd.snapshot()
                assert "```yaml" in first
                before = pd.last_snapshot or ""
                jam = done_ref(before, "Jam")
                await page.evaluate("render()")
                assert "No changes" in await pd.snapshot()
                await (await pd.locator(jam)).click()
                assert await page.locator("#log").text_content() == "clicked: Jam"
                await page.get_by_role("button", name="Add Milk").click()
                assert (await pd.snapshot()).startswith("### Page snapshot (patch)")
                with pytest.raises(RefGoneError):
                    await pd.locator("e999")
            finally:
                await b.close()

    # The sync fixtures run Playwright's loop on this thread: run this one on its own.
    failure: list[BaseException] = []

    def main() -> None:
        try:
            asyncio.run(run())
        except BaseException as e:  # noqa: BLE001 (re-raised below)
            failure.append(e)

    t = threading.Thread(target=main)
    t.start()
    t.join()
    if failure:
        raise failure[0]


def test_a_snapshot_the_core_cannot_read_gives_the_pages_own_refs(page: Page, origin: str) -> None:
    page.goto(origin + "/todo")
    pd = PageDiff(page)
    pd.snapshot()
    carried = pd.last_snapshot or ""
    # A re-render: Playwright's refs change, the agent's stay.
    page.evaluate("render()")
    pd.snapshot()
    real = page.aria_snapshot(mode="ai")
    jam_pw = done_ref(real, "Jam")
    assert jam_pw != done_ref(carried, "Jam"), "the test needs Playwright's refs to differ"
    bread_carried = done_ref(carried, "Bread")
    # One element twice: the core cannot carry it.
    line = next(x for x in real.splitlines() if f"[ref={jam_pw}]" in x)
    broken = real + "\n" + line.strip()
    original = page.aria_snapshot
    page.aria_snapshot = lambda **kw: broken  # type: ignore[method-assign]
    try:
        answer = pd.snapshot()
    finally:
        page.aria_snapshot = original  # type: ignore[method-assign]
    assert answer == rd.OWN_REFS_NOTE + "\n" + broken
    assert pd.last_snapshot == broken
    # A ref means what the agent was last shown: Playwright's own.
    pd.locator(jam_pw).click()
    assert page.locator("#log").text_content() == "clicked: Jam"
    # The carried map is gone: the carried Bread ref is now Playwright's ref
    # of that name, whatever it names, never Bread by the old map.
    loc = None
    try:
        loc = pd.locator(bread_carried)
    except RefGoneError:
        pass
    if loc is not None:
        assert loc.evaluate("e => e.outerHTML") == page.locator(f"aria-ref={bread_carried}").evaluate("e => e.outerHTML")
    # The next readable snapshot is answered whole.
    assert "```yaml" in pd.snapshot()
