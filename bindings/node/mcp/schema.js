// The tool catalog: which tools are @playwright/mcp's, where their input
// schemas take an element ref, and the `expectation` argument the wrapper
// adds to each of them in the served tools/list answer.
'use strict'

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

/** Argument names that hold an element ref in Playwright's tools. */
const ELEMENT_KEYS = new Set(['target', 'ref', 'startTarget', 'endTarget', 'startRef', 'endRef'])
/** How Playwright's schemas describe an element argument. */
const ELEMENT_DESCRIPTION = /element reference from the page snapshot/i

/**
 * The expectation schema the catalog gains: the keys once, on
 * browser_snapshot, a bare object elsewhere (the catalog stays within 10 %
 * of Playwright's own tokens).
 */
const EXPECTATION_DESCRIPTION =
  'response-diff options, on every browser_ tool; omitted keys keep defaults. diffOptions {enabled, format, context, maxDiffLines}: ' +
  "snapshots come as changes since you last saw the tab (enabled: false gives Playwright's full text); " +
  'snapshotOptions {selector, maxLength, format, diff, restore}; includeSnapshot, includeCode, includeTabs.'

/** The paths of the element arguments in a tool's input schema. */
function elementPaths(schema, depth = 0) {
  const out = []
  const props = schema && typeof schema === 'object' ? schema.properties : null
  if (!props || typeof props !== 'object' || depth > 4) return out
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

/**
 * Calls `fn(holder, key)` for every place `path` names in `value`; a
 * trailing '[]' names each element of a list (chrome-devtools-mcp's lists
 * of uids).
 */
function visit(value, pathParts, fn) {
  if (value === null || typeof value !== 'object') return
  const [head, ...rest] = pathParts
  if (head === '[]') {
    if (!Array.isArray(value)) return
    if (!rest.length) value.forEach((_, i) => fn(value, i))
    else for (const v of value) visit(v, rest, fn)
    return
  }
  if (!rest.length) {
    if (Object.hasOwn(value, head)) fn(value, head)
    return
  }
  visit(value[head], rest, fn)
}

/**
 * The tools/list answer with `expectation` on every Playwright tool;
 * records each tool's element arguments in `paths` (tool name → paths).
 */
function catalog(message, paths) {
  const tools = message.result?.tools
  if (!Array.isArray(tools)) return message
  const out = tools.map((tool) => {
    if (!PLAYWRIGHT_TOOLS.has(tool?.name) || !tool.inputSchema || typeof tool.inputSchema !== 'object') return tool
    paths.set(tool.name, elementPaths(tool.inputSchema))
    const expectation = tool.name === 'browser_snapshot' ? { type: 'object', description: EXPECTATION_DESCRIPTION } : { type: 'object' }
    return { ...tool, inputSchema: { ...tool.inputSchema, properties: { ...(tool.inputSchema.properties ?? {}), expectation } } }
  })
  return { ...message, result: { ...message.result, tools: out } }
}

module.exports = { PLAYWRIGHT_TOOLS, EXPECTATION_DESCRIPTION, ELEMENT_KEYS, KNOWN_PATHS, elementPaths, visit, catalog }
