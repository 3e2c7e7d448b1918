#!/usr/bin/env bash
# `make dist`: every installable artefact for this machine's target in dist/,
# built from this checkout and nothing published. The release workflow
# (.github/workflows/release.yml) runs the same steps per target, one step of
# this script per job; keep them in step.
#
#   python   response_diff-<v>-cp39-abi3-manylinux_*.whl and the sdist (maturin)
#   node     x-response-diff-<v>.tgz (JS, types, the compat subpath) and
#            x-response-diff-<platform>-<v>.tgz (the prebuilt addon), napi-rs's
#            layout: the main package's optionalDependencies name the platform
#            packages built here, and index.js loads whichever is installed
#   c        libresponse_diff-<v>-<target>.tar.gz: lib/libresponse_diff.so
#            (soname libresponse_diff.so), lib/libresponse_diff.a,
#            include/response_diff.h, lib/pkgconfig/response_diff.pc; and
#            libresponse_diff-lean-<v>-<target>.tar.gz, the same without
#            the images feature (no image codecs, docs/DECISIONS.md D67)
#   server   response-diff-<v>-<target>.tar.gz: the binary and its README
#
# Usage: scripts/dist.sh [python|node|c|server ...] (default: all). Builds are
# release builds in $CARGO_TARGET_DIR (default target/), so a warm target dir
# makes this quick. DIST_TARGET overrides the target triple (the release
# workflow's cross builds); DIST_DIR the output directory (default dist/).
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
CARGO="${CARGO:-cargo}"
PYTHON="${PYTHON:-python3}"
TARGET_DIR="$(realpath -m "${CARGO_TARGET_DIR:-target}")"
DIST="$(realpath -m "${DIST_DIR:-dist}")"
VERSION="$("$PYTHON" -c 'import tomllib; print(tomllib.load(open("Cargo.toml","rb"))["workspace"]["package"]["version"])')"
HOST="$(rustc -vV | sed -n 's/^host: //p')"
TARGET="${DIST_TARGET:-$HOST}"
# Cross builds put their output under <target-dir>/<triple>/release.
if [ "$TARGET" = "$HOST" ]; then
    TARGET_FLAG=()
    OUT="$TARGET_DIR/release"
else
    TARGET_FLAG=(--target "$TARGET")
    OUT="$TARGET_DIR/$TARGET/release"
fi
case "$TARGET" in
    *windows*) EXE=.exe DYLIB_PREFIX="" DYLIB=dll STATIC=lib ;;
    *apple*) EXE="" DYLIB_PREFIX=lib DYLIB=dylib STATIC=a ;;
    *) EXE="" DYLIB_PREFIX=lib DYLIB=so STATIC=a ;;
esac

"$PYTHON" scripts/check_versions.py
mkdir -p "$DIST"
steps=("$@")
[ ${#steps[@]} -gt 0 ] || steps=(python node c server)

say() { printf '\n== dist: %s\n' "$*"; }

# Debug info is most of the size of the static library and the binary; users
# who need it build from source.
strip_debug() {
    case "$TARGET" in
        *windows* | *apple*) ;;
        # .llvmbc/.llvmcmd: the LLVM bitcode std's objects carry for LTO,
        # which no C linker reads (31 of the .a's 54 MB, docs/DECISIONS.md D37).
        *) if command -v strip >/dev/null && [ "$TARGET" = "$HOST" ]; then strip --strip-debug -R .llvmbc -R .llvmcmd "$@"; fi ;;
    esac
}

python_dist() {
    say "Python wheel and sdist (maturin)"
    local maturin="${MATURIN:-$ROOT/.venv/bin/maturin}"
    [ -x "$maturin" ] || { ./scripts/python-env.sh; }
    rm -f "$DIST"/response_diff-*.whl "$DIST"/response_diff-*.tar.gz
    # maturin checks the extension's symbols against the manylinux policy
    # named here (auditwheel's rules) and refuses a wrong tag. Built on the
    # host, the extension links glibc symbols up to the host's: on Debian 12
    # (glibc 2.36) the newest is GLIBC_2.34, hence manylinux_2_34. The
    # release workflow builds in manylinux2014 containers (maturin-action)
    # for the widest tag, manylinux_2_17.
    local compat=()
    if [[ "$TARGET" == *linux-gnu* ]]; then
        compat=(--compatibility "${MANYLINUX:-manylinux_2_34}")
    elif [[ "$TARGET" == *linux-musl* ]]; then
        compat=(--compatibility "${MUSLLINUX:-musllinux_1_2}")
    fi
    "$maturin" build --release --quiet -m bindings/python/Cargo.toml \
        ${TARGET_FLAG[@]+"${TARGET_FLAG[@]}"} ${compat[@]+"${compat[@]}"} --out "$DIST"
    "$maturin" sdist -m bindings/python/Cargo.toml --out "$DIST"
}

