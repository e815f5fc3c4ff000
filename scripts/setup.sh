#!/usr/bin/env bash
# Installs every tool the build and the tests need, skipping what is already installed at the
# pinned version. Safe to run repeatedly; `make run` and `make test` call it first.
# Versions are those measured to work together offline (see ARCHITECTURE.md, "Toolchain").
set -euo pipefail
cd "$(dirname "$0")/.."

TRUNK_VERSION=0.21.14
WASM_BINDGEN_VERSION=0.2.130
LEPTOSFMT_VERSION=0.1.33
NODE_TOOLS_DIR=tools/node   # npm packages: wasm-opt (binaryen), playwright-core, axe-core, mapshaper

say() { printf '[setup] %s\n' "$*"; }

if ! rustup target list --installed | grep -qx wasm32-unknown-unknown; then
  say "adding rust target wasm32-unknown-unknown"
  rustup target add wasm32-unknown-unknown
fi

if ! trunk --version 2>/dev/null | grep -q "trunk $TRUNK_VERSION"; then
  say "installing trunk $TRUNK_VERSION (about 8 minutes on 2 cores)"
  cargo install --locked trunk --version "$TRUNK_VERSION"
fi

# wasm-bindgen-cli must equal the `wasm-bindgen` crate pinned in Cargo.toml. Installed without
# --locked: a locked install pulls a webpki-roots version the registry mirror does not have.
if ! wasm-bindgen --version 2>/dev/null | grep -q "wasm-bindgen $WASM_BINDGEN_VERSION"; then
  say "installing wasm-bindgen-cli $WASM_BINDGEN_VERSION"
  cargo install wasm-bindgen-cli --version "$WASM_BINDGEN_VERSION"
fi

# leptosfmt formats the view! macros rustfmt leaves alone; `make fmt-check` runs it with --check.
if ! leptosfmt --version 2>/dev/null | grep -q "leptosfmt $LEPTOSFMT_VERSION"; then
  say "installing leptosfmt $LEPTOSFMT_VERSION"
  cargo install --locked leptosfmt --version "$LEPTOSFMT_VERSION"
fi

if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  say "installing Debian chromium and chromium-driver"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq chromium chromium-driver >/dev/null
fi

# R runs every R script `imr fit --format r` writes (crates/imr-cli/tests/r_scripts.rs): Debian's
# R 4.2 and CRAN packages as Debian packages (fixest is not one; the scripts use base R and sandwich).
R_PACKAGES="plm sandwich lmtest estimatr MASS"
R_CHECK="for (p in strsplit('$R_PACKAGES', ' ')[[1]]) stopifnot(requireNamespace(p, quietly = TRUE))"
if ! command -v Rscript >/dev/null || ! Rscript -e "$R_CHECK" >/dev/null 2>&1; then
  say "installing Debian R (r-base-core) and r-cran-{plm,sandwich,lmtest,estimatr,mass}"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq r-base-core r-cran-plm r-cran-sandwich r-cran-lmtest r-cran-estimatr r-cran-mass >/dev/null
fi

# pdflatex compiles the LaTeX tables `imr fit --format latex` writes, in both languages
# (crates/imr-models/tests/spanish_tables.rs): Debian's texlive-latex-base, and -recommended for
# booktabs.
if ! command -v pdflatex >/dev/null || ! kpsewhich booktabs.sty >/dev/null 2>&1; then
  say "installing Debian texlive-latex-base and texlive-latex-recommended (pdflatex, booktabs)"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends texlive-latex-base texlive-latex-recommended >/dev/null
fi

# Node tools live in the repo's tools/node (package.json + package-lock.json committed). npm's own
# node_modules/.package-lock.json never equals the committed lock byte for byte, so the install
# leaves a copy of the lock it installed as a stamp: a later run skips npm ci while they match.
NODE_STAMP="$NODE_TOOLS_DIR/node_modules/.imr-installed-lock.json"
if [ ! -x "$NODE_TOOLS_DIR/node_modules/.bin/wasm-opt" ] || [ ! -d "$NODE_TOOLS_DIR/node_modules/playwright-core" ] \
   || ! cmp -s "$NODE_TOOLS_DIR/package-lock.json" "$NODE_STAMP"; then
  say "installing node tools (npm ci in $NODE_TOOLS_DIR)"
  (cd "$NODE_TOOLS_DIR" && npm ci --no-audit --no-fund --loglevel=error)
  cp "$NODE_TOOLS_DIR/package-lock.json" "$NODE_STAMP"
fi

say "fetching crates (trunk builds offline)"
cargo fetch --locked >/dev/null 2>&1 || cargo fetch
say "ready"
