// uid translation for the arguments of a call: the agent's (carried) uid
// → the browser's, by the core's RefCarrier for the page's latest view,
// and the browser's back to the agent's in an error the server wrote.
'use strict'
const refs = require('../refs.js')
const { visit } = require('../schema.js')

/**
 * The arguments with the agent's uids replaced by the browser's, the
 * uids the page does not know, and the browser's uid → the agent's
 * (../refs.js, every string at a uid path).
 */
const translate = (args, paths, tab, carrier) => refs.translate(args, paths, tab, carrier, () => true)

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
