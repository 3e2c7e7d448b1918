// @x/response-diff/mcp: response diffs for @playwright/mcp and for
// chrome-devtools-mcp, by wrapping the MCP transport of a server made by
// their createConnection() / createMcpServer():
//
//   const server = await createConnection(config)
//   await server.connect(withResponseDiff(transport))
//
// Which server it is comes from the initialize answer's serverInfo.name
// (`chrome_devtools`), or the `upstream` option.
//
// The wrapper uses only the transport interface (start, send, close,
// onmessage, onclose, onerror, sessionId). Every message that is not a
// tools/call or the tools/list answer passes through untouched. A
// @playwright/mcp tool's answer keeps Playwright's sections as Playwright
// wrote them, except the `### Snapshot` section, which becomes the core's
// answer against what this session last saw of the tab; refs in arguments
// are translated back to Playwright's before the call goes on
// (docs/DECISIONS.md D55-D58, docs/proxy.md).
//
// One module per job: transport.js (the queue, ids, cancel and time
// limit; the same for both servers), playwright.js (a Playwright call),
// rewrite.js (an answer as the agent gets it), sections.js (the
// upstream's layout), tabs.js, refs.js (ref translation), files.js
// (linked snapshots), schema.js (the catalog), ids.js; devtools/ for
// chrome-devtools-mcp: door.js (a call), rewrite.js (its answer),
// pages.js (pages by pageId), uids.js (uid translation), schema.js.
//
// Written here rather than taken from a package: no package wraps an MCP
// transport this way, and the MCP SDK is not a dependency of this one (the
// wrapper needs only the transport's shape).
'use strict'
const { withResponseDiff, DEFAULT_CALL_TIMEOUT_MS, UPSTREAMS } = require('./transport.js')
const { DEVTOOLS_VERSIONS } = require('./devtools/door.js')
const { PLAYWRIGHT_TOOLS, EXPECTATION_DESCRIPTION } = require('./schema.js')
const { KNOWN_VERSIONS } = require('./sections.js')

module.exports = { withResponseDiff, PLAYWRIGHT_TOOLS, EXPECTATION_DESCRIPTION, KNOWN_VERSIONS, DEVTOOLS_VERSIONS, UPSTREAMS, DEFAULT_CALL_TIMEOUT_MS }
