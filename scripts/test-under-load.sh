#!/usr/bin/env bash
# `make test` on a saturated machine: one busy loop per core plus one, all
# started here and stopped when the run ends (on failure and Ctrl-C too).
# Results must not depend on load (docs/LIMITS.md: the diff is bounded by
# work, not time), so the suite has to pass as on a quiet machine. Prints
# the load average sampled every 30 s and its peak. A plain shell loop
# instead of stress-ng: nothing to install, and it is all this needs.
set -uo pipefail
cores=$(nproc)
hogs=$((cores + 1))
pids=()
sampler=""
samples=$(mktemp)
stop() {
  for p in "${pids[@]}"; do kill "$p" 2>/dev/null; done
  [ -n "$sampler" ] && kill "$sampler" 2>/dev/null
  pids=()
  sampler=""
}
trap 'stop; rm -f "$samples"' EXIT
trap 'exit 130' INT TERM
for _ in $(seq "$hogs"); do
  (while :; do :; done) &
  pids+=($!)
done
(while :; do cut -d' ' -f1-3 /proc/loadavg >>"$samples"; sleep 30; done) &
sampler=$!
echo "test-under-load: $hogs busy loops on $cores cores (pids ${pids[*]})"
started=$(date +%s)
${MAKE:-make} test
rc=$?
stop
echo "test-under-load: make test exited $rc after $(($(date +%s) - started)) s"
echo "load average (1, 5, 15 min), every 30 s:"
tr '\n' ';' <"$samples" | sed 's/;$/\n/; s/;/ | /g'
awk '$1 > m { m = $1 } END { printf "peak 1-min load average: %s on %d cores\n", m, '"$cores"' }' "$samples"
exit "$rc"
