"""The browser-use run of `make bench`: ten steps of the scripted model
(bindings/python/tests/scripted_browser_use.py) on the bundled shop, on
Debian's chromium, with and without response_diff.browser_use.attach.
Writes every request's messages as text (role, cache mark, text) to a JSON
file; bench/python-adapters.mjs counts their o200k tokens (offline, with
gpt-tokenizer) and checks each rebuilt state against browser-use's own.

    .venv-browser-use/bin/python bench/python/browser_use_bench.py --out bench-out/browser-use-texts.json
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1] / "bindings" / "python" / "tests"))

import scripted_browser_use as sb  # noqa: E402


def messages(request: sb.Request) -> list[dict[str, object]]:
    return [
        {"role": m.role, "cache": bool(getattr(m, "cache", False)), "text": sb.text_of(m)}
        for m in request.messages
    ]


async def one(attach: bool, origin: str, options: dict[str, object]) -> dict[str, object]:
    llm, history = await sb.run(sb.cart_steps(), attach=attach, initial_url=origin + "/index.html", **options)
    steps = [r for r in llm.requests if r.sent is not None]
    return {
        "attach": attach,
        "done": bool(history.is_done() and history.is_successful()),
        "requests": [
            {
                "messages": messages(r),
                "rebuilt": r.rebuilt == r.truth,
                "base": r.base is not None,
                "truthChars": len(r.truth or ""),
            }
            for r in steps
        ],
    }


async def main() -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--options", default="{}", help="attach's options as JSON")
    args = ap.parse_args()
    options = json.loads(args.options)
    from importlib import metadata

    with sb.serve_site() as origin:
        runs = [await one(False, origin, {}), await one(True, origin, options)]
    out = {"browserUse": metadata.version("browser-use"), "options": options, "runs": runs}
    Path(args.out).write_text(json.dumps(out, indent=1), encoding="utf-8")
    return 0 if all(r["done"] for r in runs) else 1


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
