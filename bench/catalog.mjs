// The tool catalogs side by side (docs/DECISIONS.md D51): our tools/list
// and the pinned @playwright/mcp's default one, each counted in o200k
// tokens as the bench counts them (the JSON of the tools array), and every
// tool name of @playwright/mcp's list called on our server with an
// argument no tool takes, to show that each one answers: refused by its
// own validator (it is a tool here), or, for browser_run_code_unsafe, with
// its documented refusal. Nothing launches a browser.
//
//   node bench/catalog.mjs [--bin target/debug/response-diff] [--out bench-out/catalog.json]
//
// Exits 1 when our catalog costs more tokens than @playwright/mcp's, or a
// name of its list gets "unknown tool".
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

import { connect, pkgVersion } from './harness.mjs';
import { serverBin } from './cli.mjs';

const arg = (name, fallback) => {
  const i = process.argv.indexOf(name);
  return i > 0 ? process.argv[i + 1] : fallback;
};
const BIN = serverBin(arg, { profile: 'debug' });
const OUT = arg('--out', null);
const CHROMIUM = process.env.CHROMIUM || '/usr/bin/chromium';

const workdir = mkdtempSync(join(tmpdir(), 'rd-catalog-'));
let ours;
let pw;
try {
  ours = await connect({ kind: 'ours', id: 'ours' }, { bin: BIN, chromium: CHROMIUM, workdir });
  pw = await connect({ kind: 'pw', id: 'pw' }, { bin: BIN, chromium: CHROMIUM, workdir });
  const listed = new Set(ours.tools.map((t) => t.name));
  const answers = [];
  for (const { name } of pw.tools) {
    let text;
    let how;
    try {
      const r = await ours.call(name, { __probe: 1 });
      text = r.text;
      how = r.isError ? 'tool error' : 'ran';
    } catch (e) {
      text = e.message;
      how = 'invalid params';
    }
    const unknown = /unknown tool/.test(text);
    answers.push({ name, listed: listed.has(name), how, unknown, text: text.split('\n').find((l) => l.trim() && !l.startsWith('###'))?.slice(0, 160) });
  }
  const report = {
    playwrightMcp: { version: pkgVersion('@playwright/mcp'), tools: pw.toolCount, tokens: pw.catalogTokens },
    ours: { tools: ours.toolCount, tokens: ours.catalogTokens },
    theirToolsHere: answers,
  };
  console.log(`tools/list, o200k tokens of the tools array:`);
  console.log(`  @playwright/mcp ${report.playwrightMcp.version}: ${pw.toolCount} tools, ${pw.catalogTokens} tokens`);
  console.log(`  response-diff: ${ours.toolCount} tools, ${ours.catalogTokens} tokens`);
  console.log(`@playwright/mcp's tools called here:`);
  for (const a of answers) console.log(`  ${a.unknown ? 'UNKNOWN' : 'answers'}  ${a.name}${a.listed ? '' : ' (not listed)'}: ${a.how}: ${a.text}`);
  if (OUT) writeFileSync(OUT, `${JSON.stringify(report, null, 2)}\n`);
  const failed = answers.filter((a) => a.unknown).map((a) => a.name);
  if (failed.length) console.error(`unknown here: ${failed.join(', ')}`);
  if (ours.catalogTokens > pw.catalogTokens) console.error(`our catalog costs more tokens than @playwright/mcp's`);
  process.exitCode = failed.length || ours.catalogTokens > pw.catalogTokens ? 1 : 0;
} finally {
  await ours?.close();
  await pw?.close();
  rmSync(workdir, { recursive: true, force: true });
}
