"""A scripted agent session: Playwright for Python drives Chromium on a page
served from 127.0.0.1, and every response goes through response_diff.

Each step is what a browser MCP server would send the agent after a tool
call: the result, the page state and the page's aria snapshot (the
refs-bearing text playwright-mcp shows). The table compares the full
response with what the detector lets through (a diff, a one-line
"unchanged", or the full text when a diff would not help). Tokens are
estimated as bytes / 4.

    pip install ./bindings/python playwright
    python examples/python/session.py          # CHROMIUM=/path/to/chromium to override

No browser is downloaded: Playwright launches the system's Chromium.
"""

from __future__ import annotations

import http.server
import os
import sys
import threading
from typing import Callable

from playwright.sync_api import Page, sync_playwright

import response_diff as rd

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]

PRODUCTS = [
    ("Trail Runner", 129.00),
    ("Road Racer", 149.50),
    ("Kids' Sprint", 39.95),
    ("Hiking Boot", 189.00),
    ("Court Classic", 79.99),
    ("Rain Shell", 99.00),
    ("Wool Socks", 14.50),
    ("Running Cap", 24.00),
    ("Water Bottle", 12.00),
    ("Headlamp", 45.00),
    ("Trekking Poles", 69.00),
    ("Day Pack", 89.00),
    ("Compression Tights", 59.00),
    ("Gaiters", 29.00),
    ("Insoles", 34.00),
    ("Energy Gels (12)", 27.00),
]

SHOP = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop - Trailhead</title>
<style>.modal{display:none}.modal.open{display:block}#banner:empty{display:none}</style></head>
<body>
<header>
  <a href="/">Trailhead</a>
  <nav aria-label="Main"><a href="/">Shop</a> <a href="/checkout">Checkout</a> <a href="/help">Help</a></nav>
  <input type="search" aria-label="Search products" placeholder="Search">
</header>
<main>
  <div id="banner" role="alert"></div>
  <h1>Running gear</h1>
  <ul aria-label="Products">
  PRODUCTS
  </ul>
  <aside aria-label="Cart">
    <h2 id="cart-title">Cart (0)</h2>
    <ul id="cart" aria-label="Cart items"></ul>
    <p id="subtotal">Subtotal: $0.00</p>
    <button id="view-cart">View cart</button>
    <button id="order">Place order</button>
  </aside>
  <div class="modal" role="dialog" aria-modal="true" aria-label="Your cart" id="modal">
    <h2>Your cart</h2><p id="modal-body">Empty</p><button id="close">Close</button>
  </div>
</main>
<footer><p>Trailhead Outfitters, 127.0.0.1 edition</p></footer>
<script>
  const cart = [];
  function render() {
    document.getElementById('cart-title').textContent = 'Cart (' + cart.length + ')';
    const ul = document.getElementById('cart');
    ul.innerHTML = cart.map(([n]) => '<li>' + n + ' <button aria-label="Remove ' + n + '">x</button></li>').join('');
    const total = cart.reduce((s, [, p]) => s + p, 0);
    document.getElementById('subtotal').textContent = 'Subtotal: $' + total.toFixed(2);
    document.getElementById('modal-body').textContent = cart.length ? cart.map(([n]) => n).join(', ') : 'Empty';
  }
  document.querySelectorAll('button[data-name]').forEach(b => b.addEventListener('click', () => {
    cart.push([b.dataset.name, Number(b.dataset.price)]); render();
  }));
  document.getElementById('view-cart').onclick = () => document.getElementById('modal').classList.add('open');
  document.getElementById('close').onclick = () => document.getElementById('modal').classList.remove('open');
  document.getElementById('order').onclick = () => {
    document.getElementById('banner').textContent = 'Payment service unavailable. Try again later.';
  };
