# Everyday actions. `make test` is the one test command (README); it sets up
# everything it needs on a fresh machine.

CARGO ?= cargo
export CARGO_TERM_COLOR ?= never

.PHONY: test lint fmt bench demo setup clean

## Install what the tests need (Debian's chromium for the browser tests).
setup:
	./scripts/ensure-chromium.sh

## Every test: Rust unit, golden, property and doc tests, browser tests.
test: setup
	$(CARGO) test --workspace --all-targets
	$(CARGO) test --workspace --doc

## Formatting and clippy, warnings as errors.
lint:
	$(CARGO) fmt --all --check
	$(CARGO) clippy --workspace --all-targets -- -D warnings

fmt:
	$(CARGO) fmt --all

## Benchmarks: criterion medians and ratios to the floor, as a Markdown table.
bench:
	$(CARGO) bench -p response-diff --bench detector
	@mkdir -p bench-out
	python3 scripts/bench_table.py $${CARGO_TARGET_DIR:-target} | tee bench-out/detector.md

## The main job: a scripted agent session with a per-step token table.
demo:
	$(CARGO) run --release -p response-diff --example session

clean:
	$(CARGO) clean
