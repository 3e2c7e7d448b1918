// The addon against fast-diff (what fast-playwright-mcp uses), jsdiff and
// diff-match-patch on the core benchmark's inputs (2 KB to 2.6 MB, five
// kinds of change), timed from JavaScript: the call into the addon, the
// texts crossing, and the result object coming back are all included. The
// drop-in (@x/response-diff/compat's detectDiff) is also timed against what
// it replaces, fast-playwright-mcp's own ResponseDiffDetector end to end
// (from its npm package, installed in tests/dropin), with the options their
// Response passes by default.
//
//   node bench/bench.mjs            # BENCH_CAP_S=20 caps each peer's first call
//   node bench/bench.mjs --json out.json   # also writes the results as JSON
//
// Each measurement runs in its own process; a call that has not returned
// within the cap is reported as "> cap s". Prints a Markdown table.
import { fork } from 'node:child_process'
import { writeFileSync } from 'node:fs'
import { cpus, loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { CHANGES, SIZES } from './inputs.mjs'

const CAP_S = Number(process.env.BENCH_CAP_S || 20)
const WORKER = fileURLToPath(new URL('./worker.mjs', import.meta.url))
const RUNNERS = ['detect', 'compare', 'floor', 'fast-diff', 'jsdiff', 'diff-match-patch', 'compat', 'fpm']
const jsonAt = process.argv.indexOf('--json')
const JSON_OUT = jsonAt >= 0 ? process.argv[jsonAt + 1] : null
if (jsonAt >= 0 && !JSON_OUT) {
  console.error('--json needs a file name: node bench/bench.mjs --json out.json')
  process.exit(2)
}
// One JSON row per runner and input: median ns, or timeout / error.
const rows = []

function run(runner, bytes, change) {
  return new Promise((resolve) => {
    const child = fork(WORKER, [runner, String(bytes), change], {
      execArgv: ['--max-old-space-size=4096'],
      stdio: ['ignore', 'ignore', 'pipe', 'ipc'],
    })
    let timer
    let result = null
    let stderr = ''
    child.stderr.on('data', (d) => (stderr += d))
    const arm = () => {
      clearTimeout(timer)
      timer = setTimeout(() => {
        result = result ?? { timeout: true }
        child.kill('SIGKILL')
      }, CAP_S * 1000)
    }
    child.on('message', (m) => {
      if (m.ready) arm()
      else if (m.first !== undefined) arm()
      else if (m.median !== undefined) result = { ns: m.median, runs: m.runs }
    })
    child.on('exit', (code, signal) => {
      clearTimeout(timer)
      if (!result) result = { error: signal ?? `exit ${code}: ${stderr.trim().split('\n').pop()}` }
      resolve(result)
    })
  })
}

function fmt(r) {
  if (r.timeout) return `> ${CAP_S} s`
  if (r.error) return `failed (${r.error})`
  const ns = r.ns
  if (ns >= 1e9) return `${(ns / 1e9).toFixed(2)} s`
  if (ns >= 1e6) return `${(ns / 1e6).toFixed(2)} ms`
  if (ns >= 1e3) return `${(ns / 1e3).toFixed(1)} µs`
  return `${ns.toFixed(0)} ns`
}

const time = (r) => (r.timeout ? Infinity : r.error ? NaN : r.ns)

console.log(
  `Node ${process.version}, ${cpus().length} CPUs (${cpus()[0].model.trim()}), load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; median per call, crossing included; cap ${CAP_S} s per peer call.\n`,
)
console.log(
  '| input | change | response-diff `detect` (previous stored) | response-diff `compareTexts` (both cross) | crossing floor (text in, nothing done) | fast-diff | jsdiff `diffLines` | diff-match-patch | `detect` vs fast-diff | drop-in `detectDiff` (compat) | fast-playwright-mcp `detectDiff` | drop-in vs fast-playwright-mcp |',
)
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|')
let met = 0
let dropinMet = 0
let floorSlower = 0
let total = 0
for (const [name, bytes] of SIZES) {
  for (const change of CHANGES) {
    const r = {}
    for (const runner of RUNNERS) {
      r[runner] = await run(runner, bytes, change)
      rows.push({ runner, input: name, bytes, change, ...r[runner] })
    }
    const ours = time(r.detect)
    const fd = time(r['fast-diff'])
    const faster = ours < fd
    floorSlower += time(r.floor) >= fd ? 1 : 0
    total += 1
    met += faster ? 1 : 0
    const ratio = fd === Infinity ? `faster (fast-diff > ${CAP_S} s)` : `${(fd / ours).toFixed(1)}× ${faster ? 'faster' : 'SLOWER'}`
    const compat = time(r.compat)
    const fpm = time(r.fpm)
    const dropinFaster = compat < fpm
    dropinMet += dropinFaster ? 1 : 0
    const dropinRatio =
      fpm === Infinity ? `faster (theirs > ${CAP_S} s)` : `${(fpm / compat).toFixed(1)}× ${dropinFaster ? 'faster' : 'SLOWER'}`
    console.log(
      `| ${name} | ${change} | ${fmt(r.detect)} | ${fmt(r.compare)} | ${fmt(r.floor)} | ${fmt(r['fast-diff'])} | ${fmt(r.jsdiff)} | ${fmt(r['diff-match-patch'])} | ${ratio} | ${fmt(r.compat)} | ${fmt(r.fpm)} | ${dropinRatio} |`,
    )
  }
}
console.log(`\n\`detect\` is faster than fast-diff on ${met} of ${total} inputs.`)
console.log(`The drop-in's \`detectDiff\` is faster than fast-playwright-mcp's on ${dropinMet} of ${total} inputs.`)
console.log(
  `On ${floorSlower} of ${total} inputs the crossing floor alone (converting the text into the addon, no work) is no faster than fast-diff's whole run: no addon that reads the text can beat it there.`,
)
if (JSON_OUT) {
  const machine = { node: process.version, cpus: cpus().length, cpu: cpus()[0].model.trim(), load: loadavg() }
  writeFileSync(
    JSON_OUT,
    JSON.stringify({ capSeconds: CAP_S, machine, rows, fasterThanFastDiff: met, dropinFasterThanFpm: dropinMet, floorNotFaster: floorSlower, inputs: total }, null, 1),
  )
}
