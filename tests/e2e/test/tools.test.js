// The tools of issue 25 items 5 and 6, through the real MCP client on real
// Chromium, pages on 127.0.0.1: network requests, fill form, drag (HTML5
// and pointer-based), resize, --caps, and password values kept out of
// every response.
import assert from 'node:assert/strict';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { after, before, describe, test } from 'node:test';

import { FULL, refOf, section, serveSite, startServer, tsOf } from './helpers.js';

const NETWORK = `<!doctype html><title>Network</title>
<button id="go">Load</button><p id="out">idle</p>
<script>
// A page that keeps asking: a dozen requests as it loads.
for (let i = 1; i <= 12; i++) fetch('/api/ok?n=' + i);
document.getElementById('go').onclick = async () => {
  const a = await fetch('/api/ok');
  const b = await fetch('/api/missing');
  document.getElementById('out').textContent = 'done ' + a.status + ' ' + b.status;
};
</script>`;

const FORM = `<!doctype html><title>Form</title>
<form id="f">
  <label>Name <input name="name"></label>
  <label><input type="checkbox" name="news"> Newsletter</label>
  <fieldset><legend>Plan</legend>
    <label><input type="radio" name="plan" value="free" checked> Free</label>
    <label><input type="radio" name="plan" value="pro"> Pro</label>
  </fieldset>
  <label>Country <select name="country"><option>Chile</option><option>France</option><option>Japan</option></select></label>
  <label>Volume <input type="range" name="volume" min="0" max="100" value="10"></label>
</form>
<p id="state"></p>
<script>
const f = document.getElementById('f');
const show = () => {
  const d = new FormData(f);
  document.getElementById('state').textContent =
    'state: ' + d.get('name') + '|' + (d.get('news') ? 'news' : 'no-news') + '|' + d.get('plan') + '|' + d.get('country') + '|' + d.get('volume');
};
f.addEventListener('input', show); f.addEventListener('change', show); show();
</script>`;

// HTML5 drag and drop: the order changes only on a real drop.
const HTML5 = `<!doctype html><title>HTML5 list</title>
<style>li { height: 40px; margin: 4px; background: #eee; list-style: none; }</style>
<ul id="list"><li draggable="true">Alpha</li><li draggable="true">Bravo</li><li draggable="true">Charlie</li></ul>
<p id="order"></p>
<script>
const list = document.getElementById('list');
const show = () => { document.getElementById('order').textContent = 'order: ' + [...list.children].map(li => li.textContent).join(','); };
let dragged = null;
list.addEventListener('dragstart', e => { dragged = e.target; e.dataTransfer.setData('text/plain', e.target.textContent); });
list.addEventListener('dragover', e => e.preventDefault());
list.addEventListener('drop', e => {
  e.preventDefault();
  const target = e.target.closest('li');
  if (!dragged || !target || target === dragged) return;
  const after = [...list.children].indexOf(target) > [...list.children].indexOf(dragged);
  list.insertBefore(dragged, after ? target.nextSibling : target);
  show();
});
show();
</script>`;

// A pointer-based sortable: the item follows the pointer after 5 px of
// travel and lands where the pointer is released.
const POINTER = `<!doctype html><title>Pointer list</title>
<style>li { height: 40px; margin: 4px; background: #eee; list-style: none; user-select: none; touch-action: none; }</style>
<ul id="list"><li>Alpha</li><li>Bravo</li><li>Charlie</li></ul>
<p id="order"></p>
<script>
const list = document.getElementById('list');
const show = () => { document.getElementById('order').textContent = 'order: ' + [...list.children].map(li => li.textContent).join(','); };
let drag = null;
list.addEventListener('pointerdown', e => {
  const li = e.target.closest('li');
  if (li) drag = { li, x: e.clientX, y: e.clientY, moves: 0, active: false };
});
addEventListener('pointermove', e => {
  if (!drag) return;
  drag.moves++;
  if (!drag.active && Math.hypot(e.clientX - drag.x, e.clientY - drag.y) > 5) {
    drag.active = true;
    drag.li.style.pointerEvents = 'none';
  }
  if (drag.active) drag.li.style.transform = 'translateY(' + (e.clientY - drag.y) + 'px)';
});
addEventListener('pointerup', e => {
  if (!drag) return;
  const { li, active, moves } = drag;
  drag = null;
  li.style.transform = ''; li.style.pointerEvents = '';
  if (!active || moves < 3) return;
  const target = document.elementFromPoint(e.clientX, e.clientY)?.closest('li');
  if (!target || target === li) return;
  const after = [...list.children].indexOf(target) > [...list.children].indexOf(li);
  list.insertBefore(li, after ? target.nextSibling : target);
  show();
});
show();
</script>`;

