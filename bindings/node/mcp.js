// @x/response-diff/mcp: response diffs for @playwright/mcp, by wrapping
// the MCP transport of a server made by its createConnection():
//
//   const server = await createConnection(config)
//   await server.connect(withResponseDiff(transport))
//
// The wrapper uses only the transport interface (start, send, close,
// onmessage, onclose, onerror, sessionId). Every message that is not a
// tools/call or the tools/list answer passes through untouched. A
// @playwright/mcp tool's answer keeps Playwright's sections as Playwright
// wrote them, except the `### Snapshot` section (inline, or the .yml file
// an action links to): its snapshot gets carried refs (the core's
// RefCarrier) and becomes the core's answer against what this session last
// saw of this tab (renderSnapshotSection): one line when unchanged, a
// patch by ref, a line diff, or the full text. Refs in arguments are
// translated back to Playwright's before the call goes on
// (docs/DECISIONS.md D55-D58, docs/proxy.md).
//
// Written here rather than taken from a package: no package wraps an MCP
// transport this way, and the MCP SDK is not a dependency of this one (the
// wrapper needs only the transport's shape).
'use strict'
const fs = require('node:fs')
const path = require('node:path')
const { fileURLToPath } = require('node:url')
const rd = require('./index.js')

/**
 * The tools of @playwright/mcp 0.0.83, every capability: their answers are
 * Playwright's Markdown sections, which the wrapper reads. Any other tool
 * (a page's WebMCP tool, a tool of a later version) passes through
 * untouched, its answer included.
 */
const PLAYWRIGHT_TOOLS = new Set(
  (
    'annotate check click close console_clear console_messages cookie_clear cookie_delete cookie_get cookie_list ' +
    'cookie_set drag drop emulate_media evaluate file_upload fill_form find generate_locator get_config ' +
    'handle_dialog hide_highlight highlight hover keydown keyup localstorage_clear localstorage_delete ' +
    'localstorage_get localstorage_list localstorage_set mouse_click_xy mouse_down mouse_drag_xy mouse_move_xy ' +
    'mouse_up mouse_wheel navigate navigate_back navigate_forward network_clear network_request network_requests ' +
    'network_state_set pdf_save press_key press_sequentially reload resize resume route route_list ' +
    'run_code_unsafe select_option sessionstorage_clear sessionstorage_delete sessionstorage_get ' +
    'sessionstorage_list sessionstorage_set set_storage_state snapshot start_recording start_tracing start_video ' +
    'stop_recording stop_tracing stop_video storage_state tabs take_screenshot type uncheck unroute ' +
    'verify_element_visible verify_list_visible verify_text_visible verify_value video_chapter ' +
    'video_hide_actions video_show_actions wait_for webmcp_call webmcp_list'
  )
    .split(' ')
    .map((t) => `browser_${t}`),
)

/** A ref as the agent writes it: `e12`, or `f1e3` inside a frame. */
const REF = /^(?:f\d+)?e\d+$/
/** Argument names that hold an element ref in Playwright's tools. */
const ELEMENT_KEYS = new Set(['target', 'ref', 'startTarget', 'endTarget', 'startRef', 'endRef'])
/** How Playwright's schemas describe an element argument. */
const ELEMENT_DESCRIPTION = /element reference from the page snapshot/i
/** Playwright's error for a ref its last snapshot does not have. */
const NOT_FOUND = /\bRef (\S+) not found in the current page snapshot\b/
/** Playwright's words for that error, for a ref the wrapper knows is gone. */
const notFound = (ref) => `### Error\nError: Ref ${ref} not found in the current page snapshot. Try capturing new snapshot.`
/** A tab line of `### Open tabs` and of browser_tabs' result. */
const TAB_LINE = /^- (\d+):( \(current\))? \[(.*)\]\((.*)\)(?: \[crashed\])?$/

/** What the wrapper does unless told otherwise: diffs on. */
const DEFAULT_EXPECTATION = Object.freeze({ diffOptions: Object.freeze({ enabled: true }) })

