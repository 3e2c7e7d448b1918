import assert from 'node:assert/strict';
import { test } from 'node:test';

import { findRef } from '../appsession.mjs';
import { countTokens, floor, rebuildAgentBrowser, refChurn, refsByContent, stripRef, textFloor } from '../harness.mjs';

const todos = [
  '- textbox "What needs to be done?" [ref=e1]',
  '- list [ref=e2]:',
  '  - listitem [ref=e3]:',
  '    - checkbox [ref=e4]',
  '    - text: Buy milk',
  '  - listitem [ref=e5]:',
  '    - checkbox [checked] [ref=e6]',
  '    - text: Walk the dog',
  '    - button "×" [ref=e7]',
  '- link "Active" [ref=e8]:',
  '  - /url: "#/active"',
].join('\n');

test('findRef: by role, inside the list item of a todo, the item itself', () => {
  assert.equal(findRef(todos, { role: /^- textbox "What needs to be done\?"/ }), 'e1');
  assert.equal(findRef(todos, { role: /^- link "Active"/ }), 'e8');
  assert.equal(findRef(todos, { item: 'Walk the dog', role: /^- checkbox\b/ }), 'e6');
  assert.equal(findRef(todos, { item: 'Buy milk', role: /^- checkbox\b/ }), 'e4');
  assert.equal(findRef(todos, { item: 'Walk the dog', role: /^- button\b/ }), 'e7');
  // The label has no ref: its list item's.
  assert.equal(findRef(todos, { item: 'Buy milk', self: true }), 'e3');
  assert.equal(findRef(todos, { item: 'Buy milk', role: /^- button\b/ }), null);
  assert.equal(findRef(todos, { item: 'Nope', role: /^- checkbox\b/ }), null);
  assert.equal(findRef(null, { role: /x/ }), null);
});

test('findRef: a field holding the text only when asked', () => {
  const editing = todos.replace('    - checkbox [ref=e4]\n    - text: Buy milk', '    - textbox [active] [ref=e9]: Buy milk');
  assert.equal(findRef(editing, { item: 'Buy milk', role: /^- textbox\b/, field: true }), 'e9');
  assert.equal(findRef(editing, { item: 'Buy milk', role: /^- textbox\b/ }), null);
});

test('findRef reads agent-browser snapshots too', () => {
  const ab = ['- list', '  - listitem [level=1]', '    - checkbox [checked=false, ref=e23]', '    - LabelText', '      - StaticText "Buy milk"'].join('\n');
  assert.equal(findRef(ab, { item: 'Buy milk', role: /^- checkbox\b/ }), 'e23');
});

test('stripRef removes refs in both formats', () => {
  assert.equal(stripRef('- button "x" [ref=e7]'), '- button "x"');
  assert.equal(stripRef('- heading "H" [level=3, ref=e3]'), '- heading "H" [level=3]');
  assert.equal(stripRef('- link "A" [ref=e2]:'), '- link "A":');
  assert.equal(stripRef('- checkbox [ref=e1, checked=false]'), '- checkbox [checked=false]');
});

test('refChurn: a re-render that renumbers unchanged items counts each once; changed content does not count', () => {
  const rerendered = todos.replace('[ref=e3]', '[ref=e30]').replace('[ref=e4]', '[ref=e40]');
  assert.deepEqual(refChurn(todos, rerendered), { same: 8, churned: 2 });
  assert.deepEqual(refChurn(todos, todos), { same: 8, churned: 0 });
  // The first todo's text changed: it and its list no longer match, so a new ref there is not churn.
  const edited = todos.replace('text: Buy milk', 'text: Buy oat milk').replace('[ref=e3]', '[ref=e30]');
  assert.equal(refChurn(todos, edited).churned, 0);
});

test('refChurn: a button that moved to another row is another button, not churn', () => {
  const row = (n, text, button) => [`  - listitem [ref=e${n}]:`, `    - generic [ref=e${n + 1}]:`, `      - checkbox [ref=e${n + 2}]`, `      - text: ${text}`, ...(button ? [`      - button "✖" [ref=e${button}]`] : [])];
  const hoverFirst = ['- list [ref=e1]:', ...row(10, 'Buy milk', 14), ...row(20, 'Write report')].join('\n');
  const hoverSecond = ['- list [ref=e1]:', ...row(10, 'Buy milk'), ...row(20, 'Write report', 24)].join('\n');
  assert.equal(refChurn(hoverFirst, hoverSecond).churned, 0);
  // The same button re-rendered in its own row under a new ref is churn.
  assert.equal(refChurn(hoverFirst, hoverFirst.replace('[ref=e14]', '[ref=e99]')).churned, 1);
});

test('refsByContent tells identical siblings apart by occurrence', () => {
  const dup = ['- list [ref=e1]:', '  - listitem [ref=e2]: same', '  - listitem [ref=e3]: same'].join('\n');
  assert.deepEqual(refsByContent(dup).map((x) => x.ref), ['e1', 'e2', 'e3']);
  const swapped = dup.replace('e2', 'eX').replace('e3', 'e2').replace('eX', 'e3');
  assert.equal(refChurn(dup, swapped).churned, 2);
});

test('rebuildAgentBrowser applies full, unchanged and delta answers, and refuses a wrong base', () => {
  const answer = (snapshot) => JSON.stringify({ success: true, data: { snapshot } });
  const full = rebuildAgentBrowser(null, answer({ kind: 'full', revision: 1, tree: 'a\nb\nc\n' }));
  assert.deepEqual(full, { view: 'a\nb\nc', revision: 1, how: 'full' });
  const same = rebuildAgentBrowser(full, answer({ kind: 'unchanged', baseRevision: 1, revision: 2 }));
  assert.equal(same.view, 'a\nb\nc');
  const delta = rebuildAgentBrowser(same, answer({ kind: 'delta', baseRevision: 2, revision: 3, treeChange: { startLine: 1, deleteCount: 1, lines: ['B', 'B2'] } }));
  assert.equal(delta.view, 'a\nB\nB2\nc');
  assert.throws(() => rebuildAgentBrowser(full, answer({ kind: 'delta', baseRevision: 7, revision: 8 })), /revision 7/);
  assert.throws(() => rebuildAgentBrowser(null, 'not json'), /no snapshot/);
});

test('floor: a line is known by its text and ref, wherever it stands; textFloor ignores refs too', () => {
  const first = '- list [ref=e1]:\n  - listitem "Tea" [ref=e2]';
  // Re-wrapped (indentation): nothing new but the wrapper and the new item.
  const second = '- generic [ref=e9]:\n  - list [ref=e1]:\n    - listitem "Tea" [ref=e2]\n    - listitem "Cake" [ref=e8]';
  const [a, b] = floor([first, second]);
  assert.equal(a, countTokens(first));
  assert.equal(b, countTokens('- generic [ref=e9]:\n    - listitem "Cake" [ref=e8]'));
  // Another element showing a line seen before is new to the floor, not to textFloor.
  const third = `${second}\n    - listitem "Tea" [ref=e10]`;
  assert.equal(floor([second, third])[1], countTokens('    - listitem "Tea" [ref=e10]'));
  assert.equal(textFloor([second, third])[1], 0);
  // Two new lines alike in one step count twice (each is an element the agent must learn).
  assert.equal(floor(['- a', '- b\n- b'])[1], countTokens('- b\n- b'));
  assert.deepEqual(floor([first, first]), [countTokens(first), 0]);
});
