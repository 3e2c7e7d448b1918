"""Diffs for agents built on Playwright for Python, in one object.

``PageDiff(page)`` (``playwright.sync_api``) and ``AsyncPageDiff(page)``
(``playwright.async_api``) stand where an agent calls
``page.aria_snapshot(mode="ai")`` every step:

- ``snapshot()`` returns the page's AI snapshot in full the first time, then
  the smallest lossless answer against what this object last returned for
  the page: one line when nothing changed, a patch by ref, a line diff, or
  the full text. The core renders it, with the rules and words of the
  response-diff MCP server (a ``### Page snapshot`` section, and a ``### Page
  state`` section when the URL or title changed).
- Refs are carried across re-renders (the core's ``RefCarrier``): an element
  keeps the ref the agent was shown even when a framework rebuilt its node.
- ``locator(ref)`` turns a ref the agent was shown into a Playwright
  ``Locator`` for the element it names now, translating to Playwright's
  current ref (``aria-ref=…``) and reading the page again when needed.

Everything here converts between Playwright and the core: the text the
agent reads comes from ``render_response``; no text is made in Python.
"""

from __future__ import annotations

import inspect
import json
import re
import uuid
from collections.abc import Generator, Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, TypeVar, Union

from . import (
    OWN_REFS_NOTE,
    PAGE_VIEWS,
    Expectation,
    RefCarrier,
    RefCarry,
    ResponseDiffDetector,
    ResponseDiffError,
    render_response,
)

if TYPE_CHECKING:  # pragma: no cover - typing only
    from playwright.async_api import Locator as AsyncLocator
    from playwright.async_api import Page as AsyncPage
    from playwright.sync_api import Locator, Page

__all__ = ["AsyncPageDiff", "PageDiff", "PlaywrightVersionError", "RefGoneError", "MIN_PLAYWRIGHT"]

MIN_PLAYWRIGHT = (1, 59)
"""The oldest Playwright for Python with ``page.aria_snapshot(mode="ai")``."""

# The tool whose defaults the answer is rendered under: the server answers a
# read of the page with the same sections.
_TOOL = "browser_snapshot"
# A document's identity: its time origin, unique per document load.
_DOC_SCRIPT = "() => performance.timeOrigin"
# A page that navigates while it is read is read again, this many times at
# most; then the last read is filed under the document seen after it.
_READ_TRIES = 5
# Labels of refs shown earlier kept for the error on a ref that is gone;
# past it they start over (the error then names the ref alone).
_MAX_LABELS = 20_000

_Layer = Union[Expectation, Mapping[str, Any], str]


class PlaywrightVersionError(ResponseDiffError, ImportError):
    """The installed Playwright for Python is older than ``MIN_PLAYWRIGHT``."""

    def __init__(self, found: str) -> None:
        need = ".".join(map(str, MIN_PLAYWRIGHT))
        super().__init__(
            f"response_diff.playwright needs Playwright for Python {need} or later "
            f'(page.aria_snapshot(mode="ai")); found {found}. '
            f"Upgrade it: pip install 'playwright>={need}'"
        )
        self.found = found


class RefGoneError(ResponseDiffError, LookupError):
    """A ref names no element on the page now: read the page again."""

    def __init__(self, ref: str, label: Optional[str]) -> None:
        what = f"ref {ref} ({label})" if label else f"ref {ref}"
        super().__init__(
            f"{what} is no longer on the page; take a new snapshot "
            f"(snapshot()) and use a ref from it"
        )
        self.ref = ref
        self.label = label


def _version_tuple(text: str) -> tuple[int, ...]:
    parts = []
    for p in text.split(".")[:3]:
        m = re.match(r"\d+", p)
        parts.append(int(m.group()) if m else 0)
    return tuple(parts)


def playwright_version() -> str:
    """The installed Playwright for Python's version (``0`` when it is not installed)."""
    from importlib import metadata

    try:
        return metadata.version("playwright")
    except metadata.PackageNotFoundError:
        return "0"


def check_playwright() -> None:
    """Raises ``PlaywrightVersionError`` unless Playwright >= ``MIN_PLAYWRIGHT`` is installed."""
    found = playwright_version()
    if _version_tuple(found) < MIN_PLAYWRIGHT:
        raise PlaywrightVersionError(found)


def _elements(nodes: Sequence[Mapping[str, Any]]) -> Iterator[Mapping[str, Any]]:
    stack = list(reversed(nodes))
    while stack:
        e = stack.pop()
        yield e
        stack.extend(reversed(e.get("children") or []))


