// Command-line flags shared by the bench scripts.
import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The value after `name` on the command line, or `fallback` when the flag
 * is absent. A flag without a value exits 2, pointing at `script`'s header.
 */
export function arg(name, fallback, script) {
  const i = process.argv.indexOf(name);
  if (i < 0) return fallback;
  const v = process.argv[i + 1];
  if (!v) {
    console.error(`${name} needs a value (see the header of ${script})`);
    process.exit(2);
  }
  return v;
}

/**
 * The server binary: `--bin`, else `<CARGO_TARGET_DIR or target>/<profile>/response-diff`.
 * With `needed`, a missing binary exits 2 saying how to build it.
 */
export function serverBin(arg, { profile = 'release', needed = false } = {}) {
  const repo = resolve(dirname(fileURLToPath(import.meta.url)), '..');
  const bin = resolve(arg('--bin', join(process.env.CARGO_TARGET_DIR || join(repo, 'target'), `${profile}/response-diff`)));
  if (needed && !existsSync(bin)) {
    console.error(`no server binary at ${bin}: build it with \`cargo build${profile === 'release' ? ' --release' : ''} -p response-diff-server\` or pass --bin`);
    process.exit(2);
  }
  return bin;
}

/** True when the module at `url` (its import.meta.url) is the script node was started with, not an import. */
export const isMain = (url) => process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(url);
