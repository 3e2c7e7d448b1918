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
   * a new one per wrapper). Pass one shared by several wrappers only with
   * care: history stays apart by key, the cap is shared.
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
   * Called after each tools/call with its time: in all (`totalMs`, from
   * taking the call up to sending its answer), the server's answer to the
   * call as the agent made it (`upstreamMs`), and what the wrapper added
   * (`ownMs`: the rest, a retry and an out-of-sight snapshot included),
   * and how many calls to the server that took beyond the agent's own
   * (`extraCalls`). For measurements (`response-diff-proxy --timing`).
   */
  onTiming?: (timing: { tool: string; totalMs: number; upstreamMs: number; ownMs: number; extraCalls: number }) => void
}

/**
 * Wraps the transport a @playwright/mcp server connects to, so that its
 * answers come with response diffs:
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
 */
export declare function withResponseDiff<T extends McpTransport>(transport: T, options?: ResponseDiffOptions): McpTransport

/** The @playwright/mcp 0.0.83 tools whose answers the wrapper reads. */
export declare const PLAYWRIGHT_TOOLS: ReadonlySet<string>

/** The description of the `expectation` argument in the served catalog. */
export declare const EXPECTATION_DESCRIPTION: string
