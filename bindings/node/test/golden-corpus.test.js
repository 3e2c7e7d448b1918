// The golden corpus (tests/fixtures/golden-corpus.json, explained in
// core/tests/golden_corpus.rs) from Node: every case's detector result and
// line diff, byte for byte (SHA-256 of the UTF-8 bytes and every field).
// The bench inputs come from bench/inputs.mjs, the port of the Rust
// generator; the corpus's input hashes check the port. The addon is the
// release build (`npm run build`).
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const { createHash } = require('node:crypto')
const { readFileSync } = require('node:fs')
const { join } = require('node:path')
const { ResponseDiffDetector, formatDiff } = require('..')
const { fixtures } = require('./helpers')

const corpus = JSON.parse(readFileSync(join(fixtures, 'golden-corpus.json'), 'utf8')).cases
const sha256 = (text) => createHash('sha256').update(text, 'utf8').digest('hex')

async function caseInputs(name) {
  const parts = name.split('/')
  if (parts[0] === 'fixture') {
    const read = (side) => readFileSync(join(fixtures, 'diff', `${parts[1]}.${side}.yml`), 'utf8')
    return [read('before'), read('after')]
  }
  if (parts[0] === 'bench') {
    const { SIZES, pair } = await import('../bench/inputs.mjs')
    const size = new Map(SIZES).get(parts[1])
    return pair(size, parts[2])
  }
  throw new Error(`unknown case ${name}`)
}

for (const c of corpus) {
  test(`golden corpus: ${c.name}`, async () => {
    const [old, neu] = await caseInputs(c.name)
    assert.equal(sha256(old), c.oldSha256, 'old input (bench/inputs.mjs drifted from the Rust generator?)')
    assert.equal(sha256(neu), c.newSha256, 'new input')

    const d = new ResponseDiffDetector()
    assert.equal(d.store('k', old), true)
    const { formattedDiff, ...result } = d.detect('k', neu, c.options)
    assert.deepEqual(result, c.result)
    assert.equal(Buffer.byteLength(formattedDiff, 'utf8'), c.formattedDiffBytes)
    assert.equal(sha256(formattedDiff), c.formattedDiffSha256)
    if ('formattedDiff' in c) assert.equal(formattedDiff, c.formattedDiff)

    const lineDiff = formatDiff(old, neu, c.options)
    assert.equal(Buffer.byteLength(lineDiff, 'utf8'), c.lineDiffBytes)
    assert.equal(sha256(lineDiff), c.lineDiffSha256)
    if ('lineDiff' in c) assert.equal(lineDiff, c.lineDiff)
  })
}
