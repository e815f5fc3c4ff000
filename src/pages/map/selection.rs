//! The commune picked on the map, the funnel plot or the table, kept in the URL fragment by its
//! code (`commune=13201`), so that a shared link reopens the map with the same commune outlined.
//! A code the boundaries do not hold selects nothing (and stays in the link until the reader picks
//! another commune or clears the selection).

use super::{BoundaryError, Geometry};
use crate::state::Shared;
use leptos::prelude::*;

/// The selection: the code in the fragment and its index among the current boundaries' areas.
#[derive(Clone, Copy)]
pub(super) struct Selection {
    code: RwSignal<String>,
    geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    index: Memo<Option<usize>>,
}

impl Selection {
    pub(super) fn from_fragment(
        geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    ) -> Self {
        let code = crate::fragment::fragment().synced("commune", String::new());
        let index = Memo::new(move |_| {
            let code = code.get();
            if code.is_empty() {
                return None;
            }
            geometry.with(|g| {
                g.as_ref()
                    .ok()
                    .and_then(|g| g.prepared.layer.index_of(&code))
            })
        });
        Selection {
            code,
            geometry,
            index,
        }
    }

    /// The index of the selected area, if any (tracked).
    pub(super) fn get(&self) -> Option<usize> {
        self.index.get()
    }

    /// Selects the area at `area` of the current boundaries, or nothing.
    pub(super) fn set(&self, area: Option<usize>) {
        let code = area
            .and_then(|a| {
                self.geometry.with_untracked(|g| {
                    g.as_ref()
                        .ok()
                        .and_then(|g| g.prepared.layout.codes.get(a).cloned())
                })
            })
            .unwrap_or_default();
        self.code.set(code);
    }
}
