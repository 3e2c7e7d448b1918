#!/usr/bin/env bash
# `make dist-test`: installs every artefact of dist/ (scripts/dist.sh) the
# way a user without a Rust toolchain would, and runs the README's examples
# against the installed copies:
#
#   python  a fresh venv, `pip install` the wheel, the README's Python example
#           (extracted from README.md as bindings/python/tests/test_readme.py
#           does, so both run the same text)
#   node    an empty npm project installs the two tarballs; the README's Node
#           examples (extracted as bindings/node/test/readme.test.js does),
#           the compat subpath from CommonJS and ESM, the mcp subpath and the
#           response-diff-proxy bin, and a check that the addon came from the
#           platform package
#   c       examples/c/hello.c built with `pkg-config --cflags --libs
#           response_diff` against the unpacked tarball, linked shared (rpath,
#           then LD_LIBRARY_PATH) and static, and run; the lean tarball's
#           header equals the full one's, hello.c prints the same on it, and
#           a screenshot with imageOptions is re-encoded by the full library
#           and refused (RD_INVALID_OPTION) by the lean one
#   server  the unpacked binary answers tools/list to the official MCP client
#
# Every step runs with a PATH from which every directory holding cargo or
# rustc was removed, and checks that `command -v cargo` and `command -v rustc`
# fail there. The MCP client (tests/dist, npm ci) and pkg-config/gcc are the
# test's tools, not the artefacts'.
#
# DIST_TEST_STEPS picks steps (default "python node c server"; the release
# workflow's per-target jobs run "c server").
set -euo pipefail
cd "$(dirname "$0")/.."
STEPS=" ${DIST_TEST_STEPS:-python node c server} "
want() { [[ "$STEPS" == *" $1 "* ]]; }
ROOT="$PWD"
DIST="$(realpath -m "${DIST_DIR:-dist}")"
VERSION="$(python3 -c 'import tomllib; print(tomllib.load(open("Cargo.toml","rb"))["workspace"]["package"]["version"])')"

# The clean PATH.
clean_path=""
IFS=: read -r -a dirs <<<"$PATH"
for d in "${dirs[@]}"; do
    [ -n "$d" ] || continue
    if [ -e "$d/cargo" ] || [ -e "$d/rustc" ] || [ -e "$d/rustup" ]; then continue; fi
    clean_path="${clean_path:+$clean_path:}$d"
done
export PATH="$clean_path"
unset CARGO RUSTC RUSTUP_HOME CARGO_HOME CARGO_TARGET_DIR
if command -v cargo >/dev/null || command -v rustc >/dev/null; then
    echo "dist-test: cargo or rustc is still on PATH ($PATH)" >&2
    exit 1
fi
echo "dist-test: PATH=$PATH (no cargo, no rustc)"

