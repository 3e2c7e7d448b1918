// Types of @x/response-diff/mcp (hand-written; mcp.js is plain JavaScript).
import type { Expectation, ResponseDiffDetector } from './index'

/**
 * The shape of an MCP transport, as @modelcontextprotocol/sdk defines it
 * (only what the wrapper uses; any SDK transport fits).
 */
export interface McpTransport {
  start(): Promise<void>
  send(message: any, options?: any): Promise<void>
  close(): Promise<void>
  onmessage?: (message: any, extra?: any) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  sessionId?: string
  setProtocolVersion?: (version: string) => void
}

/** Options of {@link withResponseDiff}. */
export interface ResponseDiffOptions {
  /**
   * Applied to every call before the agent's own `expectation`
   * (default `{ diffOptions: { enabled: true } }`). Throws
   * `INVALID_OPTION` when it is not a valid expectation.
   */
  expectation?: Expectation
  /**
   * The detector keeping what this session last saw of each tab (default:
   * a new one per wrapper). Several wrappers may share one: each keys its
   * tabs under a prefix of its own, so histories stay apart; the cap is
   * shared.
   */
  detector?: ResponseDiffDetector
  /**
   * Cap in bytes of the diff history and of the ref views, each (defaults
   * 10 MiB and 8 MiB); least recently used pages go first.
   */
  maxStoredBytes?: number
  /**
   * The server's `snapshot.mode` (`--snapshot-mode`). With `"none"` the
   * wrapper passes every message through untouched.
   */
  snapshotMode?: 'full' | 'none' | string
  /**
   * Directory the server's snapshot links are relative to, when the
   * client announced no root (default `process.cwd()`).
   */
  cwd?: string
  /**
   * The server's output directory (@playwright/mcp's `outputDir` /
   * `--output-dir`), relative to `cwd`. A linked snapshot is read (and
   * its carried refs written back) only when its real path is inside it;
   * any other link passes through untouched, with a warning. Default: as
   * @playwright/mcp 0.0.83 decides it, `.playwright-mcp` in the client's
   * root or in `cwd`, else in `os.tmpdir()`.
   */
  outputDir?: string
  /**
   * Longest wait in ms for the server's answer to one call (default
   * 300000, well above Playwright's own timeouts; `Infinity` for none).
   * Past it the call is cancelled upstream and the client gets an error
   * (code -32001) naming the tool and the limit; the session goes on.
   */
  callTimeoutMs?: number
  /**
   * Called with a one-line note: an upstream version whose layout the
   * wrapper does not read (once), a snapshot link not read, a snapshot
   * the core could not read. Default: a line on stderr.
   */
  onWarning?: (message: string) => void
  /**
   * Called after each tools/call with its time: in all (`totalMs`, from
   * taking the call up to sending its answer), the server's answer to the
   * call as the agent made it (`upstreamMs`), and what the wrapper added
   * (`ownMs`: the rest, a retry and an out-of-sight snapshot included),
   * and how many calls to the server that took beyond the agent's own
   * (`extraCalls`). For measurements (`response-diff-proxy --timing`).
   */
  onTiming?: (timing: { tool: string; totalMs: number; upstreamMs: number; ownMs: number; extraCalls: number }) => void
  /**
   * Which server the wrapper fronts, when the initialize answer's
   * `serverInfo.name` does not say (`chrome_devtools` is
   * chrome-devtools-mcp; anything else is taken for @playwright/mcp).
   */
  upstream?: 'playwright' | 'chrome-devtools'
  /**
   * chrome-devtools-mcp: set `includeSnapshot: true` on every tool whose
   * schema has it when the agent left it out (default true); an explicit
   * `false` from the agent is kept.
   */
  includeSnapshot?: boolean
  /**
   * chrome-devtools-mcp: keep `structuredContent.snapshot` (the browser's
   * uids) in answers whose snapshot the wrapper rewrote (default false:
   * left out).
   */
  keepStructuredSnapshot?: boolean
}

/**
 * Wraps the transport a @playwright/mcp (or chrome-devtools-mcp) server
 * connects to, so that its answers come with response diffs:
 *
 * ```js
 * const { createConnection } = require('@playwright/mcp')
 * const { withResponseDiff } = require('@x/response-diff/mcp')
 * const server = await createConnection({ browser: { launchOptions: { headless: true } } })
 * await server.connect(withResponseDiff(new StdioServerTransport()))
 * ```
 *
 * A tool's `### Snapshot` section (inline, or the `.yml` file an action
 * links to) becomes the smallest lossless answer against what this session
 * last saw of the tab, with refs that survive re-renders; every other
 * section and every other message passes through as the server wrote it.
 * Every tool gains an `expectation` argument, removed before the call goes
 * on. One wrapper is one MCP session: its history is its own.
 *
 * Every client request is answered once: a cancelled call
 * (`notifications/cancelled`) ends at once and is answered with nothing,
 * as MCP says; a call past `callTimeoutMs` gets an error. The wrapper's
 * own requests use ids no client uses. Answers are read only for the
 * upstream versions in {@link KNOWN_VERSIONS} (by the initialize answer's
 * `serverInfo.version`); another version's pass through untouched.
 */
export declare function withResponseDiff<T extends McpTransport>(transport: T, options?: ResponseDiffOptions): McpTransport

/** The @playwright/mcp 0.0.83 tools whose answers the wrapper reads. */
export declare const PLAYWRIGHT_TOOLS: ReadonlySet<string>

/** The description of the `expectation` argument in the served catalog. */
export declare const EXPECTATION_DESCRIPTION: string

/**
 * The `serverInfo.version`s whose answers the wrapper reads: @playwright/mcp
 * 0.0.83 reports its playwright-core's, `1.64.0-alpha-1790635538000`.
 */
export declare const KNOWN_VERSIONS: readonly string[]

/** The chrome-devtools-mcp `serverInfo.version`s whose answers the wrapper reads (`1.11.0`). */
export declare const DEVTOOLS_VERSIONS: readonly string[]

/** The values of the `upstream` option. */
export declare const UPSTREAMS: readonly ['playwright', 'chrome-devtools']

/** The default of `callTimeoutMs`: 5 minutes. */
export declare const DEFAULT_CALL_TIMEOUT_MS: number
