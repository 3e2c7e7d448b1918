// Command-line flags shared by the bench scripts.

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
