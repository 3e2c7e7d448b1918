"""A scripted agent on Playwright for Python with response_diff.playwright.

Chromium (the system's; nothing is downloaded) opens a shop served from
127.0.0.1. Each step the agent acts on a ref it was shown and reads the
page with ``PageDiff.snapshot()``: the full AI snapshot the first time, then
only what changed (one line, a patch by ref, or a line diff), rendered by
the library with the same rules as the response-diff MCP server. Refs stay
the same across re-renders and ``PageDiff.locator(ref)`` finds the element
a ref names now. The table compares each answer with re-reading
``page.aria_snapshot(mode="ai")``. Tokens are estimated as bytes / 4.

    pip install ./bindings/python playwright
    python examples/python/session.py          # CHROMIUM=/path/to/chromium to override
"""

from __future__ import annotations

import http.server
import os
import re
import sys
import threading

from playwright.sync_api import sync_playwright

import response_diff as rd
from response_diff.playwright import PageDiff

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


def ref_of(snapshot: str, line: str) -> str:
    """The ref of the first element whose line starts with ``line``."""
    for text in snapshot.splitlines():
        if text.lstrip().startswith("- " + line):
            m = re.search(r"\[ref=([A-Za-z0-9]+)\]", text)
            if m:
                return m.group(1)
    raise LookupError(f"no {line} on the page")


def main() -> int:
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    base = f"http://127.0.0.1:{server.server_address[1]}"

    # (what the agent does, the element it acts on, how)
    steps = [
        ("open the shop", None, "goto:/"),
        ("add Trail Runner", 'button "Add Trail Runner to cart"', "click"),
        ("add Wool Socks", 'button "Add Wool Socks to cart"', "click"),
        ('search "trail"', 'searchbox "Search products"', "fill:trail"),
        ("read the page again", None, "read"),
        ("view the cart", 'button "View cart"', "click"),
        ("close it", 'button "Close"', "click"),
        ("place the order", 'button "Place order"', "click"),
        ("go to checkout", None, "goto:/checkout"),
    ]
    rows = []
    step2 = ""
    comparison: rd.FingerprintComparison | None = None
    baselines = rd.BaselineStore()
    with sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        page = browser.new_page()
        pd = PageDiff(page)
        for i, (label, target, how) in enumerate(steps, 1):
            if how.startswith("goto:"):
                page.goto(base + how[5:])
            elif target is not None:
                element = pd.locator(ref_of(pd.last_snapshot or "", target))
                if how == "click":
                    element.click()
                else:
                    element.fill(how.split(":", 1)[1])
            answer = pd.snapshot()
            plain = page.aria_snapshot(mode="ai")  # what an agent without PageDiff reads
            heading = next(line for line in answer.splitlines() if line.startswith("### Page snapshot"))
            kind = heading.removeprefix("### Page snapshot").strip(" ()") or "full"
            if "No changes" in answer:
                kind = "unchanged"
            rows.append((i, label, kind, rd.estimate_tokens(plain), rd.estimate_tokens(answer)))
            if i == 1:
                baselines.save("shop", page.evaluate(rd.FINGERPRINT_SCRIPT, {"scope": "full"}))
            if i == 2:
                step2 = answer
            if label == "place the order":
                now = rd.Fingerprint(page.evaluate(rd.FINGERPRINT_SCRIPT, {"scope": "full"}))
                comparison = baselines.compare("shop", now)
        browser.close()
    server.shutdown()

    print(f"{'step':>4}  {'action':<20} {'answer':<32} {'plain':>6} {'sent':>6}  saved")
    for i, label, kind, plain_t, sent_t in rows:
        print(f"{i:>4}  {label:<20} {kind:<32} {plain_t:>6} {sent_t:>6}  {100 - 100 * sent_t / plain_t:5.1f}%")
    plain_total = sum(r[3] for r in rows)
    sent_total = sum(r[4] for r in rows)
    print(f"{'':>4}  {'total':<20} {'':<32} {plain_total:>6} {sent_total:>6}  {100 - 100 * sent_total / plain_total:5.1f}%")
    print(f"({rd.__name__} {rd.__version__}; tokens estimated as bytes/4)")
    print("\nStep 2 as the agent reads it:\n" + step2)
    print("\nFingerprint after 'Place order' against the baseline 'shop':\n" + str(comparison))

    if comparison is None or not any(c.type == "error_appeared" for c in comparison.changes):
        print("expected an error_appeared change", file=sys.stderr)
        return 1
    if sent_total >= plain_total:
        print("the session did not shrink", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
