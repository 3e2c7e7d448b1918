// `make load-bench` (part of `make bench`): the HTTP load run of
// test/load-run.js at a larger size, on the release build, written as the
// table of docs/bench/load.md. Usage:
//   node bench/load.mjs [--clients 8] [--rounds 30] [--waves 3] [--out ../../docs/bench/load.md]
import { writeFileSync } from 'node:fs';
import { cpus } from 'node:os';

import { runLoad } from '../test/load-run.js';

const arg = (name, dflt) => {
  const i = process.argv.indexOf(`--${name}`);
  return i < 0 ? dflt : process.argv[i + 1];
};
const clients = Number(arg('clients', 8));
const rounds = Number(arg('rounds', 30));
const waves = Number(arg('waves', 3));
const out = arg('out', null);

const r = await runLoad({ clients, rounds, waves, settleMs: 12000 });
if (r.foreign.length) throw new Error(`clients saw other clients' pages: ${r.foreign}`);
if (r.contextsLeft !== 0 || r.targets.after !== r.targets.before) throw new Error('contexts or targets left behind');
const mib = (k) => (k / 1024).toFixed(1);
const ms = (x) => x.toFixed(0);
const date = new Date().toISOString().slice(0, 10);
const md = `# Load: concurrent MCP clients over streamable HTTP

\`make load-bench\` (\`tests/e2e/bench/load.mjs\`, the run of
\`tests/e2e/test/load-run.js\`; \`make test\` runs a smaller one and checks
the same things). The release server attaches to a Chromium the run starts
(\`--cdp-endpoint\`), so the browser's page targets can be counted. Each
client opens its own page, then ${rounds} rounds of click, type (both with
\`diffOptions.enabled\`) and a snapshot: ${r.callsPerClient} calls. While
they run, one more client starts a navigation that never finishes and
disconnects without ending its session (no HTTP DELETE); its context closes
when \`--session-timeout\` (8 s here) passes. The run repeats ${waves} times
(waves) on the same server.

Run ${date} on ${cpus().length} × ${cpus()[0]?.model ?? 'unknown CPU'}, Debian's chromium; times
depend on the machine (docs/DECISIONS.md D25): read the concurrent column
against the single-client one beside it.

| clients × calls | single client p50 / p95 | concurrent p50 / p95 | wall time (all waves) | server memory before / peak / after | page targets before / peak / after | contexts left |
|---|---|---|---|---|---|---|
| ${clients} × ${r.callsPerClient} (× ${waves} waves) + 1 leaver per wave | ${ms(r.single.p50)} / ${ms(r.single.p95)} ms | ${ms(r.concurrent.p50)} / ${ms(r.concurrent.p95)} ms | ${(r.wallMs / 1000).toFixed(1)} s | ${mib(r.memKiB.before)} / ${mib(r.memKiB.peak)} / ${mib(r.memKiB.after)} MiB | ${r.targets.before} / ${r.targets.peak} / ${r.targets.after} | ${r.contextsLeft} |

Server memory (VmRSS) after each wave, 12 s after its last client left
(tokio's idle worker threads exit after 10 s): ${r.afterWaves.map(mib).join(', ')} MiB.
"Before" is after one warm-up client. A closed engine hands its freed
memory back (\`malloc_trim\`, \`server/src/context.rs\`); what stays is
the allocator's and the runtime's working set, reused by the next wave: a
leak would grow it wave after wave.

Checked on every run: no client ever saw another client's page (${r.concurrent.calls} responses
scanned for other clients' names), every click landed on its own page,
every client had one tab, no browser context and no page target was left.
`;
process.stdout.write(md);
if (out) writeFileSync(out, md);
