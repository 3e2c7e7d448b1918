"""PageDiff's side of `make python-bench` and `make proxy-bench`: the
sessions the caller hands over as JSON (--sessions: the shop of
bench/shop.mjs, the todo session of bench/todomvc.mjs on each framework of
npm `todomvc`, and the STEPS of bench/grid.mjs, bench/expand.mjs and
bench/apidocs.mjs, as bench/pagediff.mjs writes them), the same user
intents in the same order, through Playwright for Python on Debian's
chromium with response_diff.playwright.PageDiff. Each step resolves its
target to a ref in the agent's view (PageDiff.last_snapshot, which
bench/pagediff.mjs checks equals the view rebuilt from the answers) and
acts with PageDiff.locator(ref). Per step it records what PageDiff
answered, what ``page.aria_snapshot(mode="ai")`` gives an agent that
re-reads the page, and the full snapshot with the agent's refs (for the
floor). The pages are served by the caller (each session's `origin`, on
127.0.0.1).

    .venv/bin/python bench/python/pagediff_bench.py --sessions FILE --out FILE
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from typing import Any, Optional

from playwright.sync_api import Page, sync_playwright

from response_diff.playwright import PageDiff, playwright_version

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking",
        "--disable-component-update", "--disable-sync"]
# The server's window (server/src/browser/launch.rs): the same layout, so the
# mouse left where a click happened is over the same element.
VIEWPORT = {"width": 1280, "height": 800}
FILTER = {"includeCode": False, "consoleOptions": {"levels": ["error", "warn"]}}

# ---------------------------------------------------- refs from the view

_REF = re.compile(r"\bref=([A-Za-z0-9_]+)")


def _indent(line: str) -> int:
    return len(line) - len(line.lstrip())


def _strip_ref(line: str) -> str:
    line = re.sub(r" ?\[ref=[A-Za-z0-9_]+\]", "", line, count=1)
    line = re.sub(r", ref=[A-Za-z0-9_]+\]", "]", line, count=1)
    return re.sub(r"\[ref=[A-Za-z0-9_]+, ", "[", line, count=1)


def resolve_ref(snapshot: str, target: str, within: Optional[str] = None) -> Optional[str]:
    """bench/refs.mjs's resolveRef: `target` inside the block around `within`."""
    lines = snapshot.split("\n")
    pattern = re.compile(r"^\s*- " + re.escape(target) + r"(?=[\s:\[]|$)")
    start, floor = 0, 0
    if within:
        at = next((i for i, line in enumerate(lines) if within in line), None)
        if at is None:
            return None
        start, floor = at, _indent(lines[at])
    for i in range(start, len(lines)):
        if i > start and _indent(lines[i]) < floor:
            break
        if pattern.search(lines[i]):
            m = re.search(r"\[ref=([A-Za-z0-9_]+)\]", lines[i])
            if m:
                return m.group(1)
    return None


def find_ref(snapshot: str, spec: dict[str, Any]) -> Optional[str]:
    """bench/appsession.mjs's findRef."""
    lines = snapshot.split("\n")

    def ref_of(i: int) -> Optional[str]:
        m = _REF.search(lines[i])
        return m.group(1) if m else None

    lo, hi = 0, len(lines)
    if spec.get("item"):
        item = spec["item"]
        at = next(
            (i for i, line in enumerate(lines)
             if item in line and not re.match(r"^\s*- /url", line) and (spec.get("field") or not re.match(r"^\s*- textbox", line))),
            None,
        )
        if at is None:
            return None
        container = re.compile(spec.get("container") or r"^- listitem\b")
        top = at
        while top >= 0 and not container.search(_strip_ref(lines[top].strip())):
            ind = _indent(lines[top])
            up = top - 1
            while up >= 0 and _indent(lines[up]) >= ind:
                up -= 1
            top = up
        if spec.get("self"):
            return ref_of(at) or (ref_of(top) if top >= 0 else None)
        if top < 0:
            return None
        lo, hi = top, top + 1
        while hi < len(lines) and _indent(lines[hi]) > _indent(lines[top]):
            hi += 1
    role = re.compile(spec["role"])
    for i in range(lo, hi):
        if role.search(_strip_ref(lines[i].strip())) and ref_of(i):
            return ref_of(i)
    return None