const SIZE = `<!doctype html><title>Size</title><p id="size"></p>
<script>
const show = () => { document.getElementById('size').textContent = 'viewport ' + innerWidth + 'x' + innerHeight; };
addEventListener('resize', show); show();
</script>`;

// A careless page: it logs the password as it is typed and sends it in
// the URL of a GET form.
const LOGIN = `<!doctype html><title>Log in</title>
<form method="get" action="/welcome.html">
  <label>User <input name="user"></label>
  <label>Password <input type="password" name="pw" oninput="console.log('pw is now ' + this.value)"></label>
  <label>Note <input name="note"></label>
  <button>Sign in</button>
</form>`;

const SECRET = 'hunter2-Secret!';

function site() {
  return serveSite(undefined, {
    '/network.html': NETWORK,
    '/form.html': FORM,
    '/html5.html': HTML5,
    '/pointer.html': POINTER,
    '/size.html': SIZE,
    '/login.html': LOGIN,
    '/welcome.html': '<!doctype html><title>Welcome</title><p>Welcome</p>',
  }, {
    '/api/ok': (req, res) => { res.writeHead(200, { 'content-type': 'application/json' }); res.end('{"ok":true}'); },
    '/api/missing': (req, res) => { res.writeHead(404, { 'content-type': 'text/plain' }); res.end('nope'); },
  });
}

async function call(server, tool, args) {
  const r = await server.call(tool, args);
  assert.equal(r.isError, false, `${tool}: ${r.text}`);
  return r.text;
}

async function pageJson(server, expression) {
  return JSON.parse(section(await pageText(server, expression), 'Result'));
}

async function pageText(server, expression) {
  return call(server, 'browser_evaluate', { function: `() => ${expression}`, expectation: { includeSnapshot: false } });
}

