// The README's "Use it from Node" examples, extracted and run as written,
// so they cannot rot.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { execFileSync } = require('node:child_process')
const { mkdtempSync, readFileSync, rmSync, writeFileSync } = require('node:fs')
const { join } = require('node:path')
const { root } = require('./helpers')

function examples() {
  const readme = readFileSync(join(root, 'README.md'), 'utf8')
  const section = /^## Use it from Node\n([\s\S]*?)^## /m.exec(readme)
  assert.ok(section, 'README.md has a "Use it from Node" section')
  return [...section[1].matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1])
}

test('the README has Node examples', () => {
  assert.ok(examples().length >= 2)
})

examples().forEach((code, i) => {
  test(`README Node example ${i + 1} runs`, () => {
    // Inside the package, so `require('@x/response-diff')` resolves to it
    // (a package may import itself by name through its "exports").
    const dir = mkdtempSync(join(__dirname, '.readme-'))
    try {
      const file = join(dir, `example${i + 1}.js`)
      writeFileSync(file, code)
      execFileSync(process.execPath, [file], { stdio: 'pipe' })
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
