// Refs that survive re-renders, in real Chromium through a real MCP client.
// The page rebuilds its whole list on every change (innerHTML, as framework
// apps re-render): every DOM node is new each time, so refs made of node ids
// would all change. The server carries refs over by content identity: the
// same item keeps its ref, an action on a carried ref hits the node that
// now stands there, and a ref whose element is gone says so.
import assert from 'node:assert/strict';
import { after, afterEach, before, describe, test } from 'node:test';

import { FULL, refOf, section, serveSite, startServer } from './helpers.js';

const LIST = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>Cart</title></head>
<body>
<main>
<h1>Cart</h1>
<ul id="cart" aria-label="Cart"></ul>
<p id="picked">Picked: nothing</p>
<button id="rerender">Re-render</button>
<button id="add">Add Jam</button>
<button id="remove">Remove Cake</button>
<button id="restore">Restore Cake</button>
<button id="dup">Add another Tea</button>
<a href="/other">Other page</a>
</main>
<script>
let items = ['Tea', 'Cake', 'Scones'];
const picked = [];
function render() {
  const ul = document.getElementById('cart');
  ul.innerHTML = '';
  items.forEach((name, i) => {
    const li = document.createElement('li');
    const b = document.createElement('button');
    b.textContent = 'Pick ' + name;
    b.onclick = () => {
      picked.push(name + ' #' + (i + 1));
      document.getElementById('picked').textContent = 'Picked: ' + picked.join(', ');
      render();
    };
    li.append(b);
    ul.append(li);
  });
}
document.getElementById('rerender').onclick = render;
document.getElementById('add').onclick = () => { items.push('Jam'); render(); };
document.getElementById('remove').onclick = () => { items = items.filter((n) => n !== 'Cake'); render(); };
document.getElementById('restore').onclick = () => { items.splice(1, 0, 'Cake'); render(); };
document.getElementById('dup').onclick = () => { items.push('Tea'); render(); };
render();
</script>
</body></html>`;

const OTHER = `<!doctype html><html lang="en"><head><title>Other</title></head>
<body><h1>Another page</h1><a href="/list">Back to the cart</a></body></html>`;

const diffs = { diffOptions: { enabled: true } };

/** The list's lines of a full snapshot (the ul and its items, with refs). */
function cartLines(text) {
  const snap = section(text, 'Page snapshot');
  assert.ok(snap, `no snapshot in:\n${text}`);
  const lines = snap.split('\n');
  const start = lines.findIndex((l) => l.includes('list "Cart"'));
  assert.ok(start >= 0, `no cart list in:\n${snap}`);
  const indent = lines[start].search(/\S/);
  const out = [lines[start]];
  for (const l of lines.slice(start + 1)) {
    if (l.search(/\S/) <= indent) break;
    out.push(l);
  }
  return out.map((l) => l.replace(/ \[active\]/, ''));
}

/** The snapshot patch's body (the fenced lines), or null when not a patch. */
function patchOf(text) {
  const snap = section(text, 'Page snapshot (patch)');
  if (snap === null) return null;
  const m = snap.match(/```\n([\s\S]*?)\n```/);
  return m ? m[1] : '';
}

describe('refs carried over re-renders', () => {
  let site;
  let server;

  before(async () => {
    site = await serveSite(undefined, { '/list': LIST, '/other': OTHER });
    server = await startServer(FULL);
  });

  after(async () => {
    await server?.close();
    await site?.close();
  });

  // Each test in a tab of its own: its own diff chain and ref memory (a
  // page opened again in the same tab would answer "No changes": its
  // refs come back).
  async function open() {
    const nav = await server.call('browser_tabs', { action: 'new', url: site.url('/list'), expectation: diffs });
    assert.equal(nav.isError, false, nav.text);
    assert.match(nav.text, /### Page snapshot\n```yaml\n/, nav.text);
    return nav.text;
  }

  afterEach(async () => {
    const closed = await server.call('browser_tabs', { action: 'close', expectation: { includeSnapshot: false } });
    assert.equal(closed.isError, false, closed.text);
  });

  async function full() {
    const s = await server.call('browser_snapshot', {});
    assert.equal(s.isError, false, s.text);
    return s.text;
  }

  async function click(text, target, expectation = diffs) {
    const r = await server.call('browser_click', { ref: refOf(text, target), expectation });
    assert.equal(r.isError, false, r.text);
    return r.text;
  }

  test('a list rebuilt with the same content keeps every ref; the patch is tiny', async () => {
    const page = await open();
    const before = cartLines(page);
    assert.equal(before.length, 7, before.join('\n')); // list, 3 items, 3 buttons
    const first = await click(page, 'button "Re-render"');
    // Only focus moved (the clicked button): no element added or removed.
    const patch = patchOf(first);
    if (patch !== null) {
      assert.match(patch, /^~ focus \[e\d+\]$/, first);
      assert.doesNotMatch(patch, /listitem|Pick/, first);
    } else {
      assert.match(section(first, 'Page snapshot'), /^No changes since/, first);
    }
    const again = await click(page, 'button "Re-render"');
    assert.match(section(again, 'Page snapshot'), /^No changes since the previous response/, again);
    assert.deepEqual(cartLines(await full()), before);
  });

  test('one item added is one added element; the others keep their refs', async () => {
    const page = await open();
    const before = cartLines(page);
    const added = await click(page, 'button "Add Jam"');
    const patch = patchOf(added);
    assert.ok(patch !== null, added);
    assert.doesNotMatch(patch, /^- /m, added); // nothing removed
    assert.equal(patch.split('\n').filter((l) => l.startsWith('+ ')).length, 1, patch);
    assert.match(patch, /\+ after \[e\d+\]:\n {2}- listitem \[ref=e\d+\]:\n {4}- button "Pick Jam" \[ref=e\d+\]/, patch);
    assert.doesNotMatch(patch, /Pick (Tea|Cake|Scones)/, patch);
    const now = cartLines(await full());
    assert.deepEqual(now.slice(0, 7), before);
  });

  test('an item removed and restored gets its old refs back', async () => {
    const page = await open();
    const before = cartLines(page);
    const removed = await click(page, 'button "Remove Cake"');
    const patch = patchOf(removed);
    assert.ok(patch !== null, removed);
    assert.equal(patch.split('\n').filter((l) => l.startsWith('- ')).length, 1, patch); // the row, one line
    assert.doesNotMatch(patch, /^\+ /m, patch);
    assert.doesNotMatch(patch, /Pick (Tea|Scones)/, patch);
    const restored = await click(page, 'button "Restore Cake"');
    const back = patchOf(restored);
    assert.ok(back !== null, restored);
    assert.equal(back.split('\n').filter((l) => l.startsWith('+ ')).length, 1, back); // the row, back
    assert.doesNotMatch(back, /^- /m, back);
    assert.deepEqual(cartLines(await full()), before);
  });

  test('identical rows keep distinct refs; a carried ref clicks the row that stands there now', async () => {
    let page = await open();
    await click(page, 'button "Add another Tea"');
    page = await full();
    const teas = cartLines(page).filter((l) => l.includes('button "Pick Tea"'));
    assert.equal(teas.length, 2, teas.join('\n'));
    const second = teas[1].match(/\[ref=(e\d+)\]/)[1];
    assert.notEqual(teas[0].match(/\[ref=(e\d+)\]/)[1], second);
    // Rebuild the list (new nodes), then act on the carried ref.
    await click(page, 'button "Re-render"');
    const r = await server.call('browser_click', { ref: second, expectation: diffs });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /Picked: Tea #4/, r.text);
    // Every row was rebuilt by that click too; the first Tea keeps its ref.
    assert.deepEqual(cartLines(await full()).filter((l) => l.includes('Pick Tea')), teas);
  });

  test('a ref of a rebuilt node acts on its new node even when no snapshot was taken since', async () => {
    const page = await open();
    const scones = refOf(page, 'button "Pick Scones"');
    // Re-render without reading the page: the agent's ref names a detached node.
    const quiet = await server.call('browser_click', {
      ref: refOf(page, 'button "Re-render"'),
      expectation: { includeSnapshot: false },
    });
    assert.equal(quiet.isError, false, quiet.text);
    const r = await server.call('browser_click', { ref: scones, expectation: diffs });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /Picked: Scones #3/, r.text);
  });

  test('a ref whose element is gone is a clear error', async () => {
    const page = await open();
    const cake = refOf(page, 'button "Pick Cake"');
    await click(page, 'button "Remove Cake"');
    const r = await server.call('browser_click', { ref: cake });
    assert.equal(r.isError, true, r.text);
    assert.match(r.text, new RegExp(`ref ${cake} \\(button "Pick Cake"\\) is no longer on the page; take a new snapshot`), r.text);
    // A ref never handed out is refused too.
    const unknown = await server.call('browser_click', { ref: 'e999999' });
    assert.equal(unknown.isError, true, unknown.text);
    assert.match(unknown.text, /ref e999999 is not on the page; take a new snapshot/);
  });

  test('leaving the page and coming back restores its refs', async () => {
    const page = await open();
    const before = cartLines(page);
    await click(page, 'link "Other page"');
    const back = await server.call('browser_navigate', { url: site.url('/list'), expectation: diffs });
    assert.equal(back.isError, false, back.text);
    assert.deepEqual(cartLines(await full()), before);
    // The restored refs act on the new document's nodes.
    const r = await server.call('browser_click', { ref: refOf(page, 'button "Pick Tea"'), expectation: diffs });
    assert.equal(r.isError, false, r.text);
    assert.match(r.text, /Picked: Tea #1/, r.text);
  });
});