/**
 * The expectation schema the catalog gains: the keys once, on
 * browser_snapshot, a bare object elsewhere (the catalog stays within 10 %
 * of Playwright's own tokens).
 */
const EXPECTATION_DESCRIPTION =
  'response-diff options, on every browser_ tool; omitted keys keep defaults. diffOptions {enabled, format, context, maxDiffLines}: ' +
  'snapshots come as changes since you last saw the tab (enabled: false gives Playwright\'s full text); ' +
  'snapshotOptions {selector, maxLength, format, diff, restore}; includeSnapshot, includeCode, includeTabs.'

const OWN_ID = 'response-diff/'

/**
 * Splits Playwright's Markdown into its sections: each piece starts with
 * `### ` (a first piece may not), and joining the pieces gives the text
 * back byte for byte.
 */
function sections(text) {
  return text.split(/^(?=### )/m).map((raw) => {
    const nl = raw.indexOf('\n')
    const heading = raw.startsWith('### ') ? raw.slice(4, nl < 0 ? raw.length : nl) : null
    const body = nl < 0 ? '' : raw.slice(nl + 1)
    return { heading, body, raw }
  })
}

/** A piece with a new text, keeping the piece's trailing newline. */
function replaced(piece, text) {
  return { ...piece, raw: piece.raw.endsWith('\n') ? `${text}\n` : text }
}

/** The tab lines of a section body: [{ index, current, title, url }]. */
function tabLines(body) {
  const tabs = []
  for (const line of body.split('\n')) {
    const m = TAB_LINE.exec(line)
    if (m) tabs.push({ index: Number(m[1]), current: Boolean(m[2]), title: m[3], url: m[4] })
  }
  return tabs
}

/** The paths of the element arguments in a tool's input schema. */
function elementPaths(schema, depth = 0) {
  const out = []
  const props = schema && typeof schema === 'object' ? schema.properties : null
  if (!props || depth > 4) return out
  for (const [key, s] of Object.entries(props)) {
    if (!s || typeof s !== 'object') continue
    const described = typeof s.description === 'string' && ELEMENT_DESCRIPTION.test(s.description)
    if (s.type === 'string' && (ELEMENT_KEYS.has(key) || described)) out.push([key])
    else if (s.type === 'array' && s.items) {
      for (const p of elementPaths(s.items, depth + 1)) out.push([key, '[]', ...p])
    } else if (s.type === 'object') {
      for (const p of elementPaths(s, depth + 1)) out.push([key, ...p])
    }
  }
  return out
}

/** The fallback when the catalog was not listed through the wrapper. */
const KNOWN_PATHS = [...[...ELEMENT_KEYS].map((k) => [k]), ['fields', '[]', 'target']]

/** Calls `fn(holder, key)` for every place `path` names in `value`. */
function visit(value, pathParts, fn) {
  if (value === null || typeof value !== 'object') return
  const [head, ...rest] = pathParts
  if (head === '[]') {
    if (Array.isArray(value)) for (const v of value) visit(v, rest, fn)
    return
  }
  if (!rest.length) {
    if (Object.hasOwn(value, head)) fn(value, head)
    return
  }
  visit(value[head], rest, fn)
}

/** One tab as this session knows it: its key and the refs of its last snapshot. */
class Tab {
  constructor(id) {
    this.key = `tab${id}`
    this.url = ''
    /** Agent's ref → Playwright's ref, for the last snapshot. */
    this.toPlaywright = new Map()
    /** Playwright's ref → agent's ref. */
    this.toAgent = new Map()
    /** The carrier's keys this tab used. */
    this.pages = new Set()
  }

  /**
   * The carrier's key for the tab's page: per URL (fragment aside), as our
   * server files a document, so a page seen before (back, a return visit)
   * gets its refs back from its own views.
   */
  page() {
    const key = `${this.key}\u001f${this.url.split('#')[0]}`
    this.pages.add(key)
    return key
  }

  /** Records a carry's mapping (Playwright's id → agent's ref). */
  learn(refs, whole) {
    if (whole) {
      this.toPlaywright.clear()
      this.toAgent.clear()
    }
    for (const [pw, agent] of Object.entries(refs)) {
      const old = this.toAgent.get(pw)
      if (old !== undefined) this.toPlaywright.delete(old)
      this.toPlaywright.set(agent, pw)
      this.toAgent.set(pw, agent)
    }
  }
}

