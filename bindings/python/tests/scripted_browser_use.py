"""A scripted browser-use run on Debian's chromium, for the attach tests
(test_browser_use.py) and the bench (bench/python/browser_use_bench.py).

The chat model is written here: it implements browser-use's chat-model
interface (``browser_use.llm.base.BaseChatModel``: ``model``, ``provider``,
``name``, ``async ainvoke(messages, output_format=None, **kwargs)``
returning ``ChatInvokeCompletion``) and answers each step with a fixed
action, whose element index it finds in the state it was sent: with
``attach``, the base plus the diff, applied here as any reader would.
Every request is recorded with the state browser-use built for that step
(``agent.message_manager.last_state_message_text``), so a test can check
that what the model could read is that state, byte for byte.

Offline settings (docs/DECISIONS.md D61): no telemetry, no version check,
a scratch HOME, no default extensions, no judge, no vision, and Chromium
behind a proxy on a closed loopback port (pages on 127.0.0.1 are never
proxied) so it reaches nothing else.
"""

from __future__ import annotations

import atexit
import functools
import http.server
import os
import re
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Optional

def offline_env(home: str) -> None:
    """browser-use's offline settings (set before importing it)."""
    os.environ["ANONYMIZED_TELEMETRY"] = "false"
    os.environ["BROWSER_USE_VERSION_CHECK"] = "false"
    os.environ["HOME"] = home
    os.environ["XDG_CONFIG_HOME"] = os.path.join(home, ".config")
    os.environ["XDG_CACHE_HOME"] = os.path.join(home, ".cache")


# The scratch HOME holds every profile and download, and is the temp
# directory too (browser-use makes a downloads folder there on import);
# it goes at exit.
_HOME = tempfile.mkdtemp(prefix="rd-browser-use-")
atexit.register(shutil.rmtree, _HOME, ignore_errors=True)
offline_env(_HOME)
os.environ["TMPDIR"] = _HOME
tempfile.tempdir = _HOME

from browser_use import Agent, BrowserSession  # noqa: E402
from browser_use.llm.base import BaseChatModel  # noqa: E402
from browser_use.llm.views import ChatInvokeCompletion  # noqa: E402

import response_diff.browser_use as rdb  # noqa: E402

ROOT = Path(__file__).resolve().parents[3]
SITE = ROOT / "tests" / "fixtures" / "site"
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

_BLOCK = re.compile(r"<browser_state>\n(.*?)\n</browser_state>", re.S)
_BASE = re.compile(r"<browser_state_base>\n(.*?)\n</browser_state_base>", re.S)
_DIFF = re.compile(r"\A(?:Changes since <browser_state_base>: [^\n]*)\n```diff\n(.*)\n```\Z", re.S)
_HUNK = re.compile(r"^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@")


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: object) -> None:
        pass


