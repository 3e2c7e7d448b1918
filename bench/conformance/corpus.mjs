// The conformance corpus: real pages, each served from its own root on
// 127.0.0.1. `steps` run on both sides before the snapshot, each naming its
// target as `role` + accessible name (Playwright: getByRole; ours: the ref
// of the `role "name"` line in our snapshot).
import { readdirSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

import { writeMatrix } from './matrix.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const FIXTURES = '../../tests/fixtures';
const NM = 'node_modules';

const addTodos = ['Buy tea', 'Write the report', 'Call Ada'].map((text) => ({
  role: 'textbox',
  name: 'What needs to be done?',
  fill: text,
  submit: true,
}));

// TodoMVC implementations from npm `todomvc` that run from the package as
// published (their bower_components are bundled). Others need a build step
// or a backend (meteor, derby, socketstream, …).
const TODOMVC = ['vanillajs', 'jquery', 'backbone', 'react', 'angularjs', 'knockoutjs', 'emberjs', 'vue', 'mithril', 'polymer'];

// jsoneditor's examples, except the one that only opens a second window.
const JSONEDITOR = readdirSync(join(here, NM, 'jsoneditor/examples'))
  .filter((f) => f.endsWith('.html') && f !== '24_new_window.html')
  .sort();

// Third-party pages no other test here uses: spectre.css's docs (static
// pages of its elements and components, its own CSS) and clipboard.js's
// demos (its script on buttons, inputs and a textarea).
const SPECTRE = [
  'elements/buttons.html',
  'elements/forms.html',
  'elements/tables.html',
  'elements/typography.html',
  'elements/labels.html',
  'components/accordions.html',
  'components/breadcrumbs.html',
  'components/cards.html',
  'components/menu.html',
  'components/modals.html',
  'components/nav.html',
  'components/pagination.html',
  'components/steps.html',
  'components/tabs.html',
  'components/tiles.html',
  'components/toasts.html',
];
const CLIPBOARD = ['constructor-node.html', 'target-input.html', 'target-textarea.html', 'function-text.html'];
const THIRD_PARTY = [
  ...SPECTRE.map((f) => ({ id: `spectre.css/${f}`, group: 'spectre.css', root: `${NM}/spectre.css/docs`, path: `/${f}` })),
  ...CLIPBOARD.map((f) => ({ id: `clipboard/${f}`, group: 'clipboard', root: `${NM}/clipboard`, path: `/demo/${f}` })),
];

// The generated matrix (matrix.mjs), written where the page server can
// serve it; the same bytes on every run.
const MATRIX_DIR = join(tmpdir(), `response-diff-conformance-matrix-${process.pid}`);
const MATRIX_FILES = writeMatrix(MATRIX_DIR);

// Each page's set in the report: the generated matrix, third-party pages
// (npm packages' demos and docs) and the corpus we had before them.
const EXISTING = [
  ...['index.html', 'help.html', 'signup.html'].map((f) => ({ id: `site/${f}`, group: 'fixtures', root: `${FIXTURES}/site`, path: `/${f}` })),
  // Not pages/dynamic.html: its content is random on every load (it is the
  // fixture for volatile-content masking), so no two reads agree.
  ...['dashboard.html', 'error.html', 'shadow.html', 'spinner.html'].map((f) => ({
    id: `pages/${f}`,
    group: 'fixtures',
    root: `${FIXTURES}/pages`,
    path: `/${f}`,
  })),
  ...readdirSync(join(here, FIXTURES, 'conformance'))
    .filter((f) => f.endsWith('.html') && !f.startsWith('_'))
    .sort()
    .map((f) => ({ id: `conformance/${f}`, group: 'coverage', root: `${FIXTURES}/conformance`, path: `/${f}` })),
  {
    id: 'conformance/select-states.html (enabled, chosen)',
    group: 'coverage',
    root: `${FIXTURES}/conformance`,
    path: '/select-states.html',
    steps: [
      { role: 'button', name: 'Enable', click: true },
      { role: 'combobox', name: 'Status', select: 'sold' },
      { role: 'listbox', name: 'Sizes', select: ['M', 'L'] },
    ],
  },
  ...TODOMVC.map((fw) => ({ id: `todomvc/${fw}`, group: 'todomvc', root: `${NM}/todomvc/examples/${fw}`, path: '/index.html', steps: addTodos })),
  ...JSONEDITOR.map((f) => ({ id: `jsoneditor/${f}`, group: 'jsoneditor', root: `${NM}/jsoneditor`, path: `/examples/${f}` })),
  { id: 'reveal.js/demo.html', group: 'reveal.js', root: `${NM}/reveal.js`, path: '/demo.html' },
];

export const CORPUS = [
  ...MATRIX_FILES.map((f) => ({ id: `matrix/${f}`, group: 'matrix', set: 'generated matrix', root: MATRIX_DIR, path: `/${f}` })),
  ...THIRD_PARTY.map((p) => ({ ...p, set: 'third-party pages' })),
  ...EXISTING.map((p) => ({ ...p, set: 'existing corpus' })),
];
