"""browser-use's page state as a cached base plus a diff, in one call.

browser-use builds one ``<browser_state>`` block per step (the serialized
DOM, elements as ``[backend_node_id]<tag …>``) and *replaces* the previous
state message with it, so the model never holds two states and the
provider's prompt cache cannot keep the state, which changes every step.

``attach(llm)`` patches that model object's own ``ainvoke`` (not its class:
``isinstance`` checks keep working) so each request that holds a
``<browser_state>`` block is sent as:

1. browser-use's messages before the state, unchanged;
2. a **base** state: a user message holding a full ``<browser_state>``
   of an earlier step, in a ``<browser_state_base>`` block, marked
   cacheable (browser-use's ``cache`` flag, which its Anthropic serializer
   turns into a cache breakpoint; OpenAI-style providers cache any prefix);
3. browser-use's state message with its ``<browser_state>`` body replaced by
   the current state as a diff against that base, in the core's words
   (``diff_against_base``), and every other part as browser-use wrote it.

The base is kept per agent run, not per model object: two agents that
share one chat model each diff against their own base. A run is told by
its message history, whose system message browser-use keeps as one object
for the whole run (requests without one share a base of their own). The
base changes when the current tab's URL changes, or when the diff is no
longer much smaller than the state (``rebase_share``). Each request carries
the base and the diff, so the model reads the whole state every step,
whatever it was sent before. Element indices (backend node ids) are left as
they are. Messages without a ``<browser_state>`` block (the judge, message
compaction, any other use of the same model object) pass through untouched.

Supported: browser-use ``SUPPORTED_VERSIONS``; another version, or a state
message this module cannot read, raises ``BrowserUseLayoutError`` rather
than guess.
"""

from __future__ import annotations

import re
import threading
from collections import OrderedDict
from collections.abc import Awaitable, Callable, Sequence
from typing import Any, Optional, TypeVar

from . import DiffOptions, ResponseDiffError, diff_against_base

__all__ = [
    "SUPPORTED_VERSIONS",
    "BASE_TAG",
    "BrowserUseLayoutError",
    "attach",
    "attached",
    "detach",
    "installed_version",
    "last_answer",
]

SUPPORTED_VERSIONS = ("0.13.14",)
"""browser-use versions whose message layout this module was written for."""

BASE_TAG = "browser_state_base"
"""The tag around the base state."""

_OPEN, _CLOSE = "<browser_state>\n", "\n</browser_state>"
_BLOCK = re.compile(r"<browser_state>\n(.*?)\n</browser_state>", re.S)
# browser-use writes each tab as `Tab <id>: <url> - <title>` and the
# current one as `Current tab: <id>` (agent/prompts.py).
_CURRENT = re.compile(r"^Current tab: (\S+)$", re.M)
_TAB = re.compile(r"^Tab (\S+): (\S*)", re.M)
# The attribute the patched method carries its state in (and how detach
# and a second attach recognise it).
_MARK = "__response_diff_attach__"
# Agent runs whose base one attached model keeps; past it the run used
# least recently goes (its next request starts from a new base).
_MAX_RUNS = 64

T = TypeVar("T")


class BrowserUseLayoutError(ResponseDiffError, RuntimeError):
    """browser-use's version or message layout is not one this module knows."""


def installed_version() -> Optional[str]:
    """The installed browser-use's version, None when it is not installed."""
    from importlib import metadata

    try:
        return metadata.version("browser-use")
    except metadata.PackageNotFoundError:
        return None


def _check_version() -> None:
    found = installed_version()
    if found is None:
        raise BrowserUseLayoutError(
            "response_diff.browser_use needs browser-use: pip install 'browser-use=="
            + SUPPORTED_VERSIONS[-1]
            + "'"
        )
    if found not in SUPPORTED_VERSIONS:
        raise BrowserUseLayoutError(
            f"browser-use {found} is not a version response_diff.browser_use knows the message "
            f"layout of (supported: {', '.join(SUPPORTED_VERSIONS)}); install one of those "
            f"(pip install 'browser-use=={SUPPORTED_VERSIONS[-1]}') or detach"
        )


