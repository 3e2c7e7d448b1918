"""response_diff.browser_use.attach on the real, pinned browser-use
(installed in its own venv by scripts/browser-use-env.sh; run by `make
browser-use-test`), driving Debian's chromium on the bundled shop served
from 127.0.0.1, with a scripted chat model (scripted_browser_use.py) that
finds each element index in the state it was sent."""

from __future__ import annotations

import asyncio
import os
import shutil
import threading
from collections.abc import Coroutine
from typing import Any, TypeVar

import pytest

pytest.importorskip("browser_use", reason="make browser-use-test runs these in .venv-browser-use")
if not (os.path.exists(CHROMIUM := os.environ.get("CHROMIUM", "/usr/bin/chromium")) or shutil.which(CHROMIUM)):
    pytest.skip(f"no Chromium at {CHROMIUM} (make setup installs Debian's chromium)", allow_module_level=True)

import scripted_browser_use as sb  # noqa: E402

import response_diff.browser_use as rdb  # noqa: E402

T = TypeVar("T")


def run_async(coro: Coroutine[Any, Any, T]) -> T:
    out: list[T] = []
    err: list[BaseException] = []

    def main() -> None:
        try:
            out.append(asyncio.run(coro))
        except BaseException as e:  # noqa: BLE001 (re-raised below)
            err.append(e)

    t = threading.Thread(target=main)
    t.start()
    t.join()
    if err:
        raise err[0]
    return out[0]


@pytest.fixture(scope="module")
def shop_run() -> tuple[sb.ScriptedModel, Any, str]:
    with sb.serve_site() as origin:
        llm, history = run_async(sb.run(sb.shop_steps(origin), attach=True))
    return llm, history, origin


def test_the_agent_finishes_the_task(shop_run: tuple[sb.ScriptedModel, Any, str]) -> None:
    llm, history, _ = shop_run
    assert history.is_done() and history.is_successful()
    assert history.final_result() == "Added teas and filled the sign-up form"
    # The model found every index in the rebuilt state: no step was retried.
    assert llm.answered == len(sb.shop_steps("")) == len([r for r in llm.requests if r.sent])


def test_each_request_holds_the_base_and_a_diff_and_loses_nothing(
    shop_run: tuple[sb.ScriptedModel, Any, str],
) -> None:
    llm, _, _ = shop_run
    states = [r for r in llm.requests if r.sent is not None]
    assert len(states) >= 10
    diffs = 0
    for i, r in enumerate(states):
        assert r.truth is not None
        # A base in every request, and the state rebuilt from it is
        # browser-use's own, byte for byte.
        assert r.base is not None, f"request {i} has no base"
        assert r.rebuilt == r.truth, f"request {i} lost information"
        roles = [(m.role, m.cache) for m in r.messages]
        # System, then the cached base, then the state (not cached).
        assert roles[:3] == [("system", True), ("user", True), ("user", False)], roles
        assert sb.text_of(r.messages[1]).startswith("<browser_state_base>\n")
        if r.sent.startswith("Changes since <browser_state_base>:"):
            diffs += 1
            assert len(r.sent) < len(r.truth) / 2
    assert diffs >= 3, "the shop steps should be sent as diffs"
    # Everything else in the state message is browser-use's own text.
    last = states[-1]
    text = sb.text_of(last.messages[2])
    assert "<user_request>" in text and "<agent_history>" in text and "<step_info>" in text


def test_a_navigation_rebases(shop_run: tuple[sb.ScriptedModel, Any, str]) -> None:
    llm, _, origin = shop_run
    states = [r for r in llm.requests if r.sent is not None]
    bases = [r.base for r in states]
    signup = next(i for i, r in enumerate(states) if f"{origin}/signup.html" in (r.truth or ""))
    assert bases[signup] is not None and f"{origin}/signup.html" in bases[signup]
    assert bases[signup - 1] is not None and f"{origin}/index.html" in bases[signup - 1]
    assert states[signup].sent.startswith("No changes since <browser_state_base>")
    # Before it, on the shop, the base stayed while the cart changed.
    shop = [i for i, r in enumerate(states) if f"{origin}/index.html" in (r.truth or "")]
    assert any(bases[i] == bases[i + 1] and states[i].truth != states[i + 1].truth for i in shop[:-1])


