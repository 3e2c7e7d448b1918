#!/usr/bin/env node
// response-diff-proxy: @playwright/mcp or chrome-devtools-mcp (or any
// command that speaks MCP over stdio) behind response diffs, in front of
// its command line:
//
//   response-diff-proxy [OPTIONS] [--] npx @playwright/mcp@latest --headless
//   response-diff-proxy [OPTIONS] [--] npx chrome-devtools-mcp@1.11.0 --headless
//
// The first argument that is not one of the proxy's options starts the
// upstream command, as with `env` and `npx` (the MCP Inspector's CLI drops
// a `--`).
// The upstream runs as a child process; both sides speak MCP over stdio
// (one JSON-RPC message per line), and withResponseDiff (mcp/) sits
// between them. An upstream that cannot start or exits answers every
// request with an MCP error naming the command and its exit status or
// stderr, never a hang.
//
// The line framing is written here with node:readline rather than taken
// from @modelcontextprotocol/sdk: MCP's stdio transport is one JSON message
// per line, and the SDK (express, hono, zod, ajv…) is not a dependency of
// this package.
'use strict'
const { spawn } = require('node:child_process')
const readline = require('node:readline')
const { withResponseDiff, UPSTREAMS } = require('./mcp.js')

const USAGE = `Usage: response-diff-proxy [OPTIONS] [--] <command> [args…]

Runs <command> (an MCP server over stdio: npx @playwright/mcp@latest
--headless, npx chrome-devtools-mcp@1.11.0 --headless) and serves it over
stdio with response diffs: snapshots come as the changes since this client
last saw the tab, with refs (uids) that survive re-renders.

Options:
  --default-expectation <json>  expectation applied to every call before the
                                agent's own (default {"diffOptions":{"enabled":true}})
  --max-stored-bytes <n>        cap of the diff history and of the ref views,
                                each (default 10 MiB and 8 MiB)
  --snapshot-mode <mode>        the upstream's snapshot mode when it is not on
                                its command line; "none" passes everything through
  --call-timeout-ms <n>         longest wait for the upstream's answer to one
                                tool call before the client gets an error
                                (default 300000)
  --timing                      a line on stderr per tool call: the proxy's own
                                time and the call's in all
  --upstream <server>           playwright or chrome-devtools, when the
                                upstream's initialize answer does not tell
chrome-devtools-mcp only:
  --no-include-snapshot         leave includeSnapshot to the agent (by default
                                the proxy sets it on input tools: a diff after
                                an action costs a few tokens)
  --keep-structured-snapshot    keep structuredContent.snapshot (the browser's
                                uids) in answers whose text carries a diff
  -h, --help                    this text
  -V, --version                 the version`

/** Keeps the last `max` bytes written to it (the upstream's stderr). */
class Tail {
  constructor(max) {
    this.max = max
    this.text = ''
  }
  push(chunk) {
    this.text = (this.text + chunk).slice(-this.max)
  }
}

/**
 * The proxy's options, then the upstream command: after `--`, or from the
 * first argument that is not an option of the proxy.
 */
/** `v` as a positive whole number of `unit`, for option `flag`. */
function positive(flag, v, unit) {
  const n = Number(v)
  if (!Number.isSafeInteger(n) || n <= 0) throw new Error(`${flag} must be a positive whole number of ${unit}, not ${v}`)
  return n
}

function parseArgs(argv) {
  const opts = { command: [] }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--') {
      opts.command = argv.slice(i + 1)
      break
    }
    if (!a.startsWith('-')) {
      opts.command = argv.slice(i)
      break
    }
    const [flag, inline] = a.startsWith('--') && a.includes('=') ? [a.slice(0, a.indexOf('=')), a.slice(a.indexOf('=') + 1)] : [a, undefined]
    const value = () => {
      if (inline !== undefined) return inline
      if (i + 1 >= argv.length) throw new Error(`${flag} needs a value`)
      return argv[++i]
    }
    switch (flag) {
      case '-h':
      case '--help':
        opts.help = true
        break
      case '-V':
      case '--version':
        opts.version = true
        break
      case '--default-expectation': {
        const v = value()
        try {
          opts.expectation = JSON.parse(v)
        } catch (e) {
          throw new Error(`--default-expectation is not JSON (${e.message}): ${v}`)
        }
        break
      }
      case '--max-stored-bytes':
        opts.maxStoredBytes = positive(flag, value(), 'bytes')
        break
      case '--snapshot-mode':
        opts.snapshotMode = value()
        break
      case '--call-timeout-ms':
        opts.callTimeoutMs = positive(flag, value(), 'milliseconds')
        break
      case '--timing':
        opts.timing = true
        break
      case '--upstream': {
        const v = value()
        if (!UPSTREAMS.includes(v)) throw new Error(`--upstream must be one of ${UPSTREAMS.join(', ')}, not ${v}`)
        opts.upstream = v
        break
      }
      case '--no-include-snapshot':
        opts.includeSnapshot = false
        break
      case '--keep-structured-snapshot':
        opts.keepStructuredSnapshot = true
        break
      default:
        throw new Error(`unknown option ${a} (the upstream command starts at the first argument that is not an option, or after --)`)
    }
  }
  return opts
}

