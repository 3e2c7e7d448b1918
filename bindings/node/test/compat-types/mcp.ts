// Uses @x/response-diff/mcp the way a program embedding @playwright/mcp
// would: a transport of its own (any object with the MCP transport's
// shape), wrapped, with every option. Checked with `tsc --noEmit` beside
// response.ts (test/compat.test.js); never run.
import { ResponseDiffDetector } from '@x/response-diff'
import { DEFAULT_CALL_TIMEOUT_MS, EXPECTATION_DESCRIPTION, KNOWN_VERSIONS, PLAYWRIGHT_TOOLS, type McpTransport, type ResponseDiffOptions, withResponseDiff } from '@x/response-diff/mcp'

class LineTransport implements McpTransport {
  onmessage?: (message: any, extra?: any) => void
  onclose?: () => void
  onerror?: (error: Error) => void
  sessionId = 'session-1'
  async start(): Promise<void> {}
  async send(message: any): Promise<void> {
    void message
  }
  async close(): Promise<void> {
    this.onclose?.()
  }
}

const options: ResponseDiffOptions = {
  expectation: { diffOptions: { enabled: true }, includeCode: false },
  detector: new ResponseDiffDetector({ maxStoredBytes: 1 << 20 }),
  maxStoredBytes: 1 << 20,
  snapshotMode: 'full',
  cwd: '/tmp',
  outputDir: '.playwright-mcp',
  callTimeoutMs: DEFAULT_CALL_TIMEOUT_MS,
  onWarning: (message: string) => console.error(message),
  onTiming: ({ tool, ownMs, totalMs, upstreamMs, extraCalls }) => console.log(tool, ownMs, totalMs, upstreamMs, extraCalls),
}
const wrapped: McpTransport = withResponseDiff(new LineTransport(), options)
export const started: Promise<void> = wrapped.start()
export const known: boolean = PLAYWRIGHT_TOOLS.has('browser_click') && EXPECTATION_DESCRIPTION.length > 0 && KNOWN_VERSIONS.length > 0
