// One detector shared by 8 worker threads (ResponseDiffDetector.shared),
// 10,000 calls each on the worker's own key and 10,000 on one key all
// workers share, at the same time. Every result is checked against the
// single-threaded reference (compareTexts on the text the call replaced);
// on the shared key the calls must form one clean sequence.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const path = require('node:path')
const { Worker } = require('node:worker_threads')
const { ResponseDiffDetector, compareTexts } = require('..')
const { page, OPTIONS, summary } = require('./workers/pages')

const WORKERS = 8
const CALLS = 10_000

function runWorkers(name) {
  const ready = new SharedArrayBuffer(8)
  const gate = new Int32Array(ready)
  const workers = Array.from({ length: WORKERS }, (_, t) => {
    const w = new Worker(path.join(__dirname, 'workers', 'detect-worker.js'), {
      workerData: { t, calls: CALLS, name, ready },
    })
    return new Promise((resolve, reject) => {
      w.once('message', resolve)
      w.once('error', reject)
      w.once('exit', (code) => code !== 0 && reject(new Error(`worker ${t} exited with ${code}`)))
    })
  })
  // Open the gate once every worker has attached.
  const open = setInterval(() => {
    if (Atomics.load(gate, 0) === WORKERS) {
      Atomics.store(gate, 1, 1)
      Atomics.notify(gate, 1)
      clearInterval(open)
    }
  }, 5)
  return Promise.all(workers)
}

test('8 worker threads x 10,000 calls on own and shared keys match the single-threaded reference', async () => {
  const name = `workers-${process.pid}`
  const mine = ResponseDiffDetector.shared(name)
  const seen = await runWorkers(name)

  for (let t = 0; t < WORKERS; t++) {
    let previous = null
    for (let i = 0; i < CALLS; i++) {
      const text = page(t, i)
      assert.deepEqual(seen[t].own[i], summary(compareTexts(previous, text, OPTIONS)), `worker ${t} call ${i}, own key`)
      previous = text
    }
  }

  const byHash = new Map()
  for (let t = 0; t < WORKERS; t++) {
    for (let i = 0; i < CALLS; i++) byHash.set(compareTexts(null, page(t, i)).metadata.currentHash, [t, i])
  }
  assert.equal(byHash.size, WORKERS * CALLS, 'every text is distinct')
  const replaced = new Set()
  const modes = new Map()
  let firsts = 0
  for (let t = 0; t < WORKERS; t++) {
    for (let i = 0; i < CALLS; i++) {
      const got = seen[t].shared[i]
      const { previousHash } = JSON.parse(got[3])
      let previous = null
      if (previousHash) {
        const from = byHash.get(previousHash)
        assert.ok(from, `worker ${t} call ${i} replaced a text no worker sent`)
        assert.ok(!replaced.has(previousHash), `text ${from} replaced twice`)
        replaced.add(previousHash)
        previous = page(...from)
      } else firsts += 1
      assert.deepEqual(got, summary(compareTexts(previous, page(t, i), OPTIONS)), `worker ${t} call ${i}, shared key`)
      modes.set(got[0], (modes.get(got[0]) ?? 0) + 1)
    }
  }
  assert.equal(firsts, 1, 'exactly one call found the shared key empty')
  assert.equal(replaced.size, WORKERS * CALLS - 1)
  const last = compareTexts(null, mine.previous('shared')).metadata.currentHash
  assert.ok(!replaced.has(last), 'the text stored last was never replaced')
  for (const mode of ['first', 'diff', 'full']) assert.ok(modes.has(mode), `no ${mode} result`)
  assert.equal(mine.size, WORKERS + 1)
})

test('shared detectors: one per name, limits fixed by the first caller', () => {
  const a = ResponseDiffDetector.shared('limits', { maxStoredBytes: 4096 })
  const b = ResponseDiffDetector.shared('limits')
  a.store('k', 'hello\n')
  assert.equal(b.previous('k'), 'hello\n')
  assert.equal(ResponseDiffDetector.shared('other').size, 0)
  assert.throws(
    () => ResponseDiffDetector.shared('limits', { maxStoredBytes: 8192 }),
    (e) => e.code === 'INVALID_OPTION' && /already exists with other limits/.test(e.message),
  )
  assert.doesNotThrow(() => ResponseDiffDetector.shared('limits', { maxStoredBytes: 4096 }))
})
