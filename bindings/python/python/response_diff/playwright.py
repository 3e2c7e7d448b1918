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

import itertools
import json
import re
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, Optional, Union

from . import (
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
# Views of a page the carrier matches a new snapshot against: the server's
# number (server/src/refs.rs, VIEWS_PER_PAGE).
_VIEWS_PER_PAGE = 16
# A document's identity: its time origin, unique per document load.
_DOC_SCRIPT = "() => performance.timeOrigin"
# A page that navigates while it is read is read again, this many times at
# most; then the last read is filed under the document seen after it.
_READ_TRIES = 5
# Labels of refs shown earlier kept for errors (server/src/refs.rs, MAX_EARLIER).
_MAX_LABELS = 20_000
_pages = itertools.count(1)

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


class _State:
    """What a PageDiff knows, with no I/O: the sync and async classes read
    the page and hand the texts here."""

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
        # By content, not by Playwright's ref: Playwright gives a node a new
        # ref when its role or name changes (a delete button shown on hover),
        # so its refs name no node the content does not, and matching them
        # first paired rows wrongly (docs/DECISIONS.md D60).
        self.carrier = RefCarrier(views_per_key=_VIEWS_PER_PAGE, stable_ids=False)
        self.page_key = f"page-{next(_pages)}"
        self.generation = 0
        # The document (its frames' time origins) the latest read is of:
        # Playwright numbers refs per document from e1, so a ref held from
        # another document names nothing here.
        self.doc: Optional[tuple[Any, ...]] = None
        # Of the latest carried snapshot: ref → Playwright's ref, ref → label.
        self.to_playwright: dict[str, str] = {}
        # Every ref shown → `role "name"`, for the error on a ref that is gone.
        self.labels: dict[str, str] = {}
        self.carried: Optional[RefCarry] = None

    # ------------------------------------------------------------ carrying

    def carry(self, doc: tuple[Any, ...], text: str) -> RefCarry:
        """Carries refs over to Playwright's snapshot ``text`` of document ``doc``."""
        self.doc = doc
        carried = self.carrier.carry(self.page_key, text)
        self.to_playwright = {r: pw for pw, r in carried.refs.items()}
        if len(self.labels) > _MAX_LABELS:
            self.labels = {}
        for e in _elements(carried.tree.to_list()):
            r = e.get("ref")
            if r:
                name = e.get("name") or ""
                self.labels[r] = f"{e['role']} {json.dumps(name, ensure_ascii=False)}" if name else str(e["role"])
        self.carried = carried
        return carried

    # ----------------------------------------------------------- rendering

    def render(self, url: str, title: str, carried: RefCarry, full: bool) -> str:
        if full:
            # The agent now holds the whole page: the next answer is against it.
            self.generation += 1
        key = f"{self.page_key}\x1f{self.generation}"
        response = {"page": {"url": url, "title": title}, "snapshot": {"aria": carried.snapshot}}
        return render_response(response, _TOOL, self.layers, detector=self.detector, key=key).text

    def playwright_ref(self, ref: str) -> Optional[str]:
        return self.to_playwright.get(ref)

    def gone(self, ref: str, label: Optional[str]) -> RefGoneError:
        return RefGoneError(ref, label)


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
    (shared across pages if you like; its memory cap applies); a new one by
    default.
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

    def _doc(self) -> tuple[Any, ...]:
        out = []
        for frame in self.page.frames:
            try:
                out.append(frame.evaluate(_DOC_SCRIPT))
            except Exception:  # a frame detached while we asked: a new document
                out.append(None)
        return tuple(out)

    def _read(self) -> RefCarry:
        for _ in range(_READ_TRIES):
            doc = self._doc()
            text = self.page.aria_snapshot(mode="ai")
            after = self._doc()
            if after == doc:  # no navigation in between
                break
        return self._state.carry(after, text)

    def snapshot(self, *, full: bool = False) -> str:
        """The page for the agent: in full the first time (or with
        ``full=True``, after which answers are against it), else the
        smallest lossless answer against what this object last returned."""
        carried = self._read()
        # After the read: the URL and title of the document it was of.
        url = self.page.url
        title = self.page.title()
        return self._state.render(url, title, carried, full)

    @property
    def last_snapshot(self) -> Optional[str]:
        """The latest snapshot read, in full, with the refs the agent sees."""
        c = self._state.carried
        return c.snapshot if c is not None else None

    def locator(self, ref: str) -> Locator:
        """A ``Locator`` for the element ``ref`` names now. Raises
        ``RefGoneError`` when no element has that ref any more."""
        label = self._state.labels.get(ref)
        pw = self._state.playwright_ref(ref)
        if pw is not None and self._doc() == self._state.doc:
            loc = self.page.locator(_selector(pw))
            if loc.count() == 1:
                return loc
        self._read()
        pw = self._state.playwright_ref(ref)
        if pw is not None:
            loc = self.page.locator(_selector(pw))
            if loc.count() == 1:
                return loc
        raise self._state.gone(ref, label or self._state.labels.get(ref))


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

    async def _doc(self) -> tuple[Any, ...]:
        out = []
        for frame in self.page.frames:
            try:
                out.append(await frame.evaluate(_DOC_SCRIPT))
            except Exception:
                out.append(None)
        return tuple(out)

    async def _read(self) -> RefCarry:
        for _ in range(_READ_TRIES):
            doc = await self._doc()
            text = await self.page.aria_snapshot(mode="ai")
            after = await self._doc()
            if after == doc:
                break
        return self._state.carry(after, text)

    async def snapshot(self, *, full: bool = False) -> str:
        """See ``PageDiff.snapshot``."""
        carried = await self._read()
        url = self.page.url
        title = await self.page.title()
        return self._state.render(url, title, carried, full)

    @property
    def last_snapshot(self) -> Optional[str]:
        """See ``PageDiff.last_snapshot``."""
        c = self._state.carried
        return c.snapshot if c is not None else None

    async def locator(self, ref: str) -> AsyncLocator:
        """See ``PageDiff.locator``."""
        label = self._state.labels.get(ref)
        pw = self._state.playwright_ref(ref)
        if pw is not None and await self._doc() == self._state.doc:
            loc = self.page.locator(_selector(pw))
            if await loc.count() == 1:
                return loc
        await self._read()
        pw = self._state.playwright_ref(ref)
        if pw is not None:
            loc = self.page.locator(_selector(pw))
            if await loc.count() == 1:
                return loc
        raise self._state.gone(ref, label or self._state.labels.get(ref))