_T = TypeVar("_T")
# A step of a PageDiff's work: it yields what it asks of Playwright (a
# value, or an awaitable under ``async_api``) and is sent back the answer.
_Steps = Generator[Any, Any, _T]


def _run(steps: _Steps[_T]) -> _T:
    """Runs ``steps`` against ``playwright.sync_api``: answers are values."""
    try:
        asked = next(steps)
        while True:
            asked = steps.send(asked)
    except StopIteration as done:
        out: _T = done.value
        return out


async def _run_async(steps: _Steps[_T]) -> _T:
    """Runs ``steps`` against ``playwright.async_api``: awaits what it asks,
    and raises a failure inside it, where its ``try`` can take it."""
    try:
        asked = next(steps)
        while True:
            try:
                answer = (await asked) if inspect.isawaitable(asked) else asked
            except Exception as e:  # noqa: BLE001 - handed to the steps, which re-raise
                asked = steps.throw(e)
            else:
                asked = steps.send(answer)
    except StopIteration as done:
        out: _T = done.value
        return out


class _State:
    """What a PageDiff knows and does, once for ``sync_api`` and
    ``async_api``: each step yields the Playwright call it needs (see
    ``_run`` and ``_run_async``)."""

    def __init__(
        self,
        expectation: Union[_Layer, Sequence[_Layer], None],
        detector: Optional[ResponseDiffDetector],
    ) -> None:
        check_playwright()
        if expectation is None:
            layers: list[_Layer] = []
        elif isinstance(expectation, (Expectation, Mapping, str)):
            layers = [expectation]
        else:
            layers = list(expectation)
        # Diffing is what this object is for: on unless the caller turns it off.
        self.layers: list[_Layer] = [{"diffOptions": {"enabled": True}}, *layers]
        Expectation.resolve(_TOOL, *self.layers)  # a bad option fails here, not mid-session
        self.detector = detector if detector is not None else ResponseDiffDetector()
        # Playwright's refs as node ids, after content (docs/DECISIONS.md
        # D60): Playwright keeps an element's ref while its role and name
        # stay, so a todo whose delete button turned to text on a hover is
        # the same row, where by content alone it would be another.
        self.carrier = RefCarrier(views_per_key=PAGE_VIEWS, stable_ids=True)
        # A key space of its own, in the carrier and in a shared detector.
        self.page_key = f"page-{uuid.uuid4().hex}"
        self.generation = 0
        # The document (its frames' time origins) the latest read is of:
        # Playwright numbers refs per document from e1, so a ref held from
        # another document names nothing here.
        self.doc: Optional[tuple[Any, ...]] = None
        # The latest read could not be carried: the agent was shown
        # Playwright's own refs, which mean themselves.
        self.raw = False
        # Every ref shown → `role "name"`, for the error on a ref that is gone.
        self.labels: dict[str, str] = {}
        self.carried: Optional[RefCarry] = None
        self.last_text: Optional[str] = None

    # ------------------------------------------------------------ reading

    def doc_of(self, page: Any) -> _Steps[tuple[Any, ...]]:
        out = []
        for frame in page.frames:
            try:
                out.append((yield frame.evaluate(_DOC_SCRIPT)))
            except Exception:  # a frame detached while we asked: a new document
                out.append(None)
        return tuple(out)

    def read(self, page: Any) -> _Steps[Optional[RefCarry]]:
        """Reads the page and carries its refs; None when the core could not
        read the snapshot (then the agent gets Playwright's refs as they are)."""
        for _ in range(_READ_TRIES):
            doc = yield from self.doc_of(page)
            text = yield page.aria_snapshot(mode="ai")
            after = yield from self.doc_of(page)
            if after == doc:  # no navigation in between
                break
        try:
            carried = self.carrier.carry(self.page_key, text)
        except ResponseDiffError:
            # Its refs are Playwright's now: no carried ref may stand for one.
            self.carrier.clear(self.page_key)
            self.doc, self.raw, self.carried, self.last_text = after, True, None, text
            return None
        # Only now: a carry that raised leaves the previous document in force.
        self.doc, self.raw, self.carried, self.last_text = after, False, carried, carried.snapshot
        if len(self.labels) > _MAX_LABELS:
            self.labels = {}
        for e in _elements(carried.tree.to_list()):
            r = e.get("ref")
            if r:
                name = e.get("name") or ""
                self.labels[r] = f"{e['role']} {json.dumps(name, ensure_ascii=False)}" if name else str(e["role"])
        return carried

    # ----------------------------------------------------------- answering

    def snapshot(self, page: Any, full: bool) -> _Steps[str]:
        carried = yield from self.read(page)
        if carried is None:
            # The agent now holds the page's own text: the next answer is
            # whole, against nothing it was shown under carried refs.
            self.generation += 1
            return OWN_REFS_NOTE + "\n" + (self.last_text or "")
        # After the read: the URL and title of the document it was of.
        url = page.url
        title = yield page.title()
        if full:
            # The agent now holds the whole page: the next answer is against it.
            self.generation += 1
        key = f"{self.page_key}\x1f{self.generation}"
        response = {"page": {"url": url, "title": title}, "snapshot": {"aria": carried.snapshot}}
        return render_response(response, _TOOL, self.layers, detector=self.detector, key=key).text

    def playwright_ref(self, ref: str) -> Optional[str]:
        if self.raw:
            return ref
        return self.carrier.source_ref(self.page_key, ref)

    def locate(self, page: Any, ref: str) -> _Steps[Any]:
        label = self.labels.get(ref)
        pw = self.playwright_ref(ref)
        if pw is not None and (yield from self.doc_of(page)) == self.doc:
            loc = page.locator(_selector(pw))
            if (yield loc.count()) == 1:
                return loc
        yield from self.read(page)
        pw = self.playwright_ref(ref)
        if pw is not None:
            loc = page.locator(_selector(pw))
            if (yield loc.count()) == 1:
                return loc
        raise RefGoneError(ref, label or self.labels.get(ref))