/** The open tabs in Playwright's order, and which one is current. */
class Tabs {
  constructor(onGone) {
    this.list = []
    this.current = -1
    this.next = 1
    this.onGone = onGone
  }

  get tab() {
    return this.current >= 0 ? this.list[this.current] : null
  }

  /** The current tab, made when the browser had none (the first navigation). */
  ensure() {
    if (!this.tab) {
      this.list = [new Tab(this.next++)]
      this.current = 0
    }
    return this.tab
  }

  reset() {
    for (const t of this.list) this.onGone(t)
    this.list = []
    this.current = -1
  }

  /**
   * Follows the tab list Playwright printed. Tabs keep their order; new
   * ones come last; a closed one is found by `closed` (browser_tabs close)
   * or by the URLs of the others.
   */
  follow(lines, closed) {
    if (!lines.length) return this.reset()
    const n = lines.length
    if (n > this.list.length) {
      while (this.list.length < n) this.list.push(new Tab(this.next++))
    } else if (n < this.list.length) {
      let keep = null
      if (closed !== undefined && this.list.length - n === 1 && closed >= 0 && closed < this.list.length) {
        keep = this.list.filter((_, i) => i !== closed)
      } else {
        keep = []
        let k = 0
        for (const t of this.list) {
          if (k < n && keep.length < n && t.url === lines[k].url) {
            keep.push(t)
            k++
          }
        }
        // Not told apart by URL: only the first ones are kept for sure.
        if (keep.length !== n) keep = this.list.slice(0, n)
      }
      for (const t of this.list) if (!keep.includes(t)) this.onGone(t)
      this.list = keep
    }
    lines.forEach((l, i) => {
      this.list[i].url = l.url
    })
    const c = lines.findIndex((l) => l.current)
    this.current = c >= 0 ? c : Math.min(Math.max(this.current, 0), n - 1)
  }

  /** A response showed one page and no tab list: one tab is open. */
  single(url) {
    const tab = this.tab
    if (this.list.length > 1) {
      for (const t of this.list) if (t !== tab) this.onGone(t)
      this.list = tab ? [tab] : []
    }
    const t = this.ensure()
    if (url !== null) t.url = url
  }
}

/** `target` of a JSON-RPC message, or undefined. */
const isRequest = (m) => m && typeof m === 'object' && typeof m.method === 'string' && m.id !== undefined
const isResponse = (m) => m && typeof m === 'object' && m.method === undefined && m.id !== undefined

/**
 * Wraps the server side of an MCP transport so that the @playwright/mcp
 * server connected to it answers with response diffs. See index of this
 * file and mcp.d.ts for the options.
 */
function withResponseDiff(transport, options = {}) {
  return new ResponseDiffTransport(transport, options)
}

class ResponseDiffTransport {
  #inner
  #options
  #transparent
  #defaults
  #detector
  #carrier
  #tabs
  #paths = new Map()
  #listing = new Set()
  #rootsRequests = new Set()
  #root = null
  #upstream = new Map() // our id → { resolve, clientId }
  #clientOf = new Map() // our id → client id
  #queued = new Map() // client id → { cancelled }
  #inFlight = new Map() // client id → our id
  #queue = Promise.resolve()
  #seq = 0
  #forwards = 0

