//! The one cache of the views' results: a request's result on the loaded panel, kept while the
//! page is open, so that switching tabs, going back to an earlier choice or toggling an option
//! twice shows the result at once instead of running the engine again.
//!
//! Each view keeps its own [`RequestCache`] in a `thread_local!` (the page has one thread):
//! the Inequality view its analyses, the Models view its fits, the Findings their answers. A
//! cache holds the results of one panel only (compared by identity): a request on other data
//! empties it. It holds that panel by a weak reference, so the cache never keeps a panel alive:
//! once other data are loaded the old panel is freed with the page's last strong reference, not
//! when each view is opened again (a stale panel of a large upload could make the next large
//! file refused for lack of memory; issue 44). Derived values that are cheap or that depend on
//! the reader's choices within one result (a chart of a result, a colouring) stay in memos.

use crate::state::Shared;
use imr_core::panel::Panel;
use std::sync::{Arc, Weak};

/// Up to `capacity` results of requests `R` on one panel, the oldest dropped first.
pub struct RequestCache<R, O> {
    /// The panel the results are of, by identity only (never kept alive by the cache).
    panel: Option<Weak<Panel>>,
    entries: Vec<(R, O)>,
    capacity: usize,
    /// How many results were computed (not taken from the cache) since the page opened.
    runs: u64,
}

impl<R: PartialEq + Clone, O: Clone> RequestCache<R, O> {
    /// An empty cache of at most `capacity` results.
    pub const fn new(capacity: usize) -> Self {
        RequestCache {
            panel: None,
            entries: Vec::new(),
            capacity,
            runs: 0,
        }
    }

    /// How many results this cache computed since the page opened (a result taken from the
    /// cache is not counted): what a view shows of its work, for a reader or a test to check
    /// that a choice ran only what it changed.
    pub fn runs(&self) -> u64 {
        self.runs
    }

    /// The result of `request` on `panel`: the kept one, or `run()`'s, then kept.
    pub fn get_or_run(&mut self, panel: &Shared<Panel>, request: &R, run: impl FnOnce() -> O) -> O {
        let same =
            (self.panel.as_ref()).is_some_and(|p| Weak::ptr_eq(p, &Arc::downgrade(&panel.0)));
        if !same {
            self.panel = Some(Arc::downgrade(&panel.0));
            self.entries.clear();
        }
        if let Some((_, result)) = self.entries.iter().find(|(r, _)| r == request) {
            return result.clone();
        }
        let result = run();
        self.runs += 1;
        if self.entries.len() >= self.capacity.max(1) {
            self.entries.remove(0);
        }
        self.entries.push((request.clone(), result.clone()));
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use imr_core::ingest::{build_panel, IngestOptions, RawTable};

    fn panel() -> Shared<Panel> {
        let csv = b"comuna,anio,nacimientos,defunciones\n01101,2020,100,1\n01107,2020,200,3\n";
        let table = RawTable::from_bytes("t.csv", csv).unwrap();
        let roles = table.guessed_roles.clone();
        let panel = build_panel(&[table], &[roles], &IngestOptions::default()).unwrap();
        Shared(Arc::new(panel))
    }

    #[test]
    fn a_request_runs_once_per_panel_and_the_oldest_result_goes_first() {
        let (a, b) = (panel(), panel());
        let mut cache = RequestCache::new(2);
        let runs = std::cell::Cell::new(0);
        let get = |cache: &mut RequestCache<u32, u32>, panel: &Shared<Panel>, r: u32| {
            cache.get_or_run(panel, &r, || {
                runs.set(runs.get() + 1);
                r * 10
            })
        };
        assert_eq!(get(&mut cache, &a, 1), 10);
        assert_eq!(get(&mut cache, &a, 1), 10);
        assert_eq!(get(&mut cache, &a, 2), 20);
        assert_eq!(get(&mut cache, &a, 3), 30); // 1 is dropped
        assert_eq!(get(&mut cache, &a, 2), 20);
        assert_eq!(get(&mut cache, &a, 1), 10);
        // an equal panel loaded again is other data: its results are computed anew
        assert_eq!(get(&mut cache, &b, 3), 30);
        assert_eq!(runs.get(), 5);
        assert_eq!(cache.runs(), 5, "the cache counts what it computed");
    }

    /// After a second upload the first panel is freed: the cache, which had its results, does
    /// not keep it alive (it held a strong reference until the view ran a request again).
    #[test]
    fn the_cache_does_not_keep_a_panel_alive() {
        let first = panel();
        let freed = Arc::downgrade(&first.0);
        let mut cache: RequestCache<u32, u32> = RequestCache::new(4);
        assert_eq!(cache.get_or_run(&first, &1, || 10), 10);
        drop(first);
        assert!(
            freed.upgrade().is_none(),
            "the cache kept the first panel alive"
        );
        // The next data's request starts afresh.
        let second = panel();
        assert_eq!(cache.get_or_run(&second, &1, || 11), 11);
        assert_eq!(cache.get_or_run(&second, &1, || 12), 11);
    }
}
