"""response_diff: return only what changed, for browser agents.

Options are accepted as a dict, a JSON string, keyword arguments, or a dict
plus keyword arguments (which win). Names are the JSON's camelCase names
(``maxDiffLines``); snake_case aliases (``max_diff_lines``) work in keyword
arguments and in dict keys at any depth of an option object. Fingerprint and
tree JSON are data, not options: their keys are passed as given.

Results are typed objects with readable attributes, ``to_dict()`` (the same
keys as the JSON every binding returns) and ``to_json()``.

Errors are ``ResponseDiffError`` subclasses that keep the core error's fields
(``InvalidOptionError.field``, ``ParseError.line``, ...). Work that can take
time releases the GIL; every class is safe to share across threads.
"""

import os
from collections.abc import Mapping, Sequence
import pathlib
from typing import Any, Literal, Optional, Union, final

from typing_extensions import Self

__all__ = [
    "DEFAULT_MAX_INPUT_BYTES",
    "DEFAULT_MAX_STORED_BYTES",
    "FINGERPRINT_SCRIPT",
    "OWN_REFS_NOTE",
    "PAGE_VIEWS",
    "REBASE_SHARE",
    "BaselineNotFoundError",
    "BaselineStore",
    "BaseDiff",
    "DiffFormatter",
    "DiffMetadata",
    "DiffOptions",
    "DiffResult",
    "Element",
    "Expectation",
    "Fingerprint",
    "FingerprintChange",
    "FingerprintComparison",
    "Image",
    "ImageError",
    "InputTooLargeError",
    "InvalidNameError",
    "InvalidOptionError",
    "ParseError",
    "RefCarrier",
    "RefCarry",
    "RenderedResponse",
    "ResponseDiffDetector",
    "ResponseDiffError",
    "SinceRead",
    "SinceStore",
    "SnapshotPatch",
    "StoreIOError",
    "Tree",
    "TreeChange",
    "TreeDiff",
    "__version__",
    "compare_fingerprints",
    "apply_snapshot_patch",
    "carrier_key",
    "carry_refs",
    "compare_texts",
    "diff_against_base",
    "estimate_tokens",
    "fingerprint_expression",
    "format_diff",
    "parse_snapshot",
    "render_response",
    "snapshot_patch",
    "tree_diff",
]

__version__: str

FINGERPRINT_SCRIPT: str
"""The page-side fingerprint extractor: JavaScript source of a function
``(options) => fingerprint``. Evaluate it with any driver, e.g. Playwright's
``page.evaluate(FINGERPRINT_SCRIPT, {"scope": "full"})``, and pass the result
to ``Fingerprint``."""

DEFAULT_MAX_STORED_BYTES: int
"""Default cap on a detector's stored bytes (10 MiB)."""

DEFAULT_MAX_INPUT_BYTES: int
"""Default largest text a detector accepts (32 MiB)."""

OWN_REFS_NOTE: str
"""The line to put before a snapshot the core could not read (passed on as
the source wrote it): its refs are the source's own. Drop the page's
carried map too (``RefCarrier.clear``)."""

PAGE_VIEWS: int
"""Views per page a host of a browser page keeps (16): pass it as
``RefCarrier(views_per_key=PAGE_VIEWS)``."""

REBASE_SHARE: float
"""``diff_against_base``'s default: past this share of the state's bytes a
diff gives way to a new base (0.5)."""

_Options = Union[Mapping[str, Any], str, None]
_DiffFormat = Literal["unified", "split", "minimal"]
_Severity = Literal["info", "warning", "error"]
_TreeFormat = Literal["agent", "yaml", "json"]

# ---------------------------------------------------------------- errors

class ResponseDiffError(Exception):
    """Base class of every error raised by response_diff."""

class InvalidOptionError(ResponseDiffError, ValueError):
    """An option had an unknown key, a wrong type or an out-of-range value."""

    field: str
    """Dotted path of the field, e.g. ``expectation.consoleOptions.maxMessages``."""
    message: str
    """What was wrong and what is allowed."""

class ParseError(ResponseDiffError, ValueError):
    """Input text (an aria snapshot, a fingerprint, JSON) could not be parsed."""

    what: str
    """What was being parsed: ``aria snapshot``, ``fingerprint``, ``JSON``, ..."""
    line: int
    """1-based line number of the problem."""
    message: str
    """What was wrong there."""

