// Frames from any site, in real Chromium through a real MCP client. The
// shop is on 127.0.0.1; its payment frame comes from `localhost` (another
// site: Chromium runs it in another renderer process, an out-of-process
// iframe), and inside that a verification frame from 127.0.0.2 (a third
// site, a third process) and a receipt frame from `localhost` again (same
// site as its parent, same process). Every frame's content is in the
// snapshot, its refs act, and they survive re-renders and navigations.
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { after, afterEach, before, describe, test } from 'node:test';

import { FULL, section, serveSite, startServer } from './helpers.js';

const SHOP = (pay) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Shop</title></head>
<body>
<h1>Checkout</h1>
<p>Total: $12.00</p>
<iframe title="Payment" src="${pay}" width="600" height="420"></iframe>
<p>Secure payment by a partner.</p>
</body></html>`;

const PAY = (verify) => `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Pay</title></head>
<body>
<h2>Card payment</h2>
<div id="form"></div>
<p id="result">Not paid</p>
<button id="rerender">Re-render</button>
<button id="charge">Charge on the server</button>
<a href="/step2">Next step</a>
<iframe title="Verify" src="${verify}" width="400" height="120"></iframe>
<iframe title="Receipt" src="/receipt" width="400" height="60"></iframe>
<script>
let renders = 0;
function render() {
  renders += 1;
  // Rebuilt from scratch, as a framework re-renders: every node is new.
  document.getElementById('form').innerHTML =
    '<label>Card number <input id="card"></label> ' +
    '<label>Currency <select id="currency"><option>EUR</option><option>JPY</option></select></label> ' +
    '<button id="pay">Pay</button>';
  document.getElementById('pay').onclick = () => {
    console.log('payment sent from the frame');
    document.getElementById('result').textContent =
      'Paid with card ' + document.getElementById('card').value + ' in ' +
      document.getElementById('currency').value + ' (render ' + renders + ')';
  };
}
document.getElementById('rerender').onclick = render;
document.getElementById('charge').onclick = async () => {
  const r = await fetch('/api/charge');
  document.getElementById('result').textContent = await r.text();
};
render();
</script>
</body></html>`;

const VERIFY = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Verify</title></head>
<body>
<label>Code <input id="code"></label>
<button onclick="document.getElementById('out').textContent = 'Verified ' + document.getElementById('code').value">Verify</button>
<p id="out">Waiting for the code</p>
</body></html>`;

const RECEIPT = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Receipt</title></head>
<body><p>Receipt number 77</p>
<button onclick="this.textContent = 'Printed'">Print</button></body></html>`;

const STEP2 = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Step 2</title></head>
<body><h2>Confirm the payment</h2><button>Confirm</button></body></html>`;

const diffs = { diffOptions: { enabled: true } };

/** The ref (e12 or f2e12) of the first line matching `pattern` after `from`. */
function ref(text, pattern, from = '') {
  const start = text.indexOf(from);
  assert.ok(start >= 0, `no ${from} in:\n${text}`);
  for (const line of text.slice(start).split('\n')) {
    const m = line.includes(pattern) && line.match(/\[ref=((?:f\d+)?e\d+)\]/);
    if (m) return m[1];
  }
  throw new Error(`no line with ${pattern} and a ref in:\n${text}`);
}

