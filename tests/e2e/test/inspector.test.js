// The server under the MCP inspector's command-line client.
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { test } from 'node:test';

import { binary, serveSite } from './helpers.js';

const inspector = join(import.meta.dirname, '../node_modules/@modelcontextprotocol/inspector/clients/launcher/build/index.js');

function run(args) {
  return new Promise((ok, fail) => {
    const p = spawn(process.execPath, [inspector, '--cli', binary(), 'mcp', ...args], { stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    p.stdout.on('data', (d) => { out += d; });
    p.stderr.on('data', (d) => { err += d; });
    p.on('error', fail);
    p.on('close', (code) => (code === 0 ? ok(out) : fail(new Error(`inspector exited ${code}: ${err}`))));
  });
}

test('the inspector CLI lists the tools', async () => {
  const out = JSON.parse(await run(['--method', 'tools/list']));
  const golden = JSON.parse(readFileSync(join(import.meta.dirname, '../golden/tools-list.json'), 'utf8'));
  assert.deepEqual(out, golden);
});

test('the inspector CLI calls a tool', async () => {
  const site = await serveSite();
  try {
    const out = JSON.parse(await run([
      '--method', 'tools/call', '--tool-name', 'browser_navigate',
      '--tool-arg', `url=${site.url('/help.html')}`,
    ]));
    assert.notEqual(out.isError, true, JSON.stringify(out));
    assert.match(out.content[0].text, /- heading "Help & FAQ" \[level=1\]/);
  } finally {
    await site.close();
  }
});
