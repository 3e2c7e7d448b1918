// The core benchmark's inputs (core/benches/inputs/mod.rs), ported line by
// line so both benchmarks diff byte-identical texts. `node bench/inputs.mjs`
// prints a blake3-free fingerprint (length + sha256) of every pair, to
// check against the Rust generator.

/** Sizes measured: 2 KB, 20 KB, 200 KB, 2.6 MB. */
export const SIZES = [
  ['2KB', 2_000],
  ['20KB', 20_000],
  ['200KB', 200_000],
  ['2.6MB', 2_600_000],
]

/** The kinds of change measured. */
export const CHANGES = ['one_line', 'scattered_1pct', 'block_inserted', 'refs_renumbered', 'different_page']

const pad2 = (n) => String(n).padStart(2, '0')

/** A Playwright-style aria snapshot of about `bytes` bytes. */
export function page(bytes, flavor) {
  // The generator is ASCII, so string length equals byte length.
  const parts = []
  let len = 0
  const push = (s) => {
    parts.push(s)
    len += s.length
  }
  push('- generic [ref=e1]:\n  - banner [ref=e2]:\n    - navigation "Main" [ref=e3]:\n')
  let r = 4
  let section = 0
  while (len < bytes) {
    push(`  - region "${flavor} section ${section}" [ref=e${r}]:\n`)
    r += 1
    push(`    - heading "${flavor} heading ${section}" [level=2] [ref=e${r}]\n`)
    r += 1
    push(`    - list "${flavor} items ${section}" [ref=e${r}]:\n`)
    r += 1
    for (let i = 0; i < 8; i++) {
      if (len >= bytes) break
      push(`      - listitem [ref=e${r}]:\n`)
      r += 1
      push(
        `        - link "${flavor} product ${section}-${i}" [ref=e${r}] [cursor=pointer]:\n          - /url: /p/${section}/${i}\n`,
      )
      r += 1
      push(`        - paragraph [ref=e${r}]: $${10 + ((section * 7 + i) % 90)}.${pad2((i * 13) % 100)}\n`)
      r += 1
    }
    section += 1
  }
  return parts.join('')
}

/** Rust's `str::lines()` for these texts (no `\r`): no trailing empty line. */
function lines(text) {
  const ls = text.split('\n')
  if (ls.length && ls[ls.length - 1] === '') ls.pop()
  return ls
}

function replaceLine(text, pick) {
  const ls = lines(text)
  const n = ls.length
  return ls.map((l, i) => (pick(i, n) ? `${l} (changed)` : l) + '\n').join('')
}

function renumber(text) {
  return text.replace(/\[ref=e(\d+)\]/g, (_, n) => `[ref=e${Number(n) + 1000}]`)
}

/** `[old, new]` for a change kind at a size. */
export function pair(bytes, change) {
  const old = page(bytes, 'Shop')
  let next
  switch (change) {
    case 'one_line':
      next = replaceLine(old, (i, n) => i === Math.floor(n / 2))
      break
    case 'scattered_1pct':
      next = replaceLine(old, (i) => i % 100 === 50)
      break
    case 'block_inserted': {
      const ls = lines(old)
      const mid = Math.floor(ls.length / 2)
      let out = ls.slice(0, mid).join('\n') + '\n'
      out += '  - dialog "Added to cart" [active] [ref=e99990]:\n'
      for (let k = 0; k < 18; k++) out += `    - paragraph [ref=e${99991 + k}]: modal line ${k}\n`
      out += ls.slice(mid).join('\n') + '\n'
      next = out
      break
    }
    case 'refs_renumbered':
      next = renumber(old)
      break
    case 'different_page':
      next = page(bytes, 'Checkout')
      break
    default:
      throw new Error(`unknown change ${change}`)
  }
  return [old, next]
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const { createHash } = await import('node:crypto')
  const sha = (s) => createHash('sha256').update(s).digest('hex').slice(0, 16)
  for (const [name, bytes] of SIZES) {
    for (const change of CHANGES) {
      const [a, b] = pair(bytes, change)
      console.log(`${name} ${change} ${a.length} ${sha(a)} ${b.length} ${sha(b)}`)
    }
  }
}