def test_attach_patches_the_instance_only_and_detach_restores() -> None:
    from browser_use.llm.base import BaseChatModel

    llm = sb.ScriptedModel([])
    other = sb.ScriptedModel([])
    assert isinstance(llm, BaseChatModel)
    assert rdb.attach(llm) is llm
    assert rdb.attached(llm) and not rdb.attached(other)
    assert isinstance(llm, BaseChatModel) and isinstance(llm, sb.ScriptedModel)
    assert type(llm).ainvoke is sb.ScriptedModel.ainvoke
    assert rdb.attach(llm) is llm  # twice: still one layer
    assert rdb.detach(llm) is llm and not rdb.attached(llm)
    assert "ainvoke" not in vars(llm)


def test_other_calls_pass_through_untouched() -> None:
    from browser_use.llm.messages import SystemMessage, UserMessage

    llm = rdb.attach(sb.ScriptedModel([]))
    sent = [SystemMessage(content="Describe <browser_state> blocks."), UserMessage(content="Summarize the run.")]
    out = run_async(llm.ainvoke(sent))
    assert out.completion == "ok"
    assert llm.requests[0].messages == sent


def test_unknown_layouts_and_versions_fail_clearly(monkeypatch: pytest.MonkeyPatch) -> None:
    from browser_use.llm.messages import UserMessage

    llm = rdb.attach(sb.ScriptedModel([]))
    two = UserMessage(content="<browser_state>\na\n</browser_state>\n<browser_state>\nb\n</browser_state>")
    with pytest.raises(rdb.BrowserUseLayoutError, match="unknown layout"):
        run_async(llm.ainvoke([two]))
    both = [UserMessage(content="<browser_state>\na\n</browser_state>")] * 2
    with pytest.raises(rdb.BrowserUseLayoutError, match="2 user messages hold a <browser_state> block"):
        run_async(llm.ainvoke(both))
    with pytest.raises(rdb.ResponseDiffError, match="rebaseShare"):
        rdb.attach(sb.ScriptedModel([]), rebase_share=2)
    monkeypatch.setattr(rdb, "installed_version", lambda: "0.14.0")
    with pytest.raises(rdb.BrowserUseLayoutError, match=r"browser-use 0\.14\.0 is not a version"):
        rdb.attach(sb.ScriptedModel([]))


def test_the_example_attaches_any_chat_model() -> None:
    import importlib.util

    from browser_use.llm import ChatOpenAI

    spec = importlib.util.spec_from_file_location("browser_use_agent", sb.ROOT / "examples" / "python" / "browser_use_agent.py")
    assert spec is not None and spec.loader is not None
    example = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(example)
    llm = example.make_llm("ChatOpenAI", "gpt-4.1-mini")  # built, never called
    assert isinstance(llm, ChatOpenAI)
    assert rdb.attach(llm) is llm and rdb.attached(llm) and isinstance(llm, ChatOpenAI)
    rdb.detach(llm)
    with pytest.raises(SystemExit, match="no ChatNope"):
        example.make_llm("ChatNope", "x")


def test_two_agents_on_one_model_each_keep_their_own_base() -> None:
    from browser_use.llm.messages import SystemMessage, UserMessage

    llm = rdb.attach(sb.ScriptedModel([]))

    shop = "\n".join(f"[{i}]<button>Add tea {i} to cart</button>" for i in range(10, 70))

    def state(page: str) -> UserMessage:
        # One shop page, with a line of each agent's own: the diff is small,
        # so a base from the other agent would be kept, not rebased.
        return UserMessage(
            content=f"<browser_state>\nCurrent tab: 1\nTab 1: http://127.0.0.1/shop - Shop\n{page}\n{shop}\n</browser_state>"
        )

    # Two runs (two message histories) on one chat model, on the same URL.
    alice, bob = SystemMessage(content="Agent A."), SystemMessage(content="Agent B.")
    run_async(llm.ainvoke([alice, state("[1]<button>Alice's cart</button>")]))
    run_async(llm.ainvoke([bob, state("[1]<button>Bob's cart</button>")]))
    run_async(llm.ainvoke([alice, state("[1]<button>Alice's cart</button>\n[2]<a>Checkout</a>")]))
    bases = [r.base or "" for r in llm.requests]
    assert "Bob" in bases[1] and "Alice" not in bases[1], bases[1]
    assert "Alice" in bases[2] and "Bob" not in bases[2], bases[2]
    # The third request is A's state, rebuilt from A's base and the diff.
    assert "Checkout" in (llm.requests[2].rebuilt or "") and "Alice" in (llm.requests[2].rebuilt or "")
