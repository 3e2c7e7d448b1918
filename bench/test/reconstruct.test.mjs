import assert from 'node:assert/strict';
import { test } from 'node:test';

import { applyUnified, fencedBlock, readSections } from '../reconstruct.mjs';
import { resolveRef } from '../refs.mjs';

const old = ['- list:', '  - listitem: a', '  - listitem: b', '  - listitem: c', '  - listitem: d'].join('\n');

test('applyUnified: a change in the middle, an insertion and a removal', () => {
  const patch = '@@ -2,3 +2,3 @@\n   - listitem: a\n-  - listitem: b\n+  - listitem: B\n   - listitem: c';
  assert.equal(applyUnified(old, patch), old.replace('listitem: b', 'listitem: B'));
  const insert = '@@ -5,0 +6,1 @@\n+  - listitem: e';
  assert.equal(applyUnified(old, insert), `${old}\n  - listitem: e`);
  const remove = '@@ -1,2 +1,1 @@\n - list:\n-  - listitem: a';
  assert.equal(applyUnified(old, remove), old.replace('\n  - listitem: a', ''));
});

test('applyUnified: two hunks', () => {
  const patch = '@@ -1,1 +1,1 @@\n-- list:\n+- list "L":\n@@ -5,1 +5,2 @@\n   - listitem: d\n+  - listitem: e';
  assert.equal(applyUnified(old, patch), `${old.replace('- list:', '- list "L":')}\n  - listitem: e`);
});

test('applyUnified refuses a hunk that does not match the old text', () => {
  assert.throws(() => applyUnified(old, '@@ -2,1 +2,1 @@\n-  - listitem: z\n+  - listitem: y'), /old line 2/);
  assert.throws(() => applyUnified(old, '@@ -9,1 +9,1 @@\n-x\n+y'), /past the end/);
  assert.throws(() => applyUnified(old, 'garbage'), /before any hunk/);
});

test('readSections and fencedBlock read our responses', () => {
  const text = '### Result\nok\n\n### Page snapshot (diff since the previous snapshot)\n5 lines, 1 changed: +1 −1\n```diff\n@@ -1 +1 @@\n-a\n+b\n```\n\n### Console messages\n- x';
  const s = readSections(text);
  assert.deepEqual(s.map((x) => x.heading), ['Result', 'Page snapshot (diff since the previous snapshot)', 'Console messages']);
  assert.equal(fencedBlock(s[1].body, 'diff'), '@@ -1 +1 @@\n-a\n+b');
  assert.equal(fencedBlock(s[1].body, 'yaml'), null);
  assert.equal(fencedBlock('````yaml\na ```b```\n````', 'yaml'), 'a ```b```');
});

test('resolveRef finds the target inside the block around the anchor', () => {
  const snap = [
    '- list "Products" [ref=e1]:',
    '  - listitem [ref=e2]:',
    '    - article [ref=e3]:',
    '      - heading "Sencha" [level=2] [ref=e4]',
    '      - button "Add to cart" [ref=e5]',
    '  - listitem [ref=e6]:',
    '    - article [ref=e7]:',
    '      - heading "Jasmine" [level=2] [ref=e8]',
    '      - button "Add to cart" [ref=e9]',
    '- button "Add to cart (all)" [ref=e10]',
  ].join('\n');
  assert.equal(resolveRef(snap, { within: '"Jasmine"', target: 'button "Add to cart"' }), 'e9');
  assert.equal(resolveRef(snap, { within: '"Sencha"', target: 'button "Add to cart"' }), 'e5');
  assert.equal(resolveRef(snap, { target: 'button "Add to cart (all)"' }), 'e10');
  assert.equal(resolveRef(snap, { within: '"Nope"', target: 'button "Add to cart"' }), null);
  // Our server names the article itself; the block is its subtree and what follows.
  assert.equal(resolveRef('- article "Sencha" [ref=e3]:\n  - button "Add to cart" [ref=e5]', { within: '"Sencha"', target: 'button "Add to cart"' }), 'e5');
});
