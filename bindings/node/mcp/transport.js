// The MCP transport wrapper (withResponseDiff): takes the client's
// messages and the server's, runs each tools/call as one slot of a queue
// (handed to the door of the server it fronts: playwright.js for
// @playwright/mcp, devtools/door.js for chrome-devtools-mcp), under the
// wrapper's own request ids, and makes sure every slot ends: on the
// server's answer, on the client's cancel, on the per-call time limit, or
// when the connection closes. Every other message passes through.
'use strict'
const { fileURLToPath } = require('node:url')
const rd = require('../index.js')
const { OwnIds } = require('./ids.js')
const refs = require('./refs.js')
const { HEADINGS_0_0_83, KNOWN_VERSIONS, layoutFor } = require('./sections.js')
const { PlaywrightDoor } = require('./playwright.js')
const { DevtoolsDoor, DEVTOOLS_VERSIONS, DEVTOOLS_SERVER_NAME } = require('./devtools/door.js')

/** What the wrapper does unless told otherwise: diffs on. */
const DEFAULT_EXPECTATION = Object.freeze({ diffOptions: Object.freeze({ enabled: true }) })
/** Well above Playwright's own action (5 s) and navigation (60 s) timeouts. */
const DEFAULT_CALL_TIMEOUT_MS = 5 * 60 * 1000
const OPTIONS = [
  'expectation',
  'detector',
  'maxStoredBytes',
  'snapshotMode',
  'cwd',
  'outputDir',
  'callTimeoutMs',
  'onTiming',
  'onWarning',
  'upstream',
  'includeSnapshot',
  'keepStructuredSnapshot',
]
/** The servers the wrapper fronts, as the `upstream` option names them. */
const UPSTREAMS = ['playwright', 'chrome-devtools']

const isObject = (m) => m !== null && typeof m === 'object' && !Array.isArray(m)
const isRequest = (m) => isObject(m) && typeof m.method === 'string' && m.id !== undefined
const isResponse = (m) => isObject(m) && m.method === undefined && m.id !== undefined

class ResponseDiffTransport {
  #inner
  #options
  #snapshotOff
  #defaults
  #detector
  #carrier
  #ids = new OwnIds()
  #callTimeoutMs
  /** Which server this is: 'playwright' or 'chrome-devtools'. */
  #upstream
  #doors = {}
  #listing = new Set()
  #initializing = new Set()
  #rootsRequests = new Set()
  #pending = new Map() // own id → { done, clientId }
  #calls = new Map() // client id → the call's slot
  #queue = Promise.resolve()
  #headings = HEADINGS_0_0_83
  #unknownVersion = null

