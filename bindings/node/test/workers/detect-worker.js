// One worker of workers.test.js: attaches to the shared detector, waits for
// every worker to be ready, then sends its pages on its own key and on the
// key all workers share, and posts back what it saw.
'use strict'
const { parentPort, workerData } = require('node:worker_threads')
const { ResponseDiffDetector } = require('../..')
const { page, OPTIONS, summary } = require('./pages')

const { t, calls, name, ready } = workerData
const d = ResponseDiffDetector.shared(name)
const gate = new Int32Array(ready)
Atomics.add(gate, 0, 1)
Atomics.notify(gate, 0)
while (Atomics.load(gate, 1) === 0) Atomics.wait(gate, 1, 0, 50)
const own = []
const shared = []
for (let i = 0; i < calls; i++) {
  const text = page(t, i)
  own.push(summary(d.detect(`tab-${t}`, text, OPTIONS)))
  shared.push(summary(d.detect('shared', text, OPTIONS)))
}
parentPort.postMessage({ own, shared })
