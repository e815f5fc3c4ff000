//! How the map is calculated (the views' shared disclosure).

use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::pages::data::HowCalculated;
use imr_core::request::LISA_PERMUTATIONS as PERMUTATIONS;
use leptos::prelude::*;

/// The seed of the permutation tests (the request's default).
const SEED: u64 = 1;

/// How the map is calculated: the rate, the smoothings, the classes, what flagged rows do, the
/// funnel plot's limits and Moran's I, behind the views' shared disclosure (closed by default).
#[component]
pub(super) fn MapMethods() -> impl IntoView {
    let lang = lang();
    view! {
        <HowCalculated testid="map-method">
            <p data-method="rate">{msg(|m| m.map.method_rate)}</p>
            <p data-method="smoothing">{msg(|m| m.map.method_smoothing)}</p>
            <p data-method="classes">{msg(|m| m.map.method_classes)}</p>
            <p data-method="flagged">{msg(|m| m.map.method_flagged)}</p>
            <p data-method="funnel">{msg(|m| m.map.method_funnel)}</p>
            <p data-method="moran">
                {move || (messages(lang.get())
                    .map
                    .moran_method)(&PERMUTATIONS.to_string(), &SEED.to_string())}
            </p>
        </HowCalculated>
    }
}