def _selector(pw_ref: str) -> str:
    return f"aria-ref={pw_ref}"


class PageDiff:
    """Diffs of one Playwright page (``playwright.sync_api``) for an agent.

    ``expectation``: the same ``expectation`` as everywhere (an
    ``Expectation``, a dict, JSON text, or a list of layers, lowest first):
    ``snapshotOptions`` (``selector``: a ref or ``role "name"``,
    ``maxLength``, ``diff``: ``patch`` or ``lines``) and ``diffOptions``.
    Diffing is on unless it sets ``diffOptions.enabled`` to False.
    ``detector``: a ``ResponseDiffDetector`` to keep the previous answers in
    (shared across pages if you like: each ``PageDiff`` keeps its own keys;
    its memory cap applies); a new one by default.

    A snapshot the core cannot read is answered as Playwright wrote it,
    after one line (``OWN_REFS_NOTE``) saying its refs are the page's own;
    ``locator`` then takes those refs as they are.
    """

    def __init__(
        self,
        page: Page,
        *,
        expectation: Union[_Layer, Sequence[_Layer], None] = None,
        detector: Optional[ResponseDiffDetector] = None,
    ) -> None:
        self._state = _State(expectation, detector)
        self.page = page

    def snapshot(self, *, full: bool = False) -> str:
        """The page for the agent: in full the first time (or with
        ``full=True``, after which answers are against it), else the
        smallest lossless answer against what this object last returned."""
        return _run(self._state.snapshot(self.page, full))

    @property
    def last_snapshot(self) -> Optional[str]:
        """The latest snapshot read, in full, with the refs the agent sees."""
        return self._state.last_text

    def locator(self, ref: str) -> Locator:
        """A ``Locator`` for the element ``ref`` names now. Raises
        ``RefGoneError`` when no element has that ref any more."""
        loc: Locator = _run(self._state.locate(self.page, ref))
        return loc


class AsyncPageDiff:
    """``PageDiff`` for ``playwright.async_api``: the same, awaited."""

    def __init__(
        self,
        page: AsyncPage,
        *,
        expectation: Union[_Layer, Sequence[_Layer], None] = None,
        detector: Optional[ResponseDiffDetector] = None,
    ) -> None:
        self._state = _State(expectation, detector)
        self.page = page

    async def snapshot(self, *, full: bool = False) -> str:
        """See ``PageDiff.snapshot``."""
        return await _run_async(self._state.snapshot(self.page, full))

    @property
    def last_snapshot(self) -> Optional[str]:
        """See ``PageDiff.last_snapshot``."""
        return self._state.last_text

    async def locator(self, ref: str) -> AsyncLocator:
        """See ``PageDiff.locator``."""
        loc: AsyncLocator = await _run_async(self._state.locate(self.page, ref))
        return loc
