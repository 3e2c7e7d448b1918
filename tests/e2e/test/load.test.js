// Load and faults over streamable HTTP (issue 27): 6 clients at once, each
// with dozens of actions and snapshots on its own page, and one that leaves
// in the middle of a call. Each client sees only its own page; afterwards
// no browser context is left, the browser's page targets are back where
// they started. Times are reported, never asserted (bench/load.mjs makes
// the table of docs/bench/load.md).
import assert from 'node:assert/strict';
import { test } from 'node:test';

import { runLoad } from './load-run.js';

test('6 concurrent HTTP clients stay apart and leave nothing behind', async () => {
  const r = await runLoad({ clients: 6, rounds: 8 });
  assert.deepEqual(r.foreign, [], 'a client saw another client\'s page');
  assert.deepEqual(r.items, Array(6).fill(8), 'every click landed on its own page');
  assert.deepEqual(r.tabs, Array(6).fill(1));
  assert.equal(r.contextsLeft, 0);
  assert.equal(r.targets.after, r.targets.before);
  assert.ok(r.targets.peak > r.targets.before, 'the clients had pages of their own');
  console.log(`# ${r.clients} clients × ${r.callsPerClient} calls: single p50 ${r.single.p50.toFixed(0)} ms p95 ${r.single.p95.toFixed(0)} ms; concurrent p50 ${r.concurrent.p50.toFixed(0)} ms p95 ${r.concurrent.p95.toFixed(0)} ms; server RSS ${r.memKiB.before} → ${r.memKiB.peak} → ${r.memKiB.after} KiB`);
});
