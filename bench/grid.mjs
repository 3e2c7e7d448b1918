// The data-grid session: npm `gridjs` (sortable, paged, searchable; 60
// rows, 10 a page) on bench/grid/index.html, served from 127.0.0.1 with the
// package's own files. Three sorts, a cell change in the re-sorted grid,
// paging forward twice, a filter and its clear, an added row, 40 rows a
// page and an unchanged read, through our server (full responses and
// diffs), @playwright/mcp (a snapshot after each action) and agent-browser
// (delta snapshots), every step rebuilt from the agent's view. Also the
// floor, from the same run: the o200k tokens of the snapshot lines the
// agent had not been shown before in the session (exact lines, refs and
// indentation included), which no lossless answer can leave out. Our steps
// that do not rebuild fail the run (exit 1).
//
//   node bench/grid.mjs --bin target/release/response-diff --out bench-out/grid.json [--transcript FILE] [--only ours-diff]
import { FILTER, PROXY, runAppBench } from './appsession.mjs';
import { isMain } from './cli.mjs';
import { floor, here, pkgVersion } from './harness.mjs';

export { floor };

const button = (name) => ({ role: new RegExp(`^- button "${name}`) });
// A column's sort button: inside its column header.
const sortBy = (col) => ({ item: `columnheader "${col} `, container: /^- columnheader\b/, role: /^- button "Sort column/ });
const th = (n) => `.gridjs-th:nth-child(${n}) button.gridjs-sort`;
export const STEPS = [
  { label: 'open the grid (60 people, 10 a page)', act: 'navigate', path: '/grid/index.html' },
  { label: 'sort by Name', act: 'click', target: sortBy('Name'), css: th(1), element: 'Name sort' },
  { label: 'sort by Salary', act: 'click', target: sortBy('Salary'), css: th(4), element: 'Salary sort' },
  { label: 'sort by Salary again (descending)', act: 'click', target: sortBy('Salary'), css: th(4), element: 'Salary sort' },
  { label: 'give Ada Byron a raise (one cell)', act: 'click', target: button('Give Ada Byron a raise'), css: '#raise', element: 'raise' },
  { label: 'next page', act: 'click', target: button('Next'), css: 'button[title="Next"]', element: 'Next' },
  { label: 'next page again', act: 'click', target: button('Next'), css: 'button[title="Next"]', element: 'Next' },
  { label: 'filter "Engineering"', act: 'type', target: { role: /^- searchbox/ }, css: 'input.gridjs-search-input', text: 'Engineering', element: 'search' },
  { label: 'clear the filter', act: 'type', target: { role: /^- searchbox/ }, css: 'input.gridjs-search-input', text: '', element: 'search' },
  { label: 'add a row (Zoe Quinn)', act: 'click', target: button('Add Zoe Quinn'), css: '#add', element: 'add' },
  { label: 'show 40 per page', act: 'click', target: button('Show 40 per page'), css: '#page40', element: 'page size' },
  { label: 'read the page (nothing changed)', act: 'snapshot' },
];

export const CONFIGS = [
  { id: 'ours-full', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, --snapshot-mode full (full responses)' },
  { id: 'ours-diff', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, diffOptions', exp: { ...FILTER, diffOptions: { enabled: true } }, check: true },
  // Its browser_type answers without a snapshot: the agent reads the page after it.
  { id: 'playwright-mcp', kind: 'pw', label: '@playwright/mcp, a snapshot after each action', snapshotAfter: ['type'] },
  // The page read after each action already (make proxy-bench runs this one).
  PROXY,
  { id: 'ab-delta', kind: 'ab', label: 'agent-browser, snapshot delta, interactive: false', snapshotArgs: { delta: true, interactive: false } },
];

if (isMain(import.meta.url)) {
  await runAppBench({
    script: 'bench/grid.mjs', name: 'grid', root: here, steps: STEPS, configs: CONFIGS,
    app: `gridjs ${pkgVersion('gridjs')} (bench/grid/index.html)`,
    versions: { gridjs: pkgVersion('gridjs'), '@playwright/mcp': pkgVersion('@playwright/mcp'), 'agent-browser': pkgVersion('agent-browser'), 'gpt-tokenizer': pkgVersion('gpt-tokenizer') },
    // The snapshots stay out of the JSON.
    afterRun: (r) => {
      delete r.snapshots;
    },
  });
}
