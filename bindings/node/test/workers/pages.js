// The pages of the concurrency tests, the same as core/tests/concurrency.rs:
// unique per (worker, call), with one-line changes, an added line, and now
// and then a navigation to another page altogether.
'use strict'

function page(t, i) {
  if (i % 97 === 0) return `- heading "Page ${t}-${i}" [level=1]\n- paragraph: moved\n`
  let s = '- main:\n'
  for (let line = 0; line < 12; line++) s += `  - listitem: item ${line}\n`
  s += `  - status: thread ${t} call ${i}\n`
  if (i % 3 === 0) s += '  - alert: saved\n'
  return s
}

const OPTIONS = { enabled: true }

/** What is compared with the reference: everything a caller reads. */
function summary(r) {
  return [r.mode, r.formattedDiff, r.similarity, JSON.stringify(r.metadata)]
}

module.exports = { page, OPTIONS, summary }
