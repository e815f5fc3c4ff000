# imr-atlas — the two commands a user needs:
#   make run    install what is missing, build the page and serve it (compressed) on http://127.0.0.1:8080
#   make test   every test: fmt, import circles, clippy, docs, native tests, wasm tests, release build, end-to-end
# Tool installs are skipped when the right version is already there (scripts/setup.sh).

SHELL := /bin/bash
export PATH := $(CURDIR)/tools/node/node_modules/.bin:$(HOME)/.cargo/bin:$(PATH)

.PHONY: run test setup dist fmt-check modules clippy doc test-native test-wasm e2e bench-wasm bench-browser

setup:
	@scripts/setup.sh

# The page on the bundled data: dist/ built, then served on 127.0.0.1:8080 as a static host
# serves it (brotli or gzip copies when the browser accepts them; scripts/serve.mjs).
run: dist
	node scripts/serve.mjs dist 8080

# dist/ for hosting: the Findings of the bundled data written into index.html in both languages,
# read before the wasm arrives (scripts/prerender.mjs, in headless Chromium); dist/imr-atlas.html,
# the whole page in one file that works from disk; then a .br and a .gz copy beside each file a
# browser fetches (scripts/compress.mjs).
dist: setup
	trunk build --release=true
	node scripts/prerender.mjs
	node scripts/single-file.mjs
	node scripts/compress.mjs

# rustfmt for the Rust, leptosfmt for the view! macros of the page (rustfmt leaves macros alone).
fmt-check:
	cargo fmt --all -- --check
	leptosfmt --check src

# No import circle among the modules of any folder: every folder of the page's and each crate's
# src/ (Rust), and of e2e/, scripts/ and bench/ (JavaScript); fails naming the folder and circle.
# No public function that nothing calls (scripts/uncalled.py): fails naming each one.
modules:
	python3 scripts/module-edges.py --check src crates/*/src e2e scripts bench
	python3 scripts/uncalled.py

clippy:
	cargo clippy --workspace --all-targets -- -D warnings
	cargo clippy -p imr-core -p imr-atlas -p imr-microdata -p imr-worker --target wasm32-unknown-unknown -- -D warnings
	cargo clippy -p imr-worker --features sheets --target wasm32-unknown-unknown -- -D warnings
	cargo clippy -p imr-wasm-tests --target wasm32-unknown-unknown --all-targets -- -D warnings
	cargo clippy -p imr-bench-wasm --target wasm32-unknown-unknown -- -D warnings

# The API docs build without a broken link or a malformed doc comment.
doc:
	RUSTDOCFLAGS="-D warnings" cargo doc --workspace --no-deps

test-native:
	cargo test --workspace

# The engine compiled to wasm32 and run (Node.js) against the same reference values.
test-wasm:
	cargo test -p imr-wasm-tests --target wasm32-unknown-unknown

# Playwright in headless Chromium against the release build; some tests run the `imr` binary to
# compare the page's numbers with the command line's.
e2e: dist
	cargo build -p imr-cli
	node e2e/run.mjs

test: setup fmt-check modules clippy doc test-native test-wasm e2e

# Benchmarks in headless Chromium (a harness, not a test): the engine benches compiled
# to wasm32 with the page's release profile and wasm-opt -Oz (as trunk does for the page), then
# bench/browser.mjs: fe, inequality bootstrap, wasm ingest, the page's microdata worker and time
# to first map on dist/. bench/compare --browser runs this too and prints the ratios.
TARGET_DIR := $(or $(CARGO_TARGET_DIR),$(CURDIR)/target)
BENCH_WASM := $(TARGET_DIR)/bench-wasm
BENCH_JSON ?= $(BENCH_WASM)/results.json

# (no `setup` here: bench/compare --browser builds this against an existing dist/; the tools
# come with `make dist`.)
bench-wasm:
	cargo build --release --target wasm32-unknown-unknown -p imr-bench-wasm
	wasm-bindgen --target web --no-typescript --out-dir $(BENCH_WASM) \
		$(TARGET_DIR)/wasm32-unknown-unknown/release/imr_bench_wasm.wasm
	wasm-opt -Oz --output=$(BENCH_WASM)/imr_bench_wasm_bg.wasm $(BENCH_WASM)/imr_bench_wasm_bg.wasm

bench-browser: dist bench-wasm
	node bench/browser.mjs --json $(BENCH_JSON)
