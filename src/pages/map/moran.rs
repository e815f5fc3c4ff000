//! Moran's I of the mapped values and the LISA option's status.

use super::MapError;
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::Shared;
use imr_core::map::autocorrelation::Moran;
use imr_core::map::svg::Colouring;
use imr_core::request::{LISA_ALPHA, LISA_PERMUTATIONS as PERMUTATIONS};
use leptos::prelude::*;

/// The seed of the permutation tests (the request's default).
const SEED: u64 = 1;

/// Moran's I of the mapped values with its permutation p-value, and the LISA option's status.
#[component]
pub(super) fn MoranPanel(
    moran: Memo<Option<Result<Moran, MapError>>>,
    show: RwSignal<bool>,
    lisa: Memo<Option<Result<Shared<Colouring>, MapError>>>,
) -> impl IntoView {
    let lang = lang();
    view! {
        <section aria-labelledby="moran-h">
            <h3 id="moran-h">{msg(|m| m.map.spatial_autocorrelation)}</h3>
            <input id="map-moran" type="checkbox" prop:checked=move || show.get() on:change=move |ev| show.set(event_target_checked(&ev))/>
            <label for="map-moran">{move || (messages(lang.get()).map.moran_compute)(&PERMUTATIONS.to_string(), &SEED.to_string())}</label>
            {move || moran.get().map(|m| match m {
                Ok(m) => view! {
                    <p data-testid="moran">
                        {msg(|m| m.map.moran_i_equals)}<strong data-field="moran-i">{crate::i18n::format_number(lang.get_untracked(), m.i, 4)}</strong>
                        {format!(" (E[I] = {}, z = {}, ", crate::i18n::format_number(lang.get_untracked(), m.expected, 4), crate::i18n::format_number(lang.get_untracked(), m.z, 2))}
                        "p = "<strong data-field="moran-p">{format!("{:.4}", m.p_value)}</strong>
                        {(messages(lang.get()).map.moran_detail)(&m.permutations.to_string(), &m.n.to_string())}
                    </p>
                }.into_any(),
                Err(e) => view! { <p class="warn" data-testid="moran">{move || format!("{}: {}", messages(lang.get()).map.moran_not_available, e.text(lang.get()))}</p> }.into_any(),
            })}
            {move || lisa.get().and_then(|l| l.err()).map(|e| view! { <p class="warn">{move || e.text(lang.get())}</p> })}
            {move || lisa.get().and_then(|l| l.ok()).map(|_| view! {
                <p class="note">{(messages(lang.get()).map.lisa_note)(&PERMUTATIONS.to_string(), &LISA_ALPHA.to_string())}</p>
            })}
        </section>
    }
}
