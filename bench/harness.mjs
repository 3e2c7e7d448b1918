// What the app sessions (todomvc.mjs, expand.mjs) share: a static file
// server on 127.0.0.1, MCP connections to our server and to each peer
// (@playwright/mcp, fast-playwright-mcp, agent-browser) over stdio with the
// official MCP client, reading the aria snapshot a response carries,
// rebuilding the agent's view from our diffs and agent-browser's deltas, and
// ref churn between consecutive full snapshots.
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import { dirname, extname, isAbsolute, join, normalize, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

import { applyPatch, applyUnified, fencedBlock, readSections } from './reconstruct.mjs';

export const here = dirname(fileURLToPath(import.meta.url));
export const repo = resolve(here, '..');
export const modulePath = (p) => join(here, 'node_modules', p);
export { countTokens };

export const BROWSER_ARGS = ['--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

/**
 * The floor of a session, per step: the o200k tokens of the lines the
 * agent had not been shown before in the session, which no lossless answer
 * can leave out (the page's lines; with `told`, the response's other lines
 * too). A line is known when an earlier snapshot of the
 * session had it with the same ref, wherever it stood (indentation aside:
 * an element moved under a new parent shows nothing new); a line with
 * another element's ref is another element, new however alike (a second
 * row's "Sales" cell). A new line costs its tokens as printed.
 * `snapshots`: what the agent must know after each step, in order (the
 * page, or `told(response, page)`).
 */
export function floor(snapshots) {
  return freshTokens(snapshots, (l) => l.trim());
}

/**
 * Issue 37's measure of the floor: as `floor`, with refs ignored too, so a
 * line any element showed before is known (it undercounts: a new row whose
 * cells repeat other rows' text costs nothing but its distinct cells).
 */
export function textFloor(snapshots) {
  return freshTokens(snapshots, (l) => l.replace(/ \[ref=[^\]]*\]/g, '').trim());
}

function freshTokens(snapshots, key) {
  const seen = new Set();
  return snapshots.map((s) => {
    const lines = s.split('\n').filter((l) => l.trim());
    const fresh = lines.filter((l) => !seen.has(key(l)));
    for (const l of lines) seen.add(key(l));
    return fresh.length ? countTokens(fresh.join('\n')) : 0;
  });
}

/**
 * What one of our responses told the agent, for the floor: its sections
 * other than the snapshot, as they are (a result line, the page URL, a
 * dialog), and the page it shows as a whole snapshot (`page`, the truth
 * after the step; '' when the response shows none).
 */
export function told(text, page) {
  const other = readSections(text).filter((x) => !x.heading.startsWith('Page snapshot')).map((x) => `### ${x.heading}\n${x.body}`);
  return [...other, page ?? ''].join('\n');
}

/**
 * Where an answer's tokens go that the floor (D44) prices at zero, for
 * the report's account of ours against the floor: *framing*, the section
 * headings and code fences every answer of this format carries; *naming*,
 * the patch lines that only name elements the agent knows, by ref or
 * address (a removal, an insertion's anchor, a restore `as last shown`,
 * a focus, order or state line). The rest is the answer's content: new
 * lines (the floor) and any line sent again. Tokens of each kind's lines,
 * joined, over `texts` (one step's answers); and *refs*, the tokens of
 * what the naming lines' brackets hold, alone (`e228 e278 e227 e228`):
 * what no lossless answer can leave out of them.
 */
export function answerParts(texts) {
  const framing = [];
  const naming = [];
  const refs = [];
  const NAMING = [
    /^- \[[^\]]+\]( .*)?$/, // a removal (its role and name follow for the reader)
    /^\+ (after \[[^\]]+\]|first in \[[^\]]+\]|first):( \[[^\]]+\] as last shown)?$/, // an anchor, a restore
    /^ +\[[^\]]+\] as last shown$/, // a restore among printed lines
    /^~ (focus|order) /, // the focus moved, siblings reordered
    /^~ \[[^\]]+\]( [+-][^\s]+)+$/, // states lost and gained
  ];
  for (const text of texts) {
    let inPatch = false;
    for (const l of text.split('\n')) {
      if (/^### /.test(l)) {
        framing.push(l);
        inPatch = l.startsWith('### Page snapshot (patch)');
      } else if (/^```/.test(l)) {
        framing.push(l);
      } else if (inPatch && NAMING.some((re) => re.test(l))) {
        naming.push(l);
        refs.push(...[...l.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]));
      }
    }
  }
  const tok = (ls) => (ls.length ? countTokens(ls.join('\n')) : 0);
  return { framing: tok(framing), naming: tok(naming), refs: refs.length ? countTokens(refs.join(' ')) : 0 };
}

/** `floor 1,234 tokens, 1.23× the floor` for a run's rows and per-step floor, or ''. */
export function floorNote(rows, perStep) {
  if (!perStep) return '';
  const f = perStep.reduce((a, b) => a + b, 0);
  const t = rows.reduce((a, x) => a + x.tokens + (x.fileTokens ?? 0), 0);
  return `floor ${f} tokens, ${f ? (t / f).toFixed(2) : '–'}× the floor`;
}

export function pkgVersion(name) {
  return JSON.parse(readFileSync(modulePath(`${name}/package.json`), 'utf8')).version;
}

// ------------------------------------------------------------ static files

const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.json': 'application/json', '.svg': 'image/svg+xml', '.png': 'image/png', '.gif': 'image/gif', '.woff': 'font/woff', '.woff2': 'font/woff2',
};

/** Serves `root` read-only on 127.0.0.1 (a directory gives its index.html). */
export async function serveDir(root) {
  const server = createServer((req, res) => {
    let file = normalize(join(root, decodeURIComponent(new URL(req.url, 'http://x').pathname)));
    if (file.startsWith(root) && existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!file.startsWith(root) || !existsSync(file)) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] || 'application/octet-stream', 'cache-control': 'no-store' });
    res.end(readFileSync(file));
  });
  await new Promise((ok) => server.listen(0, '127.0.0.1', ok));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return { origin, close: () => new Promise((ok) => server.close(ok)) };
}

// ------------------------------------------------------------- connections

/**
 * Starts one MCP server over stdio. kind: 'ours' (our binary), 'pw'
 * (@playwright/mcp), 'proxy' (@playwright/mcp behind response-diff-proxy,
 * bindings/node/proxy.js, which needs the built Node addon), 'fast'
 * (fast-playwright-mcp), 'ab' (agent-browser's `mcp`, every tool profile
 * since double-click is outside `core`). `args`: extra flags for our server.
 */
let sessions = 0;

/** response-diff-proxy's own time per tool call, from its `--timing` lines on stderr: [{ tool, ownMs, totalMs, extraCalls }]. */
export function proxyTimings(log) {
  return [...log.matchAll(/^response-diff-proxy: timing (\S+) ([\d.]+) ms of ([\d.]+) ms, (\d+) extra upstream calls$/gm)]
    .map((m) => ({ tool: m[1], ownMs: Number(m[2]), totalMs: Number(m[3]), extraCalls: Number(m[4]) }));
}

export async function connect({ kind, id, args: extra = [], command: own }, { bin, chromium, workdir }) {
  let command;
  let args;
  const env = { ...process.env, PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1' };
  if (own) {
    // A server the caller starts itself (bench/devtools.mjs): `command` and `args` as given.
    command = own;
    args = extra;
  } else if (kind === 'ours') {
    command = bin;
    args = ['mcp', '--executable-path', chromium, ...extra];
  } else if (kind === 'ab') {
    command = modulePath('agent-browser/bin/agent-browser-linux-x64');
    args = ['mcp', '--tools', 'all'];
    // Its daemon keeps state under HOME; a session name per run keeps runs apart.
    Object.assign(env, {
      HOME: workdir,
      AGENT_BROWSER_EXECUTABLE_PATH: chromium,
      AGENT_BROWSER_ARGS: ['--no-sandbox', ...BROWSER_ARGS].join(','),
      AGENT_BROWSER_SESSION: `rdbench${process.pid}n${++sessions}`,
      AGENT_BROWSER_NO_WEBMCP: '1',
    });
  } else {
    const config = join(workdir, 'config.json');
    writeFileSync(config, JSON.stringify({
      browser: { browserName: 'chromium', isolated: true, launchOptions: { executablePath: chromium, headless: true, chromiumSandbox: false, args: BROWSER_ARGS } },
    }));
    const cli = kind === 'fast' ? modulePath('@tontoko/fast-playwright-mcp/cli.js') : modulePath('@playwright/mcp/cli.js');
    command = process.execPath;
    args = [cli, '--config', config, '--headless', '--isolated', '--no-sandbox', '--executable-path', chromium, '--output-dir', join(workdir, 'out')];
    if (kind === 'fast') args.push('--tool-profile', 'full');
    if (kind === 'proxy') args = [join(repo, 'bindings/node/proxy.js'), '--timing', '--', process.execPath, ...args];
  }
  const transport = new StdioClientTransport({ command, args, cwd: workdir, stderr: 'pipe', env });
  let log = '';
  transport.stderr?.on('data', (d) => { log += d; });
  const client = new Client({ name: 'response-diff-bench', version: '1.0.0' });
  try {
    await client.connect(transport);
  } catch (e) {
    throw new Error(`${id}: could not start ${command} ${args.join(' ')}: ${e.message}\n${log}`);
  }
  const tools = [];
  let cursor;
  do {
    const page = await client.listTools(cursor ? { cursor } : {});
    tools.push(...page.tools);
    cursor = page.nextCursor;
  } while (cursor);
  return {
    client,
    tools,
    catalogTokens: countTokens(JSON.stringify(tools)),
    toolCount: tools.length,
    log: () => log,
    /** response-diff-proxy's own time per tool call (its --timing lines): [{ tool, ownMs, totalMs, extraCalls }]. */
    proxyTimings: () => proxyTimings(log),
    async call(name, args) {
      const r = await client.callTool({ name, arguments: args }, undefined, { timeout: 90_000 });
      const text = r.content.filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      return { text, isError: Boolean(r.isError) };
    },
    async close() {
      if (kind === 'ab') await client.callTool({ name: 'agent_browser_close', arguments: {} }, undefined, { timeout: 30_000 }).catch(() => {});
      await client.close().catch(() => {});
    },
  };
}

// ------------------------------------------------------ snapshots in responses

/** The full aria snapshot a response carries inline, or null. */
export function inlineSnapshot(text) {
  for (const s of readSections(text)) {
    if (/^(Page snapshot|Snapshot|Page state)$/.test(s.heading)) {
      const b = fencedBlock(s.body, 'yaml');
      if (b !== null) return b;
    }
  }
  return null;
}

/** The snapshot file @playwright/mcp links instead of inlining, or null. */
export function linkedSnapshotFile(text, workdir) {
  const m = text.match(/\[Snapshot\]\(([^)]+\.yml)\)/);
  if (!m) return null;
  const path = isAbsolute(m[1]) ? m[1] : join(workdir, m[1]);
  return existsSync(path) ? { path, text: readFileSync(path, 'utf8') } : null;
}

/** The page URL (without its fragment) of a response's Page state (ours) or Page (@playwright/mcp's), or null. */
export function pageUrl(sections) {
  const state = sections.find((s) => s.heading === 'Page state' || s.heading === 'Page');
  const m = state && state.body.match(/^- Page URL: (\S+)/m);
  return m ? m[1].split('#')[0] : null;
}

/**
 * The agent's view after one of our diffing responses: the previous view
 * plus the diff (or patch). Returns { view, how }; throws when the response
 * cannot be read. seenByUrl: the agent's last view of each URL; history:
 * every view the agent rebuilt before, oldest first (what a patch restores
 * `as last shown` from).
 */
export function rebuildOurs(bin, prev, text, seenByUrl, history = []) {
  const sections = readSections(text);
  const sec = sections.find((s) => s.heading.startsWith('Page snapshot'));
  if (!sec) return { view: prev, how: 'no snapshot section' };
  const url = pageUrl(sections);
  const seen = url === null ? null : seenByUrl.get(url) ?? null;
  const bases = {
    'Page snapshot (diff since the previous snapshot)': [prev, 'a previous view', 'previous + diff'],
    'Page snapshot (diff since the last snapshot of this URL)': [seen, 'a view of this URL', 'last view of this URL + diff'],
    'Page snapshot (patch)': [prev, 'a previous view', 'previous + patch'],
    'Page snapshot (patch since the last snapshot of this URL)': [seen, 'a view of this URL', 'last view of this URL + patch'],
  };
  // Headings may grow a note (a line count over maxDiffLines); key by the part before it.
  const key = Object.keys(bases).find((h) => sec.heading === h) ?? Object.keys(bases).find((h) => sec.heading.startsWith(`${h} `) || sec.heading.startsWith(h.slice(0, -1)));
  if (key) {
    const [base, name, how] = bases[key];
    const patch = key.includes('(patch');
    const diff = fencedBlock(sec.body, patch ? '' : 'diff');
    if (diff === null || base === null) throw new Error(`a diff without ${base === null ? name : 'a diff block'}`);
    return { view: patch ? applyPatch(bin, base, diff, history) : applyUnified(base, diff), how };
  }
  if (/^No changes since the last snapshot of this URL/.test(sec.body.trim())) {
    if (seen === null) throw new Error('"no changes" for a URL never seen');
    return { view: seen, how: 'unchanged since the last view of this URL' };
  }
  if (sec.heading.startsWith('Page snapshot (changes since ts')) {
    const body = fencedBlock(sec.body, '') ?? sec.body;
    const changes = body.split('\n').filter((l) => /^[+\-~] /.test(l));
    if (changes.length) throw new Error(`a tree diff with ${changes.length} changes: this bench applies only empty ones`);
    return { view: prev, how: 'since: no changes' };
  }
  if (/^No changes since the previous response/.test(sec.body.trim())) return { view: prev, how: 'unchanged' };
  const full = fencedBlock(sec.body, 'yaml');
  if (full !== null) return { view: full, how: /^Full response \(/.test(sec.body) ? 'full (diff would not help)' : 'first (full)' };
  throw new Error(`an unreadable snapshot section "${sec.heading}":\n${sec.body.slice(0, 500)}`);
}

/**
 * The agent's view of a session built from our answers (our server with
 * diffs, or @playwright/mcp behind response-diff-proxy), with what
 * `rebuildOurs` needs: the last view of each URL and every view shown.
 */
export class OurAnswers {
  constructor(bin) {
    this.bin = bin;
    this.seenByUrl = new Map();
    this.history = [];
    this.lastUrl = null;
  }

  /** The view after one step's answers, read in turn from `view`: { view, how }. */
  read(view, texts) {
    const hows = [];
    for (const [k, text] of texts.entries()) {
      const r = rebuildOurs(this.bin, view, text, this.seenByUrl, this.history);
      view = r.view;
      hows.push(r.how);
      if (k < texts.length - 1) this.remember(text, view);
    }
    return { view, how: hows.join(', then ') };
  }

  /** Records what answer `text` showed: `view`, under its URL and in the history. */
  remember(text, view) {
    const sections = readSections(text);
    // A diffed answer leaves out a page it already showed: the URL is unchanged.
    const url = pageUrl(sections) ?? this.lastUrl;
    this.lastUrl = url;
    const shown = view !== null && sections.some((x) => x.heading.startsWith('Page snapshot'));
    if (url !== null && shown) this.seenByUrl.set(url, view);
    if (shown) this.history.push(view);
  }
}

/** agent-browser's JSON answer (its MCP text is the CLI's JSON), or null. */
export function abJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

/**
 * The agent's view after an agent-browser `snapshot` with `delta: true`,
 * applied as its docs say: `full` replaces, `unchanged` keeps, `delta`
 * splices `treeChange.lines` at `startLine` over `deleteCount` lines of the
 * previous tree, whose revision must be `baseRevision`.
 */
export function rebuildAgentBrowser(prev, text) {
  const j = abJson(text);
  const s = j?.data?.snapshot;
  if (!s) throw new Error(`no snapshot in agent-browser's answer: ${text.slice(0, 300)}`);
  if (s.kind === 'full') return { view: s.tree.replace(/\n+$/, ''), revision: s.revision, how: 'full' };
  if (prev === null) throw new Error(`a ${s.kind} answer with no previous view`);
  if (s.baseRevision !== prev.revision) throw new Error(`a ${s.kind} against revision ${s.baseRevision}, the agent has ${prev.revision}`);
  if (s.kind === 'unchanged') return { view: prev.view, revision: s.revision, how: 'unchanged' };
  if (s.kind !== 'delta') throw new Error(`an unknown snapshot kind ${s.kind}`);
  const lines = prev.view.split('\n');
  const tc = s.treeChange;
  if (tc) lines.splice(tc.startLine, tc.deleteCount, ...tc.lines);
  return { view: lines.join('\n'), revision: s.revision, how: 'previous + delta' };
}

/** The first line where two texts differ, or null. */
export function firstDifference(a, b) {
  const la = a.split('\n');
  const lb = b.split('\n');
  for (let i = 0; i < Math.max(la.length, lb.length); i++) {
    if (la[i] !== lb[i]) return { line: i + 1, rebuilt: la[i] ?? '(end)', full: lb[i] ?? '(end)' };
  }
  return null;
}

// ------------------------------------------------------------- ref churn

const REF_RE = /\bref=([A-Za-z0-9_]+)/;
const ITEM_RE = /^- (listitem|row|option|treeitem|menuitem|menuitemcheckbox|menuitemradio|article)\b/;

/** A snapshot line without its ref (`[ref=e5]`, or `ref=e5` inside `[level=3, ref=e5]`). */
export function stripRef(line) {
  return line.replace(/ ?\[ref=[A-Za-z0-9_]+\]/, '').replace(/, ref=[A-Za-z0-9_]+\]/, ']').replace(/\[ref=[A-Za-z0-9_]+, /, '[');
}

/**
 * Every element of an indented snapshot (Playwright's aria format or
 * agent-browser's) that carries a ref, with what the agent can see of it:
 * `key`, the ref-less lines of its ancestors, its own line and its
 * subtree; and `narrow`, the same plus its parent's subtree and an
 * occurrence number, which tells identical rows (two unnamed checkboxes)
 * apart by the row around them. Returns [{ key, narrow, ref }].
 */
export function refsByContent(snapshot) {
  const lines = snapshot.split('\n');
  const indent = (l) => l.length - l.trimStart().length;
  const stripped = lines.map((l) => stripRef(l));
  const subtree = (i) => {
    let end = i + 1;
    while (end < lines.length && (lines[end].trim() === '' || indent(lines[end]) > indent(lines[i]))) end++;
    return stripped.slice(i + 1, end).join('\n');
  };
  const out = [];
  const seen = new Map();
  const stack = []; // ancestors: { indent, line, index }
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i];
    if (!line.trim()) continue;
    const ind = indent(line);
    while (stack.length && stack[stack.length - 1].indent >= ind) stack.pop();
    const m = line.match(REF_RE);
    if (m) {
      // Inside an item of a collection, the item's text (states aside) is
      // part of what the agent sees: a "✖" button in another row is another
      // button, however alike the rows' unnamed wrappers are.
      const item = [...stack].reverse().find((a) => ITEM_RE.test(a.line));
      const row = item ? `\n%%${subtree(item.index).replace(/ \[[^\]=]*\]/g, '')}` : '';
      const key = `${stack.map((a) => a.line).join('\n')}\n@@${stripped[i].trim()}\n${subtree(i)}${row}`;
      const parent = stack.length ? subtree(stack[stack.length - 1].index) : '';
      const base = `${key}\n##${parent}`;
      const n = (seen.get(base) ?? 0) + 1;
      seen.set(base, n);
      out.push({ key, narrow: `${base}\n#${n}`, ref: m[1] });
    }
    stack.push({ indent: ind, line: stripped[i].trim(), index: i });
  }
  return out;
}

/**
 * Ref churn between two full snapshots: elements present in both with the
 * same content (same ancestors, own line and subtree, and the text of the
 * list item or row they are in, refs and states aside) whose ref changed. An element unique by that content in both snapshots is matched
 * by it; identical ones are matched by their parent's content and order
 * (one that cannot be told apart is not counted). Returns { same, churned }.
 */
export function refChurn(prevSnapshot, nextSnapshot) {
  const a = refsByContent(prevSnapshot);
  const b = refsByContent(nextSnapshot);
  const count = (xs) => xs.reduce((m, x) => m.set(x.key, (m.get(x.key) ?? 0) + 1), new Map());
  const ca = count(a);
  const cb = count(b);
  const byKey = new Map(a.filter((x) => ca.get(x.key) === 1).map((x) => [x.key, x.ref]));
  const byNarrow = new Map(a.map((x) => [x.narrow, x.ref]));
  let same = 0;
  let churned = 0;
  for (const x of b) {
    const before = ca.get(x.key) === 1 && cb.get(x.key) === 1 ? byKey.get(x.key) : byNarrow.get(x.narrow);
    if (before === undefined) continue;
    same++;
    if (before !== x.ref) churned++;
  }
  return { same, churned };
}
