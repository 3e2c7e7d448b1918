// The bad-input matrix (tests/fixtures/bad-inputs/matrix.json), the same
// file the Rust, C and Python tests read: every case throws an Error with
// its stable `code` and fields and a message naming what was wrong, or
// gives its defined result. Deep inputs run on Node's main thread, whose
// stack is much smaller than a Rust test thread's.
'use strict'
const test = require('node:test')
const assert = require('node:assert/strict')
const rd = require('..')
const { fixture } = require('./helpers')

const { cases } = JSON.parse(fixture('bad-inputs/matrix.json'))
const FINGERPRINT = '{"url": "/", "structure": {"interactive": [{"type": "button", "text": "Save"}]}}'

const CODES = {
  invalid_option: 'INVALID_OPTION',
  parse: 'PARSE_ERROR',
  input_too_large: 'INPUT_TOO_LARGE',
  invalid_name: 'INVALID_NAME',
  baseline_not_found: 'BASELINE_NOT_FOUND',
}

function genString(v) {
  if (typeof v === 'string') return v
  switch (v.$gen) {
    case 'repeat':
      return v.unit.repeat(Math.floor(v.bytes / v.unit.length))
    case 'nest':
      return v.prefix + v.open.repeat(v.depth) + v.middle + v.close.repeat(v.depth) + v.suffix
    case 'chain': {
      let out = ''
      for (let i = 0; i < v.depth; i++) out += ' '.repeat(i) + (i + 1 === v.depth ? v.last : v.line) + '\n'
      return out
    }
    case 'hex':
      // JavaScript strings cannot hold invalid UTF-8: the bad bytes become U+FFFD.
      return Buffer.from(v.hex, 'hex').toString('utf8')
    default:
      throw new Error(`unknown generator ${v.$gen}`)
  }
}

/** An option value as JavaScript passes it: objects, real NaN, `$json` parsed. */
function option(v) {
  if (Array.isArray(v)) return v.map(option)
  if (v && typeof v === 'object') {
    if ('$text' in v) throw new Error('option text reached the Node test; the case should skip Node')
    if ('$json' in v) return JSON.parse(genString(v.$json))
    if ('$float' in v) return Number(v.$float)
    if ('$gen' in v) return genString(v)
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, option(x)]))
  }
  return v
}

function call(api, args) {
  const s = (k) => (args[k] == null ? undefined : genString(args[k]))
  const o = (k) => (k in args ? option(args[k]) : undefined)
  switch (api) {
    case 'detector.new':
      new rd.ResponseDiffDetector(o('config'))
      return {}
    case 'detector.detect': {
      const d = new rd.ResponseDiffDetector(o('config'))
      if ('previous' in args) d.detect(s('key'), s('previous'), o('options'))
      const r = d.detect(s('key'), s('text'), o('options'))
      return { mode: r.mode, text: r.formattedDiff }
    }
    case 'diff.compare':
      return { mode: rd.compareTexts(s('old'), s('new'), o('options')).mode }
    case 'expectation.validate':
      rd.validateExpectation(o('expectation'))
      return {}
    case 'response.render':
      return { text: rd.renderResponse(o('response'), s('tool'), { expectations: o('layers') }).text }
    case 'tree.parse': {
      const roots = rd.parseSnapshot(s('text'), { lenient: Boolean(args.lenient) })
      return { roots: roots.length, text: rd.printSnapshot(roots) }
    }
    case 'tree.print':
      return { text: rd.printSnapshot(JSON.parse(s('json'))) }
    case 'tree.diff':
      return { text: rd.treeDiff(s('old'), s('new'), o('options')).text }
    case 'fingerprint.parse':
      rd.parseFingerprint(s('json'))
      return {}
    case 'fingerprint.compare':
      return {
        text: JSON.stringify(rd.compareFingerprints(rd.parseFingerprint(s('baseline')), rd.parseFingerprint(s('current')), s('threshold'))),
      }
    case 'baseline.save':
      new rd.BaselineStore().save(s('name'), rd.parseFingerprint(FINGERPRINT))
      return {}
    case 'baseline.compare': {
      const store = new rd.BaselineStore()
      const fp = rd.parseFingerprint(FINGERPRINT)
      store.save('home', fp)
      return { text: JSON.stringify(store.compare(s('against'), fp)) }
    }
    case 'since.read': {
      const opts = args.since == null ? undefined : { since: args.since }
      return { text: new rd.SinceStore().read(s('key'), s('text'), opts).text }
    }
    default:
      throw new Error(`unknown api ${api}`)
  }
}

for (const c of cases) {
  const mine = c.node
  const skip = mine && mine.skip
  const want = mine && mine.expect ? mine.expect : c.expect
  test(`bad input: ${c.name}`, { skip }, () => {
    if (want.ok) {
      const out = call(c.api, c.args)
      if ('mode' in want.ok) assert.equal(out.mode, want.ok.mode)
      if ('roots' in want.ok) assert.equal(out.roots, want.ok.roots)
      if ('contains' in want.ok) assert.ok(out.text.includes(want.ok.contains), out.text.slice(0, 300))
      return
    }
    assert.throws(
      () => call(c.api, c.args),
      (e) => {
        assert.ok(e instanceof Error, String(e))
        if (want.error.startsWith('js:')) {
          assert.equal(e.constructor.name, want.error.slice(3), e.message)
        } else if (want.error.startsWith('napi:')) {
          assert.equal(e.code, want.error.slice(5), e.message)
        } else {
          assert.equal(e.code, CODES[want.error], `${e.code}: ${e.message}`)
        }
        if ('field' in want) assert.equal(e.field, want.field, e.message)
        if ('what' in want) assert.equal(e.what, want.what, e.message)
        if ('line' in want) assert.equal(e.line, want.line, e.message)
        for (const needle of want.message || []) {
          assert.ok(e.message.includes(needle), `${JSON.stringify(needle)} not in ${e.message.slice(0, 300)}`)
        }
        return true
      },
    )
  })
}

test('the matrix is whole', () => {
  assert.ok(cases.length >= 60)
  assert.ok(cases.filter((c) => !(c.node && c.node.skip)).length >= 60)
})
