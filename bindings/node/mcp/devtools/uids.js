// uid translation for the arguments of a call: the agent's (carried) uid
// → the browser's, by the core's RefCarrier for the page's latest view,
// and the browser's back to the agent's in an error the server wrote.
'use strict'

/**
 * Calls `fn(holder, key)` for every place `path` names in `value`; a
 * trailing '[]' names each element of a list.
 */
function visit(value, path, fn) {
  if (value === null || typeof value !== 'object') return
  const [head, ...rest] = path
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
 * The arguments with the agent's uids replaced by the browser's, the
 * uids the page does not know, and the browser's uid → the agent's. A
 * page shown raw (its last snapshot the browser's own) takes uids as
 * they are.
 */
function translate(args, paths, tab, carrier) {
  const out = structuredClone(args)
  const missing = []
  const used = new Map()
  for (const p of paths) {
    visit(out, p, (holder, key) => {
      const v = holder[key]
      if (typeof v !== 'string' || tab.raw) return
      const browser = carrier.sourceRef(tab.page(), v) ?? undefined
      if (browser === undefined) missing.push(v)
      else {
        holder[key] = browser
        used.set(browser, v)
      }
    })
  }
  return { args: out, missing, used }
}

/** The answer for a uid the page's latest snapshot did not show. */
const gone = (uid) => ({
  result: {
    content: [
      {
        type: 'text',
        text: `Element uid "${uid}" is not in the latest snapshot of this page: the element is gone or the page changed. Take a new snapshot with take_snapshot and use a uid from it.`,
      },
    ],
    isError: true,
  },
})

const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * An error text with the browser's uids it names (`uid "1_4"`, `uid 1_4`)
 * given back as the agent's, so the agent reads the uid it sent.
 */
function uidsBack(text, used) {
  let out = text
  for (const [browser, agent] of used) {
    if (browser === agent) continue
    out = out.replace(new RegExp(`(\\buid "?)${escape(browser)}(?=["\\s.,]|$)`, 'g'), (_, pre) => `${pre}${agent}`)
  }
  return out
}

module.exports = { visit, translate, gone, uidsBack }
