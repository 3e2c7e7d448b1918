// Eight everyday tasks an agent meets, done through one MCP server the way
// an agent would do them (read the snapshot, act on refs, answer what the
// server reports), each judged in the page afterwards:
//
//   confirm   refuse a "Delete 3 items?" confirm: the items stay
//   prompt    answer a prompt with a name
//   upload    upload a file through a file input
//   frame     pay inside a payment iframe served from another site
//   popup     follow a link that opens a new tab and read the new page
//   network   list the requests a button made (one 200, one 404)
//   password  sign in without the password reaching any response
//   download  download a file and find it where the response says
//
// Usage: node bench/tasks.mjs [--bin target/release/response-diff]
//          [--servers ours,ours-full,pw] [--out bench-out/tasks.json] [--ours-args '…']
// Pages are served on 127.0.0.1, the payment frame on localhost (another
// site to Chromium). Every server gets the same arguments an agent written
// for @playwright/mcp sends (`target` for element refs).
//
// Tokens are what the agent reads: every response, plus each snapshot file
// @playwright/mcp links instead of inlining, once, when the task reads it
// for a ref or a check (the agent has to open the file to act). `ours` is
// our server with no flags, which answers with diffs: the agent keeps its
// view of each page and applies each diff or patch to it, as the app
// sessions do (bench/harness.mjs rebuildOurs). `ours-full` answers in full
// (--snapshot-mode full); `ours-diff` turns diffs on the older way
// (--default-expectation), for comparison with earlier runs. Its floor per
// task: the tokens of the lines the agent had not been shown before in the
// task, counting each response's sections other than the snapshot as they
// are and the snapshot as the page it rebuilt (bench/harness.mjs floor).
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { connect, countTokens, floor, inlineSnapshot, textFloor, told, linkedSnapshotFile, pageUrl, pkgVersion, rebuildOurs, repo } from './harness.mjs';
import { readSections } from './reconstruct.mjs';

const args = process.argv.slice(2);
const opt = (name, dflt) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : dflt;
};
const BIN = opt('--bin', join(repo, 'target/release/response-diff'));
const CHROMIUM = opt('--chromium', '/usr/bin/chromium');
const SERVERS = opt('--servers', 'ours,ours-full,pw').split(',');
const OUT = opt('--out', null);
// Our server saves downloads under --output-dir; an empty --ours-args runs
// a build that predates the flag.
const OURS_ARGS = opt('--ours-args', '--output-dir {workdir}/out').split(' ').filter(Boolean);
const DIFFS = ['--default-expectation', '{"diffOptions":{"enabled":true}}'];
const FULL = ['--snapshot-mode', 'full'];
const PASSWORD = 'hunter2-Secret!';
const CSV = 'quarter,revenue\nQ1,100\nQ2,120\n';

const PAGES = {
  '/confirm.html': `<title>Items</title><h1>Items</h1><ul><li>Tea</li><li>Cocoa</li><li>Milk</li></ul>
<button onclick="if (confirm('Delete 3 items?')) { document.querySelector('ul').innerHTML = ''; s.textContent = 'Deleted'; } else { s.textContent = 'Kept'; }">Delete all</button><p id="s"></p>`,
  '/prompt.html': `<title>Rename</title><h1>Profile</h1>
<button onclick="const n = prompt('New name?', 'guest'); s.textContent = n === null ? 'No name' : 'Hello, ' + n;">Rename</button><p id="s"></p>`,
  '/upload.html': `<title>Upload</title><h1>Attach a file</h1>
<label>Attachment <input type="file" id="f" onchange="s.textContent = 'Uploaded: ' + f.files[0].name + ' (' + f.files[0].size + ' bytes)'"></label><p id="s"></p>`,
  '/popup.html': `<title>Home</title><h1>Home</h1><a href="/report.html" target="_blank">Open report</a>`,
  '/report.html': `<title>Report</title><h1>Quarterly report</h1><p>Revenue rose 20 %.</p>`,
  '/network.html': `<title>Data</title><h1>Data</h1>
<button onclick="fetch('/api/data').then(r => r.json()).then(j => { s.textContent = 'Loaded ' + j.rows + ' rows'; }); fetch('/api/missing');">Load data</button><p id="s"></p>`,
  '/login.html': `<title>Sign in</title><h1>Sign in</h1><form onsubmit="return false">
<label>Email <input id="e" type="email"></label><label>Password <input id="p" type="password"></label>
<button type="button" onclick="s.textContent = p.value === '${PASSWORD}' ? 'Signed in as ' + e.value : 'Wrong password'">Sign in</button></form><p id="s"></p>`,
  '/download.html': `<title>Files</title><h1>Files</h1><a href="/files/report.csv" download="report.csv">Download report</a>`,
};
const CARD = `<title>Card</title><form onsubmit="return false"><label>Card number <input id="c"></label>
<button type="button" onclick="r.textContent = c.value.replace(/ /g, '').length === 16 ? 'Payment accepted' : 'Invalid card'">Pay</button></form><p id="r"></p>`;