  constructor(transport, options) {
    if (!transport || typeof transport.send !== 'function' || typeof transport.start !== 'function') {
      throw new TypeError('withResponseDiff(transport): pass the MCP transport the server would connect to (an object with start() and send())')
    }
    const allowed = ['expectation', 'detector', 'maxStoredBytes', 'snapshotMode', 'cwd', 'onTiming']
    for (const k of Object.keys(options ?? {})) {
      if (!allowed.includes(k)) throw new TypeError(`withResponseDiff: unknown option \`${k}\`; allowed: ${allowed.join(', ')}`)
    }
    this.#inner = transport
    this.#options = options ?? {}
    this.#transparent = this.#options.snapshotMode === 'none'
    this.#defaults = this.#options.expectation === undefined ? DEFAULT_EXPECTATION : rd.validateExpectation(this.#options.expectation)
    const cap = this.#options.maxStoredBytes
    this.#detector = this.#options.detector ?? new rd.ResponseDiffDetector(cap === undefined ? undefined : { maxStoredBytes: cap })
    // As many views per page as our server keeps (a row paged away and
    // back keeps its ref).
    this.#carrier = new rd.RefCarrier({ viewsPerKey: 16, ...(cap === undefined ? {} : { maxStoredBytes: cap }) })
    this.#tabs = new Tabs((t) => {
      for (const k of t.pages) this.#carrier.clear(k)
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
      for (const { resolve } of this.#upstream.values()) resolve({ error: { code: -32000, message: 'the MCP connection closed' } })
      this.#upstream.clear()
      this.onclose?.()
    }
    this.#inner.onerror = (error) => this.onerror?.(error)
    await this.#inner.start()
  }

  async close() {
    await this.#inner.close()
  }

  /** A message from the server, on its way to the client. */
  async send(message, options) {
    if (isResponse(message) && this.#upstream.has(message.id)) {
      const pending = this.#upstream.get(message.id)
      this.#upstream.delete(message.id)
      pending.resolve(message)
      return
    }
    if (options?.relatedRequestId !== undefined && this.#clientOf.has(options.relatedRequestId)) {
      options = { ...options, relatedRequestId: this.#clientOf.get(options.relatedRequestId) }
    }
    if (!this.#transparent && isResponse(message) && this.#listing.has(message.id)) {
      this.#listing.delete(message.id)
      message = this.#catalog(message)
    }
    if (isRequest(message) && message.method === 'roots/list') this.#rootsRequests.add(message.id)
    return this.#inner.send(message, options)
  }

  /** A message from the client, on its way to the server. */
  #fromClient(message, extra) {
    if (isResponse(message) && this.#rootsRequests.has(message.id)) {
      this.#rootsRequests.delete(message.id)
      const uri = message.result?.roots?.[0]?.uri
      try {
        if (typeof uri === 'string' && uri.startsWith('file:')) this.#root = fileURLToPath(uri)
      } catch {
        // Not a local path: links stay relative to the working directory.
      }
    }
    if (isRequest(message) && message.method === 'tools/list') this.#listing.add(message.id)
    if (!this.#transparent && isRequest(message) && message.method === 'tools/call') {
      const entry = { cancelled: false }
      this.#queued.set(message.id, entry)
      this.#queue = this.#queue.then(() => this.#call(message, extra, entry)).catch((e) => this.onerror?.(e))
      return
    }
    if (message?.method === 'notifications/cancelled' && message.params) {
      const id = message.params.requestId
      const queued = this.#queued.get(id)
      if (queued) queued.cancelled = true
      if (this.#inFlight.has(id)) message = { ...message, params: { ...message.params, requestId: this.#inFlight.get(id) } }
    }
    if (this.#transparent && isRequest(message) && message.method === 'tools/call' && message.params?.arguments?.expectation !== undefined) {
      const { expectation: _, ...args } = message.params.arguments
      message = { ...message, params: { ...message.params, arguments: args } }
    }
    this.onmessage?.(message, extra)
  }

  /** Sends a tools/call to the server under our own id and waits for its answer. */
  #forward(name, args, template, extra, clientId) {
    const id = `${OWN_ID}${++this.#seq}`
    this.#forwards++
    return new Promise((resolve) => {
      this.#upstream.set(id, { resolve, clientId })
      if (clientId !== undefined) {
        this.#clientOf.set(id, clientId)
        this.#inFlight.set(clientId, id)
      }
      const params = { ...(template?.params ?? {}), name, arguments: args }
      try {
        this.onmessage?.({ jsonrpc: '2.0', id, method: 'tools/call', params }, extra)
      } catch (e) {
        this.#upstream.delete(id)
        resolve({ error: { code: -32603, message: String(e?.message ?? e) } })
      }
    }).finally(() => {
      this.#clientOf.delete(id)
      if (clientId !== undefined && this.#inFlight.get(clientId) === id) this.#inFlight.delete(clientId)
    })
  }

  /** Answers the client's call `message` with `reply` ({result} or {error}). */
  async #answer(message, reply) {
    const { jsonrpc: _, id: __, ...rest } = reply
    await this.#inner.send({ jsonrpc: '2.0', id: message.id, ...rest }, { relatedRequestId: message.id })
  }

