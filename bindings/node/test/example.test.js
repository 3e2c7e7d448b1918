// examples/node drives a real page in Debian's chromium and must show
// responses shrinking (it exits non-zero otherwise). Skipped, with a
// reason, where chromium or the example's dependencies are missing
// (`make node-test` installs both).
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const { existsSync } = require('node:fs')
const { join } = require('node:path')
const { root } = require('./helpers')

const dir = join(root, 'examples', 'node')
const chromium = process.env.CHROMIUM || '/usr/bin/chromium'
const skip = !existsSync(chromium)
  ? `no chromium at ${chromium}`
  : !existsSync(join(dir, 'node_modules', 'playwright-core'))
    ? 'examples/node has no node_modules (run npm ci there)'
    : false

test('examples/node: responses shrink on a real page', { skip, timeout: 120_000 }, () => {
  const out = execFileSync(process.execPath, ['shop.mjs'], { cwd: dir, encoding: 'utf8', stdio: 'pipe' })
  const total = /\| \| \*\*total\*\* \| (\d+) \| (\d+) \|/.exec(out)
  assert.ok(total, out)
  assert.ok(Number(total[2]) < Number(total[1]) / 2, out)
  assert.match(out, /\| unchanged \| 9\d %/)
  assert.match(out, /error error_appeared: Error element appeared/)
})