# ------------------------------------------------------------- a session


class InFlight:
    """The page's requests not yet answered (an API-docs "Execute" fetches
    after the click returns), as @playwright/mcp waits for them."""

    def __init__(self, page: Page) -> None:
        self.open: set[Any] = set()
        page.on("request", lambda r: self.open.add(r))
        page.on("requestfinished", lambda r: self.open.discard(r))
        page.on("requestfailed", lambda r: self.open.discard(r))


def settle(page: Page, inflight: InFlight) -> None:
    """Lets the page finish what the action started: its load, the requests
    it made (5 s at most), then two frames for a framework's re-render."""
    page.wait_for_load_state()
    for _ in range(100):
        if not inflight.open:
            break
        page.wait_for_timeout(50)
    page.evaluate("() => new Promise(r => requestAnimationFrame(() => requestAnimationFrame(r)))")


def run_session(page: Page, origin: str, steps: list[dict[str, Any]]) -> list[dict[str, str]]:
    pd = PageDiff(page, expectation=FILTER)
    inflight = InFlight(page)
    rows = []
    for step in steps:
        loc = None
        if "spec" in step or "target" in step:
            view = pd.last_snapshot or ""
            ref = find_ref(view, step["spec"]) if "spec" in step else resolve_ref(view, step["target"], step.get("within"))
            if ref is not None:
                loc = pd.locator(ref)
            elif step.get("css"):
                # Where this Playwright's snapshot gives the target no name
                # (swagger-ui's model buttons), the CSS selector the step
                # carries, as an agent with selector support would.
                loc = page.locator(step["css"]).first
            else:
                raise SystemExit(f"{step['label']}: no target in the agent's view:\n{view}")
        act = step["act"]
        if act == "navigate":
            page.goto(origin + (step.get("path") or "/"))
        elif act == "back":
            page.go_back()
        elif act == "click":
            loc.click()  # type: ignore[union-attr]
        elif act == "dblclick":
            loc.dblclick()  # type: ignore[union-attr]
        elif act == "hover":
            loc.hover()  # type: ignore[union-attr]
        elif act == "type":
            loc.fill(step["text"])  # type: ignore[union-attr]
            if step.get("submit"):
                loc.press("Enter")  # type: ignore[union-attr]
        elif act == "select":
            loc.select_option(step["values"])  # type: ignore[union-attr]
        settle(page, inflight)
        answer = pd.snapshot()
        raw = page.aria_snapshot(mode="ai")
        rows.append({"label": step["label"], "pagediff": answer, "raw": raw, "full": pd.last_snapshot or ""})
        print(f"{step['label']}: {len(answer)} chars (raw {len(raw)})", file=sys.stderr)
    return rows


def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--sessions", required=True,
                    help="JSON: [{name, origin, steps}], steps as the bench scripts' with each RegExp as its source")
    ap.add_argument("--out", required=True)
    args = ap.parse_args()
    with open(args.sessions, encoding="utf-8") as f:
        runs = json.load(f)
    sessions = []
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        try:
            for run in runs:
                # A target is `role "name"` (bench/refs.mjs, the shop's) or a
                # findRef spec (bench/appsession.mjs), here `spec`.
                steps = [{**x, "spec": x.pop("target")} if isinstance(x.get("target"), dict) else x for x in run["steps"]]
                page = browser.new_page(viewport=VIEWPORT)
                sessions.append({"name": run["name"], "steps": run_session(page, run["origin"], steps)})
                page.close()
        finally:
            browser.close()
    with open(args.out, "w", encoding="utf-8") as f:
        json.dump({"playwright": playwright_version(), "sessions": sessions}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