class InputTooLargeError(ResponseDiffError, ValueError):
    """An input is larger than its limit."""

    what: str
    size: int
    """Its size in bytes."""
    limit: int
    """The limit in bytes."""

class InvalidNameError(ResponseDiffError, ValueError):
    """A baseline name is not allowed (``[A-Za-z0-9._-]{1,64}``), or a hash
    prefix matches several fingerprints."""

    name: str
    reason: str

class BaselineNotFoundError(ResponseDiffError, LookupError):
    """No baseline (or recent capture) has this name or hash."""

    name: str
    known: list[str]
    """Names that do exist (possibly truncated)."""

class ImageError(ResponseDiffError, ValueError):
    """An image could not be decoded or encoded."""

    message: str

class StoreIOError(ResponseDiffError, OSError):
    """A file operation of an on-disk store failed."""

    path: str
    """The file or directory involved."""

# ------------------------------------------------------------- response diff

@final
class DiffOptions:
    """``diffOptions`` with every default filled in.

    ``DiffOptions(format="minimal")``, ``DiffOptions({"maxDiffLines": 20})`` or
    ``DiffOptions('{"threshold": 0.2}')``. Fields: ``enabled`` (False),
    ``threshold`` 0..1 (0.1), ``format`` unified|split|minimal (unified),
    ``maxDiffLines`` 1..1,000,000 (50), ``ignoreWhitespace`` (True),
    ``context`` 0..1,000 (3). Raises ``InvalidOptionError`` naming the field.
    """

    def __new__(cls, options: _Options = None, /, **kwargs: Any) -> Self: ...
    @property
    def enabled(self) -> bool:
        """Hosts diff only when this is on (the detector itself always diffs)."""
    @property
    def threshold(self) -> float:
        """A diff is shown when at most this share of lines changed."""
    @property
    def format(self) -> _DiffFormat:
        """``unified``, ``split`` or ``minimal``."""
    @property
    def max_diff_lines(self) -> int:
        """A longer diff gives the full text instead."""
    @property
    def ignore_whitespace(self) -> bool:
        """Trailing and inner whitespace runs do not count; indentation does."""
    @property
    def context(self) -> int:
        """Unchanged lines shown around each change."""
    def to_dict(self) -> dict[str, Any]:
        """The options as a camelCase dict."""
    def to_json(self) -> str:
        """The options as JSON."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

_DiffOptionsArg = Union[DiffOptions, Mapping[str, Any], str, None]

@final
class DiffMetadata:
    """Counts and hashes of a ``DiffResult``."""

    @property
    def added_lines(self) -> int:
        """Lines only in the current text."""
    @property
    def removed_lines(self) -> int:
        """Lines only in the previous text."""
    @property
    def context_lines(self) -> int:
        """Unchanged lines shown as context in ``formatted_diff``."""
    @property
    def total_lines(self) -> int:
        """Lines in the current text."""
    @property
    def previous_hash(self) -> Optional[str]:
        """blake3 of the previous text, 16 hex digits; None for ``first``."""
    @property
    def current_hash(self) -> str:
        """blake3 of the current text, 16 hex digits."""
    @property
    def stored(self) -> bool:
        """Whether the text was kept for the next call (False when it alone is
        over the store cap)."""
    @property
    def budget_exhausted(self) -> bool:
        """The search's work bound (or an explicit ``deadlineMs``) may have
        cut it short: the diff is still correct but may not be minimal."""
    @property
    def exact(self) -> bool:
        """Whether the counts are exact: always True (the search always
        runs; ``maxDiffLines`` never skips it)."""
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...

@final
class DiffResult:
    """What the detector returns. ``str(result)`` is ``formatted_diff``."""

    @property
    def has_difference(self) -> bool:
        """Whether the texts differ (False for ``first`` and ``unchanged``)."""
    @property
    def similarity(self) -> float:
        """Unchanged lines / max(previous lines, current lines)."""
    @property
    def change_ratio(self) -> float:
        """1 - similarity."""
    @property
    def mode(self) -> Literal["first", "unchanged", "diff", "full"]:
        """``first`` (nothing stored: the full text), ``unchanged`` (one line),
        ``diff`` (the formatted diff with a header) or ``full`` (the full text
        with a note saying why)."""
    @property
    def formatted_diff(self) -> str:
        """What to show the agent."""
    @property
    def metadata(self) -> DiffMetadata: ...
    def to_dict(self) -> dict[str, Any]:
        """``{"hasDifference", "similarity", "changeRatio", "mode",
        "formattedDiff", "metadata": {...}}``."""
    def to_json(self) -> str: ...

@final
class ResponseDiffDetector:
    """Keeps the previous response per key and returns only what changed.

    ``ResponseDiffDetector(max_stored_bytes=1 << 20)`` or
    ``ResponseDiffDetector({"maxStoredBytes": ..., "maxInputBytes": ...,
    "deadlineMs": ...})``. Thread-safe: share one detector across threads;
    ``detect`` and ``store`` release the GIL.
    """

    def __new__(cls, config: _Options = None, /, **kwargs: Any) -> Self: ...
    def detect(
        self, key: str, text: str, options: _DiffOptionsArg = None, /, **kwargs: Any
    ) -> DiffResult:
        """Compares ``text`` with the text stored under ``key``, then stores
        ``text`` in its place. Options as for ``DiffOptions``.

        Raises ``InputTooLargeError`` past ``max_input_bytes`` and
        ``InvalidOptionError`` for bad options."""
    def store(self, key: str, text: str) -> bool:
        """Stores ``text`` under ``key`` without comparing. False when it alone
        is over the store cap (any older text for the key is then dropped)."""
    def previous(self, key: str) -> Optional[str]:
        """The text stored under ``key``, if any."""
    def clear(self, key: str) -> bool:
        """Forgets ``key``; returns whether it was stored."""
    def clear_all(self) -> None:
        """Forgets every key."""
    def memory_usage(self) -> int:
        """Bytes charged against the cap (keys + texts + 96 bytes per entry)."""
    @property
    def max_stored_bytes(self) -> int: ...
    @property
    def max_input_bytes(self) -> int: ...
    @property
    def deadline_ms(self) -> Optional[int]:
        """The wall-clock limit, None (the default) for none: results are
        then deterministic; a limit makes them depend on timing."""
    def __len__(self) -> int:
        """Number of stored keys."""
    def __contains__(self, key: str, /) -> bool: ...

def compare_texts(
    previous: Optional[str], current: str, options: _DiffOptionsArg = None, /, **kwargs: Any
) -> DiffResult:
    """Compares two texts with the detector's decision rule, storing nothing.
    ``previous=None`` gives mode ``first``."""

def format_diff(old: str, new: str, options: _DiffOptionsArg = None, /, **kwargs: Any) -> str:
    """The line diff of two texts in one format (``format``, ``context`` and
    ``ignoreWhitespace`` of the diff options), with no decision rule and no
    header line: ``format_diff(old, new, format="minimal")``. Empty when the
    texts are equal. ``DiffFormatter`` is the same with the options kept."""

def estimate_tokens(text: str) -> int:
    """Estimated tokens of ``text``: UTF-8 bytes / 4, rounded up. Label it
    "estimated tokens (bytes/4)" where you report it; count with a real
    tokenizer for reports."""

@final
class DiffFormatter:
    """The line diff of two texts in one format, with no decision rule and no
    header line. Uses ``format``, ``context`` and ``ignoreWhitespace`` of the
    diff options: ``DiffFormatter(format="split", context=1)``."""

    def __new__(cls, options: _DiffOptionsArg = None, /, **kwargs: Any) -> Self: ...
    @property
    def options(self) -> DiffOptions:
        """The settings it formats with."""
    def format(self, old: str, new: str) -> str:
        """The diff text (empty when the texts are equal)."""

# --------------------------------------------------------------- expectation

@final
class Expectation:
    """Which sections a response includes and how much of each.

    Every field is optional; a field left out takes the tool's default. Keys
    (camelCase, or snake_case aliases): ``includeSnapshot``, ``includeConsole``,
    ``includeDownloads``, ``includeTabs``, ``includeCode`` (bool),
    ``snapshotOptions`` {selector, maxLength, format, diff}, ``consoleOptions``
    {levels, maxMessages, patterns, removeDuplicates}, ``imageOptions``
    {quality, maxWidth, maxHeight, format}, ``diffOptions`` (see
    ``DiffOptions``). Validated on construction: ``InvalidOptionError`` names
    the field (``expectation.consoleOptions.maxMessages``).
    """

    def __new__(cls, expectation: Union[Expectation, Mapping[str, Any], str, None] = None, /, **kwargs: Any
    ) -> Self: ...
    @staticmethod
    def tool_default(tool: str) -> Expectation:
        """The defaults of ``tool`` (with or without a ``browser_`` prefix)."""
    @staticmethod
    def resolve(tool: str, *layers: Union[Expectation, Mapping[str, Any], str]) -> Expectation:
        """``tool``'s defaults merged with ``layers`` (lowest first, e.g.
        global then step), nested objects field by field, every field set."""
    def merge(self, other: Union[Expectation, Mapping[str, Any], str]) -> Expectation:
        """A new expectation: this one with the fields ``other`` sets laid
        over it, nested option objects merged field by field."""
    @property
    def include_snapshot(self) -> Optional[bool]: ...
    @property
    def include_console(self) -> Optional[bool]: ...
    @property
    def include_downloads(self) -> Optional[bool]: ...
    @property
    def include_tabs(self) -> Optional[bool]: ...
    @property
    def include_code(self) -> Optional[bool]: ...
    @property
    def snapshot_options(self) -> Optional[dict[str, Any]]: ...
    @property
    def console_options(self) -> Optional[dict[str, Any]]: ...
    @property
    def image_options(self) -> Optional[dict[str, Any]]: ...
    @property
    def diff_options(self) -> Optional[dict[str, Any]]: ...
    def to_dict(self) -> dict[str, Any]:
        """The fields that are set, camelCase."""
    def to_json(self) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

_Layers = Union[Expectation, Mapping[str, Any], str, Sequence[Union[Expectation, Mapping[str, Any], str]], None]

# ------------------------------------------------------------------ response

@final
class Image:
    """An image content item."""

    @property
    def mime_type(self) -> str: ...
    @property
    def data(self) -> bytes: ...
    def to_dict(self) -> dict[str, Any]:
        """``{"mimeType", "data"}`` with ``data`` in base64."""
    def to_json(self) -> str: ...

@final
class RenderedResponse:
    """A rendered response. ``str(rendered)`` is ``text``."""

    @property
    def text(self) -> str:
        """The Markdown text: ``### `` sections in a fixed order."""
    @property
    def images(self) -> list[Image]:
        """Images, resized and re-encoded per ``imageOptions``."""
    @property
    def is_error(self) -> bool: ...
    @property
    def snapshot_diff(self) -> Optional[DiffResult]:
        """The snapshot diff, when diffing was on and a snapshot was shown."""
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...

