// proxy.js's command line: its own options, then the upstream's command
// (after `--`, or from the first argument that is not an option).
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { parseArgs, upstreamOutputDir } = require('../proxy.js')

test('the upstream command starts after -- or at the first non-option', () => {
  const cmd = ['npx', '@playwright/mcp', '--headless', '--timing']
  assert.deepEqual(parseArgs(['--timing', '--', ...cmd]), { command: cmd, timing: true })
  assert.deepEqual(parseArgs(['--timing', ...cmd]), { command: cmd, timing: true })
  assert.deepEqual(parseArgs(['--call-timeout-ms', '5000', 'npx', '--', 'x']), { command: ['npx', '--', 'x'], callTimeoutMs: 5000 })
  assert.deepEqual(parseArgs(['--max-stored-bytes=10', 'node', 's.js']).command, ['node', 's.js'])
  assert.throws(() => parseArgs(['--bogus', 'npx']), /unknown option --bogus \(the upstream command starts at the first argument that is not an option, or after --\)/)
  assert.throws(() => parseArgs(['--call-timeout-ms', 'soon', 'npx']), /--call-timeout-ms must be a positive whole number/)
})

test("the upstream's output directory comes from its flag, environment or config file", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-proxy-args-'))
  try {
    const config = path.join(dir, 'config.json')
    fs.writeFileSync(config, JSON.stringify({ outputDir: '/from/config' }))
    assert.equal(upstreamOutputDir(['--output-dir', '/a'], {}), '/a')
    assert.equal(upstreamOutputDir(['--output-dir=/b'], {}), '/b')
    assert.equal(upstreamOutputDir([], { PLAYWRIGHT_MCP_OUTPUT_DIR: '/c' }), '/c')
    assert.equal(upstreamOutputDir(['--config', config], {}), '/from/config')
    assert.equal(upstreamOutputDir(['--config', path.join(dir, 'missing.json')], {}), undefined)
    assert.equal(upstreamOutputDir([], {}), undefined)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