  /** One tools/call of the client, from its arguments to its answer. */
  async #call(message, extra, entry) {
    const t0 = performance.now()
    let upstreamMs = 0
    this.#forwards = 0
    try {
      if (entry.cancelled) return
      const name = message.params?.name
      const raw = message.params?.arguments ?? {}
      const { expectation, ...args } = raw && typeof raw === 'object' ? raw : {}
      const known = PLAYWRIGHT_TOOLS.has(name)
      let exp
      try {
        exp = expectation === undefined ? undefined : rd.validateExpectation(expectation)
      } catch (e) {
        const r = rd.renderResponse({ result: e.message, isError: true }, name)
        return await this.#answer(message, { result: { content: [{ type: 'text', text: r.text }], isError: true } })
      }
      const paths = this.#paths.get(name) ?? KNOWN_PATHS
      let t = this.#translate(args, paths)
      if (t.missing.length) {
        await this.#refresh(extra, message.id)
        t = this.#translate(args, paths)
      }
      if (t.missing.length) return await this.#answer(message, this.#gone(t.missing[0]))
      const f0 = performance.now()
      let reply = await this.#forward(name, t.args, message, extra, message.id)
      upstreamMs = performance.now() - f0
      const stale = this.#stale(reply, t)
      if (stale !== null) {
        await this.#refresh(extra, message.id)
        t = this.#translate(args, paths)
        if (t.missing.length) return await this.#answer(message, this.#gone(t.missing[0]))
        reply = await this.#forward(name, t.args, message, extra, message.id)
        const again = this.#stale(reply, t)
        if (again !== null) return await this.#answer(message, this.#gone(again))
      }
      if (known && reply.result) {
        try {
          reply = { ...reply, result: await this.#rewrite(name, args, exp, reply.result, extra, message.id) }
        } catch (e) {
          // Never lose Playwright's answer to a fault of ours.
          this.onerror?.(e)
        }
      }
      await this.#answer(message, reply)
    } finally {
      this.#queued.delete(message.id)
      if (this.#options.onTiming && !entry.cancelled) {
        const totalMs = performance.now() - t0
        const extraCalls = Math.max(0, this.#forwards - 1)
        this.#options.onTiming({ tool: message.params?.name, totalMs, upstreamMs, ownMs: totalMs - upstreamMs, extraCalls })
      }
    }
  }

  /**
   * The arguments with the agent's refs replaced by Playwright's, the refs
   * the current tab does not know, and Playwright's ref → agent's ref.
   */
  #translate(args, paths) {
    const out = structuredClone(args)
    const missing = []
    const used = new Map()
    const tab = this.#tabs.tab
    for (const p of paths) {
      visit(out, p, (holder, key) => {
        const v = holder[key]
        if (typeof v !== 'string' || !REF.test(v)) return
        const pw = tab?.toPlaywright.get(v)
        if (pw === undefined) missing.push(v)
        else {
          holder[key] = pw
          used.set(pw, v)
        }
      })
    }
    return { args: out, missing, used }
  }