def render_response(
    response: Union[Mapping[str, Any], str],
    tool: str,
    expectation: _Layers = None,
    *,
    detector: Optional[ResponseDiffDetector] = None,
    key: Optional[str] = None,
) -> RenderedResponse:
    """Renders a response's sections as Markdown under ``tool``'s defaults
    merged with ``expectation`` (one layer, or a list of layers lowest first).

    ``response`` keys: result, isError, code, tabs [{index, title, url,
    current}], page {url, title}, snapshot {aria, html?}, console [{level,
    text, location?}], downloads [{name, path?}], images [{mimeType, data}]
    (``data`` as base64 text or ``bytes``). With ``detector`` and ``key`` and
    ``diffOptions.enabled`` on, the snapshot is diffed against the previous
    one under ``key``; with diffing off the stored one is left alone."""

@final
class BaseDiff:
    """What to send for a state against a base the agent holds. ``str()``
    is ``text``."""

    @property
    def rebase(self) -> bool:
        """Start a new base: send the current state in full as the base;
        the state then reads ``text`` ("no changes since" it)."""
    @property
    def text(self) -> str:
        """What the state reads in place of its full text: ``No changes
        since <base> (N lines).``, or ``Changes since <base>: <counts>`` and
        the diff in a ```` ```diff ```` block."""
    @property
    def mode(self) -> Literal["unchanged", "diff"]:
        """``diff`` when ``text`` holds a diff, else ``unchanged``."""