describe('issue 25 tools', () => {
  let server;
  let web;

  before(async () => {
    web = await site();
    server = await startServer(FULL);
  });

  after(async () => {
    await server?.close();
    await web?.close();
  });

  test('browser_network_requests lists a 200 and a 404 fetch, static resources on request, diffed', async () => {
    const nav = await call(server, 'browser_navigate', { url: web.url('/network.html') });
    await call(server, 'browser_click', { ref: refOf(nav, 'button "Load"') });
    await call(server, 'browser_wait_for', { text: 'done 200 404' });
    const list = await call(server, 'browser_network_requests', {});
    // Numbered as Playwright numbers them (every request of the page,
    // shown or not), for browser_network_request.
    const ok = `[GET] ${web.url('/api/ok')} => [200] OK`;
    const missing = `[GET] ${web.url('/api/missing')} => [404] Not Found`;
    assert.ok(list.includes(`13. [GET] ${web.url('/api/ok?n=12')} => [200] OK`), list);
    assert.ok(list.includes(`14. ${ok}\n15. ${missing}`), list);
    assert.ok(!list.includes(`[GET] ${web.url('/network.html')}`), list);
    assert.match(list, /\(1 successful static request not shown; pass static: true to list it\)/);
    assert.equal(section(list, 'Page snapshot'), null, 'no snapshot by default');

    const filtered = await call(server, 'browser_network_requests', { filter: 'missing' });
    assert.equal(section(filtered, 'Result'), `Requests since the page loaded:\n15. ${missing}\n(1 successful static request not shown; pass static: true to list it)\n`);
    const saved = await call(server, 'browser_network_requests', { filter: '/api/ok$', filename: 'net.log' });
    const file = saved.match(/Saved the requests since the page loaded to (\S+) \(2 lines\)/);
    assert.ok(file, saved);
    assert.ok(readFileSync(file[1], 'utf8').startsWith(`14. ${ok}\n`));
    const badFilter = await server.call('browser_network_requests', { filter: '(' }).catch((e) => ({ isError: true, text: e.message }));
    assert.match(badFilter.text, /`filter` `\(` is not a valid regex/);

    const all = await call(server, 'browser_network_requests', { static: true });
    assert.ok(all.includes(`1. [GET] ${web.url('/network.html')} => [200] OK\n`), all);
    assert.ok(all.includes(`14. ${ok}\n15. ${missing}`), all);

    // Diffed like any other section: the second list is one changed line.
    const diff = { diffOptions: { enabled: true } };
    await call(server, 'browser_network_requests', { expectation: diff });
    const same = await call(server, 'browser_network_requests', { expectation: diff });
    assert.match(same, /Requests since the page loaded: No changes since the previous response/);
    await call(server, 'browser_click', { ref: refOf(nav, 'button "Load"'), expectation: diff });
    await call(server, 'browser_wait_for', { time: 0.5, expectation: diff });
    const more = await call(server, 'browser_network_requests', { expectation: diff });
    assert.match(more, /Requests since the page loaded \(diff since the previous list\):/);
    assert.ok(more.includes(`+16. ${ok}`), more);

    // A navigation starts a new list.
    await call(server, 'browser_navigate', { url: web.url('/network.html') });
    const fresh = await call(server, 'browser_network_requests', {});
    assert.ok(!fresh.includes(ok), fresh);
  });

  test('browser_fill_form fills a text, checkbox, radio, select and range in one call', async () => {
    const nav = await call(server, 'browser_navigate', { url: web.url('/form.html') });
    assert.match(nav, /state: \|no-news\|free\|Chile\|10/);
    const r = await call(server, 'browser_fill_form', {
      fields: [
        { name: 'Name', type: 'textbox', ref: refOf(nav, 'textbox "Name"'), value: 'Ada Lovelace' },
        { name: 'Newsletter', type: 'checkbox', ref: refOf(nav, 'checkbox "Newsletter"'), value: 'true' },
        { name: 'Pro', type: 'radio', ref: refOf(nav, 'radio "Pro"'), value: 'true' },
        { name: 'Country', type: 'combobox', ref: refOf(nav, 'combobox "Country"'), value: 'Japan' },
        { name: 'Volume', type: 'slider', ref: refOf(nav, 'slider "Volume"'), value: '70' },
      ],
    });
    assert.match(r, /state: Ada Lovelace\|news\|pro\|Japan\|70/);
    assert.match(r, /Filled textbox "Name" \(e\d+\) with "Ada Lovelace"\nChecked checkbox "Newsletter"/);
    assert.match(r, /Selected "Japan" in combobox "Country"/);
    assert.match(r, /Set slider "Volume" \(e\d+\) to 70/);

    const bad = await server.call('browser_fill_form', {
      fields: [{ name: 'Newsletter', type: 'checkbox', ref: refOf(nav, 'checkbox "Newsletter"'), value: 'yes' }],
    }).catch((e) => ({ isError: true, text: String(e.message) }));
    assert.equal(bad.isError, true);
    assert.match(bad.text, /a checkbox takes "true" or "false" as `value`, not "yes"/);
  });

  test('browser_drag reorders an HTML5 drag-and-drop list', async () => {
    const nav = await call(server, 'browser_navigate', { url: web.url('/html5.html') });
    assert.match(nav, /order: Alpha,Bravo,Charlie/);
    const r = await call(server, 'browser_drag', {
      startElement: 'Alpha', startRef: refOf(nav, /listitem \[ref=e\d+\]: Alpha$/),
      endElement: 'Charlie', endRef: refOf(nav, /listitem \[ref=e\d+\]: Charlie$/),
    });
    assert.match(r, /Dragged listitem \(e\d+\) to listitem \(e\d+\) \(HTML5 drag and drop\)/);
    assert.match(await pageText(server, "document.getElementById('order').textContent"), /order: Bravo,Charlie,Alpha/);
  });

  test('browser_drag reorders a pointer-based sortable', async () => {
    const nav = await call(server, 'browser_navigate', { url: web.url('/pointer.html') });
    const r = await call(server, 'browser_drag', {
      startRef: refOf(nav, /listitem \[ref=e\d+\]: Charlie$/), endRef: refOf(nav, /listitem \[ref=e\d+\]: Alpha$/),
    });
    assert.doesNotMatch(r, /HTML5/);
    assert.match(await pageText(server, "document.getElementById('order').textContent"), /order: Charlie,Alpha,Bravo/);
  });

  test('browser_resize changes the viewport the page sees', async () => {
    const nav = await call(server, 'browser_navigate', { url: web.url('/size.html') });
    assert.match(nav, /viewport 1280x\d+/);
    const r = await call(server, 'browser_resize', { width: 640, height: 480 });
    assert.match(r, /Resized the viewport to 640×480/);
    assert.match(r, /viewport 640x480/);
    const bad = await server.call('browser_resize', { width: 10, height: 480 }).catch((e) => ({ isError: true, text: e.message }));
    assert.match(bad.text, /`width` must be 100 to 8192 CSS pixels/);
    await call(server, 'browser_resize', { width: 1280, height: 800 });
  });

  test('opt-in tools are absent without --caps and refused by name', async () => {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name);
    for (const t of ['browser_network_requests', 'browser_fill_form', 'browser_drag', 'browser_resize']) assert.ok(names.includes(t), t);
    for (const t of ['browser_mouse_click_xy', 'browser_pdf_save']) assert.ok(!names.includes(t), t);
    const r = await server.call('browser_pdf_save', {}).catch((e) => ({ isError: true, text: e.message }));
    assert.match(r.text, /browser_pdf_save is an opt-in tool; start the server with --caps pdf/);
    const b = await server.call('browser_batch_execute', { steps: [{ tool: 'browser_mouse_move_xy', arguments: { x: 1, y: 1 } }] });
    assert.match(b.text, /browser_mouse_move_xy is an opt-in tool; start the server with --caps vision/);
  });
});

