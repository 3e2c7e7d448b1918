// The snapshot files an answer links to (`- [Snapshot](path)`): read only
// inside the upstream's output directory, symlinks resolved, and written
// back (the carried refs) only where read. Anything else is left as the
// upstream wrote it, with a note.
'use strict'
const fs = require('node:fs')
const path = require('node:path')

const os = require('node:os')

/**
 * @playwright/mcp 0.0.83's output directory when its config names none
 * (playwright-core's tools/backend/context.ts outputDir()): `.playwright-mcp`
 * in its workspace (the client's root, else its working directory), or in
 * the temporary directory when that one is not writable.
 */
const DEFAULT_OUTPUT_DIR = '.playwright-mcp'

class Files {
  /**
   * `outputDir`: the upstream's output directory (relative to the root);
   * `cwd`: the root when the client announced none; `warn(text)`: a note.
   */
  constructor({ outputDir, cwd, warn }) {
    this.outputDir = outputDir
    this.cwd = cwd
    this.warn = warn
    this.root = null
    /** Real paths read from inside the output directory. */
    this.readable = new Set()
  }

  /** The directory links are relative to. */
  base() {
    return this.root ?? this.cwd ?? process.cwd()
  }

  /** The real paths of the directories the upstream writes snapshots to. */
  realOutputDirs() {
    const cwd = this.cwd ?? process.cwd()
    const dirs =
      this.outputDir !== undefined
        ? [path.resolve(cwd, this.outputDir)]
        : [path.join(this.base(), DEFAULT_OUTPUT_DIR), path.join(cwd, DEFAULT_OUTPUT_DIR), path.join(os.tmpdir(), DEFAULT_OUTPUT_DIR)]
    const out = []
    for (const d of dirs) {
      try {
        out.push(fs.realpathSync(d))
      } catch {
        // Not made yet: nothing in it to read.
      }
    }
    return out
  }

  /** The real path of `file` when it is a file inside the output directory, else why not. */
  inside(file) {
    const dirs = this.realOutputDirs()
    let real
    try {
      real = fs.realpathSync(file)
    } catch (e) {
      return { why: e.code === 'ENOENT' ? 'it does not exist' : e.message }
    }
    if (!dirs.some((d) => real.startsWith(d + path.sep))) {
      return { why: `it is outside the upstream's output directory (${dirs.join(', ') || 'none yet'}; the outputDir option)` }
    }
    if (!fs.statSync(real).isFile()) return { why: 'it is not a file' }
    return { real }
  }

  /** The text of a linked snapshot: { text, file } (text null when it is not read). */
  read(link) {
    const file = path.resolve(this.base(), link)
    const at = this.inside(file)
    if (at.real === undefined) {
      this.warn?.(`snapshot link ${link} left as it is: ${at.why}`)
      return { text: null, file }
    }
    try {
      const text = fs.readFileSync(at.real, 'utf8')
      this.readable.add(at.real)
      return { text, file: at.real }
    } catch (e) {
      this.warn?.(`snapshot link ${link} left as it is: ${e.message}`)
      return { text: null, file }
    }
  }

  /**
   * Rewrites a file `read` returned, by renaming a fresh sibling into
   * place (never through a symlink). False when it is not one.
   */
  write(file, text) {
    if (!this.readable.has(file) || this.inside(file).real !== file) {
      this.warn?.(`not rewriting ${file}: not a snapshot file of the upstream's output directory`)
      return false
    }
    const tmp = `${file}.${process.pid}.${Date.now()}.tmp`
    fs.writeFileSync(tmp, text, { flag: 'wx' })
    fs.renameSync(tmp, file)
    return true
  }
}

module.exports = { Files, DEFAULT_OUTPUT_DIR }
