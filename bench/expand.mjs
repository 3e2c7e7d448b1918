// A session on an app whose sections expand by many lines: jsoneditor's
// tree-mode example (npm `jsoneditor`, examples/01_basic_usage.html, served
// from 127.0.0.1): load a document, expand and collapse all fields and
// single nodes. Each tree row is a table row of a dozen aria lines, so
// several steps change more than 50 lines (the default maxDiffLines).
// Through our server with full responses, with default diffOptions and with
// maxDiffLines set very high; every step's rebuilt view must equal the full
// snapshot (exit 1 otherwise).
//
//   node bench/expand.mjs --bin target/release/response-diff --out bench-out/expand.json [--transcript FILE]
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

import { arg as cliArg, serverBin } from './cli.mjs';
import { runConfig } from './appsession.mjs';
import { floorNote, modulePath, pkgVersion, serveDir } from './harness.mjs';

const arg = (name, fallback) => cliArg(name, fallback, 'bench/expand.mjs');
const BIN = serverBin(arg, { needed: true });
const OUT = arg('--out', null);
const TRANSCRIPT = arg('--transcript', null);
const CHROMIUM = arg('--chromium', process.env.CHROMIUM || '/usr/bin/chromium');
const ONLY = arg('--only', null);

const button = (name) => ({ role: new RegExp(`^- button "${name}"`) });
// The expand button of the tree row whose size badge is titled `what` (e.g.
// `array containing 3 items`): since the snapshot is corrected from the DOM,
// the row is a data table's row and only the badge names the node's type and size.
const expander = (what) => ({ item: `"${what}"`, container: /^- row\b/, role: /^- button "Click to expand\/collapse/ });
export const STEPS = [
  { label: 'open the editor (empty document)', act: 'navigate', path: '/examples/01_basic_usage.html' },
  { label: 'Set JSON (six fields appear)', act: 'click', target: button('Set JSON'), element: 'Set JSON' },
  { label: 'expand all fields', act: 'click', target: button('Expand all fields'), element: 'Expand all' },
  { label: 'collapse all fields', act: 'click', target: button('Collapse all fields'), element: 'Collapse all' },
  { label: 'expand the root', act: 'click', target: { role: /^- button "Click to expand\/collapse/ }, element: 'root expander' },
  { label: 'expand "array" (three rows)', act: 'click', target: expander('array containing 3 items'), element: 'array expander' },
  { label: 'expand "object" (two rows)', act: 'click', target: expander('object containing 2 items'), element: 'object expander' },
  { label: 'collapse all fields again', act: 'click', target: button('Collapse all fields'), element: 'Collapse all' },
  { label: 'expand all fields again', act: 'click', target: button('Expand all fields'), element: 'Expand all' },
  { label: 'read the page (nothing changed)', act: 'snapshot' },
];

const FILTER = { includeCode: false, consoleOptions: { levels: ['error', 'warn'] } };
export const CONFIGS = [
  { id: 'ours-full', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, --snapshot-mode full (full responses)' },
  { id: 'ours-diff', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, diffOptions (default maxDiffLines)', exp: { ...FILTER, diffOptions: { enabled: true } }, check: true },
  { id: 'ours-diff-maxlines', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, diffOptions, maxDiffLines 1,000,000', exp: { ...FILTER, diffOptions: { enabled: true, maxDiffLines: 1_000_000 } }, check: true },
];

const site = await serveDir(modulePath('jsoneditor'));
const results = [];
const transcripts = [];
let failed = false;
try {
  for (const cfg of CONFIGS) {
    if (ONLY && !ONLY.split(',').includes(cfg.id)) continue;
    const r = await runConfig(cfg, STEPS, { origin: site.origin, bin: BIN, chromium: CHROMIUM, log: (l) => process.stderr.write(`${l}\n`) });
    transcripts.push(r.transcript);
    delete r.transcript;
    results.push(r);
    if (r.error) console.error(`${cfg.id}: ${r.error}`);
    if (r.error || r.rows.some((x) => !x.preserved)) failed = true;
  }
} finally {
  await site.close();
}
const out = {
  tokenizer: 'o200k_base (gpt-tokenizer)', app: `jsoneditor ${pkgVersion('jsoneditor')} examples/01_basic_usage.html`, steps: STEPS.map((s) => s.label),
  versions: { jsoneditor: pkgVersion('jsoneditor'), 'gpt-tokenizer': pkgVersion('gpt-tokenizer') }, results,
};
if (OUT) writeFileSync(OUT, JSON.stringify(out, null, 1));
if (TRANSCRIPT) writeFileSync(TRANSCRIPT, transcripts.join('\n'));
for (const r of results) {
  const total = r.rows.reduce((a, x) => a + x.tokens, 0);
  console.log(`${r.id.padEnd(20)} ${String(total).padStart(7)} tokens, ${r.rows.filter((x) => x.preserved).length}/${r.rows.length} rebuilt${r.floor ? `, ${floorNote(r.rows, r.floor)}` : ''}${r.error ? `; error: ${r.error.split('\n')[0]}` : ''}`);
}
if (failed) {
  console.error('a step failed or did not rebuild: see above');
  process.exit(1);
}