def diff_against_base(
    base: Optional[str],
    current: str,
    options: _DiffOptionsArg = None,
    /,
    *,
    base_name: str,
    rebase_share: Optional[float] = None,
    **kwargs: Any,
) -> BaseDiff:
    """``current`` against the base the agent holds (``None``: there is
    none, or the host knows it no longer applies, e.g. the URL changed),
    for hosts that send a cached base and the current state as a diff
    against it. ``base_name``: how the text names the base (the host's tag).
    Past ``rebase_share`` (0..1, ``REBASE_SHARE`` when None) of ``current``'s bytes the diff gives way
    to a new base. Diff options as for ``DiffOptions`` (turn
    ``ignoreWhitespace`` off to keep the state byte for byte)."""

# ---------------------------------------------------------------------- tree

@final
class Element:
    """One element of an accessibility tree (a copy of it and its subtree)."""

    @property
    def role(self) -> str: ...
    @property
    def name(self) -> str:
        """Accessible name; empty when it has none."""
    @property
    def value(self) -> Optional[str]:
        """Inline text after the colon (a textbox's value, a paragraph's text)."""
    @property
    def description(self) -> Optional[str]: ...
    @property
    def ref(self) -> Optional[str]:
        """Element reference (``e12``) the agent acts on."""
    @property
    def states(self) -> dict[str, Union[bool, str]]:
        """Bracketed attributes: a bare flag is True, a valued one a string."""
    @property
    def props(self) -> dict[str, str]:
        """Property lines (``/url``, ``/placeholder``), names without the slash."""
    @property
    def bounds(self) -> Optional[tuple[float, float, float, float]]:
        """``(x, y, width, height)``, if known."""
    @property
    def children(self) -> list[Element]: ...
    def to_aria(self) -> str:
        """The element and its subtree as aria snapshot text."""
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...
    def __len__(self) -> int:
        """Elements in this subtree, itself included."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

@final
class Tree:
    """An accessibility tree. ``str(tree)`` is its aria snapshot text."""

    @staticmethod
    def parse(text: str, *, lenient: bool = False) -> Tree:
        """Same as ``parse_snapshot``."""
    @staticmethod
    def from_json(json: Union[str, Sequence[Any], Mapping[str, Any]]) -> Tree:
        """A tree from its JSON: an array of elements (or one element)."""
    def to_aria(self) -> str: ...
    def to_json(self) -> str:
        """Compact JSON: an array of elements."""
    def to_list(self) -> list[dict[str, Any]]:
        """The JSON form as Python lists and dicts."""
    @property
    def roots(self) -> list[Element]: ...
    def find(self, selector: str) -> Optional[Element]:
        """The first element matching a ref (``e12``) or a role with an
        optional quoted name (``button "Submit"``)."""
    def __len__(self) -> int:
        """Number of elements."""
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

def parse_snapshot(text: str, *, lenient: bool = False) -> Tree:
    """Parses Playwright's aria snapshot text (``- button "Save" [ref=e7]``),
    or chrome-devtools-mcp's (``uid=1_4 button "Save"``) when the first line
    starts with ``uid=``; ``Tree.to_aria()`` prints it back in its dialect.
    A malformed line is a ``ParseError`` with its ``line``, or a text node
    when ``lenient``."""

@final
class TreeChange:
    """One field change of a matched element."""

    @property
    def ref(self) -> Optional[str]: ...
    @property
    def role(self) -> str: ...
    @property
    def name(self) -> str: ...
    @property
    def field(self) -> str:
        """``name``, ``value``, ``state:checked``, ``prop:url``, ``ref``, ``parent``, ..."""
    @property
    def from_(self) -> Optional[str]:
        """The old value (``from`` in JSON); None when absent."""
    @property
    def to(self) -> Optional[str]:
        """The new value; None when absent."""

@final
class TreeDiff:
    """What changed between two trees. ``str(diff)`` renders it in the
    ``format`` it was asked for (``agent`` by default)."""

    @property
    def added(self) -> list[Element]:
        """Elements only in the new tree, each without its children (added
        children have entries of their own)."""
    @property
    def removed(self) -> list[Element]:
        """Elements only in the old tree (descendants included), each without
        its children."""
    @property
    def changed(self) -> list[TreeChange]:
        """Field changes of matched elements, one per field."""
    @property
    def unchanged_count(self) -> int: ...
    @property
    def refs_renumbered(self) -> int:
        """Matched elements whose ref differs (``identity="content"`` only)."""
    @property
    def ts(self) -> int:
        """When the diff was made (ms since the epoch): the default ``ts`` of
        the YAML and JSON forms."""
    @property
    def format(self) -> _TreeFormat:
        """The format asked for: what ``str()`` and ``render()`` use."""
    def is_empty(self) -> bool: ...
    def to_agent(self) -> str:
        """``+ [e3] listitem "Item 2" (in list "Cart")``, ``- ...``, ``~ ...``
        lines, last ``# N elements unchanged``."""
    def to_yaml(self, ts: Optional[int] = None, since: Optional[int] = None) -> str:
        """``{ts, since, diff: {added, removed, changed, unchanged_count}}`` as YAML."""
    def to_json(self, ts: Optional[int] = None, since: Optional[int] = None) -> str:
        """The same as compact JSON."""
    def to_dict(self, ts: Optional[int] = None, since: Optional[int] = None) -> dict[str, Any]: ...
    def render(
        self, format: Optional[_TreeFormat] = None, ts: Optional[int] = None, since: Optional[int] = None
    ) -> str:
        """Renders as ``agent``, ``yaml`` or ``json`` (default: ``format``);
        an unknown format is an ``InvalidOptionError``."""