  constructor(transport, options) {
    if (!transport || typeof transport.send !== 'function' || typeof transport.start !== 'function') {
      throw new TypeError('withResponseDiff(transport): pass the MCP transport the server would connect to (an object with start() and send())')
    }
    for (const k of Object.keys(options ?? {})) {
      if (!OPTIONS.includes(k)) throw new TypeError(`withResponseDiff: unknown option \`${k}\`; allowed: ${OPTIONS.join(', ')}`)
    }
    this.#inner = transport
    const o = (this.#options = options ?? {})
    this.#snapshotOff = o.snapshotMode === 'none'
    this.#defaults = o.expectation === undefined ? DEFAULT_EXPECTATION : rd.validateExpectation(o.expectation)
    const limit = o.callTimeoutMs ?? DEFAULT_CALL_TIMEOUT_MS
    if (typeof limit !== 'number' || !(limit > 0)) throw new TypeError(`withResponseDiff: callTimeoutMs must be a positive number of milliseconds (or Infinity), not ${limit}`)
    this.#callTimeoutMs = limit
    const cap = o.maxStoredBytes
    this.#detector = o.detector ?? new rd.ResponseDiffDetector(cap === undefined ? undefined : { maxStoredBytes: cap })
    // The upstream's refs as node ids, after content (docs/DECISIONS.md
    // D60): Playwright keeps a ref while an element's role and name stay,
    // chrome-devtools-mcp a uid within a document.
    this.#carrier = new rd.RefCarrier({ viewsPerKey: refs.VIEWS_PER_KEY, stableIds: true, ...(cap === undefined ? {} : { maxStoredBytes: cap }) })
    if (o.upstream !== undefined && !UPSTREAMS.includes(o.upstream)) {
      throw new TypeError(`withResponseDiff: upstream must be one of ${UPSTREAMS.join(', ')}, not ${JSON.stringify(o.upstream)}`)
    }
    for (const k of ['includeSnapshot', 'keepStructuredSnapshot']) {
      if (o[k] !== undefined && typeof o[k] !== 'boolean') throw new TypeError(`withResponseDiff: ${k} must be true or false, not ${JSON.stringify(o[k])}`)
    }
    this.#upstream = o.upstream ?? 'playwright'
    const shared = {
      ids: this.#ids,
      carrier: this.#carrier,
      detector: this.#detector,
      defaults: this.#defaults,
      warn: (text) => this.#warn(text),
      onerror: (e) => this.onerror?.(e),
    }
    this.#doors.playwright = new PlaywrightDoor({ ...shared, outputDir: o.outputDir, cwd: o.cwd, headings: () => this.#headings })
    this.#doors['chrome-devtools'] = new DevtoolsDoor({
      ...shared,
      includeSnapshot: o.includeSnapshot ?? true,
      keepStructuredSnapshot: o.keepStructuredSnapshot ?? false,
    })
    this.onmessage = undefined
    this.onclose = undefined
    this.onerror = undefined
  }

  get sessionId() {
    return this.#inner.sessionId
  }

  setProtocolVersion(version) {
    this.#inner.setProtocolVersion?.(version)
  }

  async start() {
    this.#inner.onmessage = (message, extra) => this.#fromClient(message, extra)
    this.#inner.onclose = () => {
      for (const { done } of [...this.#pending.values()]) done({ error: { code: -32000, message: 'the MCP connection closed' } })
      this.onclose?.()
    }
    this.#inner.onerror = (error) => this.onerror?.(error)
    await this.#inner.start()
  }

  async close() {
    await this.#inner.close()
  }

  #warn(text) {
    const w = this.#options.onWarning
    if (w) w(text)
    else process.stderr.write(`response-diff: ${text}\n`)
  }

  /** The door of the server this wrapper fronts. */
  get #door() {
    return this.#doors[this.#upstream]
  }

  /** Diffs off: Playwright's snapshot mode none, or an upstream whose layout is not known. */
  #transparent() {
    return (this.#snapshotOff && this.#upstream === 'playwright') || this.#unknownVersion !== null
  }

  /** A message from the server, on its way to the client. */
  async send(message, options) {
    if (isResponse(message) && this.#ids.owns(message.id)) {
      // An answer to the wrapper's own call; a second or a late one is dropped.
      this.#pending.get(message.id)?.done(message)
      return
    }
    if (options?.relatedRequestId !== undefined && this.#ids.owns(options.relatedRequestId)) {
      const p = this.#pending.get(options.relatedRequestId)
      // A notification about a call that is over (cancelled, timed out).
      if (!p) return
      options = { ...options, relatedRequestId: p.clientId }
    }
    if (isResponse(message) && this.#initializing.delete(message.id)) this.#initialized(message.result)
    if (isResponse(message) && this.#listing.delete(message.id) && !this.#transparent()) message = this.#door.catalog(message)
    if (isRequest(message) && message.method === 'roots/list') this.#rootsRequests.add(message.id)
    return this.#inner.send(message, options)
  }

  /**
   * Reads which server this is (unless the `upstream` option said) and its
   * version from its initialize answer.
   */
  #initialized(result) {
    const info = result?.serverInfo
    if (this.#options.upstream === undefined && info?.name === DEVTOOLS_SERVER_NAME) this.#upstream = 'chrome-devtools'
    const version = info?.version
    if (typeof version !== 'string') return
    if (this.#upstream === 'chrome-devtools') {
      if (DEVTOOLS_VERSIONS.includes(version)) return
      this.#unknownVersion = version
      this.#warn(
        `the upstream ${info.name ?? 'MCP server'} ${version} is not a version whose answers response-diff reads ` +
          `(chrome-devtools-mcp ${DEVTOOLS_VERSIONS.join(', ')}); its answers pass through untouched, without diffs`,
      )
      return
    }
    if (layoutFor(version) !== null) {
      this.#headings = layoutFor(version)
      return
    }
    this.#unknownVersion = version
    this.#warn(
      `the upstream ${info.name ?? 'MCP server'} ${version} is not a version whose answers response-diff reads ` +
        `(${KNOWN_VERSIONS.join(', ')}: @playwright/mcp 0.0.83); its answers pass through untouched, without diffs`,
    )
  }

  /** A message from the client, on its way to the server. */
  #fromClient(message, extra) {
    if (isResponse(message) && this.#rootsRequests.delete(message.id)) {
      const uri = message.result?.roots?.[0]?.uri
      try {
        if (typeof uri === 'string' && uri.startsWith('file:')) this.#doors.playwright.root(fileURLToPath(uri))
      } catch {
        // Not a local path: links stay relative to the working directory.
      }
    }
    if (isRequest(message) && message.method === 'initialize') this.#initializing.add(message.id)
    if (isRequest(message) && message.method === 'tools/list') this.#listing.add(message.id)
    if (isRequest(message) && message.method === 'tools/call' && !this.#transparent()) {
      const slot = { id: message.id, cancelled: false, answered: false, abort: null, forwards: 0 }
      this.#calls.set(message.id, slot)
      this.#queue = this.#queue.then(() => this.#call(message, extra, slot)).catch((e) => this.onerror?.(e))
      return
    }
    if (isObject(message) && message.method === 'notifications/cancelled' && this.#calls.has(message.params?.requestId)) {
      // The server never saw the client's id: the slot cancels its own call.
      const slot = this.#calls.get(message.params.requestId)
      this.#calls.delete(slot.id)
      slot.cancelled = true
      slot.abort?.(message.params.reason)
      return
    }
    if (this.#transparent() && this.#upstream === 'playwright' && isRequest(message) && message.method === 'tools/call' && isObject(message.params?.arguments) && message.params.arguments.expectation !== undefined) {
      const { expectation: _, ...args } = message.params.arguments
      message = { ...message, params: { ...message.params, arguments: args } }
    }
    this.onmessage?.(message, extra)
  }

  /** Tells the server to stop the wrapper's call `id`. */
  #cancelUpstream(id, reason) {
    try {
      this.onmessage?.({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: id, reason } })
    } catch (e) {
      this.onerror?.(e)
    }
  }

  /**
   * Sends a tools/call to the server under the wrapper's own id; settles
   * with its answer, `{ cancelled: true }`, or an error past the limit.
   */
  #forward(name, args, template, extra, slot) {
    if (slot.cancelled) return Promise.resolve({ cancelled: true })
    const id = this.#ids.next()
    slot.forwards++
    return new Promise((resolve) => {
      let timer = null
      const done = (reply) => {
        if (!this.#pending.delete(id)) return
        clearTimeout(timer)
        if (slot.abort === abort) slot.abort = null
        resolve(reply)
      }
      const abort = (reason) => {
        this.#cancelUpstream(id, reason ?? 'cancelled by the client')
        done({ cancelled: true })
      }
      this.#pending.set(id, { done, clientId: slot.id })
      slot.abort = abort
      const limit = this.#callTimeoutMs
      if (Number.isFinite(limit)) {
        timer = setTimeout(() => {
          this.#cancelUpstream(id, `no answer within ${limit} ms`)
          const message = `response-diff: the upstream did not answer ${name} within ${limit} ms (callTimeoutMs); the call was cancelled`
          done({ error: { code: -32001, message } })
        }, limit)
        timer.unref?.()
      }
      const params = { ...(template?.params ?? {}), name, arguments: args }
      try {
        this.onmessage?.({ jsonrpc: '2.0', id, method: 'tools/call', params }, extra)
      } catch (e) {
        done({ error: { code: -32603, message: `response-diff: could not pass ${name} on: ${e?.message ?? e}` } })
      }
    })
  }

  /** Answers the client's call once, unless it was cancelled. */
  async #answer(message, slot, reply) {
    if (slot.answered || slot.cancelled) return
    slot.answered = true
    const { jsonrpc: _, id: __, cancelled: ___, ...rest } = reply
    await this.#inner.send({ jsonrpc: '2.0', id: message.id, ...rest }, { relatedRequestId: message.id })
  }

  /** One tools/call of the client, from its arguments to its answer. */
  async #call(message, extra, slot) {
    const t0 = performance.now()
    let upstreamMs = 0
    const name = message.params?.name
    // The agent's own call's time, once (a retry is the wrapper's time).
    let timed = false
    const forward = async (n, a, template) => {
      const f0 = performance.now()
      const reply = await this.#forward(n, a, template, extra, slot)
      if (template === message && !timed) {
        timed = true
        upstreamMs = performance.now() - f0
      }
      return reply
    }
    try {
      if (slot.cancelled) return
      const reply = await this.#door.call(message, forward, () => slot.cancelled)
      if (reply !== null) await this.#answer(message, slot, reply)
    } catch (e) {
      this.onerror?.(e)
      await this.#answer(message, slot, { error: { code: -32603, message: `response-diff: ${e?.message ?? e}` } })
    } finally {
      if (this.#calls.get(slot.id) === slot) this.#calls.delete(slot.id)
      if (this.#options.onTiming && !slot.cancelled) {
        const totalMs = performance.now() - t0
        this.#options.onTiming({ tool: name, totalMs, upstreamMs, ownMs: totalMs - upstreamMs, extraCalls: Math.max(0, slot.forwards - 1) })
      }
    }
  }
}

/**
 * Wraps the server side of an MCP transport so that the @playwright/mcp
 * or chrome-devtools-mcp server connected to it answers with response
 * diffs (mcp.d.ts).
 */
function withResponseDiff(transport, options = {}) {
  return new ResponseDiffTransport(transport, options)
}

module.exports = { withResponseDiff, ResponseDiffTransport, DEFAULT_CALL_TIMEOUT_MS, UPSTREAMS }