def _current_url(state: str) -> Optional[str]:
    """The current tab's URL as browser-use lists it, else the list of tabs."""
    tabs = dict(_TAB.findall(state))
    current = _CURRENT.search(state)
    if current is not None and current.group(1) in tabs:
        return tabs[current.group(1)]
    return "\n".join(f"{k} {v}" for k, v in sorted(tabs.items())) or None


class _Base:
    """One agent run's base state and the URL it was of."""

    def __init__(self, history: Any) -> None:
        # Kept alive with its base, so its id is never another run's.
        self.history = history
        self.state: Optional[str] = None
        self.url: Optional[str] = None


class _Session:
    """One attached model: a base per agent run (per message history)."""

    def __init__(self, original: Any, settings: DiffOptions, rebase_share: float) -> None:
        self.original = original  # the instance's own ainvoke before attach, if it had one
        self.settings = settings
        self.rebase_share = rebase_share
        self.runs: OrderedDict[int, _Base] = OrderedDict()
        self.lock = threading.Lock()
        # What the last request sent, for hosts and tests: rebase, mode.
        self.last: Optional[dict[str, Any]] = None

    def _run_of(self, messages: Sequence[Any]) -> _Base:
        """The base of the run ``messages`` belong to: browser-use keeps one
        system message object per agent run (MessageHistory.system_message)."""
        first = messages[0] if messages else None
        history = first if getattr(first, "role", None) == "system" else None
        run = self.runs.get(id(history))
        if run is None or run.history is not history:
            run = self.runs[id(history)] = _Base(history)
            while len(self.runs) > _MAX_RUNS:
                self.runs.popitem(last=False)
        self.runs.move_to_end(id(history))
        return run

    def rewrite(self, messages: Sequence[Any]) -> list[Any]:
        # The system prompt describes the block; the state is a user message.
        holders = [
            i
            for i, m in enumerate(messages)
            if getattr(m, "role", None) == "user" and _BLOCK.search(_text_of(m))
        ]
        if not holders:
            return list(messages)
        if len(holders) > 1:
            raise BrowserUseLayoutError(
                f"{len(holders)} user messages hold a <browser_state> block; browser-use "
                f"{'/'.join(SUPPORTED_VERSIONS)} sends one: detach response_diff.browser_use "
                "for this model or report the layout"
            )
        at = holders[0]
        message = messages[at]
        part, text = _text_part(message)
        blocks = _BLOCK.findall(text)
        if len(blocks) != 1 or text.count(_OPEN) != 1 or text.count(_CLOSE) != 1:
            raise BrowserUseLayoutError(
                "the state message holds the <browser_state> block in an unknown layout "
                f"({text.count(_OPEN)} openings, {text.count(_CLOSE)} closings); detach "
                "response_diff.browser_use for this model or report the layout"
            )
        state = blocks[0]
        url = _current_url(state)
        with self.lock:
            run = self._run_of(messages)
            base = run.state if url == run.url else None
            answer = diff_against_base(
                base,
                state,
                self.settings,
                base_name=f"<{BASE_TAG}>",
                rebase_share=self.rebase_share,
            )
            if answer.rebase:
                run.state, run.url = state, url
            base = run.state
            self.last = {"rebase": answer.rebase, "mode": answer.mode}
        assert base is not None
        base_message = type(message)(content=f"<{BASE_TAG}>\n{base}\n</{BASE_TAG}>", cache=True)
        new_text = text.replace(_OPEN + state + _CLOSE, _OPEN + answer.text + _CLOSE, 1)
        current = _with_text(message, part, new_text)
        return [*messages[:at], base_message, current, *messages[at + 1 :]]