@contextmanager
def serve_site() -> Iterator[str]:
    """tests/fixtures/site on 127.0.0.1; yields the origin."""
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(_Quiet, directory=str(SITE)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


def apply_unified(old: str, diff: str) -> str:
    """Applies a unified diff to ``old`` (a reader's check, written here so
    the test does not trust the library it tests)."""
    src = old.split("\n")
    out: list[str] = []
    at = 0  # next line of src to copy
    lines = diff.split("\n")
    i = 0
    no_newline_new = False
    while i < len(lines):
        m = _HUNK.match(lines[i])
        if m is None:
            raise ValueError(f"not a hunk header: {lines[i]!r}")
        start = int(m.group(1)) - (0 if m.group(2) == "0" else 1)
        out.extend(src[at:start])
        at = start
        i += 1
        last = ""
        while i < len(lines) and not lines[i].startswith("@@"):
            line = lines[i]
            if line.startswith("\\"):
                if last == "+":
                    no_newline_new = True
                i += 1
                continue
            tag, text = line[:1], line[1:]
            if tag == " ":
                assert src[at] == text, (src[at], text)
                out.append(text)
                at += 1
            elif tag == "-":
                assert src[at] == text, (src[at], text)
                at += 1
            elif tag == "+":
                out.append(text)
            else:
                raise ValueError(f"bad diff line {line!r}")
            last = tag
            i += 1
    out.extend(src[at:])
    text = "\n".join(out)
    return text if not no_newline_new else text.rstrip("\n")


def text_of(message: Any) -> str:
    content = message.content
    if isinstance(content, str):
        return content
    return "\n".join(p.text for p in content if getattr(p, "type", None) == "text")


def state_of(messages: Sequence[Any]) -> tuple[Optional[str], Optional[str], Optional[str]]:
    """(base, state block as sent, state rebuilt) of one request: the
    rebuilt state is the base with the diff applied, or the block itself
    when there is no base."""
    base = None
    block = None
    for m in messages:
        if getattr(m, "role", None) != "user":
            continue
        t = text_of(m)
        b = _BASE.search(t)
        if b:
            assert base is None, "two base states in one request"
            base = b.group(1)
        s = _BLOCK.search(t)
        if s:
            assert block is None, "two states in one request"
            block = s.group(1)
    if block is None:
        return base, None, None
    if base is None:
        return None, block, block
    if block.startswith("No changes since <browser_state_base> ("):
        return base, block, base
    d = _DIFF.match(block)
    if d is None:
        raise AssertionError(f"a state that is neither a diff nor unchanged:\n{block[:500]}")
    return base, block, apply_unified(base, d.group(1))


def index_of(state: str, label: str, after: Optional[str] = None) -> int:
    """The index of the element whose text is ``label`` (the first after a
    line holding ``after``): browser-use prints ``[index]<tag …/>`` and the
    element's text on the next lines."""
    lines = state.split("\n")
    start = 0
    if after is not None:
        start = next(i for i, line in enumerate(lines) if after in line)
    for i in range(start, len(lines)):
        m = re.search(r"\*?\[(\d+)\]<", lines[i])
        if m and (label in lines[i] or (i + 1 < len(lines) and lines[i + 1].strip() == label)):
            return int(m.group(1))
    raise LookupError(f"no element {label!r}{f' after {after!r}' if after else ''} in the state")


Step = Callable[[str], list[dict[str, Any]]]


@dataclass
class Request:
    messages: list[Any]
    truth: Optional[str]  # browser-use's own <browser_state> for the step
    base: Optional[str]
    sent: Optional[str]
    rebuilt: Optional[str]


class ScriptedModel(BaseChatModel):
    """browser-use's chat-model interface, answering from ``steps``."""

    _verified_api_keys = True

    def __init__(self, steps: Sequence[Step]) -> None:
        self.steps = steps
        self.model = "scripted"
        self.requests: list[Request] = []
        self.agent: Any = None
        self.answered = 0

    @property
    def provider(self) -> str:
        return "scripted"

    @property
    def name(self) -> str:
        return "scripted"

    @property
    def model_name(self) -> str:
        return self.model

    async def ainvoke(self, messages: list[Any], output_format: Any = None, **kwargs: Any) -> Any:
        truth = None
        if self.agent is not None and self.agent.message_manager.last_state_message_text:
            m = _BLOCK.search(self.agent.message_manager.last_state_message_text)
            truth = m.group(1) if m else None
        base, sent, rebuilt = state_of(messages)
        self.requests.append(Request(list(messages), truth, base, sent, rebuilt))
        if output_format is None:
            return ChatInvokeCompletion(completion="ok", usage=None)
        step = self.steps[min(self.answered, len(self.steps) - 1)]
        action = step(rebuilt or "")  # a failure is retried by browser-use with the same step
        self.answered += 1
        data = {"evaluation_previous_goal": "", "memory": "", "next_goal": "", "action": action}
        return ChatInvokeCompletion(completion=output_format.model_validate(data), usage=None)


def cart_steps() -> list[Step]:
    """Ten steps on the shop page, opened before the first (``initial_url``):
    a cart that grows and shrinks, a modal, a search field, an error banner."""

    def quick_add(s: str) -> list[dict[str, Any]]:
        # The modal's own "Add to cart": the one after its "Quick view" title.
        return [{"click": {"index": index_of(s, "Add to cart", after="Creamy Taiwanese oolong.")}}]

    return [
        lambda s: [{"click": {"index": index_of(s, "Add to cart", after="Sencha Kyoto")}}],
        lambda s: [{"click": {"index": index_of(s, "Add to cart", after="Jasmine Pearls")}}],
        lambda s: [{"click": {"index": index_of(s, "Add to cart", after="Assam Breakfast")}}],
        lambda s: [{"click": {"index": index_of(s, "Quick view", after="Oolong Milk")}}],
        quick_add,
        lambda s: [{"click": {"index": index_of(s, "Remove Jasmine Pearls")}}],
        lambda s: [{"input": {"index": index_of(s, "aria-label=Search teas"), "text": "earl grey"}}],
        lambda s: [{"click": {"index": index_of(s, "Checkout")}}],
        lambda s: [{"click": {"index": index_of(s, "Add to cart", after="Silver Needle")}}],
        lambda s: [{"done": {"text": "Cart filled; checkout reported an error", "success": True}}],
    ]


def shop_steps(origin: str) -> list[Step]:
    """Ten steps from a blank tab: the shop, a list that grows, a search, a
    navigation, a form."""
    return [
        lambda s: [{"navigate": {"url": origin + "/index.html"}}],
        lambda s: [{"click": {"index": index_of(s, "Add to cart", after="Sencha Kyoto")}}],
        lambda s: [{"click": {"index": index_of(s, "Add to cart", after="Jasmine Pearls")}}],
        lambda s: [{"click": {"index": index_of(s, "Add to cart", after="Assam Breakfast")}}],
        lambda s: [{"click": {"index": index_of(s, "Remove Jasmine Pearls")}}],
        lambda s: [{"input": {"index": index_of(s, "aria-label=Search teas"), "text": "earl"}}],
        lambda s: [{"click": {"index": index_of(s, "Sign up")}}],
        lambda s: [{"input": {"index": index_of(s, "<input id=name "), "text": "Ada Lovelace"}}],
        lambda s: [{"input": {"index": index_of(s, "<input id=email "), "text": "ada@example.com"}}],
        lambda s: [{"done": {"text": "Added teas and filled the sign-up form", "success": True}}],
    ]


async def run(
    steps: Sequence[Step],
    *,
    attach: bool,
    initial_url: Optional[str] = None,
    max_steps: int = 12,
    **options: Any,
) -> tuple[ScriptedModel, Any]:
    """Runs the agent with the scripted model (first opening ``initial_url``,
    as browser-use's ``initial_actions``); returns (model, history)."""
    home = os.environ["HOME"]
    llm = ScriptedModel(steps)
    if attach:
        rdb.attach(llm, **options)
    session = BrowserSession(
        executable_path=CHROMIUM,
        headless=True,
        args=[
            "--no-sandbox",
            "--no-startup-window",
            "--proxy-server=127.0.0.1:9",
            "--disable-gpu",
            "--disable-background-networking",
            "--disable-component-update",
            "--disable-sync",
        ],
        chromium_sandbox=False,
        enable_default_extensions=False,
        user_data_dir=tempfile.mkdtemp(prefix="profile-", dir=home),
        downloads_path=tempfile.mkdtemp(prefix="downloads-", dir=home),
    )
    agent = Agent(
        task="Add Sencha Kyoto and Assam Breakfast to the cart, search for earl, then sign up as Ada Lovelace",
        llm=llm,
        browser_session=session,
        directly_open_url=False,
        use_judge=False,
        use_vision=False,
        initial_actions=[{"navigate": {"url": initial_url}}] if initial_url else None,
    )
    llm.agent = agent
    try:
        history = await agent.run(max_steps=max_steps)
    finally:
        await session.kill()
    return llm, history
