import assert from 'node:assert/strict';
import { test } from 'node:test';

import { stepsJson, transcriptRuns } from '../pagediff.mjs';

test('stepsJson: an app script\'s steps for pagediff_bench.py, each RegExp as its source', () => {
  const steps = [{ label: 'expand', act: 'click', target: { item: '"x"', container: /^- row\b/, role: /^- button "Click to expand\/collapse/ } }, { label: 'read', act: 'snapshot' }];
  assert.deepEqual(stepsJson(steps), [
    { label: 'expand', act: 'click', target: { item: '"x"', container: '^- row\\b', role: '^- button "Click to expand\\/collapse' } },
    { label: 'read', act: 'snapshot' },
  ]);
});

test('transcriptRuns: one list of answers per run of the configuration asked for', () => {
  const t = [
    '## ours-diff 1. open', '', 'browser_navigate {}', '', '### Page snapshot\nA', '',
    '## proxy 1. open', '', 'browser_navigate {}', '', 'P', '',
    '## ours-diff 2. click', '', 'browser_click {}', '', 'B\n\nC', '',
    '## ours-diff 1. open', '', 'browser_navigate {}', '', 'D', '',
  ].join('\n');
  assert.deepEqual(transcriptRuns(t, 'ours-diff'), [['### Page snapshot\nA', 'B\n\nC'], ['D']]);
});