_TreeArg = Union[Tree, str]

def apply_snapshot_patch(previous: str, patch: str, seen: Optional[Sequence[str]] = None) -> str:
    """Applies a snapshot patch (the body of a ``Page snapshot (patch since
    …)`` section) to the aria snapshot it was taken from and returns the new
    snapshot text. ``seen``: the snapshots the agent was shown earlier in the
    conversation (oldest first), for elements the patch restores ``as last
    shown`` (each from the latest that has its ref). Raises ``ParseError``
    naming the patch line when it does not apply."""
    ...

@final
class SnapshotPatch:
    """A snapshot patch (``- [ref]``, ``- [e1 e2]``, ``~ <element>``, ``~ [ref]
    +expanded``, ``~ focus [ref]``, ``~ order [e2 e1]``, ``+ after [ref]:`` …
    lines) and what it says."""

    @property
    def text(self) -> str: ...
    @property
    def changed(self) -> int: ...
    @property
    def added(self) -> int: ...
    @property
    def restored(self) -> int:
        """Of the added elements, those restored by reference."""
    @property
    def removed(self) -> int: ...
    @property
    def moved(self) -> int:
        """Elements that took another place as they were: among their siblings (``~ order``) or under another parent."""
    @property
    def unchanged(self) -> int: ...
    def summary(self) -> str:
        """``4 changed (~), 3 added (+), 1 removed (-), 266 unchanged``."""
    def to_dict(self) -> dict[str, Any]: ...

