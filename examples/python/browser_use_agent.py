"""A browser-use agent whose model reads a cached base state and a diff.

``response_diff.browser_use.attach(llm)`` is the one line: browser-use
still builds its full ``<browser_state>`` every step, and the model is sent
a base state (marked cacheable, so the provider's prompt cache holds it)
plus the current state as a diff against it. Nothing is lost: each request
carries both. Any chat model browser-use supports works; pick its class
from ``browser_use.llm`` and its model name:

    pip install ./bindings/python 'browser-use==0.13.14'
    ANTHROPIC_API_KEY=... python examples/python/browser_use_agent.py \\
        --llm ChatAnthropic --model claude-sonnet-4-5 "Find the price of Assam Breakfast on http://127.0.0.1:8000/"
    OPENAI_API_KEY=... python examples/python/browser_use_agent.py --llm ChatOpenAI --model gpt-4.1-mini "..."

Chromium is the system's (CHROMIUM=/path/to/chromium), headless, with
browser-use's telemetry and extension downloads off. At the end it prints
how the last state was sent (a diff, unchanged, or a new base).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
from typing import Any

os.environ.setdefault("ANONYMIZED_TELEMETRY", "false")
os.environ.setdefault("BROWSER_USE_VERSION_CHECK", "false")

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")


def make_llm(cls: str, model: str) -> Any:
    """``browser_use.llm.<cls>(model=<model>)``, e.g. ChatOpenAI, ChatAnthropic,
    ChatGoogle, ChatOllama: whatever browser-use supports."""
    import browser_use.llm

    try:
        factory = getattr(browser_use.llm, cls)
    except AttributeError:
        raise SystemExit(f"browser_use.llm has no {cls}: pick a chat model class it exports (ChatOpenAI, ChatAnthropic, …)")
    return factory(model=model)


async def run(task: str, llm: Any, max_steps: int) -> int:
    from browser_use import Agent, BrowserSession

    import response_diff.browser_use as rdb

    rdb.attach(llm)  # the one line
    session = BrowserSession(
        executable_path=CHROMIUM,
        headless=True,
        args=["--no-sandbox"],
        chromium_sandbox=False,
        enable_default_extensions=False,
    )
    agent = Agent(task=task, llm=llm, browser_session=session)
    try:
        history = await agent.run(max_steps=max_steps)
    finally:
        await session.kill()
    print("Result:", history.final_result())
    print("Last state sent as:", rdb.last_answer(llm))
    return 0 if history.is_successful() else 1


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("task")
    ap.add_argument("--llm", default="ChatOpenAI", help="a chat model class of browser_use.llm")
    ap.add_argument("--model", default="gpt-4.1-mini")
    ap.add_argument("--max-steps", type=int, default=20)
    args = ap.parse_args()
    return asyncio.run(run(args.task, make_llm(args.llm, args.model), args.max_steps))


if __name__ == "__main__":
    sys.exit(main())
