// Runs on `npm install`: nothing to do when the addon for this platform
// loads, either from the platform package (@x/response-diff-<platform>, an
// optional dependency of the published package: napi-rs's layout, what
// `make dist` packs) or from a .node file next to this package (a checkout
// after a build). Otherwise build it from the Rust sources next to this
// package with @napi-rs/cli, installing the package's locked dev
// dependencies first when they are missing (e.g. `npm install
// ./bindings/node` on a fresh machine).
'use strict'
const { existsSync, readdirSync } = require('node:fs')
const { join } = require('node:path')
const { execFileSync } = require('node:child_process')

const root = join(__dirname, '..')
const built = readdirSync(root).some((f) => f.startsWith('response-diff.') && f.endsWith('.node'))
if (built) process.exit(0)

let loadError = null
try {
  require(join(root, 'index.js'))
  process.exit(0)
} catch (e) {
  loadError = e
}

if (!existsSync(join(root, 'Cargo.toml'))) {
  console.error(
    `@x/response-diff: no prebuilt addon loads on ${process.platform}-${process.arch} ` +
      '(its platform package @x/response-diff-<platform> is an optional dependency: ' +
      'check that npm did not skip it, e.g. --no-optional or --omit=optional), ' +
      'and there are no Rust sources here to build it from.\n' +
      String(loadError && loadError.message),
  )
  process.exit(1)
}
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
const run = (cmd, args, stdio = 'inherit') => execFileSync(cmd, args, { cwd: root, stdio })
const flags = ['--ignore-scripts', '--no-audit', '--no-fund']
try {
  require.resolve('@napi-rs/cli/package.json', { paths: [root] })
} catch {
  try {
    run(npm, ['ci', ...flags], ['ignore', 'inherit', 'ignore'])
  } catch {
    // A registry without the other platforms' optional packages makes npm
    // refuse its own lockfile in `npm ci`; this installs the same versions.
    console.error('@x/response-diff: npm ci refused the lockfile; installing the locked versions with npm install --no-save')
    run(npm, ['install', '--no-save', ...flags])
  }
}
console.error('@x/response-diff: building the addon (cargo, release; a few minutes the first time)')
run(process.execPath, [join(root, 'node_modules', '@napi-rs', 'cli', 'dist', 'cli.js'), 'build', '--platform', '--release'])
