# Everyday actions. `make test` is the one test command (README); it sets up
# everything it needs on a fresh machine.

CARGO ?= cargo
export CARGO_TERM_COLOR ?= never

.PHONY: test lint fmt bench demo e2e setup clean c-lib c-example c-valgrind python-env python-dev python-test

TARGET_DIR := $(or $(CARGO_TARGET_DIR),target)

## Install what the tests need (Debian's chromium and valgrind).
setup:
	./scripts/ensure-tools.sh

## Every test: Rust unit, golden, property and doc tests, browser tests,
## and the MCP server's end-to-end tests.
test: setup
	$(CARGO) test --workspace --all-targets
	$(CARGO) test --workspace --doc
	$(MAKE) python-test
	$(MAKE) e2e

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
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

## libresponse_diff.so and .a in target/c/ (release build).
c-lib:
	$(CARGO) build --release -p response-diff-ffi --lib
	@mkdir -p target/c
	cp $(TARGET_DIR)/release/libresponse_diff_ffi.so target/c/libresponse_diff.so
	cp $(TARGET_DIR)/release/libresponse_diff_ffi.a target/c/libresponse_diff.a

## Build and run examples/c/hello.c against the static library.
c-example: c-lib
	gcc -std=c11 -Wall -Werror -Iinclude examples/c/hello.c target/c/libresponse_diff.a -lpthread -ldl -lm -o target/c/hello
	./target/c/hello

## The C tests under valgrind only (they also run under ASan and valgrind in `make test`).
c-valgrind:
	$(CARGO) test -p response-diff-ffi --test c_programs -- valgrind

## Benchmarks: criterion medians (response diff with ratios to the floor,
## tree diff, fingerprint parse/compare) and the in-browser fingerprint runs.
bench: setup
	$(CARGO) bench -p response-diff --bench detector
	@mkdir -p bench-out
	python3 scripts/bench_table.py $(TARGET_DIR) | tee bench-out/detector.md
	$(CARGO) bench -p response-diff --bench tree_diff
	$(CARGO) bench -p response-diff --bench fingerprint_compare
	$(CARGO) run -q --release -p response-diff-browser-tests --bin fingerprint-speed | tee bench-out/fingerprint-speed.md
	$(CARGO) run -q --release -p response-diff-browser-tests --bin fingerprint-regressions | tee bench-out/fingerprint-regressions.md

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

clean:
	$(CARGO) clean