  /** The agent's ref Playwright said it does not know, or null. */
  #stale(reply, t) {
    if (!reply.result?.isError) return null
    const text = reply.result.content?.find((c) => c.type === 'text')?.text ?? ''
    const m = NOT_FOUND.exec(text)
    if (!m || !t.used.has(m[1])) return null
    return t.used.get(m[1])
  }

  #gone(ref) {
    return { result: { content: [{ type: 'text', text: notFound(ref) }], isError: true } }
  }

  /**
   * Takes a full snapshot upstream, out of the agent's sight, and carries
   * its refs, so the current tab's refs and Playwright's ref map agree.
   */
  async #refresh(extra, clientId) {
    const reply = await this.#forward('browser_snapshot', {}, null, extra, clientId)
    if (!reply.result || reply.result.isError) return
    const text = reply.result.content?.find((c) => c.type === 'text')?.text
    if (typeof text !== 'string') return
    const pieces = sections(text)
    this.#followTabs('browser_snapshot', {}, pieces)
    const snap = pieces.find((p) => p.heading === 'Snapshot')
    const aria = snap ? this.#snapshotText(snap.body) : null
    if (aria === null || aria.text === null) return
    try {
      const tab = this.#tabs.ensure()
      tab.learn(this.#carrier.carry(tab.page(), aria.text).refs, true)
    } catch (e) {
      this.onerror?.(e)
    }
  }

  /**
   * The snapshot a `### Snapshot` body holds: { text, file? } (text null
   * when the link cannot be read), or null when it is neither inline YAML
   * nor a link.
   */
  #snapshotText(body) {
    const b = body.replace(/\n+$/, '')
    const inline = /^```yaml\n([\s\S]*?)\n?```$/.exec(b)
    if (inline) return { text: inline[1] }
    const link = /^- \[Snapshot\]\((.+)\)$/.exec(b)
    if (!link) return null
    const file = path.resolve(this.#root ?? this.#options.cwd ?? process.cwd(), link[1])
    try {
      return { text: fs.readFileSync(file, 'utf8'), file }
    } catch {
      return { text: null, file }
    }
  }

  /** Keeps the tab list in step with what Playwright printed. */
  #followTabs(name, args, pieces) {
    const get = (h) => pieces.find((p) => p.heading === h)
    if (name === 'browser_close') return this.#tabs.reset()
    const list = get('Open tabs') ?? (name === 'browser_tabs' ? get('Result') : undefined)
    const page = get('Page')
    const url = page ? (/^- Page URL: (.*)$/m.exec(page.body)?.[1] ?? null) : null
    if (list) {
      const lines = tabLines(list.body)
      if (lines.length || /No open tabs/.test(list.body)) {
        const closed = name === 'browser_tabs' && args.action === 'close' ? (args.index ?? this.#tabs.current) : undefined
        this.#tabs.follow(lines, closed)
      }
      if (url !== null && this.#tabs.tab) this.#tabs.tab.url = url
    } else if (page) {
      this.#tabs.single(url)
    }
  }

  /** Playwright's answer to a known tool, as the agent gets it. */
  async #rewrite(name, args, exp, result, extra, clientId) {
    const at = result.content?.findIndex((c) => c.type === 'text') ?? -1
    if (at < 0) return result
    const pieces = sections(result.content[at].text)
    this.#followTabs(name, args, pieces)
    const own = exp ?? {}
    const off = (k) => own[k] === false || (own[k] === undefined && this.#defaults[k] === false)
    const layers = [{ includeSnapshot: true }, this.#defaults, own]
    const diffing = Boolean(rd.mergeExpectation(name, layers).diffOptions?.enabled)
    const modal = pieces.some((p) => p.heading === 'Modal state')
    const out = []
    for (const piece of pieces) {
      if (piece.heading === 'Ran Playwright code' && off('includeCode')) continue
      if (piece.heading === 'Open tabs' && off('includeTabs')) continue
      // The lean envelope, with diffs on: the page and the tab list the
      // agent was last shown for this tab, unchanged, are not repeated.
      if ((piece.heading === 'Page' || piece.heading === 'Open tabs') && diffing && this.#tabs.tab) {
        const body = piece.body.replace(/\n+$/, '')
        if (rd.sectionUnchanged(this.#detector, this.#tabs.tab.key, `playwright ${piece.heading}`, body)) continue
      }
      if (piece.heading === 'Result' && name === 'browser_find') {
        out.push(await this.#carryFound(piece, extra, clientId))
        continue
      }
      if (piece.heading !== 'Snapshot') {
        out.push(piece)
        continue
      }
      if (off('includeSnapshot')) continue
      out.push(this.#snapshot(name, args, layers, piece, modal))
    }
    const content = result.content.slice()
    content[at] = { ...content[at], text: out.map((p) => p.raw).join('').replace(/\n$/, '') }
    return { ...result, content }
  }

  /** The `### Snapshot` section as the agent gets it. */
  #snapshot(name, args, layers, piece, modal) {
    const snap = this.#snapshotText(piece.body)
    // JSON, an unreadable link, or the empty snapshot of a page under a
    // dialog: Playwright's own text.
    if (snap === null || snap.text === null || (modal && snap.text.trim() === '')) return piece
    const tab = this.#tabs.ensure()
    const partial = name === 'browser_snapshot' && (args.target !== undefined || args.depth !== undefined)
    let carry
    try {
      carry = this.#carrier.carry(tab.page(), snap.text)
    } catch (e) {
      // A snapshot the core cannot read (a page's WebMCP listing before it)
      // is left as Playwright wrote it.
      this.onerror?.(e)
      return piece
    }
    tab.learn(carry.refs, !partial)
    const merged = rd.mergeExpectation(name, layers)
    const snapshotOptions = layers.some((l) => l.snapshotOptions && Object.keys(l.snapshotOptions).length)
    // The agent asked for a file, or for Playwright's text: that text, with
    // the carried refs (in the file it links).
    if ((name === 'browser_snapshot' && args.filename !== undefined) || (!merged.diffOptions?.enabled && !snapshotOptions)) {
      if (snap.file !== undefined) {
        if (carry.snapshot !== snap.text) writeAtomic(snap.file, carry.snapshot)
        return piece
      }
      return replaced(piece, `### Snapshot\n\`\`\`yaml\n${carry.snapshot}\n\`\`\``)
    }
    const view = partial
      ? `\u001fview\u001f${JSON.stringify([args.target ?? null, args.depth ?? null, args.boxes ?? null])}`
      : ''
    const s = rd.renderSnapshotSection({ aria: carry.snapshot }, name, {
      expectations: layers,
      detector: this.#detector,
      key: `${tab.key}${view}`,
      url: tab.url || undefined,
    })
    return s === null ? { ...piece, raw: '' } : replaced(piece, s.text)
  }

  /**
   * browser_find's matches, with the refs the agent knows. Matches the
   * last snapshot did not show get their refs from a fresh one.
   */
  async #carryFound(piece, extra, clientId) {
    const pws = [...piece.raw.matchAll(/\[ref=([^\]\s]+)\]/g)].map((m) => m[1])
    if (!pws.length) return piece
    if (pws.some((pw) => !this.#tabs.tab?.toAgent.has(pw))) await this.#refresh(extra, clientId)
    const tab = this.#tabs.tab
    if (!tab || pws.some((pw) => !tab.toAgent.has(pw))) return piece
    return { ...piece, raw: piece.raw.replace(/\[ref=([^\]\s]+)\]/g, (_, pw) => `[ref=${tab.toAgent.get(pw)}]`) }
  }

  /** The catalog with `expectation` on every Playwright tool; records element arguments. */
  #catalog(message) {
    const tools = message.result?.tools
    if (!Array.isArray(tools)) return message
    const out = tools.map((tool) => {
      if (!PLAYWRIGHT_TOOLS.has(tool?.name) || !tool.inputSchema || typeof tool.inputSchema !== 'object') return tool
      this.#paths.set(tool.name, elementPaths(tool.inputSchema))
      const expectation = tool.name === 'browser_snapshot' ? { type: 'object', description: EXPECTATION_DESCRIPTION } : { type: 'object' }
      return { ...tool, inputSchema: { ...tool.inputSchema, properties: { ...(tool.inputSchema.properties ?? {}), expectation } } }
    })
    return { ...message, result: { ...message.result, tools: out } }
  }
}

/** Writes a file by renaming a sibling into place. */
function writeAtomic(file, text) {
  const tmp = `${file}.${process.pid}.tmp`
  fs.writeFileSync(tmp, text)
  fs.renameSync(tmp, file)
}

module.exports = { withResponseDiff, PLAYWRIGHT_TOOLS, EXPECTATION_DESCRIPTION }
