// The API-docs session: npm `swagger-ui-dist` (an API documentation viewer
// nobody here wrote) over a made-up pet shop API (bench/apidocs/), served
// from 127.0.0.1 with the package's own files. Its operations, tags and
// models are collapsible sections whose controls repeat in each (Try it
// out, Execute, the expand toggles); "Execute" calls the static JSON under
// bench/apidocs/api/ and shows the response in a new container above the
// documented ones. The session expands and collapses operations, tags and
// a nested model, runs two requests, filters by tag and clears the
// filter, through our server (full responses and diffs), @playwright/mcp
// (a snapshot after each action) and agent-browser (delta snapshots),
// every step rebuilt from the agent's view, with the floor (bench/harness.mjs);
// `make proxy-bench` adds @playwright/mcp through response-diff-proxy (--only).
// Our steps that do not rebuild fail the run (exit 1).
//
//   node bench/apidocs.mjs --bin target/release/response-diff --out bench-out/apidocs.json [--transcript FILE] [--only ours-diff]
import { FILTER, PROXY, runAppBench } from './appsession.mjs';
import { isMain } from './cli.mjs';
import { here, pkgVersion } from './harness.mjs';

const esc = (s) => s.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
const button = (name) => ({ role: new RegExp(`^- button "${esc(name)}"`) });
// An operation's summary button, e.g. `GET /pets.json List all pets`.
// Names with braces are quoted whole in YAML (`- 'button "GET /pets/{petId}.json …"'`).
const op = (name) => ({ role: new RegExp(`^- '?button "${esc(name)}"`) });
// A control of the one operation expanded at the time (Try it out, a
// parameter's field, Execute): the only one on the page.
const inOp = (summary, role) => ({ role });
// A tag's collapse toggle, inside the tag's heading.
const tag = (name) => ({ item: `heading "${name} `, container: /^- heading\b/, role: /^- button "(Collapse|Expand) operation"/ });
const model = (name) => ({ role: new RegExp(`^- button "${esc(name)}"`) });
const opCss = (id) => `#operations-${id} .opblock-summary-control`;
export const STEPS = [
  { label: 'open the API docs (3 tags, 9 operations, 5 models)', act: 'navigate', path: '/apidocs/index.html' },
  { label: 'expand GET /pets.json', act: 'click', target: op('GET /pets.json List all pets'), css: opCss('pets-listPets'), element: 'GET /pets.json' },
  { label: 'Try it out', act: 'click', target: inOp('GET /pets.json List all pets', /^- button "Try it out"/), css: '#operations-pets-listPets .try-out__btn', element: 'Try it out' },
  { label: 'type a limit of 2', act: 'type', target: inOp('GET /pets.json List all pets', /^- textbox "limit/), css: '#operations-pets-listPets input[placeholder="limit"]', text: '2', element: 'limit' },
  { label: 'Execute (the response appears)', act: 'click', target: inOp('GET /pets.json List all pets', /^- button "Execute"/), css: '#operations-pets-listPets .execute', element: 'Execute' },
  { label: 'collapse GET /pets.json', act: 'click', target: op('GET /pets.json List all pets'), css: opCss('pets-listPets'), element: 'GET /pets.json' },
  { label: 'expand POST /pets.json', act: 'click', target: op('POST /pets.json Create a pet'), css: opCss('pets-createPet'), element: 'POST /pets.json' },
  { label: 'collapse POST /pets.json', act: 'click', target: op('POST /pets.json Create a pet'), css: opCss('pets-createPet'), element: 'POST /pets.json' },
  { label: 'collapse the "pets" tag', act: 'click', target: tag('pets'), css: '#operations-tag-pets + div, h3#operations-tag-pets button.expand-operation', element: 'pets tag' },
  { label: 'expand the "pets" tag again', act: 'click', target: tag('pets'), css: 'h3#operations-tag-pets button.expand-operation', element: 'pets tag' },
  { label: 'filter by tag "store"', act: 'type', target: { role: /^- textbox "Filter by tag or path"/ }, css: 'input.operation-filter-input', text: 'store', element: 'filter' },
  { label: 'clear the filter', act: 'type', target: { role: /^- textbox "Filter by tag or path"/ }, css: 'input.operation-filter-input', text: '', element: 'filter' },
  { label: 'expand GET /pets/{petId}.json', act: 'click', target: op('GET /pets/{petId}.json Info for a specific pet'), css: opCss('pets-showPetById'), element: 'GET /pets/{petId}.json' },
  { label: 'Try it out', act: 'click', target: inOp('GET /pets/{petId}.json Info for a specific pet', /^- button "Try it out"/), css: '#operations-pets-showPetById .try-out__btn', element: 'Try it out' },
  { label: 'type petId 3', act: 'type', target: inOp('GET /pets/{petId}.json Info for a specific pet', /^- textbox "petId/), css: '#operations-pets-showPetById input[placeholder="petId"]', text: '3', element: 'petId' },
  { label: 'Execute (the response appears)', act: 'click', target: inOp('GET /pets/{petId}.json Info for a specific pet', /^- button "Execute"/), css: '#operations-pets-showPetById .execute', element: 'Execute' },
  { label: 'collapse GET /pets/{petId}.json', act: 'click', target: op('GET /pets/{petId}.json Info for a specific pet'), css: opCss('pets-showPetById'), element: 'GET /pets/{petId}.json' },
  { label: 'expand the Pet model', act: 'click', target: model('Pet'), css: '#model-Pet button', element: 'Pet model' },
  { label: 'collapse the Pet model', act: 'click', target: model('Pet'), css: '#model-Pet button', element: 'Pet model' },
  { label: 'read the page (nothing changed)', act: 'snapshot' },
];

export const CONFIGS = [
  { id: 'ours-full', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, --snapshot-mode full (full responses)' },
  { id: 'ours-diff', kind: 'ours', args: ['--snapshot-mode', 'full'], label: 'response-diff, diffOptions', exp: { ...FILTER, diffOptions: { enabled: true } }, check: true },
  // Its browser_type answers without a snapshot: the agent reads the page after it.
  { id: 'playwright-mcp', kind: 'pw', label: '@playwright/mcp, a snapshot after each action', snapshotAfter: ['type'] },
  { id: 'ab-delta', kind: 'ab', label: 'agent-browser, snapshot delta, interactive: false', snapshotArgs: { delta: true, interactive: false } },
  PROXY,
];

if (isMain(import.meta.url)) {
  await runAppBench({
    script: 'bench/apidocs.mjs', name: 'apidocs', root: here, steps: STEPS, configs: CONFIGS,
    app: `swagger-ui-dist ${pkgVersion('swagger-ui-dist')} (bench/apidocs/index.html)`,
    versions: { 'swagger-ui-dist': pkgVersion('swagger-ui-dist'), '@playwright/mcp': pkgVersion('@playwright/mcp'), 'agent-browser': pkgVersion('agent-browser'), 'gpt-tokenizer': pkgVersion('gpt-tokenizer') },
  });
}