node_dist() {
    say "npm packages (napi-rs layout)"
    local node_dir="$ROOT/bindings/node"
    local stage="$TARGET_DIR/dist-npm"
    (cd "$node_dir" && [ -d node_modules/@napi-rs/cli ] || {
        export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1
        npm ci --no-audit --no-fund --ignore-scripts --loglevel=error
    })
    (cd "$node_dir" && npx napi build --platform --release ${TARGET_FLAG[@]+"${TARGET_FLAG[@]}"})
    rm -rf "$stage" && mkdir -p "$stage"
    node scripts/dist-npm.mjs --node-dir "$node_dir" --stage "$stage" --target "$TARGET"
    rm -f "$DIST"/x-response-diff-*.tgz
    for pkg in "$stage"/npm/* "$stage"/main; do
        (cd "$pkg" && npm pack --silent --pack-destination "$DIST" >/dev/null)
    done
}

c_dist() {
    c_tarball "libresponse_diff-$VERSION-$TARGET" ""
    # The lean library: the same header and API without images (D67).
    c_tarball "libresponse_diff-lean-$VERSION-$TARGET" lean
}
# c_tarball NAME [lean]: one C library tarball.
c_tarball() {
    local name="$1" lean="$2" features=()
    [ -z "$lean" ] || features=(--no-default-features)
    say "C library tarball $name"
    # The c-release profile: fat LTO, one codegen unit (docs/DECISIONS.md D37).
    "$CARGO" build --profile c-release --quiet -p response-diff-ffi --lib \
        ${features[@]+"${features[@]}"} ${TARGET_FLAG[@]+"${TARGET_FLAG[@]}"}
    local OUT="${OUT%/release}/c-release"
    local stage="$TARGET_DIR/dist-c/$name"
    rm -rf "$stage" && mkdir -p "$stage/lib/pkgconfig" "$stage/include"
    cp "$OUT/${DYLIB_PREFIX}response_diff_ffi.$DYLIB" "$stage/lib/${DYLIB_PREFIX}response_diff.$DYLIB"
    if [ "$STATIC" = lib ]; then
        cp "$OUT/response_diff_ffi.lib" "$stage/lib/response_diff.lib"
        # The import library of the DLL, for MSVC linkers.
        [ -f "$OUT/response_diff_ffi.dll.lib" ] && cp "$OUT/response_diff_ffi.dll.lib" "$stage/lib/response_diff.dll.lib"
    else
        cp "$OUT/libresponse_diff_ffi.a" "$stage/lib/libresponse_diff.a"
    fi
    strip_debug "$stage/lib/"*.*
    cp include/response_diff.h "$stage/include/"
    cp LICENSE-MIT LICENSE-APACHE "$stage/"
    # Relocatable: the prefix is wherever the tarball was unpacked.
    local libs_private="-lpthread -ldl -lm"
    case "$TARGET" in
        *apple*) libs_private="-framework CoreFoundation -framework Security -lm" ;;
        *windows*) libs_private="-lws2_32 -lbcrypt -luserenv -lntdll" ;;
    esac
    cat > "$stage/lib/pkgconfig/response_diff.pc" <<EOF
prefix=\${pcfiledir}/../..
libdir=\${prefix}/lib
includedir=\${prefix}/include

Name: response_diff
Description: Return only what changed to browser agents (C ABI of response-diff)
Version: $VERSION
Cflags: -I\${includedir}
Libs: -L\${libdir} -lresponse_diff
Libs.private: $libs_private
EOF
    cat > "$stage/README.md" <<EOF
# libresponse_diff $VERSION ($TARGET)

The C ABI of response-diff: \`include/response_diff.h\`, the shared library
(soname \`libresponse_diff.so\` on Linux) and the static library in \`lib/\`,
and a pkg-config file. Unpack anywhere; the \`.pc\` file finds its own prefix.

\`\`\`sh
export PKG_CONFIG_PATH=\$PWD/lib/pkgconfig
gcc hello.c \$(pkg-config --cflags --libs response_diff) -Wl,-rpath,\$PWD/lib -o hello           # shared
gcc hello.c \$(pkg-config --cflags response_diff) lib/libresponse_diff.a \$(pkg-config --libs-only-l --static response_diff | sed 's/-lresponse_diff//') -o hello  # static
\`\`\`

Conventions and the API: the header's comments, and "Use it from C" in the
project's README.
EOF
    if [ -n "$lean" ]; then
        cat >> "$stage/README.md" <<EOF

This is the lean build: no image codecs. \`rd_has_images()\` returns false;
images in a response come back as they were, and \`imageOptions\` on a
response with images is \`RD_INVALID_OPTION\`. Everything else is the same
as libresponse_diff, header included.
EOF
    fi
    rm -f "$DIST/$name.tar.gz"
    tar -C "$(dirname "$stage")" --owner=0 --group=0 --numeric-owner -czf "$DIST/$name.tar.gz" "$name"
}

server_dist() {
    say "server binary tarball"
    "$CARGO" build --release --quiet -p response-diff-server ${TARGET_FLAG[@]+"${TARGET_FLAG[@]}"}
    local name="response-diff-$VERSION-$TARGET"
    local stage="$TARGET_DIR/dist-server/$name"
    rm -rf "$stage" && mkdir -p "$stage"
    cp "$OUT/response-diff$EXE" "$stage/"
    strip_debug "$stage/response-diff$EXE"
    cp server/README.md "$stage/README.md"
    cp LICENSE-MIT LICENSE-APACHE "$stage/"
    rm -f "$DIST/$name.tar.gz"
    tar -C "$(dirname "$stage")" --owner=0 --group=0 --numeric-owner -czf "$DIST/$name.tar.gz" "$name"
}

for s in "${steps[@]}"; do
    case "$s" in
        python) python_dist ;;
        node) node_dist ;;
        c) c_dist ;;
        server) server_dist ;;
        *) echo "dist: unknown step '$s' (python, node, c, server)" >&2; exit 2 ;;
    esac
done

say "artefacts in ${DIST#"$ROOT"/}"
(cd "$DIST" && ls -l --time-style=+ | awk 'NR > 1 { printf "%10d  %s\n", $5, $NF }')
