//! The same floating-point functions as the page. In the browser (wasm32) `f64::ln`, `exp`,
//! `powf`, … are the `libm` crate's — Rust's port of musl's — built into the standard library;
//! natively they are the C library's (glibc), which rounds some results differently in the last
//! bit. So that `imr` writes the page's numbers bit for bit (the interval bounds and p-values of
//! statrs, the Theil logarithms), this binary defines these C symbols itself, with the `libm`
//! crate's functions: the standard library's calls bind to them instead of glibc's. It lives in
//! imr-cli's library, so the `imr` binary and the tests that run requests in process (the
//! snapshot tests) compute alike; the engines stay plain Rust.
//!
//! Checked by the end-to-end tests that compare the page's downloads with `imr`'s byte for byte
//! (e2e/exports-models.test.mjs: the rates and coefficient CSVs).

macro_rules! same_as_the_page {
    ($($name:ident($($arg:ident),+)),+ $(,)?) => {
        $(
            #[no_mangle]
            pub extern "C" fn $name($($arg: f64),+) -> f64 {
                libm::$name($($arg),+)
            }
        )+
    };
}

same_as_the_page!(
    log(x),
    log1p(x),
    log2(x),
    log10(x),
    exp(x),
    expm1(x),
    exp2(x),
    pow(x, y),
    sin(x),
    cos(x),
    tan(x),
    asin(x),
    acos(x),
    atan(x),
    atan2(y, x),
    sinh(x),
    cosh(x),
    tanh(x),
    cbrt(x),
    hypot(x, y),
);
