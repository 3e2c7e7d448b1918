// Stages the npm packages of @x/response-diff in napi-rs's layout, ready for
// `npm pack` (make dist) or `npm publish` (the release workflow):
//
//   <stage>/npm/<platform>/  one package per platform whose addon was built
//                            (bindings/node/npm/<platform>/package.json, made
//                            by `napi create-npm-dirs`, plus its .node file)
//   <stage>/main/            @x/response-diff: index.js (the napi loader that
//                            requires the platform package), the types, the
//                            compat subpath; optionalDependencies name exactly
//                            the staged platform packages, at this version
//
// This is what `napi artifacts` + `napi pre-publish` do, done on a copy: those
// commands edit the checkout's package.json in place and publish, and a local
// `make dist` must do neither.
//
// Usage: node scripts/dist-npm.mjs --node-dir bindings/node --stage DIR
//        [--artifacts DIR]  (the release workflow: every platform's .node
//        files, downloaded from the build jobs; default: --node-dir itself)
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { parseArgs } from 'node:util'

const { values: args } = parseArgs({
  options: {
    'node-dir': { type: 'string' },
    stage: { type: 'string' },
    artifacts: { type: 'string' },
    target: { type: 'string' },
  },
})
if (!args['node-dir'] || !args.stage) {
  console.error('usage: dist-npm.mjs --node-dir bindings/node --stage DIR [--artifacts DIR]')
  process.exit(2)
}
const nodeDir = resolve(args['node-dir'])
const stage = resolve(args.stage)
const artifacts = resolve(args.artifacts ?? nodeDir)
const main = JSON.parse(readFileSync(join(nodeDir, 'package.json'), 'utf8'))
const binary = main.napi.binaryName

// Every .node file under the artifacts directory, by file name.
function findAddons(dir, found = new Map()) {
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    if (e.name === 'node_modules' || e.name === 'target') continue
    const p = join(dir, e.name)
    if (e.isDirectory()) findAddons(p, found)
    else if (e.name.startsWith(`${binary}.`) && e.name.endsWith('.node')) found.set(e.name, p)
  }
  return found
}
const addons = findAddons(artifacts)

const optionalDependencies = {}
const npmDir = join(nodeDir, 'npm')
for (const platform of readdirSync(npmDir).sort()) {
  const pkg = JSON.parse(readFileSync(join(npmDir, platform, 'package.json'), 'utf8'))
  const file = pkg.main
  const addon = addons.get(file)
  if (!addon) continue
  if (pkg.version !== main.version) {
    throw new Error(`${npmDir}/${platform}/package.json: version ${pkg.version}, the main package has ${main.version}`)
  }
  const out = join(stage, 'npm', platform)
  mkdirSync(out, { recursive: true })
  writeFileSync(join(out, 'package.json'), JSON.stringify({ ...pkg, repository: main.repository }, null, 2) + '\n')
  cpSync(join(npmDir, platform, 'README.md'), join(out, 'README.md'))
  cpSync(addon, join(out, file))
  optionalDependencies[pkg.name] = main.version
  console.log(`staged ${pkg.name}@${pkg.version} (${file})`)
}
if (Object.keys(optionalDependencies).length === 0) {
  throw new Error(`no ${binary}.*.node addon under ${artifacts}: build it first (napi build --platform --release)`)
}

// The main package: its "files" without the addon, which lives in the
// platform packages; no build or dev scripts (the consumer has no Rust).
const out = join(stage, 'main')
mkdirSync(out, { recursive: true })
for (const f of main.files) {
  if (f.includes('*')) continue
  if (!existsSync(join(nodeDir, f))) throw new Error(`${f} is in package.json "files" but missing`)
  mkdirSync(dirname(join(out, f)), { recursive: true })
  // A folder in "files" (mcp/) is copied whole, as npm packs it.
  cpSync(join(nodeDir, f), join(out, f), { recursive: true })
}
for (const f of ['LICENSE-MIT', 'LICENSE-APACHE']) cpSync(join(nodeDir, '..', '..', f), join(out, f))
const { devDependencies, scripts, ...published } = main
writeFileSync(
  join(out, 'package.json'),
  JSON.stringify(
    {
      ...published,
      files: [...main.files.filter((f) => !f.includes('*')), 'LICENSE-MIT', 'LICENSE-APACHE'],
      scripts: { install: scripts.install },
      optionalDependencies,
    },
    null,
    2,
  ) + '\n',
)
console.log(`staged ${main.name}@${main.version} with optionalDependencies ${Object.keys(optionalDependencies).join(', ')}`)