/** Serves `pages` on 127.0.0.2 (a site of its own), on a free port. */
async function serveOn127002(pages) {
  const server = createServer((req, res) => {
    const body = pages[new URL(req.url, 'http://x').pathname];
    res.writeHead(body ? 200 : 404, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' });
    res.end(body ?? 'not found');
  });
  await new Promise((ok) => server.listen(0, '127.0.0.2', ok));
  return {
    url: (p) => `http://127.0.0.2:${server.address().port}${p}`,
    close: () => new Promise((ok) => { server.close(ok); server.closeAllConnections(); }),
  };
}

describe('frames from any site', () => {
  let site;
  let third;
  let server;

  before(async () => {
    third = await serveOn127002({ '/verify': VERIFY });
    const pages = { '/receipt': RECEIPT, '/step2': STEP2, '/pay': PAY(third.url('/verify')) };
    site = await serveSite(undefined, pages, {
      // Answers after 400 ms: the action waits for the frame's request.
      '/api/charge': (req, res) => setTimeout(() => {
        res.writeHead(200, { 'content-type': 'text/plain', 'cache-control': 'no-store' });
        res.end('Charged by the server');
      }, 400),
    });
    const port = new URL(site.origin).port;
    // The shop on 127.0.0.1, its payment frame from localhost: the same
    // server, another site.
    pages['/shop'] = SHOP(`http://localhost:${port}/pay`);
    // The same page under a banner that covers the frame.
    pages['/covered'] = SHOP(`http://localhost:${port}/pay`).replace('</body>',
      '<div style="position:fixed;inset:0;background:rgba(0,0,0,.4)">Accept the cookies</div></body>');
    server = await startServer(FULL);
  });

  after(async () => {
    await server?.close();
    await site?.close();
    await third?.close();
  });

  async function open() {
    const nav = await server.call('browser_tabs', { action: 'new', url: site.url('/shop'), expectation: diffs });
    assert.equal(nav.isError, false, nav.text);
    return nav.text;
  }

  afterEach(async () => {
    const closed = await server.call('browser_tabs', { action: 'close', expectation: { includeSnapshot: false } });
    assert.equal(closed.isError, false, closed.text);
  });

  async function call(tool, args) {
    const r = await server.call(tool, { expectation: diffs, ...args });
    assert.equal(r.isError, false, r.text);
    return r.text;
  }

  test('the snapshot shows every frame inside its iframe node, nested frames included', async () => {
    const page = await open();
    const snap = section(page, 'Page snapshot');
    const lines = snap.split('\n').map((l) => l.replace(/ \[ref=[^\]]+\]/g, '').replace(/ \[cursor=pointer\]/g, ''));
    const at = (text) => {
      const i = lines.findIndex((l) => l.trim().startsWith(text));
      assert.ok(i >= 0, `no ${text} in:\n${snap}`);
      return [i, lines[i].search(/\S/)];
    };
    const [frameLine, frameIndent] = at('- iframe:');
    const [payLine, payIndent] = at('- heading "Card payment" [level=2]');
    assert.ok(payLine > frameLine && payIndent > frameIndent, snap);
    at('- textbox "Card number"');
    at('- button "Pay"');
    // The frame from a third site, inside the payment frame.
    const [codeLine, codeIndent] = at('- textbox "Code"');
    assert.ok(codeLine > payLine && codeIndent > payIndent, snap);
    at('- button "Verify"');
    // The same-site frame inside the cross-site one.
    const [receiptLine, receiptIndent] = at('- paragraph: Receipt number 77');
    assert.ok(receiptLine > codeLine && receiptIndent > payIndent, snap);
    assert.ok(lines.findIndex((l) => l.includes('Secure payment')) > receiptLine, snap);
    // Refs inside frames name their frame, and no ref is on two elements.
    const refs = [...snap.matchAll(/\[ref=([^\]]+)\]/g)].map((m) => m[1]);
    assert.equal(new Set(refs).size, refs.length, snap);
    assert.match(ref(page, 'textbox "Card number"'), /^f\d+e\d+$/);
    assert.match(ref(page, 'heading "Checkout"'), /^e\d+$/);
  });

  test('type and click inside a cross-site frame', async () => {
    const page = await open();
    const typed = await call('browser_type', { ref: ref(page, 'textbox "Card number"'), text: '4242' });
    assert.match(typed, /Typed "4242" into textbox "Card number"/, typed);
    const picked = await call('browser_select_option', { ref: ref(page, 'combobox "Currency"'), values: ['JPY'] });
    assert.match(picked, /Selected \["JPY"\] in combobox "Currency"/, picked);
    const paid = await call('browser_click', { ref: ref(page, 'button "Pay"') });
    assert.match(paid, /Clicked button "Pay"/, paid);
    assert.match(paid, /payment sent from the frame/, paid); // the frame's console is the page's
    assert.match(section(paid, 'Page snapshot (patch)') ?? section(paid, 'Page snapshot'), /Paid with card 4242 in JPY \(render 1\)/, paid);
    const full = await server.call('browser_snapshot', {});
    assert.match(full.text, /- paragraph \[ref=f\d+e\d+\]: Paid with card 4242 in JPY \(render 1\)/, full.text);
    assert.match(full.text, /- textbox "Card number" \[ref=f\d+e\d+\]: "4242"/, full.text);
  });

  test('type and click inside a frame nested in a cross-site frame', async () => {
    const page = await open();
    await call('browser_type', { ref: ref(page, 'textbox "Code"'), text: '913' });
    const verified = await call('browser_click', { ref: ref(page, 'button "Verify"') });
    assert.match(verified, /Verified 913/, verified);
    const full = await server.call('browser_snapshot', {});
    assert.match(full.text, /- paragraph \[ref=f\d+e\d+\]: Verified 913/, full.text);
    // Hover and a screenshot of the element and evaluate, by ref, there too.
    const hover = await call('browser_hover', { ref: ref(full.text, 'button "Verify"') });
    assert.match(hover, /Hovered over button "Verify"/, hover);
    const shot = await server.call('browser_take_screenshot', { ref: ref(full.text, 'button "Verify"') });
    assert.equal(shot.isError, false, shot.text);
    assert.equal(shot.images.length, 1, shot.text);
    const value = await call('browser_evaluate', { ref: ref(full.text, 'textbox "Code"'), function: '(el) => el.value + "@" + location.hostname' });
    assert.match(value, /"913@127\.0\.0\.2"/, value);
  });

  test('an action inside a frame waits for the request it started there', async () => {
    const page = await open();
    const charged = await call('browser_click', { ref: ref(page, 'button "Charge on the server"') });
    assert.match(charged, /Charged by the server/, charged);
  });

  test('a click inside a frame under an overlay of the page says what covers it', async () => {
    await open();
    const nav = await call('browser_navigate', { url: site.url('/covered') });
    const r = await server.call('browser_click', { ref: ref(nav, 'button "Pay"') });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, /button "Pay" \(f\d+e\d+\) is covered by <div> "Accept the cookies"/, r.text);
  });

  test('click inside a same-site frame nested in a cross-site frame', async () => {
    const page = await open();
    const printed = await call('browser_click', { ref: ref(page, 'button "Print"') });
    assert.match(printed, /Clicked button "Print"/, printed);
    assert.match(printed, /Printed/, printed);
  });

  test('a ref inside a frame still works after the frame re-renders', async () => {
    const page = await open();
    const card = ref(page, 'textbox "Card number"');
    const pay = ref(page, 'button "Pay"');
    const rerendered = await call('browser_click', { ref: ref(page, 'button "Re-render"') });
    // Every node of the form is new; the snapshot does not change.
    assert.doesNotMatch(rerendered, /Card number|"Pay"/, rerendered);
    await call('browser_type', { ref: card, text: '1111' });
    const paid = await call('browser_click', { ref: pay });
    assert.match(paid, /Paid with card 1111 in EUR \(render 2\)/, paid);
    const full = await server.call('browser_snapshot', {});
    assert.equal(ref(full.text, 'textbox "Card number"'), card, full.text);
    assert.equal(ref(full.text, 'button "Pay"'), pay, full.text);
  });

  /**
   * The refs a removal `- [a b .. c]` names: a run `b .. c` is the siblings
   * from b through c of the snapshot it applies to (`before`), subtrees
   * and all.
   */
  function removedRefs(list, before) {
    const tokens = list.split(' ');
    const lines = before.split('\n');
    const at = (r) => lines.findIndex((l) => l.includes(`[ref=${r}]`));
    const indent = (l) => l.length - l.trimStart().length;
    const out = [];
    tokens.forEach((t, k) => {
      if (t !== '..') return void out.push(t);
      const [from, last] = [at(tokens[k - 1]), at(tokens[k + 1])];
      let end = last + 1;
      while (end < lines.length && indent(lines[end]) > indent(lines[last])) end++;
      for (let i = from; i >= 0 && i < end; i++) {
        const m = /\[ref=([^\]]+)\]/.exec(lines[i]);
        if (m) out.push(m[1]);
      }
    });
    return out;
  }

  test('a frame that navigates updates its subtree and the diff', async () => {
    const page = await open();
    const next = await call('browser_click', { ref: ref(page, 'link "Next step"') });
    const snap = section(next, 'Page snapshot (patch)') ?? section(next, 'Page snapshot');
    assert.match(snap, /Confirm the payment/, next);
    // The old document's elements are gone, the page around them is not.
    const removed = removedRefs((snap.match(/^- \[([^\]]+)\]/m) || ['', ''])[1], page);
    for (const [gone, from] of [['heading "Card payment"', ''], ['link "Next step"', ''], ['iframe', 'Next step']]) {
      assert.ok(removed.includes(ref(page, gone, from)), `${gone} not removed:\n${next}`);
    }
    assert.doesNotMatch(snap, /Checkout/, next); // the page around it did not change
    const full = await server.call('browser_snapshot', {});
    assert.doesNotMatch(full.text, /Card number/, full.text);
    const confirm = ref(full.text, 'button "Confirm"');
    assert.match(confirm, /^f\d+e\d+$/);
    const clicked = await call('browser_click', { ref: confirm });
    assert.match(clicked, /Clicked button "Confirm"/, clicked);
  });
});
