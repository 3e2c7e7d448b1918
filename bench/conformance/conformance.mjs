// Snapshot conformance: for each page of a corpus served from 127.0.0.1, the
// reference server's snapshot (its MCP tools, driven with the official MCP
// client) against Playwright's own aria snapshot of the same page in the
// same Debian chromium, line by line with refs removed.
//
//   node bench/conformance/conformance.mjs --bin target/debug/response-diff \
//        --out bench-out/conformance.json [--only todomvc] [--show]
//
// Playwright's side is `page.ariaSnapshot({ mode: 'ai' })`: that is what
// @playwright/mcp 0.0.83 prints for browser_snapshot (its Tab.captureSnapshot
// calls it; `locator('body').ariaSnapshot()` is the assertion format, without
// generic nodes, `[active]` or refs). Both sides are stripped of `[ref=…]`
// and of `[cursor=pointer]`, which Playwright prints only on nodes that carry
// a ref (the ref scheme differs by design: ours are backend node ids on
// every node; Playwright's are counters on what is visible and clickable).
//
// A page's match rate is the number of lines in a longest common subsequence
// of the two snapshots over the longer one's line count, so an extra line
// counts as much as a missing one. Every differing line is written out.
import { existsSync, readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { chromium } from 'playwright-core';
import { diffArrays } from 'diff';

import { CORPUS } from './corpus.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const repo = resolve(here, '../..');

function arg(name, fallback) {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = process.argv[i + 1];
  if (v === undefined || v.startsWith('--')) {
    console.error(`${name} needs a value (see the header of bench/conformance/conformance.mjs)`);
    process.exit(2);
  }
  return v;
}

const BIN = resolve(arg('--bin', join(process.env.CARGO_TARGET_DIR || join(repo, 'target'), 'debug/response-diff')));
const OUT = arg('--out', null);
const CHROMIUM = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const ONLY = arg('--only', null);
const SHOW = process.argv.includes('--show');

if (!existsSync(BIN)) {
  console.error(`no server binary at ${BIN}: build it with \`cargo build -p response-diff-server\` or pass --bin`);
  process.exit(2);
}
if (!existsSync(CHROMIUM)) {
  console.error(`no chromium at ${CHROMIUM}: run \`make setup\` (Debian's chromium) or pass --chromium`);
  process.exit(2);
}

// ------------------------------------------------------------------ pages

const TYPES = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript',
  '.mjs': 'text/javascript',
  '.css': 'text/css',
  '.json': 'application/json',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.jpg': 'image/jpeg',
  '.gif': 'image/gif',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

/** Serves `root` on its own 127.0.0.1 port, so absolute paths in its pages work. */
async function serve(root) {
  const server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url, 'http://x').pathname);
    let file = normalize(join(root, path));
    if (existsSync(file) && !extname(file) && existsSync(join(file, 'index.html'))) file = join(file, 'index.html');
    if (!file.startsWith(root) || !existsSync(file) || !extname(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  return { origin: `http://127.0.0.1:${server.address().port}`, close: () => new Promise((ok) => server.close(ok)) };
}

// -------------------------------------------------------------- snapshots

/** Strips what the two ref schemes print differently. */
export function normalizeLine(line) {
  return line.replace(/ \[ref=[^\]]+\]/g, '').replace(/ \[cursor=pointer\]/g, '').replace(/\s+$/, '');
}

export function normalizeSnapshot(text) {
  return text.split('\n').map(normalizeLine).filter((l) => l.trim() !== '');
}