/** The value of the upstream's own flag `name`, from its arguments. */
function upstreamFlag(args, name) {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === name) return args[i + 1]
    if (args[i].startsWith(`${name}=`)) return args[i].slice(name.length + 1)
  }
  return undefined
}

/** The upstream's snapshot mode, from its own flags or environment. */
function upstreamSnapshotMode(args, env) {
  return upstreamFlag(args, '--snapshot-mode') ?? env.PLAYWRIGHT_MCP_SNAPSHOT_MODE
}

/**
 * The upstream's output directory, if it names one: @playwright/mcp's
 * --output-dir, its environment, or `outputDir` in its --config file.
 */
function upstreamOutputDir(args, env) {
  const flag = upstreamFlag(args, '--output-dir') ?? env.PLAYWRIGHT_MCP_OUTPUT_DIR
  if (flag !== undefined) return flag
  const config = upstreamFlag(args, '--config') ?? env.PLAYWRIGHT_MCP_CONFIG
  if (config === undefined) return undefined
  try {
    const dir = JSON.parse(require('node:fs').readFileSync(config, 'utf8'))?.outputDir
    return typeof dir === 'string' ? dir : undefined
  } catch {
    // Not a JSON file we can read: the default directories.
    return undefined
  }
}

/** A JSON-RPC message: an object (not null, not an array). */
const isMessage = (m) => m !== null && typeof m === 'object' && !Array.isArray(m)

const quote = (parts) => parts.map((p) => (/^[\w@%+=:,./-]+$/.test(p) ? p : JSON.stringify(p))).join(' ')

