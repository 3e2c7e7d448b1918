// A session on an app whose sections expand by many lines: jsoneditor's
// tree-mode example (npm `jsoneditor`, examples/01_basic_usage.html, served
// from 127.0.0.1): load a document, expand and collapse all fields and
// single nodes. Each tree row is a table row of a dozen aria lines, so
// several steps change more than 50 lines (the default maxDiffLines).
// Through our server with full responses, with default diffOptions and with
// maxDiffLines set very high; every step's rebuilt view must equal the full
// snapshot (exit 1 otherwise). `make proxy-bench` adds @playwright/mcp with
// the page read after each action and through response-diff-proxy (--only).
//
//   node bench/expand.mjs --bin target/release/response-diff --out bench-out/expand.json [--transcript FILE]
import { FILTER, PLAYWRIGHT_READ, PROXY, runAppBench } from './appsession.mjs';
import { isMain } from './cli.mjs';
import { modulePath, pkgVersion } from './harness.mjs';

const button = (name) => ({ role: new RegExp(`^- button "${name}"`) });
// The expand button of the tree row whose size badge is titled `what` (e.g.
// `array containing 3 items`): since the snapshot is corrected from the DOM,
// the row is a data table's row and only the badge names the node's type and size.
const expander = (what) => ({ item: `"${what}"`, container: /^- row\b/, role: /^- button "Click to expand\/collapse/ });
// chrome-devtools-mcp's tree has no size badge: the field's name is the
// value of a `generic` (`uid=5_6 generic value="array"`), its expander the
// button nearest it (bench/devtools.mjs).
const field = (name) => ({ item: `: ${name}`, role: /^- button "Click to expand\/collapse/ });
export const STEPS = [
  { label: 'open the editor (empty document)', act: 'navigate', path: '/examples/01_basic_usage.html' },
  { label: 'Set JSON (six fields appear)', act: 'click', target: button('Set JSON'), element: 'Set JSON' },
  { label: 'expand all fields', act: 'click', target: button('Expand all fields'), element: 'Expand all' },
  { label: 'collapse all fields', act: 'click', target: button('Collapse all fields'), element: 'Collapse all' },
  { label: 'expand the root', act: 'click', target: { role: /^- button "Click to expand\/collapse/ }, element: 'root expander' },
  { label: 'expand "array" (three rows)', act: 'click', target: expander('array containing 3 items'), devtools: field('array'), element: 'array expander' },
  { label: 'expand "object" (two rows)', act: 'click', target: expander('object containing 2 items'), devtools: field('object'), element: 'object expander' },
  { label: 'collapse all fields again', act: 'click', target: button('Collapse all fields'), element: 'Collapse all' },
  { label: 'expand all fields again', act: 'click', target: button('Expand all fields'), element: 'Expand all' },
  { label: 'read the page (nothing changed)', act: 'snapshot' },
];

export const CONFIGS = [
  { id: 'ours-full', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, --snapshot-mode full (full responses)' },
  { id: 'ours-diff', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, diffOptions (default maxDiffLines)', exp: { ...FILTER, diffOptions: { enabled: true } }, check: true },
  { id: 'ours-diff-maxlines', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, diffOptions, maxDiffLines 1,000,000', exp: { ...FILTER, diffOptions: { enabled: true, maxDiffLines: 1_000_000 } }, check: true },
  PLAYWRIGHT_READ,
  PROXY,
];

if (isMain(import.meta.url)) {
  await runAppBench({
    script: 'bench/expand.mjs', name: 'expand', root: modulePath('jsoneditor'), steps: STEPS, configs: CONFIGS,
    app: `jsoneditor ${pkgVersion('jsoneditor')} examples/01_basic_usage.html`,
    versions: { jsoneditor: pkgVersion('jsoneditor'), '@playwright/mcp': pkgVersion('@playwright/mcp'), 'gpt-tokenizer': pkgVersion('gpt-tokenizer') },
  });
}
