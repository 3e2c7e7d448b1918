// chrome-devtools-mcp's catalog: where each tool's input schema takes an
// element uid, which tools take `includeSnapshot`, and the few words the
// served tools/list gains (the catalog stays within 10 % of the server's
// own tokens).
'use strict'

/** How chrome-devtools-mcp describes a lone uid (evaluate_script's `args` items). */
const UID_DESCRIPTION = /^the uid of\b/i
/** An argument named as a uid: `uid`, `from_uid`, `to_uid`. */
const UID_KEY = /^(?:uid|\w+_uid)$/

/**
 * The paths of the uid arguments in an input schema: ['uid'],
 * ['elements', '[]', 'uid'], ['args', '[]'] (a list of uids).
 */
function uidPaths(schema, depth = 0) {
  const out = []
  if (!schema || typeof schema !== 'object' || depth > 6) return out
  if (schema.type === 'array' && schema.items && typeof schema.items === 'object') {
    const items = schema.items
    if (items.type === 'string' && typeof items.description === 'string' && UID_DESCRIPTION.test(items.description)) out.push(['[]'])
    for (const p of uidPaths(items, depth + 1)) out.push(['[]', ...p])
    return out
  }
  const props = schema.properties
  if (!props || typeof props !== 'object') return out
  for (const [key, s] of Object.entries(props)) {
    if (!s || typeof s !== 'object') continue
    const described = typeof s.description === 'string' && UID_DESCRIPTION.test(s.description)
    if (s.type === 'string' && (UID_KEY.test(key) || described)) out.push([key])
    else for (const p of uidPaths(s, depth + 1)) out.push([key, ...p])
  }
  return out
}

/** chrome-devtools-mcp 1.11.0's uid arguments, when the catalog was not listed through the wrapper. */
const KNOWN_PATHS = [['uid'], ['from_uid'], ['to_uid'], ['elements', '[]', 'uid'], ['args', '[]']]
/** Its tools that take `includeSnapshot`, likewise. */
const KNOWN_SNAPSHOT_TOOLS = new Set(['click', 'drag', 'fill', 'fill_form', 'hover', 'press_key', 'upload_file'])

/** The tools whose answers carry a snapshot besides the input tools: they take `expectation` too. */
const READ_TOOLS = new Set(['take_snapshot', 'wait_for'])

/**
 * The expectation schema those tools gain: the keys once, on
 * take_snapshot, a bare object elsewhere (the catalog stays within 10 %).
 */
const EXPECTATION_DESCRIPTION =
  'response-diff options; omitted keys keep defaults. diffOptions {enabled, format, context, maxDiffLines}: ' +
  "the snapshot comes as changes since you last saw this page (enabled: false gives the server's full text); " +
  'snapshotOptions {selector, maxLength, diff, restore}; includeSnapshot.'

/** Said once, on take_snapshot: how the agent reads what it gets. */
const SNAPSHOT_NOTE = ' Via response-diff: a snapshot comes as the changes since you last saw this page; uids stay the same across re-renders.'

/**
 * The tools/list answer as served; records per tool its uid paths
 * (`paths`: name → paths) and whether it takes includeSnapshot
 * (`snapshotTools`). With `includeSnapshot` on, that argument's
 * description says its default is now true. The tools whose answers may
 * carry a snapshot gain `expectation`.
 */
function catalog(message, paths, snapshotTools, { includeSnapshot }) {
  const tools = message.result?.tools
  if (!Array.isArray(tools)) return message
  snapshotTools.clear()
  const out = tools.map((tool) => {
    const schema = tool?.inputSchema
    if (!schema || typeof schema !== 'object') return tool
    paths.set(tool.name, uidPaths(schema))
    const props = schema.properties ?? {}
    let served = tool
    if (props.includeSnapshot && typeof props.includeSnapshot === 'object') {
      snapshotTools.add(tool.name)
      const d = props.includeSnapshot.description
      if (includeSnapshot && typeof d === 'string' && d.includes('Default is false.')) {
        const includeSnapshotSchema = { ...props.includeSnapshot, description: d.replace('Default is false.', 'Default is true.') }
        served = { ...tool, inputSchema: { ...schema, properties: { ...props, includeSnapshot: includeSnapshotSchema } } }
      }
    }
    if (tool.name === 'take_snapshot' && typeof tool.description === 'string') served = { ...served, description: tool.description + SNAPSHOT_NOTE }
    if (snapshotTools.has(tool.name) || READ_TOOLS.has(tool.name)) {
      const expectation = tool.name === 'take_snapshot' ? { type: 'object', description: EXPECTATION_DESCRIPTION } : { type: 'object' }
      const base = served.inputSchema
      served = { ...served, inputSchema: { ...base, properties: { ...(base.properties ?? {}), expectation } } }
    }
    return served
  })
  return { ...message, result: { ...message.result, tools: out } }
}

module.exports = { uidPaths, catalog, KNOWN_PATHS, KNOWN_SNAPSHOT_TOOLS, READ_TOOLS, SNAPSHOT_NOTE, EXPECTATION_DESCRIPTION }