function main() {
  let opts
  try {
    opts = parseArgs(process.argv.slice(2))
  } catch (e) {
    process.stderr.write(`response-diff-proxy: ${e.message}\n\n${USAGE}\n`)
    process.exit(2)
  }
  if (opts.help) {
    process.stdout.write(`${USAGE}\n`)
    return
  }
  if (opts.version) {
    process.stdout.write(`${require('./package.json').version}\n`)
    return
  }
  if (!opts.command.length) {
    process.stderr.write(`response-diff-proxy: no upstream command; give it after the options (or after --)\n\n${USAGE}\n`)
    process.exit(2)
  }
  const [cmd, ...cmdArgs] = opts.command
  const shown = quote(opts.command)
  const snapshotMode = opts.snapshotMode ?? upstreamSnapshotMode(cmdArgs, process.env)
  const outputDir = upstreamOutputDir(cmdArgs, process.env)
  const note = (text) => process.stderr.write(`response-diff-proxy: ${text}\n`)

  // The client side: our stdin and stdout.
  const client = {
    onmessage: undefined,
    onclose: undefined,
    onerror: undefined,
    async start() {
      const lines = readline.createInterface({ input: process.stdin, crlfDelay: Infinity })
      lines.on('line', (line) => {
        if (!line.trim()) return
        let message
        try {
          message = JSON.parse(line)
        } catch (e) {
          writeOut({ jsonrpc: '2.0', id: null, error: { code: -32700, message: `response-diff-proxy: not a JSON-RPC message (${e.message})` } })
          return
        }
        if (!isMessage(message)) {
          writeOut({ jsonrpc: '2.0', id: null, error: { code: -32600, message: `response-diff-proxy: a JSON-RPC message is an object, not ${JSON.stringify(message).slice(0, 80)}` } })
          return
        }
        this.onmessage?.(message)
      })
      lines.on('close', () => this.onclose?.())
    },
    async send(message) {
      writeOut(message)
    },
    async close() {
      process.stdin.pause()
    },
  }
  function writeOut(message) {
    process.stdout.write(`${JSON.stringify(message)}\n`)
  }

  const wrapped = withResponseDiff(client, {
    ...(opts.expectation !== undefined ? { expectation: opts.expectation } : {}),
    ...(opts.maxStoredBytes !== undefined ? { maxStoredBytes: opts.maxStoredBytes } : {}),
    ...(snapshotMode !== undefined ? { snapshotMode } : {}),
    ...(outputDir !== undefined ? { outputDir } : {}),
    ...(opts.callTimeoutMs !== undefined ? { callTimeoutMs: opts.callTimeoutMs } : {}),
    ...(opts.upstream !== undefined ? { upstream: opts.upstream } : {}),
    ...(opts.includeSnapshot !== undefined ? { includeSnapshot: opts.includeSnapshot } : {}),
    ...(opts.keepStructuredSnapshot !== undefined ? { keepStructuredSnapshot: opts.keepStructuredSnapshot } : {}),
    onWarning: note,
    ...(opts.timing
      ? {
          onTiming: (t) =>
            process.stderr.write(`response-diff-proxy: timing ${t.tool} ${t.ownMs.toFixed(2)} ms of ${t.totalMs.toFixed(2)} ms, ${t.extraCalls} extra upstream calls\n`),
        }
      : {}),
  })

  // The upstream side: the child's stdin and stdout.
  const stderr = new Tail(4096)
  const waiting = new Set() // ids of requests the upstream has not answered
  let dead = null
  let closing = false
  const child = spawn(cmd, cmdArgs, { stdio: ['pipe', 'pipe', 'pipe'], shell: process.platform === 'win32' })
  child.stderr.on('data', (d) => {
    stderr.push(d.toString())
    process.stderr.write(d)
  })
  const upstreamError = (id) => ({ jsonrpc: '2.0', id, error: { code: -32000, message: dead } })
  function die(reason) {
    if (dead || closing) return
    const tail = stderr.text.trim()
    dead = `response-diff-proxy: the upstream MCP server \`${shown}\` ${reason}${tail ? `; its stderr ended with:\n${tail.split('\n').slice(-20).join('\n')}` : ''}`
    process.stderr.write(`${dead}\n`)
    const ids = [...waiting]
    waiting.clear()
    for (const id of ids) wrapped.send(upstreamError(id))
  }
  child.on('error', (e) => die(`could not start: ${e.message}`))
  child.on('exit', (code, signal) => {
    // Let the last of stderr arrive before it is quoted.
    setImmediate(() => die(signal ? `was killed by ${signal}` : `exited with status ${code}`))
  })
  child.stdin.on('error', () => {})
  readline.createInterface({ input: child.stdout, crlfDelay: Infinity }).on('line', (line) => {
    if (!line.trim()) return
    let message
    try {
      message = JSON.parse(line)
    } catch {
      note(`the upstream wrote a line that is not JSON (${line.length} characters): ${line.slice(0, 200)}`)
      return
    }
    if (!isMessage(message)) {
      note(`the upstream wrote JSON that is not a message: ${line.slice(0, 200)}`)
      return
    }
    if (message.id !== undefined && message.method === undefined) {
      // An answer to nothing asked, or a second answer: the client has one.
      if (!waiting.delete(message.id)) {
        note(`the upstream answered request ${JSON.stringify(message.id)}, which is not waiting for an answer; dropped`)
        return
      }
    }
    wrapped.send(message).catch((e) => note(`could not pass a message on: ${e?.message ?? e}`))
  })

  wrapped.onmessage = (message) => {
    const request = message.id !== undefined && typeof message.method === 'string'
    if (dead) {
      if (request) wrapped.send(upstreamError(message.id))
      return
    }
    if (request) waiting.add(message.id)
    // A cancelled request gets no answer (MCP): none is waited for.
    if (message.method === 'notifications/cancelled') waiting.delete(message.params?.requestId)
    child.stdin.write(`${JSON.stringify(message)}\n`)
  }
  wrapped.onclose = () => {
    closing = true
    child.stdin.end()
    const t = setTimeout(() => child.kill('SIGTERM'), 2000)
    t.unref()
    if (dead || child.pid === undefined || child.exitCode !== null || child.signalCode !== null) process.exit(0)
    child.once('exit', () => process.exit(0))
  }
  wrapped.onerror = (e) => process.stderr.write(`response-diff-proxy: ${e?.stack ?? e}\n`)
  wrapped.start()
}

if (require.main === module) main()

module.exports = { parseArgs, upstreamSnapshotMode, upstreamOutputDir }