def snapshot_patch(
    old: str, new: str, *, seen: Optional[Sequence[str]] = None, restore: bool = True
) -> Optional[SnapshotPatch]:
    """The patch from snapshot ``old`` to ``new`` that rebuilds ``new`` byte
    for byte, or None when the change cannot be said by ref (use a line
    diff). Elements of ``seen`` (the snapshots the agent was shown earlier in
    the conversation, oldest first) come back by reference unless
    ``restore`` is False (for hosts that trim their context)."""
    ...

@final
class RefCarry:
    """A snapshot whose refs were carried over, and the mapping node id →
    ref the host uses to act on the element that now stands there."""

    @property
    def snapshot(self) -> str:
        """The snapshot as aria text, with the carried refs."""
    @property
    def tree(self) -> Tree: ...
    @property
    def refs(self) -> dict[str, str]:
        """Node id → ref for every element with a node id, in document order."""
    @property
    def carried(self) -> int: ...
    @property
    def fresh(self) -> int: ...
    def ref_of(self, node_id: str) -> Optional[str]: ...
    def to_json(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...

@final
class RefCarrier:
    """Keeps the recent views of each page and gives the elements of a new
    snapshot (whose refs are the host's node ids) the refs they had: the same
    element (the tree diff's identity, never different content) keeps its
    ref across re-renders, elements that come back get their old refs, new
    ones get refs never handed out before. Thread-safe.

    ``stable_ids``: the host's node ids name the same node across snapshots
    (Chromium backend node ids, Playwright aria-refs)."""

    def __new__(
        cls, *, views_per_key: int = 8, max_stored_bytes: int = 8388608, stable_ids: bool = False
    ) -> Self: ...
    def carry(self, key: str, snapshot: _TreeArg) -> RefCarry: ...
    def source_ref(self, key: str, carried_ref: str) -> Optional[str]:
        """The page's own ref (the host's node id) that ``carried_ref``, as
        the agent was shown it, names in the latest view of ``key``; None
        when that view did not show it."""
    def clear(self, key: str) -> bool: ...
    def memory_usage(self) -> int: ...

def carrier_key(tab: str, url: str) -> str:
    """The carrier key of a tab's page: the tab, U+001F, and the URL
    without its fragment, so a page seen before in the tab gets its refs
    back."""

def carry_refs(
    previous: Sequence[_TreeArg], snapshot: _TreeArg, *, stable_ids: bool = False
) -> RefCarry:
    """Carries refs without a store: ``previous`` are the earlier snapshots
    as the agent saw them (oldest first)."""
    ...

def tree_diff(old: _TreeArg, new: _TreeArg, options: _Options = None, /, **kwargs: Any) -> TreeDiff:
    """Diffs two trees: ``Tree`` objects, aria snapshot text, or the model's
    JSON text (starting with ``{``).

    Options (the ``treeDiffOptions`` JSON): ``identity`` "refs" (default:
    match by ref, then content) or "content" (ignore refs); ``compareBounds``
    (False); filters applied to both trees first: ``roles`` (keep only
    these), ``prune`` (drop unnamed generic wrappers), ``scope`` (a ref or
    role selector); ``format`` "agent" | "yaml" | "json" (what ``str()``
    renders); ``lenient`` (parse text inputs leniently)."""

@final
class SinceRead:
    """The result of a ``since`` read: a diff, or the full tree with a notice."""

    @property
    def ts(self) -> int:
        """This read's timestamp (ms); pass it as ``since`` next time."""
    @property
    def since(self) -> Optional[int]: ...
    @property
    def notice(self) -> Optional[str]:
        """Why this is the full tree and not a diff (unknown or expired ``since``)."""
    @property
    def diff(self) -> Optional[TreeDiff]: ...
    @property
    def tree(self) -> Optional[Tree]: ...
    def render(self, format: Optional[_TreeFormat] = None) -> str:
        """Renders as ``agent``, ``yaml`` or ``json`` (default: the format asked for)."""
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...

@final
class SinceStore:
    """In-memory ``since`` store: the last ``per_key`` trees of up to ``keys``
    page keys. Thread-safe."""

    def __new__(cls, *, per_key: int = 8, keys: int = 256) -> Self: ...
    def read(
        self,
        key: str,
        tree: _TreeArg,
        since: Optional[int] = None,
        options: _Options = None,
        /,
        **kwargs: Any,
    ) -> SinceRead:
        """Records ``tree`` as the latest read of ``key`` and returns what
        changed since the read ``since`` (or the full tree with a notice when
        ``since`` is unknown or expired). Options as for ``tree_diff``."""
    def clear(self, key: str) -> None:
        """Forgets every tree of ``key``."""

# --------------------------------------------------------------- fingerprint

@final
class Fingerprint:
    """A DOM fingerprint: a compact semantic summary of a page.

    Built from what ``FINGERPRINT_SCRIPT`` returned in the page (a JSON string
    or a dict with snake_case keys): validated (``ParseError``), dynamic text
    normalized, hashed."""

    def __new__(cls, data: Union[str, Mapping[str, Any]]) -> Self: ...
    @staticmethod
    def from_json(json: str) -> Fingerprint: ...
    @property
    def url(self) -> str: ...
    @property
    def title(self) -> str: ...
    @property
    def captured_at(self) -> str: ...
    @property
    def scope(self) -> str: ...
    @property
    def depth(self) -> Literal["minimal", "standard", "detailed"]: ...
    @property
    def viewport(self) -> tuple[int, int]: ...
    @property
    def structure(self) -> dict[str, Any]:
        """landmarks, content, interactive, state."""
    @property
    def hash(self) -> str:
        """blake3 of the canonical normalized fingerprint, 16 hex digits."""
    @property
    def token_count(self) -> int:
        """Estimated tokens of the compact JSON (bytes / 4)."""
    @property
    def is_loading(self) -> bool: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self, *, pretty: bool = False) -> str: ...
    def __eq__(self, other: object, /) -> bool: ...
    def __ne__(self, other: object, /) -> bool: ...
    __hash__: None  # type: ignore[assignment]

