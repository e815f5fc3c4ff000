//! No code: this crate only holds `tests/engine.rs`, which runs the engine compiled to wasm32
//! (`cargo test -p imr-wasm-tests --target wasm32-unknown-unknown`) against the reference values
//! the native tests use, so the page computes what the `imr` command prints.