function serve(routes) {
  const server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const r = routes(path);
    if (!r) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': r.type ?? 'text/html; charset=utf-8', 'cache-control': 'no-store', ...(r.headers ?? {}) });
    res.end(r.body);
  });
  return new Promise((ok) => server.listen(0, '127.0.0.1', () => ok({ port: server.address().port, close: () => new Promise((c) => { server.close(c); server.closeAllConnections(); }) })));
}

/**
 * The snapshot a response shows, or '': the agent's rebuilt view when it
 * applies diffs, else the inline one, else the file @playwright/mcp links
 * (whose tokens count once, the first time the agent reads it).
 */
function snapshotOf(s, r) {
  if (r.view !== undefined) return r.view ?? '';
  const inline = inlineSnapshot(r.text);
  if (inline !== null) return inline;
  const file = linkedSnapshotFile(r.text, s.workdir);
  if (!file) return '';
  if (!s.filesRead.has(file.path)) {
    s.filesRead.add(file.path);
    s.fileTokens += countTokens(file.text);
  }
  return file.text;
}

/** The ref of the first `- role "name"` line (name a RegExp) in a snapshot, or null. */
function refOf(snapshot, role, name) {
  for (const line of snapshot.split('\n')) {
    const m = line.match(/^\s*- (\w+)(?: "((?:[^"\\]|\\.)*)")?.*\[ref=([A-Za-z0-9_]+)\]/);
    if (m && m[1] === role && name.test(m[2] ?? '')) return m[3];
  }
  return null;
}

/** Every regular file under a directory. */
function filesUnder(dir) {
  let out = [];
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return out;
  }
  for (const e of entries) {
    const p = join(dir, e.name);
    if (e.isDirectory()) out = out.concat(filesUnder(p));
    else if (e.isFile()) out.push(p);
  }
  return out;
}