/** The aria snapshot inside one of our responses (its fenced yaml block). */
function snapshotOf(text) {
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const m = lines[i].match(/^(`{3,})yaml$/);
    if (!m) continue;
    const end = lines.indexOf(m[1], i + 1);
    if (end > i) return lines.slice(i + 1, end).join('\n');
  }
  throw new Error(`no yaml snapshot in the response:\n${text.slice(0, 2000)}`);
}

/**
 * Polls `read` until it has not changed for a second (pages that render
 * after load, or answer a timer: jsoneditor's async validation waits 500 ms).
 */
async function settled(read, what) {
  let prev = await read();
  let stable = 0;
  for (let i = 0; i < 80; i++) {
    await new Promise((ok) => setTimeout(ok, 250));
    const next = await read();
    stable = next === prev ? stable + 1 : 0;
    prev = next;
    if (stable >= 4) return next;
  }
  console.error(`warning: ${what} kept changing; using the last read`);
  return prev;
}

class Ours {
  async start() {
    // Playwright prints password values; the comparison is of the snapshot's
    // shape, so ours shows them too (masked by default, docs/DECISIONS.md D27).
    this.transport = new StdioClientTransport({ command: BIN, args: ['mcp', '--reveal-passwords', '--snapshot-mode', 'full'], stderr: 'pipe' });
    this.log = '';
    this.transport.stderr?.on('data', (d) => { this.log += d; });
    this.client = new Client({ name: 'conformance', version: '1.0.0' });
    await this.client.connect(this.transport);
  }
  async call(name, args) {
    const r = await this.client.callTool({ name, arguments: args }, undefined, { timeout: 120_000 });
    const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
    if (r.isError) throw new Error(`${name} failed: ${text}`);
    return text;
  }
  async snapshot() {
    return snapshotOf(await this.call('browser_snapshot', {}));
  }
  /**
   * The ref of the element printed as `role "name"` in the current snapshot;
   * waits for it (up to 15 s) as Playwright's locators do, for pages that
   * render after load.
   */
  async refOf(role, name) {
    const want = name === undefined ? `- ${role}` : `- ${role} ${JSON.stringify(name)}`;
    let snap = '';
    for (let i = 0; i < 60; i++) {
      if (i) await new Promise((ok) => setTimeout(ok, 250));
      snap = await this.snapshot();
      for (const line of snap.split('\n')) {
        const t = line.trim();
        if (t === want || t.startsWith(want + ' ') || t.startsWith(want + ':')) {
          const m = t.match(/\[ref=(e\d+)\]/);
          if (m) return m[1];
        }
      }
    }
    throw new Error(`no ${want} in our snapshot:\n${snap}`);
  }
  async open(url, steps) {
    await this.call('browser_navigate', { url });
    for (const s of steps) {
      const ref = await this.refOf(s.role, s.name);
      if (s.fill !== undefined) await this.call('browser_type', { ref, text: s.fill, submit: Boolean(s.submit) });
      else if (s.select !== undefined) await this.call('browser_select_option', { ref, values: [].concat(s.select) });
      else if (s.click) await this.call('browser_click', { ref });
      else throw new Error(`unknown step ${JSON.stringify(s)}`);
    }
    return settled(() => this.snapshot(), `our snapshot of ${url}`);
  }
  close() {
    return this.client.close();
  }
}

class Theirs {
  async start() {
    this.browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] });
  }
  async open(url, steps) {
    this.context = await this.browser.newContext();
    const page = await this.context.newPage();
    await page.goto(url, { waitUntil: 'load' });
    for (const s of steps) {
      const el = page.getByRole(s.role, s.name === undefined ? {} : { name: s.name, exact: true }).first();
      if (s.fill !== undefined) {
        await el.fill(s.fill);
        if (s.submit) await el.press('Enter');
      } else if (s.select !== undefined) await el.selectOption([].concat(s.select));
      else if (s.click) await el.click();
    }
    const snap = await settled(() => page.ariaSnapshot({ mode: 'ai' }), `Playwright's snapshot of ${url}`);
    await this.context.close();
    return snap;
  }
  close() {
    return this.browser.close();
  }
}

// ------------------------------------------------------------- comparison

export function compare(theirs, ours) {
  const a = normalizeSnapshot(theirs);
  const b = normalizeSnapshot(ours);
  const re = new RegExp(`^\\s*- '?(${NAMED.join('|')})\\b`);
  // Role, name and states: a field's value after them is not its name.
  const key = (l) => l.trim().match(/^- '?(\w+(?: "(?:[^"\\]|\\.)*")?(?: \[[^\]]*\])*)/)?.[1] ?? l.trim();
  const named = {
    playwright: a.filter((l) => re.test(l)).map(key),
    ours: b.filter((l) => re.test(l)).map(key),
  };
  let equal = 0;
  const differences = [];
  for (const part of diffArrays(a, b)) {
    if (part.added) differences.push(...part.value.map((l) => `+ ${l}`));
    else if (part.removed) differences.push(...part.value.map((l) => `- ${l}`));
    else equal += part.value.length;
  }
  const lines = Math.max(a.length, b.length);
  return { playwrightLines: a.length, ourLines: b.length, equal, rate: lines ? equal / lines : 1, named, differences };
}

async function main() {
  const ours = new Ours();
  const theirs = new Theirs();
  await Promise.all([ours.start(), theirs.start()]);
  const servers = new Map();
  const results = [];
  try {
    for (const page of CORPUS) {
      if (ONLY && !page.id.includes(ONLY)) continue;
      const root = resolve(here, page.root);
      if (!servers.has(root)) servers.set(root, await serve(root));
      const url = servers.get(root).origin + page.path;
      let r;
      try {
        const [t, o] = [await theirs.open(url, page.steps || []), await ours.open(url, page.steps || [])];
        r = { id: page.id, group: page.group, set: page.set, ...compare(t, o) };
        if (SHOW) r.snapshots = { playwright: t, ours: o };
      } catch (e) {
        r = { id: page.id, group: page.group, set: page.set, error: String(e.message || e).slice(0, 2000) };
      }
      results.push(r);
      const rate = r.error ? 'ERROR' : `${(100 * r.rate).toFixed(1)} %`;
      console.error(`${page.id}: ${rate}${r.error ? ' ' + r.error.split('\n')[0] : ''}`);
    }
  } finally {
    await Promise.allSettled([ours.close(), theirs.close(), ...[...servers.values()].map((s) => s.close())]);
  }
  const ok = results.filter((r) => !r.error);
  const total = {
    pages: results.length,
    errors: results.length - ok.length,
    playwrightLines: ok.reduce((s, r) => s + r.playwrightLines, 0),
    ourLines: ok.reduce((s, r) => s + r.ourLines, 0),
    equal: ok.reduce((s, r) => s + r.equal, 0),
    lines: ok.reduce((s, r) => s + Math.max(r.playwrightLines, r.ourLines), 0),
  };
  total.rate = total.lines ? total.equal / total.lines : 1;
  const sets = {};
  for (const r of ok) {
    const t = (sets[r.set] ??= { pages: 0, lines: 0, equal: 0 });
    t.pages++;
    t.lines += Math.max(r.playwrightLines, r.ourLines);
    t.equal += r.equal;
  }
  for (const t of Object.values(sets)) t.rate = t.lines ? t.equal / t.lines : 1;
  const names = namesOf(results);
  for (const r of results) delete r.named;
  const report = {
    reference: "playwright-core page.ariaSnapshot({ mode: 'ai' }) (what @playwright/mcp 0.0.83 prints), refs and [cursor=pointer] removed",
    chromium: CHROMIUM,
    total,
    sets,
    names,
    pages: results,
  };
  if (OUT) {
    mkdirSync(dirname(resolve(OUT)), { recursive: true });
    writeFileSync(OUT, JSON.stringify(report, null, 2) + '\n');
  }
  console.log(table(report));
  if (total.errors) process.exitCode = 1;
}

// Roles whose names the bar holds at 100 %: buttons, links, headings and
// form controls.
const NAMED = ['button', 'link', 'heading', 'textbox', 'searchbox', 'checkbox', 'radio', 'combobox', 'listbox', 'slider', 'spinbutton', 'switch'];

/**
 * Names of buttons, links, headings and form controls: of the lines with
 * such a role on Playwright's side (`role "name"` and states, indentation
 * aside), how many our snapshot of the page has too.
 */
export function namesOf(results) {
  let total = 0;
  let equal = 0;
  const missing = [];
  for (const r of results) {
    if (r.error || !r.named) continue;
    const ours = new Map();
    for (const l of r.named.ours) ours.set(l, (ours.get(l) || 0) + 1);
    for (const l of r.named.playwright) {
      total++;
      const n = ours.get(l) || 0;
      if (n > 0) {
        ours.set(l, n - 1);
        equal++;
      } else missing.push(`${r.id}: ${l}`);
    }
  }
  return { lines: total, equal, rate: total ? equal / total : 1, missing };
}

export function table(report) {
  const rows = ['| page | Playwright lines | our lines | equal | match |', '|---|---:|---:|---:|---:|'];
  for (const r of report.pages) {
    if (r.error) rows.push(`| ${r.id} | error: ${r.error.split('\n')[0]} | | | |`);
    else rows.push(`| ${r.id} | ${r.playwrightLines} | ${r.ourLines} | ${r.equal} | ${(100 * r.rate).toFixed(1)} % |`);
  }
  const t = report.total;
  rows.push('', '| set | pages | lines | equal | match |', '|---|---:|---:|---:|---:|');
  for (const [name, s] of Object.entries(report.sets || {})) {
    rows.push(`| ${name} | ${s.pages} | ${s.lines} | ${s.equal} | ${(100 * s.rate).toFixed(2)} % |`);
  }
  const n = report.names;
  if (n) {
    rows.push(`| names of buttons, links, headings, form controls | | ${n.lines} | ${n.equal} | ${(100 * n.rate).toFixed(2)} % |`);
  }
  rows.push(`| **all ${t.pages} pages** | ${t.playwrightLines} | ${t.ourLines} | ${t.equal} | **${(100 * t.rate).toFixed(2)} %** |`);
  const diffs = report.pages.filter((r) => r.differences?.length);
  if (diffs.length) {
    rows.push('', 'Remaining differences (- Playwright only, + ours only):');
    for (const r of diffs) {
      rows.push('', `${r.id}:`);
      for (const d of r.differences) rows.push(`    ${d}`);
    }
  }
  return rows.join('\n');
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  main().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