DomFingerprint = Fingerprint
"""Deprecated: the former name of ``Fingerprint``."""

@final
class FingerprintChange:
    """One typed change between a baseline and a current fingerprint."""

    @property
    def type(self) -> str:
        """``element_missing``, ``element_hidden``, ``error_appeared``, ..."""
    @property
    def severity(self) -> _Severity: ...
    @property
    def element(self) -> dict[str, Any]:
        """``{"type", "text"?, "selector"?, "level"?}``."""
    @property
    def location(self) -> Optional[str]: ...
    @property
    def was(self) -> Any: ...
    @property
    def now(self) -> Any: ...
    @property
    def description(self) -> str: ...
    def to_dict(self) -> dict[str, Any]: ...
    def to_json(self) -> str: ...

@final
class FingerprintComparison:
    """The result of comparing two fingerprints. ``str()`` is the compact
    text for agents."""

    @property
    def status(self) -> Literal["unchanged", "changed", "loading"]: ...
    @property
    def severity(self) -> Literal["clean", "info", "warning", "error"]: ...
    @property
    def changes(self) -> list[FingerprintChange]:
        """Changes at or above the threshold, errors first."""
    @property
    def unchanged(self) -> list[str]: ...
    @property
    def summary(self) -> str:
        """``2 errors, 1 warning``."""
    @property
    def suppressed(self) -> int:
        """Changes below the threshold, left out of ``changes``."""
    @property
    def baseline_hash(self) -> str: ...
    @property
    def current_hash(self) -> str: ...
    @property
    def is_clean(self) -> bool: ...
    def to_dict(self) -> dict[str, Any]:
        """snake_case keys, as the fingerprint JSON."""
    def to_json(self, *, pretty: bool = False) -> str: ...

