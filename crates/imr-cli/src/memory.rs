//! How `imr`'s allocator (mimalloc) gives memory back.
//!
//! mimalloc keeps freed pages committed for `purge_delay` milliseconds (1,000 by default in
//! mimalloc 3.x, src/options.c) so that they can be reused without asking the OS again. A one-shot ingest frees
//! multi-MB buffers (parsed columns, the table) and allocates the next ones within that time,
//! so both were resident at once: `imr fit` on the 127 MB benchmark CSV peaked at 2.3× the file
//! with the default and 1.85× with purging at once, in the same time (bench/RESULTS.md).

/// mimalloc's `mi_option_purge_delay`: its position in `mi_option_e` (include/mimalloc.h of
/// mimalloc 2.x and 3.x, which libmimalloc-sys 0.1.49 builds). libmimalloc-sys does not export
/// it as a constant ("not exposed for stability"), so the test below checks that the option
/// at this position has purge_delay's default in mimalloc 3.x's src/options.c, 1,000 ms.
const PURGE_DELAY: libmimalloc_sys::mi_option_t = 15;

/// Freed memory is returned to the OS at once (purge delay 0), unless `MIMALLOC_PURGE_DELAY`
/// says otherwise.
pub fn return_freed_memory_at_once() {
    if std::env::var_os("MIMALLOC_PURGE_DELAY").is_none() {
        // SAFETY: sets an integer option of the allocator; any value is valid for it.
        unsafe { libmimalloc_sys::mi_option_set(PURGE_DELAY, 0) };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_option_at_purge_delays_position_is_the_purge_delay() {
        // SAFETY: reads an integer option.
        let default = unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) };
        assert_eq!(
            default, 1000,
            "mimalloc's option {PURGE_DELAY} is not purge_delay (=1000), or MIMALLOC_PURGE_DELAY is set"
        );
        return_freed_memory_at_once();
        assert_eq!(unsafe { libmimalloc_sys::mi_option_get(PURGE_DELAY) }, 0);
    }
}