</script>
</body></html>
""".replace(
    "PRODUCTS",
    "\n  ".join(
        f'<li><h3>{name}</h3><p>${price:.2f}</p>'
        f'<button data-name="{name}" data-price="{price}">Add {name} to cart</button> '
        f'<a href="/product/{i}">Details</a></li>'
        for i, (name, price) in enumerate(PRODUCTS)
    ),
)

CHECKOUT = """<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Checkout - Trailhead</title></head>
<body><main><h1>Checkout</h1>
<form aria-label="Shipping"><label>Name <input name="name"></label>
<label>Email <input name="email" type="email"></label>
<button type="submit">Continue to payment</button></form></main></body></html>
"""


class Handler(http.server.BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # noqa: N802 (http.server's name)
        body = (CHECKOUT if self.path.startswith("/checkout") else SHOP).encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


def tokens(text: str) -> int:
    return (len(text.encode()) + 3) // 4  # the library's estimate: bytes / 4


def main() -> int:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    detector = rd.ResponseDiffDetector()
    baselines = rd.BaselineStore()
    # What an operator would set once for every call: diffs on.
    expectation = rd.Expectation(diff_options={"enabled": True})

    steps: list[tuple[str, str, Callable[[Page], object]]] = [
        ("browser_navigate", f"Navigated to {base}/", lambda p: p.goto(base + "/")),
        ("browser_click", 'Clicked "Add Trail Runner to cart"',
         lambda p: p.get_by_role("button", name="Add Trail Runner to cart").click()),
        ("browser_click", 'Clicked "Add Wool Socks to cart"',
         lambda p: p.get_by_role("button", name="Add Wool Socks to cart").click()),
        ("browser_type", 'Typed "trail" into "Search products"',
         lambda p: p.get_by_role("searchbox", name="Search products").fill("trail")),
        ("browser_click", 'Clicked "View cart"', lambda p: p.get_by_role("button", name="View cart").click()),
        ("browser_click", 'Clicked "Close"', lambda p: p.get_by_role("button", name="Close").click()),
        ("browser_snapshot", "Took a snapshot", lambda p: None),
        ("browser_click", 'Clicked "Place order"', lambda p: p.get_by_role("button", name="Place order").click()),
        ("browser_navigate", f"Navigated to {base}/checkout", lambda p: p.goto(base + "/checkout")),
    ]

    rows = []
    step2 = ""
    comparison: rd.FingerprintComparison | None = None
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page()
        for i, (tool, result, action) in enumerate(steps, 1):
            action(page)
            response = {
                "result": result,
                "page": {"url": page.url, "title": page.title()},
                "snapshot": {"aria": page.aria_snapshot(mode="ai")},
            }
            full = rd.render_response(response, tool)  # diffing off: the stored chain is left alone
            sent = rd.render_response(response, tool, expectation, detector=detector, key="tab-0")
            mode = sent.snapshot_diff.mode if sent.snapshot_diff else "-"
            if mode == "diff":
                assert len(sent.text) < len(full.text), "a diff is never larger than the full text"
            rows.append((i, tool, mode, tokens(full.text), tokens(sent.text)))

            if i == 1:
                # A DOM fingerprint of the fresh page, kept as a named baseline.
                baselines.save("shop", page.evaluate(rd.FINGERPRINT_SCRIPT, {"scope": "full"}))
            if i == 2:
                step2 = sent.text
            if "Place order" in result:
                now = rd.Fingerprint(page.evaluate(rd.FINGERPRINT_SCRIPT, {"scope": "full"}))
                comparison = baselines.compare("shop", now)
        browser.close()
    server.shutdown()

    print(f"{'step':>4}  {'tool':<17} {'mode':<9} {'full':>7} {'sent':>7}  saved")
    for i, tool, mode, full_t, sent_t in rows:
        print(f"{i:>4}  {tool:<17} {mode:<9} {full_t:>7} {sent_t:>7}  {100 - 100 * sent_t / full_t:5.1f}%")
    full_total = sum(r[3] for r in rows)
    sent_total = sum(r[4] for r in rows)
    print(f"{'':>4}  {'total':<17} {'':<9} {full_total:>7} {sent_total:>7}  {100 - 100 * sent_total / full_total:5.1f}%")
    print(f"({rd.__name__} {rd.__version__}; tokens estimated as bytes/4)")
    print("\nStep 2 as the agent reads it:\n" + step2)
    print("\nFingerprint after 'Place order' against the baseline 'shop':\n" + str(comparison))

    if comparison is None or not any(c.type == "error_appeared" for c in comparison.changes):
        print("expected an error_appeared change", file=sys.stderr)
        return 1
    if sent_total >= full_total:
        print("the session did not shrink", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