const TASKS = {
  async confirm(s) {
    let r = await s.nav('/confirm.html');
    r = await s.call('browser_click', { element: 'Delete all', target: s.ref(r, 'button', /^Delete all$/) });
    if (/dialog/i.test(r.text) && /browser_handle_dialog/.test(r.text)) await s.call('browser_handle_dialog', { accept: false });
    return (await s.eval("() => document.getElementById('s').textContent + '|' + document.querySelectorAll('li').length")) === 'Kept|3';
  },
  async prompt(s) {
    let r = await s.nav('/prompt.html');
    r = await s.call('browser_click', { element: 'Rename', target: s.ref(r, 'button', /^Rename$/) });
    if (/dialog/i.test(r.text) && /browser_handle_dialog/.test(r.text)) await s.call('browser_handle_dialog', { accept: true, promptText: 'Ada' });
    return (await s.eval("() => document.getElementById('s').textContent")) === 'Hello, Ada';
  },
  async upload(s) {
    const file = join(s.workdir, 'notes.txt');
    writeFileSync(file, 'twelve bytes');
    let r = await s.nav('/upload.html');
    r = await s.call('browser_click', { element: 'Attachment', target: s.ref(r, 'button', /Attachment|Choose File/) });
    if (/browser_file_upload/.test(r.text)) await s.call('browser_file_upload', { paths: [file] });
    return (await s.eval("() => document.getElementById('s').textContent")) === 'Uploaded: notes.txt (12 bytes)';
  },
  async frame(s) {
    let r = await s.nav('/pay.html');
    const card = s.ref(r, 'textbox', /^Card number$/);
    if (!card) return false;
    r = await s.call('browser_type', { element: 'Card number', target: card, text: '4242 4242 4242 4242' });
    r = await s.call('browser_click', { element: 'Pay', target: s.ref(r, 'button', /^Pay$/) ?? s.ref(await s.call('browser_snapshot', {}), 'button', /^Pay$/) });
    return /Payment accepted/.test(s.snap(await s.call('browser_snapshot', {})));
  },
  async popup(s) {
    let r = await s.nav('/popup.html');
    r = await s.call('browser_click', { element: 'Open report', target: s.ref(r, 'link', /^Open report$/) });
    const list = await s.call('browser_tabs', { action: 'list' });
    const m = [...list.text.matchAll(/^- (\d+):.*Report/gm)].pop();
    if (!m) return false;
    r = await s.call('browser_tabs', { action: 'select', index: Number(m[1]) });
    const snap = s.snap(r) || s.snap(await s.call('browser_snapshot', {}));
    return /heading "Quarterly report"/.test(snap);
  },
  async network(s) {
    let r = await s.nav('/network.html');
    r = await s.call('browser_click', { element: 'Load data', target: s.ref(r, 'button', /^Load data$/) });
    await s.call('browser_wait_for', { text: 'Loaded 3 rows' });
    r = await s.call('browser_network_requests', {});
    const line = (p) => r.text.split('\n').find((l) => l.includes(p)) ?? '';
    return /\b200\b/.test(line('/api/data')) && /\b404\b/.test(line('/api/missing'));
  },
  async password(s) {
    let r = await s.nav('/login.html');
    const email = s.ref(r, 'textbox', /^Email$/);
    const pass = s.ref(r, 'textbox', /^Password$/);
    r = await s.call('browser_type', { element: 'Email', target: email, text: 'ada@example.com' });
    r = await s.call('browser_type', { element: 'Password', target: pass, text: PASSWORD });
    r = await s.call('browser_click', { element: 'Sign in', target: s.ref(r, 'button', /^Sign in$/) ?? s.ref(await s.call('browser_snapshot', {}), 'button', /^Sign in$/) });
    await s.call('browser_snapshot', {});
    const signedIn = /Signed in as ada@example.com/.test(await s.eval("() => document.getElementById('s').textContent"));
    const leaked = s.transcript.some((t) => t.includes(PASSWORD));
    s.note = leaked ? 'the password appears in a response' : '';
    return signedIn && !leaked;
  },
  async download(s) {
    let r = await s.nav('/download.html');
    r = await s.call('browser_click', { element: 'Download report', target: s.ref(r, 'link', /^Download report$/) });
    // Either the click's response or a later read reports it.
    const text = r.text + (await s.call('browser_snapshot', {})).text;
    const saved = filesUnder(s.workdir).filter((f) => /report.*\.csv$/.test(f) && readFileSync(f, 'utf8') === CSV);
    return saved.length > 0 && saved.some((f) => text.includes(f) || text.includes(f.split('/').pop()));
  },
};