def _text_of(message: Any) -> str:
    content = getattr(message, "content", None)
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "\n".join(p.text for p in content if getattr(p, "type", None) == "text")
    return ""


def _text_part(message: Any) -> tuple[Optional[int], str]:
    """Where the message's <browser_state> text is: the content itself
    (None) or the index of the text part holding it."""
    content = message.content
    if isinstance(content, str):
        return None, content
    for i, p in enumerate(content):
        if getattr(p, "type", None) == "text" and _OPEN in p.text:
            return i, p.text
    raise BrowserUseLayoutError("the <browser_state> block is split across content parts")


def _with_text(message: Any, part: Optional[int], text: str) -> Any:
    """A copy of browser-use's message with the text replaced and its cache
    mark off (the base before it is the cached prefix); the original is left
    as browser-use keeps it."""
    if part is None:
        content: Any = text
    else:
        content = list(message.content)
        content[part] = content[part].model_copy(update={"text": text})
    return message.model_copy(update={"content": content, "cache": False})


def attach(llm: T, *, rebase_share: Optional[float] = None, **options: Any) -> T:
    """Sends ``llm`` a cached base state and a diff against it in place of
    browser-use's full state each step; returns the same ``llm``.

    ``options``: diff options (``DiffOptions``' names: ``format``,
    ``context``, ``maxDiffLines`` …). Unless set, ``ignoreWhitespace`` is
    off, so the state is kept byte for byte, and ``context`` is 0. ``rebase_share``: past this share
    of the state's bytes the diff gives way to a new base (``REBASE_SHARE``).
    Raises ``BrowserUseLayoutError`` for a browser-use version whose layout
    is unknown. Attaching twice keeps the first attachment's settings.
    """
    _check_version()
    if attached(llm):
        return llm
    given = {k.replace("_", "").lower() for k in options}
    merged = dict(options)
    # Byte for byte, and no context lines by default: the model has the
    # base right above, and each line of browser-use's state names its
    # element (D61).
    if "ignorewhitespace" not in given:
        merged["ignoreWhitespace"] = False
    if "context" not in given:
        merged["context"] = 0
    settings = DiffOptions(merged)
    # A bad share fails here, not on the first request.
    diff_against_base(None, "", settings, base_name="", rebase_share=rebase_share)
    from . import REBASE_SHARE

    session = _Session(
        llm.__dict__.get("ainvoke") if hasattr(llm, "__dict__") else None,
        settings,
        REBASE_SHARE if rebase_share is None else rebase_share,
    )
    inner: Callable[..., Awaitable[Any]] = llm.ainvoke  # type: ignore[attr-defined]

    async def ainvoke(messages: list[Any], output_format: Any = None, **kwargs: Any) -> Any:
        return await inner(session.rewrite(messages), output_format, **kwargs)

    setattr(ainvoke, _MARK, session)
    # The instance's own attribute: what browser-use does itself to patch
    # a model (object.__setattr__ also passes pydantic models' checks).
    object.__setattr__(llm, "ainvoke", ainvoke)
    return llm


def _session(llm: Any) -> Optional[_Session]:
    own = getattr(llm, "__dict__", {}).get("ainvoke")
    return getattr(own, _MARK, None)


def attached(llm: Any) -> bool:
    """Whether ``attach`` patched this model object."""
    return _session(llm) is not None


def last_answer(llm: Any) -> Optional[dict[str, Any]]:
    """What the last rewritten request sent: ``{"rebase", "mode"}``."""
    s = _session(llm)
    return None if s is None else s.last


def detach(llm: T) -> T:
    """Undoes ``attach``: ``llm.ainvoke`` is its own again. Returns ``llm``."""
    s = _session(llm)
    if s is None:
        return llm
    if s.original is None:
        object.__delattr__(llm, "ainvoke")
    else:
        object.__setattr__(llm, "ainvoke", s.original)
    return llm