describe('--caps vision,pdf', () => {
  let server;
  let web;
  let out;

  before(async () => {
    web = await site();
    out = mkdtempSync(join(tmpdir(), 'rd-caps-'));
    server = await startServer([...FULL, '--caps', 'vision,pdf', '--output-dir', out]);
  });

  after(async () => {
    await server?.close();
    await web?.close();
    rmSync(out, { recursive: true, force: true });
  });

  test('the coordinate mouse clicks and drags, and the page saves as PDF', async () => {
    const { tools } = await server.client.listTools();
    const names = tools.map((t) => t.name);
    for (const t of ['browser_mouse_move_xy', 'browser_mouse_click_xy', 'browser_mouse_drag_xy', 'browser_mouse_down', 'browser_mouse_up', 'browser_mouse_wheel', 'browser_pdf_save']) assert.ok(names.includes(t), t);

    await call(server, 'browser_navigate', { url: web.url('/network.html') });
    const rectOf = (el) => pageJson(server, `(({ x, y, width, height }) => ({ x, y, width, height }))(${el}.getBoundingClientRect())`);
    const box = await rectOf("document.getElementById('go')");
    const click = await call(server, 'browser_mouse_click_xy', { x: box.x + box.width / 2, y: box.y + box.height / 2 });
    assert.match(click, /Clicked at \(/);
    await call(server, 'browser_wait_for', { text: 'done 200 404' });

    await call(server, 'browser_navigate', { url: web.url('/pointer.html') });
    const [a, c] = [await rectOf("document.querySelectorAll('li')[0]"), await rectOf("document.querySelectorAll('li')[2]")];
    await call(server, 'browser_mouse_drag_xy', { startX: a.x + 20, startY: a.y + a.height / 2, endX: c.x + 20, endY: c.y + c.height / 2 });
    assert.match(await pageText(server, "document.getElementById('order').textContent"), /order: Bravo,Charlie,Alpha/);

    // The same gesture in parts: move, press, move in steps, release.
    const [a2, b2] = [await rectOf("document.querySelectorAll('li')[2]"), await rectOf("document.querySelectorAll('li')[0]")];
    await call(server, 'browser_mouse_move_xy', { x: a2.x + 20, y: a2.y + a2.height / 2 });
    assert.match(await call(server, 'browser_mouse_down', {}), /Pressed the left button at/);
    for (let i = 1; i <= 4; i++) {
      await call(server, 'browser_mouse_move_xy', { x: a2.x + 20, y: a2.y + a2.height / 2 + ((b2.y - a2.y) * i) / 4 });
    }
    await call(server, 'browser_mouse_up', {});
    assert.match(await pageText(server, "document.getElementById('order').textContent"), /order: Alpha,Bravo,Charlie/);
    await pageText(server, "(document.body.style.height = '5000px', scrollY)");
    const wheel = await call(server, 'browser_mouse_wheel', { deltaY: 400 });
    assert.match(wheel, /Scrolled the mouse wheel by \(0, 400\)/);
    await call(server, 'browser_wait_for', { time: 0.3 });
    assert.ok(Number(section(await pageText(server, 'scrollY'), 'Result')) > 0, 'the wheel scrolled the page');

    const pdf = await call(server, 'browser_pdf_save', { filename: 'page.pdf' });
    const path = join(out, 'page.pdf');
    assert.ok(pdf.includes(path), pdf);
    assert.ok(existsSync(path) && statSync(path).size > 500);
    assert.equal(readFileSync(path).subarray(0, 5).toString(), '%PDF-');
    const bad = await server.call('browser_pdf_save', { filename: '../x.pdf' }).catch((e) => ({ isError: true, text: e.message }));
    assert.match(bad.text, /must be a plain file name/);
  });
});

// Issue 25 item 6: the value of a password field never reaches a response.
async function passwordSession(server, web, { masked }) {
  const texts = [];
  const keep = async (tool, args) => {
    const r = await server.call(tool, args);
    texts.push(`${tool}: ${r.text}`);
    assert.equal(r.isError, false, `${tool}: ${r.text}`);
    if (masked) assert.ok(!r.text.includes('hunter2'), `${tool} shows the password:\n${r.text}`);
    return r.text;
  };
  const nav = await keep('browser_navigate', { url: web.url('/login.html') });
  const pw = refOf(nav, 'textbox "Password"');
  await keep('browser_type', { ref: refOf(nav, 'textbox "User"'), text: 'ada' });
  const typed = await keep('browser_type', { ref: pw, text: SECRET });
  const first = await keep('browser_snapshot', { expectation: { includeCode: true } });
  const ts = tsOf(first);
  // Diffed: a patch, then a line diff.
  const d = { diffOptions: { enabled: true }, includeCode: true };
  await keep('browser_type', { ref: refOf(nav, 'textbox "Note"'), text: 'hi', expectation: d });
  await keep('browser_type', { ref: pw, text: `${SECRET}2`, expectation: d });
  await keep('browser_type', { ref: pw, text: SECRET, expectation: { ...d, snapshotOptions: { diff: 'lines' } } });
  await keep('browser_snapshot', { since: ts });
  await keep('browser_batch_execute', {
    steps: [
      { tool: 'browser_type', arguments: { ref: pw, text: `${SECRET}3` } },
      { tool: 'browser_snapshot', arguments: {} },
    ],
    globalExpectation: { includeCode: true },
  });
  await keep('browser_fill_form', {
    fields: [{ name: 'Password', type: 'textbox', ref: pw, value: SECRET }],
    expectation: { includeCode: true },
  });
  await keep('browser_get_dom_fingerprint', { depth: 'detailed' });
  await keep('browser_snapshot', { expectation: { snapshotOptions: { format: 'text' } } });
  await keep('browser_evaluate', { function: "() => document.querySelector('[name=pw]').value" });
  await keep('browser_console_messages', {});
  const signed = await keep('browser_click', { ref: refOf(nav, 'button "Sign in"') });
  await keep('browser_network_requests', { static: true });
  return { all: texts.join('\n\n'), typed, first, signed };
}

describe('password values stay in the page', () => {
  let web;
  before(async () => { web = await site(); });
  after(async () => { await web?.close(); });

  test('no response of a session that types one and reads the page after shows it', async () => {
    const server = await startServer(FULL);
    try {
      const { all, typed, first, signed } = await passwordSession(server, web, { masked: true });
      assert.ok(!all.includes('hunter2'), all);
      assert.match(typed, /Typed "\[password, 15 characters\]" into textbox "Password"/);
      assert.match(first, /- textbox "Password" \[active\] \[ref=e\d+\]: "\[password, 15 characters\]"/);
      assert.match(typed, /fill\("\[password, 15 characters\]"\)/);
      assert.match(all, /Filled textbox "Password" \(e\d+\) with "\[password, 15 characters\]"/);
      assert.match(all, /\[password, 16 characters\]/);
      assert.match(all, /- textbox "User" \[ref=e\d+\]: ada/);
      // What the page itself wrote: its console, the URL its form sent.
      assert.match(all, /\[log\] pw is now \[password, 15 characters\]/);
      assert.match(signed, /welcome\.html\?user=ada&pw=\[password, 15 characters\]&note=hi/);
    } finally {
      await server.close();
    }
  });

  test('--reveal-passwords shows them (for testing a page)', async () => {
    const server = await startServer([...FULL, '--reveal-passwords']);
    try {
      const { typed, first, signed } = await passwordSession(server, web, { masked: false });
      assert.match(typed, /Typed "hunter2-Secret!" into textbox "Password"/);
      assert.match(first, /- textbox "Password" \[active\] \[ref=e\d+\]: hunter2-Secret!/);
      assert.match(signed, /pw=hunter2-Secret%21/);
    } finally {
      await server.close();
    }
  });
});
