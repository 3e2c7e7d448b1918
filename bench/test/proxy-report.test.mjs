import assert from 'node:assert/strict';
import { test } from 'node:test';

import { BARS, REASONS, judge, mostOver, render, summarize } from '../proxy-report.mjs';

// A two-step session: tokens per step for each run, the floor on ours.
function runs({ pw = [1000, 1000], proxy = [900, 50], ours = [880, 40], floor = [850, 30], textFloor = [800, 10], preserved = true, own = [2, 3] } = {}) {
  const rows = (xs, extra = {}) => xs.map((tokens, i) => ({ step: i + 1, label: `step ${i + 1}`, tokens, ms: 100, calls: ['browser_click'], preserved, ...extra }));
  return [
    { id: 'playwright-mcp-read', rows: rows(pw), catalogTokens: 4000 },
    { id: 'proxy', rows: rows(proxy), catalogTokens: 4200, proxyTimings: own.map((ownMs) => ({ tool: 'browser_click', ownMs, totalMs: 100, extraCalls: 0 })) },
    { id: 'ours-diff', rows: rows(ours), floor, textFloor },
  ];
}
const pagediff = (pd = [870, 45], server = [860, 40]) => ({
  rows: pd.map((t, i) => ({ step: i + 1, pagediff: t, server: server[i], preserved: true })),
  totals: { pagediff: pd[0] + pd[1], server: server[0] + server[1], pagediffNoCursor: pd[0] + pd[1] - 20 },
});

test('summarize: totals, ratios against ours and the floor, what the floor allows', () => {
  const s = summarize('s', runs(), 'playwright-mcp-read', pagediff());
  assert.deepEqual(s.tokens, { pw: 2000, proxy: 950, ours: 920, pagediff: 915, pagediffNoCursor: 895, oursPage: 900, floor: 880, textFloor: 810 });
  assert.equal(s.ratios.proxyVsOurs, 950 / 920);
  assert.equal(s.ratios.pagediffVsOurs, 915 / 900);
  assert.equal(s.ratios.oursVsFloor, 920 / 880);
  assert.equal(s.ratios.saved, 1 - 950 / 2000);
  assert.equal(s.ratios.floorAllows, 1 - 880 / 2000);
  assert.deepEqual(s.perStep.pagediff, [870, 45]);
  assert.equal(s.reached, true);
  assert.equal(s.pagediffRebuilt, 2);
});

test('summarize: a linked snapshot file counts, a missing run is an error', () => {
  const r = runs();
  r[0].rows[0].fileTokens = 500;
  assert.equal(summarize('s', r, 'playwright-mcp-read').tokens.pw, 2500);
  assert.throws(() => summarize('s', runs(), 'playwright-mcp'), /no playwright-mcp run/);
});

test('judge: the 80 % bar is waived where the floor does not allow it, and says the limit', () => {
  // The floor is 880 of @playwright/mcp's 2,000: at most 56 % can be saved.
  const v = judge([summarize('grid', runs(), 'playwright-mcp-read', pagediff())]);
  assert.deepEqual(v.fails, []);
  assert.deepEqual(v.broken, []);
  assert.equal(v.waived.length, 1);
  assert.match(v.waived[0], /^grid \(the floor allows at most 56\.0 %; the proxy saves 52\.5 %\)$/);
});

test('judge: each issue-42 bar missed is named with its numbers', () => {
  const s = summarize('shop', runs({ pw: [10000, 10000], proxy: [1200, 900], ours: [880, 40], floor: [700, 30] }), 'playwright-mcp-read', pagediff([1000, 100], [860, 40]));
  const v = judge([s]);
  assert.deepEqual(v.waived, []);
  assert.equal(v.fails.length, 3);
  assert.equal(v.fails[0], 'shop: the proxy sends 2.283× our server\'s tokens (bar 1.1×; most over: step 2, "step 2" (+860), step 1, "step 1" (+320))');
  assert.equal(v.fails[1], 'shop: PageDiff sends 1.222× our server\'s page sections (bar 1.1×; most over: step 1, "step 1" (+140), step 2, "step 2" (+60); less Playwright\'s `[cursor=pointer]` marks, 1.200×)');
  assert.equal(v.fails[2], 'shop: our server sends 1.260× the floor (bar 1.15×; most over: step 1, "step 1" (+180), step 2, "step 2" (+10))');
  assert.deepEqual(v.missed, ['proxyVsOurs', 'pagediffVsOurs', 'oursVsFloor']);
  // Saved 89.5 % ≥ 80 %: met.
  assert.ok(s.ratios.saved >= BARS.vsPlaywright);
});