_FingerprintArg = Union[Fingerprint, str, Mapping[str, Any]]

def compare_fingerprints(
    baseline: _FingerprintArg, current: _FingerprintArg, severity_threshold: _Severity = "warning"
) -> FingerprintComparison:
    """Compares two fingerprints, reporting changes at or above the threshold."""

def fingerprint_expression(options: _Options = None, /, **kwargs: Any) -> str:
    """A JavaScript expression that runs the extractor with ``scope``
    ("full", "above_fold" or a CSS selector) and ``depth`` ("minimal",
    "standard", "detailed") and evaluates to the fingerprint JSON string."""

@final
class BaselineStore:
    """Named baselines and recent captures, bounded in memory, optionally
    persisted in ``directory`` (created 0700, files 0600). Thread-safe."""

    def __new__(cls,
        directory: Union[str, os.PathLike[str], None] = None,
        *,
        memory_limit: Optional[int] = None,
        recent_limit: Optional[int] = None,
    ) -> Self: ...
    def save(self, name: str, fingerprint: _FingerprintArg) -> None:
        """Saves ``fingerprint`` as baseline ``name`` (``InvalidNameError``
        unless ``[A-Za-z0-9._-]{1,64}``)."""
    def record(self, fingerprint: _FingerprintArg) -> str:
        """Remembers a capture so ``get``/``compare`` find it by hash; returns the hash."""
    def get(self, against: str) -> Fingerprint:
        """A baseline by name, or a recent capture by hash or unique hash
        prefix (``BaselineNotFoundError`` when none)."""
    def compare(
        self, against: str, current: _FingerprintArg, severity_threshold: _Severity = "warning"
    ) -> FingerprintComparison: ...
    def remove(self, name: str) -> bool: ...
    def names(self) -> list[str]: ...
    def memory_usage(self) -> int: ...
    @property
    def directory(self) -> Optional[pathlib.Path]: ...
    def __len__(self) -> int:
        """Named baselines held in memory."""
