// One benchmark run in a child process, so the parent can cap its time:
// `node worker.mjs <runner> <bytes> <change>`. Reports over IPC:
// {ready} once the inputs exist, {first: ns} after one timed call, then
// {median: ns, runs} after repeating for about a second (one call is
// enough when it takes half a second or more).
import { createRequire } from 'node:module'
import { pathToFileURL } from 'node:url'
import { pair } from './inputs.mjs'

const require = createRequire(import.meta.url)
const [runner, bytes, change] = process.argv.slice(2)
const [old, next] = pair(Number(bytes), change)

const OPTIONS = { enabled: true }
// fast-playwright-mcp's Response passes its defaults when diffOptions only
// says enabled: the same options for both ends of the drop-in comparison.
const FPM_OPTIONS = { enabled: true, threshold: 0.1, format: 'unified', maxDiffLines: 50, ignoreWhitespace: true, context: 3 }

// fast-playwright-mcp's own ResponseDiffDetector, from its npm package as
// tests/dropin installs it (make node-bench installs it there first).
async function fpmDetector() {
  const dropin = createRequire(new URL('../../../tests/dropin/package.json', import.meta.url))
  let pkg
  try {
    pkg = dropin.resolve('@tontoko/fast-playwright-mcp/package.json')
  } catch {
    throw new Error('fast-playwright-mcp is not installed in tests/dropin: run `cd tests/dropin && npm ci` (make node-bench does)')
  }
  const mod = await import(new URL('lib/utils/response-diff-detector.js', pathToFileURL(pkg)).href)
  return mod.ResponseDiffDetector
}
const FpmDetector = runner === 'fpm' ? await fpmDetector() : null

// Each runner: [setup (untimed, before every call), call (timed)].
function runners(name) {
  switch (name) {
    case 'detect': {
      // The realistic path: the previous response is already stored in the
      // detector; the new one crosses into the addon and the result back.
      const { ResponseDiffDetector } = require('../index.js')
      const d = new ResponseDiffDetector()
      return [() => d.store('tab', old), () => d.detect('tab', next, OPTIONS)]
    }
    case 'compat': {
      // What a fast-playwright-mcp user gets after the one-line swap: the
      // previous response stored, detectDiff with their default options.
      const { ResponseDiffDetector } = require('../compat.js')
      const d = new ResponseDiffDetector()
      return [() => d.storeResponse(old, 'browser_click'), () => d.detectDiff(next, 'browser_click', FPM_OPTIONS)]
    }
    case 'fpm': {
      // What the swap replaces, end to end: fast-diff twice, a SHA-256, the
      // line counting and the formatter.
      const d = new FpmDetector()
      return [() => d.storeResponse(old, 'browser_click'), () => d.detectDiff(next, 'browser_click', FPM_OPTIONS)]
    }
    case 'floor': {
      // The crossing alone: the new text converted into the addon exactly
      // as \`detect\` converts it, a number back, no work. Any addon that
      // must read the text pays at least this.
      const { estimateTokens } = require('../index.js')
      return [null, () => estimateTokens(next)]
    }
    case 'compare': {
      // Both texts cross: the stateless decision rule.
      const { compareTexts } = require('../index.js')
      return [null, () => compareTexts(old, next, OPTIONS)]
    }
    case 'fast-diff': {
      const diff = require('fast-diff')
      return [null, () => diff(old, next)]
    }
    case 'jsdiff': {
      const { diffLines } = require('diff')
      return [null, () => diffLines(old, next)]
    }
    case 'diff-match-patch': {
      const DiffMatchPatch = require('diff-match-patch')
      const dmp = new DiffMatchPatch()
      return [null, () => dmp.diff_main(old, next)]
    }
    default:
      throw new Error(`unknown runner ${name}`)
  }
}

const [setup, call] = runners(runner)
let sink = 0
const once = () => {
  if (setup) setup()
  const t = process.hrtime.bigint()
  const r = call()
  const ns = Number(process.hrtime.bigint() - t)
  sink ^= r ? 1 : 0
  return ns
}

process.send({ ready: true })
const first = once()
process.send({ first })
const times = [first]
if (first < 5e8) {
  const budget = process.hrtime.bigint() + 1_000_000_000n
  while (times.length < 20_000 && (times.length < 5 || process.hrtime.bigint() < budget)) times.push(once())
  times.shift() // the first call pays for JIT warm-up
}
times.sort((a, b) => a - b)
process.send({ median: times[times.length >> 1], runs: times.length, sink })
process.disconnect()