test('judge: below 80 % where the floor allows it is missed; no PageDiff is missed; a broken check is broken', () => {
  const s = summarize('todo', runs({ pw: [5000, 5000], proxy: [1500, 700], ours: [1400, 700], floor: [1300, 600] }), 'playwright-mcp-read');
  const v = judge([s]);
  assert.ok(v.fails.some((f) => /^todo: the proxy saves 78\.0 % of @playwright\/mcp's tokens \(bar 80 %; the floor allows 81\.0 %\)$/.test(f)));
  assert.ok(v.fails.includes('todo: PageDiff not measured'));
  const b = judge([summarize('x', runs({ preserved: false }), 'playwright-mcp-read', pagediff())]);
  assert.match(b.broken[0], /^x: the proxy run did not reach its final check$/);
});

test('judge: issue 34\'s timing and catalog bars stay', () => {
  const slow = summarize('s', runs({ own: [40, 40] }), 'playwright-mcp-read', pagediff());
  assert.ok(judge([slow]).fails.some((f) => /adds 40\.0 ms a call \(bar 15\.0 ms\)/.test(f)));
  const r = runs();
  r[1].catalogTokens = 5000;
  assert.ok(judge([summarize('s', r, 'playwright-mcp-read', pagediff())]).fails.some((f) => /catalog costs 1\.250×/.test(f)));
});

test('render: every session with five columns and both floors, per-step tables, what was not run', () => {
  const sessions = [summarize('jsoneditor', runs(), 'playwright-mcp-read', pagediff()), summarize('API docs', runs(), 'playwright-mcp-read')];
  const md = render({ sessions, verdict: judge(sessions), notRun: ['shop (no --shop file)'], versions: { '@playwright/mcp': '0.0.83' }, wall: '12 min' });
  assert.match(md, /^\| jsoneditor \| 2 \| 2,000 \| 950 \| 915 \| 920 \| 900 \| 880 \| 810 \| 1\.03× \| 1\.02× \| 1\.05× \| 52\.5 % \| 56\.0 % \| 2\/2, 2\/2 \| reached \|$/m);
  assert.match(md, /^\| API docs \| 2 \| 2,000 \| 950 \| – \| 920 \| – \|/m);
  assert.match(md, /^\| \*\*all\*\* \| 4 \| 4,000 \| 1,900 \| – \|/m);
  assert.match(md, /\*\*Not run:\*\* shop \(no --shop file\)\./);
  assert.match(md, /\*\*Missed:\*\*\n\n- API docs: PageDiff not measured\n/);
  assert.match(md, /\*\*The floor does not allow the 80 % bar on:\*\*\n\n- jsoneditor \(the floor allows at most 56\.0 %; the proxy saves 52\.5 %\)\n/);
  assert.match(md, /## Tokens per step: jsoneditor\n\n\| # \| step \| @playwright\/mcp \| proxy \| PageDiff \| ours \| floor \| text-only floor \|/);
  assert.match(md, /^\| 2 \| step 2 \| 1,000 \| 50 \| 45 \| 40 \| 30 \| 10 \|$/m);
  assert.match(md, /Wall time of the run: 12 min\./);
});

test('mostOver: the steps most over, largest first, none when nothing is over', () => {
  const s = { steps: ['a', 'b', 'c'], perStep: { x: [10, 50, 30], y: [10, 20, 25] } };
  assert.equal(mostOver(s, 'x', 'y'), 'step 2, "b" (+30), step 3, "c" (+5)');
  assert.equal(mostOver(s, 'x', 'y', 1), 'step 2, "b" (+30)');
  assert.equal(mostOver(s, 'y', 'x'), '');
});

test('render: the reasons of the bars missed go under the list', () => {
  const s = [summarize('t', runs({ floor: [500, 10] }), 'playwright-mcp-read', pagediff())];
  const v = judge(s);
  assert.deepEqual(v.missed, ['oursVsFloor']);
  const md = render({ sessions: s, verdict: v, notes: v.missed.map((k) => REASONS[k]) });
  assert.ok(md.includes(REASONS.oursVsFloor));
  assert.ok(!md.includes(REASONS.pagediffVsOurs));
});

test('answerParts: framing and naming lines, the rest left to the content', async () => {
  const { answerParts, countTokens } = await import('../harness.mjs');
  const answer = '### Result\nClicked link "All" (e242)\n\n### Page snapshot (patch)\n```\n- [e228 e278]\n+ first in [e227]: [e228] as last shown\n'
    + '+ after [e4]:\n  - listitem [ref=e9]: new\n  [e6] as last shown\n~ [e267] +checked +active\n~ focus [e242]\n~ link "All" [ref=e242]\n```';
  const p = answerParts([answer]);
  assert.equal(p.framing, countTokens('### Result\n### Page snapshot (patch)\n```\n```'));
  assert.equal(p.naming, countTokens('- [e228 e278]\n+ first in [e227]: [e228] as last shown\n+ after [e4]:\n  [e6] as last shown\n~ [e267] +checked +active\n~ focus [e242]'));
  assert.equal(p.refs, countTokens('e228 e278 e227 e228 e4 e6 e267 e242'));
  // A removal-like line outside a patch is content.
  assert.equal(answerParts(['### Console messages\n- [e1] x']).naming, 0);
});

test('render: our server against the floor, line by line, where the rows have parts', () => {
  const r = runs();
  r[2].rows[0].parts = { framing: 12, naming: 8, refs: 3 };
  r[2].rows[1].parts = { framing: 12, naming: 10, refs: 4 };
  const s = summarize('s', r, 'playwright-mcp-read', pagediff());
  assert.deepEqual(s.parts, { framing: 24, naming: 18, refs: 7 });
  const md = render({ sessions: [s], verdict: judge([s]) });
  // 920 − 24 − 18 = 878 of the rest, against a floor of 880; at least
  // (880 + 24 + 7) / 880 = 1.035× in this format.
  assert.match(md, /\| s \| 2 \| 920 \| 880 \| 24 \| 18 \| 7 \| 878 \| 1\.00× \| 1\.035× \| 1\.05× \|/);
  assert.equal(summarize('s', runs(), 'playwright-mcp-read').parts, null);
});
