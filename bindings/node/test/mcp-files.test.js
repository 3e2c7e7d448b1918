// mcp/files.js: linked snapshots read and rewritten only inside the
// upstream's output directory.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const fs = require('node:fs')
const os = require('node:os')
const path = require('node:path')
const { Files } = require('../mcp/files.js')

test('a link is read inside the output directory only; symlinks out and missing files are left', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rd-files-'))
  try {
    const out = path.join(dir, 'out')
    fs.mkdirSync(out)
    fs.writeFileSync(path.join(out, 'page.yml'), '- a')
    fs.writeFileSync(path.join(dir, 'secret.yml'), '- secret')
    fs.symlinkSync(path.join(dir, 'secret.yml'), path.join(out, 'link.yml'))
    const notes = []
    const files = new Files({ outputDir: 'out', cwd: dir, warn: (t) => notes.push(t) })
    const inside = files.read('out/page.yml')
    assert.equal(inside.text, '- a')
    assert.ok(files.write(inside.file, '- b'))
    assert.equal(fs.readFileSync(path.join(out, 'page.yml'), 'utf8'), '- b')
    for (const link of ['secret.yml', 'out/link.yml', 'out/missing.yml', '../../etc/passwd']) assert.equal(files.read(link).text, null, link)
    assert.equal(notes.length, 4)
    assert.match(notes[0], /outside the upstream's output directory/)
    assert.match(notes[2], /does not exist/)
    // Never written: a file not read from inside.
    assert.equal(files.write(path.join(dir, 'secret.yml'), 'x'), false)
    assert.equal(fs.readFileSync(path.join(dir, 'secret.yml'), 'utf8'), '- secret')
    // The default: .playwright-mcp in the root.
    fs.mkdirSync(path.join(dir, '.playwright-mcp'))
    fs.writeFileSync(path.join(dir, '.playwright-mcp', 'p.yml'), '- c')
    const dflt = new Files({ cwd: dir })
    assert.equal(dflt.read('.playwright-mcp/p.yml').text, '- c')
    assert.equal(dflt.read('out/page.yml').text, null)
  } finally {
    fs.rmSync(dir, { recursive: true, force: true })
  }
})
