#!/usr/bin/env bash
# Installs what the tests need and a fresh machine may lack: Debian's
# chromium (the only browser source that works here), valgrind, gcc,
# pkg-config, GNU time and jansson's headers (the C tests read JSON fixtures with it).
set -euo pipefail
missing=()
command -v chromium >/dev/null 2>&1 || missing+=(chromium)
command -v valgrind >/dev/null 2>&1 || missing+=(valgrind)
command -v gcc >/dev/null 2>&1 || missing+=(gcc)
# make dist-test links the C example against the tarball with pkg-config.
command -v pkg-config >/dev/null 2>&1 || missing+=(pkg-config)
# make cli-bench reads peak memory with GNU time (scripts/cli_vs_gnu.py).
[ -x /usr/bin/time ] || missing+=(time)
# The C bad-input test reads the shared JSON matrix with jansson.
[ -f /usr/include/jansson.h ] || missing+=(libjansson-dev)
[ ${#missing[@]} -eq 0 ] && exit 0
SUDO=""
[ "$(id -u)" -eq 0 ] || SUDO="sudo"
echo "installing: ${missing[*]}" >&2
$SUDO apt-get update -qq
DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq "${missing[@]}" >/dev/null