one() {
    local pattern="$1" found=()
    shopt -s nullglob
    found=("$DIST"/$pattern)
    shopt -u nullglob
    if [ ${#found[@]} -ne 1 ]; then
        echo "dist-test: expected one $pattern in ${DIST#"$ROOT"/}, found ${#found[@]}; run make dist" >&2
        exit 1
    fi
    printf '%s' "${found[0]}"
}
want python && wheel="$(one "response_diff-$VERSION-*.whl")"
want node && npm_main="$(one "x-response-diff-$VERSION.tgz")"
want node && npm_platform="$(one "x-response-diff-linux-*-$VERSION.tgz")"
want c && c_tar="$(one "libresponse_diff-$VERSION-*.tar.gz")"
want c && c_lean_tar="$(one "libresponse_diff-lean-$VERSION-*.tar.gz")"
want server && server_tar="$(one "response-diff-$VERSION-*.tar.gz")"

work="$(mktemp -d "${TMPDIR:-/tmp}/response-diff-dist-test.XXXXXX")"
trap 'rm -rf "$work"' EXIT
say() { printf '\n== dist-test: %s\n' "$*"; }

# --- Python ------------------------------------------------------------------
if want python; then
say "Python: pip install $(basename "$wheel") into a fresh venv"
python3 -m venv "$work/venv"
"$work/venv/bin/pip" install --quiet --disable-pip-version-check --no-index "$wheel"
python3 - "$ROOT/README.md" >"$work/readme_example.py" <<'EOF'
import re, sys
readme = open(sys.argv[1], encoding="utf-8").read()
start = readme.index("## Use it from Python")
end = readme.find("\n## ", start + 1)
blocks = re.findall(r"```python\n(.*?)```", readme[start : end if end != -1 else None], flags=re.S)
assert blocks, "README.md has no ```python block under 'Use it from Python'"
print("\n".join(blocks))
EOF
(cd "$work" && "$work/venv/bin/python" - <<'EOF'
import pathlib, response_diff
where = pathlib.Path(response_diff.__file__).resolve()
assert "/venv/" in str(where), f"imported from {where}, not the venv"
code = compile(pathlib.Path("readme_example.py").read_text(), "README.md (Use it from Python)", "exec")
exec(code, {"__name__": "readme_example"})
print(f"README's Python example ran against {where.parent}")
EOF
)

fi

# --- Node --------------------------------------------------------------------
if want node; then
say "Node: npm install $(basename "$npm_main") $(basename "$npm_platform") into an empty project"
mkdir -p "$work/node"
(cd "$work/node" && npm init -y >/dev/null &&
    npm install --no-audit --no-fund --loglevel=error "$npm_main" "$npm_platform")
node - "$ROOT/README.md" "$work/node" <<'EOF'
const { readFileSync, writeFileSync } = require('node:fs')
const { join } = require('node:path')
const [readme, dir] = process.argv.slice(2)
const section = /^## Use it from Node\n([\s\S]*?)^## /m.exec(readFileSync(readme, 'utf8'))
if (!section) throw new Error('README.md has no "Use it from Node" section')
const blocks = [...section[1].matchAll(/^```js\n([\s\S]*?)^```$/gm)].map((m) => m[1])
if (blocks.length < 2) throw new Error('README.md has fewer than two Node examples')
blocks.forEach((code, i) => writeFileSync(join(dir, `readme-${i + 1}.js`), code))
EOF
(
    cd "$work/node"
    for f in readme-*.js; do node "$f" && echo "README's Node example $f ran"; done
    cat >compat.mjs <<'EOF'
// fast-playwright-mcp is an ES module: its one changed import, as written there.
import assert from 'node:assert/strict'
import { ResponseDiffDetector, DiffFormatter } from '@x/response-diff/compat'
const d = new ResponseDiffDetector()
const o = { enabled: true, threshold: 0, format: 'minimal', maxDiffLines: 50, ignoreWhitespace: true, context: 3 }
d.detectDiff('a\nb\nc', 'browser_click', o)
const r = d.detectDiff('a\nB\nc', 'browser_click', o)
assert.equal(r.hasDifference, true)
assert.equal(r.formattedDiff, '- b\n+ B')
assert.equal(typeof new DiffFormatter().formatUnified, 'function')
console.log('compat subpath imports from ESM and diffs')
EOF
    node compat.mjs
    # The @playwright/mcp adapter: the mcp subpath and the proxy's bin.
    node -e "const m = require('@x/response-diff/mcp'); if (typeof m.withResponseDiff !== 'function') throw new Error('no withResponseDiff'); console.log('mcp subpath imports')"
    ./node_modules/.bin/response-diff-proxy --help | grep -q '^Usage: response-diff-proxy' && echo 'response-diff-proxy bin runs'
    node -e "
const path = require('node:path')
const fs = require('node:fs')
const main = path.dirname(require.resolve('@x/response-diff/package.json'))
const pkg = require('@x/response-diff/package.json')
const platform = Object.keys(pkg.optionalDependencies || {})
if (platform.length === 0) throw new Error('the main package has no optionalDependencies')
if (fs.readdirSync(main).some((f) => f.endsWith('.node'))) throw new Error('the main package carries an addon; it belongs in the platform package')
const loaded = Object.keys(require.cache).filter((f) => f.endsWith('.node'))
require('@x/response-diff')
const addon = Object.keys(require.cache).filter((f) => f.endsWith('.node') && !loaded.includes(f))
if (addon.length !== 1 || !addon[0].includes('/node_modules/@x/response-diff-')) throw new Error('addon loaded from ' + addon)
console.log('addon loaded from the platform package: ' + path.relative(process.cwd(), addon[0]))
"
)

fi

# --- C -----------------------------------------------------------------------
if want c; then
say "C: examples/c/hello.c against $(basename "$c_tar") with pkg-config"
mkdir -p "$work/c"
tar -C "$work/c" -xzf "$c_tar"
prefix="$(echo "$work"/c/libresponse_diff-*)"
export PKG_CONFIG_PATH="$prefix/lib/pkgconfig"
pkg-config --exists --print-errors response_diff
[ "$(pkg-config --modversion response_diff)" = "$VERSION" ] || {
    echo "dist-test: response_diff.pc says $(pkg-config --modversion response_diff), not $VERSION" >&2
    exit 1
}
soname="$(readelf -d "$prefix/lib/libresponse_diff.so" | sed -n 's/.*(SONAME).*\[\(.*\)\]/\1/p')"
[ "$soname" = "libresponse_diff.so" ] || { echo "dist-test: soname is '$soname', not libresponse_diff.so" >&2; exit 1; }
echo "soname: $soname"
# shellcheck disable=SC2046 # pkg-config's output is a list of flags
gcc -std=c11 -Wall -Werror examples/c/hello.c $(pkg-config --cflags --libs response_diff) -o "$work/c/hello-shared"
# Found through LD_LIBRARY_PATH, as an installed library would be through ld.so.conf.
# ldd's output is read whole first: `ldd | grep -q` fails under pipefail
# whenever grep exits at its match before ldd has written its last line.
resolved="$(LD_LIBRARY_PATH="$prefix/lib" ldd "$work/c/hello-shared")"
grep -qF "$prefix/lib/libresponse_diff.so" <<<"$resolved" || {
    echo "dist-test: hello-shared does not resolve libresponse_diff.so from the tarball" >&2
    exit 1
}
LD_LIBRARY_PATH="$prefix/lib" "$work/c/hello-shared" >"$work/c/shared.out"
# shellcheck disable=SC2046
gcc -std=c11 -Wall -Werror examples/c/hello.c $(pkg-config --cflags --libs response_diff) \
    -Wl,-rpath,"$prefix/lib" -o "$work/c/hello-rpath"
"$work/c/hello-rpath" >"$work/c/rpath.out"
# Static: the archive itself, and the libraries it needs from --static.
# shellcheck disable=SC2046
gcc -std=c11 -Wall -Werror examples/c/hello.c $(pkg-config --cflags response_diff) \
    "$(pkg-config --variable=libdir response_diff)/libresponse_diff.a" \
    $(pkg-config --static --libs-only-l response_diff | sed 's/-lresponse_diff//') -o "$work/c/hello-static"
if grep -qF libresponse_diff <<<"$(ldd "$work/c/hello-static")"; then
    echo "dist-test: hello-static still needs libresponse_diff.so" >&2
    exit 1
fi
"$work/c/hello-static" >"$work/c/static.out"
cmp "$work/c/shared.out" "$work/c/static.out"
cmp "$work/c/shared.out" "$work/c/rpath.out"
[ -s "$work/c/shared.out" ] || { echo "dist-test: hello printed nothing" >&2; exit 1; }
echo "hello.c ran shared (LD_LIBRARY_PATH and rpath) and static, same output:"
sed 's/^/    /' "$work/c/shared.out"
unset PKG_CONFIG_PATH

# The lean library (no images, docs/DECISIONS.md D67): the same header and
# hello.c output; rd_has_images() and imageOptions on a screenshot tell
# the two apart.
say "C: the full and the lean library on imageOptions ($(basename "$c_lean_tar"))"
mkdir -p "$work/c-lean"
tar -C "$work/c-lean" -xzf "$c_lean_tar"
lean_prefix="$(echo "$work"/c-lean/libresponse_diff-lean-*)"
cmp "$prefix/include/response_diff.h" "$lean_prefix/include/response_diff.h"
gcc -std=c11 -Wall -Werror examples/c/hello.c -I"$lean_prefix/include" -L"$lean_prefix/lib" -lresponse_diff \
    -Wl,-rpath,"$lean_prefix/lib" -o "$work/c-lean/hello"
"$work/c-lean/hello" >"$work/c-lean/hello.out"
cmp "$work/c/shared.out" "$work/c-lean/hello.out"
cat >"$work/c/images.c" <<'EOF'
/* Prints whether the library has images and what a screenshot with
   imageOptions gives: "images 1 status 0" or "images 0 status 4 ...". */
#include <stdio.h>
#include <string.h>
#include "response_diff.h"
int main(void) {
  const char *response = "{\"images\": [{\"mimeType\": \"image/png\", \"data\": "
      "\"iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==\"}]}";
  const char *layers = "[{\"imageOptions\": {\"format\": \"jpeg\"}}]";
  const char *tool = "browser_take_screenshot";
  char *out = NULL;
  rd_status s = rd_response_render(response, strlen(response), tool, strlen(tool), layers,
                                   strlen(layers), NULL, NULL, 0, &out);
  printf("images %d status %d", rd_has_images() ? 1 : 0, (int)s);
  if (s != RD_OK) printf(" %s", rd_last_error());
  else printf(" jpeg %d", strstr(out, "image/jpeg") != NULL);
  printf("\n");
  rd_string_free(&out);
  return 0;
}
EOF
for lib in "$prefix" "$lean_prefix"; do
    gcc -std=c11 -Wall -Werror "$work/c/images.c" -I"$lib/include" -L"$lib/lib" -lresponse_diff \
        -Wl,-rpath,"$lib/lib" -o "$work/c/images-$(basename "$lib")"
    "$work/c/images-$(basename "$lib")" >"$work/c/images-$(basename "$lib").out"
    sed "s|^|    $(basename "$lib"): |" "$work/c/images-$(basename "$lib").out"
done
grep -qx 'images 1 status 0 jpeg 1' "$work/c/images-$(basename "$prefix").out" || {
    echo "dist-test: libresponse_diff did not re-encode the screenshot" >&2
    exit 1
}
grep -q '^images 0 status 4 .*expectation.imageOptions.*no image support' "$work/c/images-$(basename "$lean_prefix").out" || {
    echo "dist-test: the lean library did not refuse imageOptions with RD_INVALID_OPTION" >&2
    exit 1
}
fi

# --- Server ------------------------------------------------------------------
if want server; then
say "server: $(basename "$server_tar") answers tools/list"
mkdir -p "$work/server"
tar -C "$work/server" -xzf "$server_tar"
bin="$(echo "$work"/server/response-diff-*/response-diff)"
[ -f "$(dirname "$bin")/README.md" ] || { echo "dist-test: the server tarball has no README.md" >&2; exit 1; }
"$bin" --help >/dev/null
(cd tests/dist && { npm ci --no-audit --no-fund --loglevel=error >/dev/null; } && node tools-list.mjs "$bin")
fi

say "every artefact ($(echo $STEPS)) installed and ran without cargo or rustc"