async function runTask(name, task, sites) {
  const workdir = mkdtempSync(join(tmpdir(), `rd-task-${task}-`));
  const kind = name.startsWith('ours') ? 'ours' : name;
  const diffs = name === 'ours' || name === 'ours-diff';
  const mode = { 'ours-diff': DIFFS, 'ours-full': FULL }[name] ?? [];
  const extra = kind === 'ours' ? [...OURS_ARGS.map((x) => x.replace('{workdir}', workdir)), ...mode] : [];
  const server = await connect({ kind, id: `${name}/${task}`, args: extra }, { bin: BIN, chromium: CHROMIUM, workdir });
  const s = {
    workdir,
    transcript: [],
    tokens: 0,
    fileTokens: 0,
    filesRead: new Set(),
    calls: 0,
    note: '',
    // With diffs on: the agent's view of the current page, of each URL, and every view so far.
    view: null,
    seen: new Map(),
    history: [],
    // With diffs on: what each response told, for the floor.
    told: [],
    async call(tool, a) {
      if (!server.tools.some((t) => t.name === tool)) throw new Error(`no tool ${tool}`);
      const r = await server.call(tool, a);
      s.calls++;
      s.transcript.push(r.text);
      s.tokens += countTokens(r.text);
      if (diffs) {
        const { view, how } = rebuildOurs(BIN, s.view, r.text, s.seen, s.history);
        if (how !== 'no snapshot section') {
          s.view = view;
          const url = pageUrl(readSections(r.text));
          if (url !== null) s.seen.set(url, view);
          s.history.push(view);
        }
        r.view = s.view;
        s.told.push(told(r.text, how === 'no snapshot section' ? '' : view));
      }
      return r;
    },
    nav: (path) => s.call('browser_navigate', { url: sites.a + path }),
    snap: (r) => snapshotOf(s, r),
    ref: (r, role, name) => refOf(snapshotOf(s, r), role, name),
    async eval(fn) {
      const r = await server.call('browser_evaluate', { function: fn });
      const m = r.text.match(/### Result\n([\s\S]*?)(\n###|$)/);
      try {
        return JSON.parse((m ? m[1] : r.text).trim());
      } catch {
        return (m ? m[1] : r.text).trim();
      }
    },
  };
  let done = false;
  let error = '';
  try {
    done = await TASKS[task](s);
  } catch (e) {
    error = e.message.split('\n')[0];
  } finally {
    await server.close();
    rmSync(workdir, { recursive: true, force: true });
  }
  const floorTokens = diffs ? floor(s.told).reduce((x, y) => x + y, 0) : undefined;
  const textFloorTokens = diffs ? textFloor(s.told).reduce((x, y) => x + y, 0) : undefined;
  return { done, calls: s.calls, tokens: s.tokens + s.fileTokens, ...(s.fileTokens ? { responseTokens: s.tokens, fileTokens: s.fileTokens } : {}), ...(diffs ? { floor: floorTokens, textFloor: textFloorTokens } : {}), note: error || s.note };
}

const b = await serve((p) => (p === '/card.html' ? { body: CARD } : null));
const a = await serve((p) => {
  if (PAGES[p]) return { body: PAGES[p] };
  if (p === '/pay.html') return { body: `<title>Checkout</title><h1>Checkout</h1><p>Total $12.00</p><iframe title="Payment" src="http://localhost:${b.port}/card.html" width="400" height="200"></iframe>` };
  if (p === '/api/data') return { body: JSON.stringify({ rows: 3 }), type: 'application/json' };
  if (p === '/files/report.csv') return { body: CSV, type: 'text/csv', headers: { 'content-disposition': 'attachment; filename="report.csv"' } };
  return null;
});
const sites = { a: `http://127.0.0.1:${a.port}` };

const results = {};
for (const kind of SERVERS) {
  results[kind] = {};
  for (const task of Object.keys(TASKS)) {
    results[kind][task] = await runTask(kind, task, sites);
    process.stderr.write(`${kind} ${task}: ${results[kind][task].done ? 'done' : 'NOT done'} ${results[kind][task].note}\n`);
  }
}
await a.close();
await b.close();

const label = { ours: 'response-diff, no flags (diffs)', 'ours-full': 'response-diff, --snapshot-mode full', 'ours-diff': 'response-diff, diffs on (--default-expectation)', pw: `@playwright/mcp ${pkgVersion('@playwright/mcp')}` };
const head = `| task | ${SERVERS.map((k) => label[k] ?? k).join(' | ')} |\n|---|${SERVERS.map(() => '---|').join('')}`;
const rows = Object.keys(TASKS).map((t) => `| ${t} | ${SERVERS.map((k) => {
  const r = results[k][t];
  const read = r.fileTokens ? ` (${r.fileTokens} from snapshot files)` : '';
  const fl = r.floor ? `, floor ${r.floor}, ${(r.tokens / r.floor).toFixed(2)}×` : '';
  return `${r.done ? 'done' : '**not done**'} (${r.calls} calls, ${r.tokens} tokens${fl}${read}${r.note ? `; ${r.note}` : ''})`;
}).join(' | ')} |`);
const sum = (k) => Object.values(results[k]).reduce((n, r) => n + r.tokens, 0);
const floorSum = (k) => Object.values(results[k]).reduce((n, r) => n + (r.floor ?? 0), 0);
const total = `| **total** | ${SERVERS.map((k) => `${Object.values(results[k]).filter((r) => r.done).length} of ${Object.keys(TASKS).length}, ${sum(k)} tokens${floorSum(k) ? `, floor ${floorSum(k)}, ${(sum(k) / floorSum(k)).toFixed(2)}×` : ''}`).join(' | ')} |`;
console.log([head, ...rows, total].join('\n'));
if (OUT) writeFileSync(OUT, JSON.stringify(results, null, 2));
