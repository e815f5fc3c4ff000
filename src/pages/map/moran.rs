//! Moran's I of the mapped values and the LISA option's status.

use super::{BoundaryError, Drawn, Geometry, MapError};
use crate::components::checkbox::Checkbox;
use crate::i18n::lang;
use crate::messages::{messages, msg};
use crate::state::Shared;
use imr_core::map::autocorrelation::Moran;
use imr_core::map::svg::Colouring;
use imr_core::request::{Contiguity, LISA_ALPHA, LISA_PERMUTATIONS as PERMUTATIONS};
use leptos::prelude::*;

/// The seed of the permutation tests (the request's default).
const SEED: u64 = 1;

/// A Moran's I test of the map drawn, or its error; `None` when not asked for.
type MoranMemo = Memo<Option<Result<Moran, MapError>>>;

/// Moran's I of the mapped values and the EB-standardised Moran's I of a rate map (Assunção &
/// Reis 1999), both without the areas left out as flagged, when `show` is on.
pub(super) fn moran_tests(
    drawn: RwSignal<Option<Shared<Drawn>>>,
    geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    show: RwSignal<bool>,
) -> (MoranMemo, MoranMemo) {
    let moran = Memo::new(move |_| {
        if !show.get() {
            return None;
        }
        let r = drawn.get()?;
        let geo = geometry.get().ok()?;
        r.map
            .moran_test(
                &r.values,
                &r.slice,
                geo.prepared.weights(r.map.request().contiguity),
            )
            .map(|m| m.map_err(MapError::Request))
    });
    let eb_moran = Memo::new(move |_| {
        if !show.get() {
            return None;
        }
        let r = drawn.get()?;
        let geo = geometry.get().ok()?;
        r.map
            .eb_moran_test(&r.slice, geo.prepared.weights(r.map.request().contiguity))
            .map(|m| m.map_err(MapError::Request))
    });
    (moran, eb_moran)
}

/// Moran's I of the mapped values with its permutation p-value and its analytical tests
/// (normality, randomisation), the EB-standardised Moran's I of a rate map, the neighbours
/// used, and the LISA option's status.
#[component]
pub(super) fn MoranPanel(
    moran: MoranMemo,
    eb_moran: MoranMemo,
    contiguity: RwSignal<Contiguity>,
    show: RwSignal<bool>,
    lisa: Memo<Option<Result<Shared<Colouring>, MapError>>>,
) -> impl IntoView {
    let lang = lang();
    view! {
        <section aria-labelledby="moran-h">
            <h3 id="moran-h">{msg(|m| m.map.spatial_autocorrelation)}</h3>
            <Checkbox id="map-moran" checked=show>
                {move || (messages(lang.get())
                    .map
                    .moran_compute)(&PERMUTATIONS.to_string(), &SEED.to_string())}
            </Checkbox>
            {move || {
                moran
                    .get()
                    .map(|m| match m {
                        Ok(m) => {
                            view! {
                                <p data-testid="moran">
                                    {msg(|m| m.map.moran_i_equals)}
                                    <strong data-field="moran-i">
                                        {crate::i18n::format_number(lang.get_untracked(), m.i, 4)}
                                    </strong>
                                    {format!(
                                        " (E[I] = {}, z = {}, ",
                                        crate::i18n::format_number(
                                            lang.get_untracked(),
                                            m.expected,
                                            4,
                                        ),
                                        crate::i18n::format_number(lang.get_untracked(), m.z, 2),
                                    )} "p = "
                                    <strong data-field="moran-p">
                                        {crate::i18n::format_number(
                                            lang.get_untracked(),
                                            m.p_value,
                                            4,
                                        )}
                                    </strong>
                                    {(messages(lang.get())
                                        .map
                                        .moran_detail)(
                                        &m.permutations.to_string(),
                                        &m.n.to_string(),
                                    )}
                                    {move || {
                                        format!(
                                            " {}: {}.",
                                            messages(lang.get()).map.neighbours,
                                            contiguity.get().described(lang.get()),
                                        )
                                    }}
                                </p>
                                <p data-testid="moran-reading">{m.reading(lang.get())}</p>
                                <p data-testid="moran-analytical">
                                    {analytical(lang.get_untracked(), &m)}
                                </p>
                                <p class="note" data-testid="moran-tails">
                                    {msg(|m| m.map.moran_tails)}
                                </p>
                            }
                                .into_any()
                        }
                        Err(e) => not_available("moran", e),
                    })
            }}
            {move || {
                eb_moran
                    .get()
                    .map(|m| match m {
                        Ok(m) => {
                            view! {
                                <p data-testid="eb-moran">
                                    {msg(|m| m.map.eb_moran_equals)}
                                    <strong data-field="eb-moran-i">
                                        {crate::i18n::format_number(lang.get_untracked(), m.i, 4)}
                                    </strong>
                                    {format!(
                                        " (p = {}; ",
                                        crate::i18n::format_number(
                                            lang.get_untracked(),
                                            m.p_value,
                                            4,
                                        ),
                                    )}{analytical(lang.get_untracked(), &m)}")"
                                </p>
                            }
                                .into_any()
                        }
                        Err(e) => not_available("eb-moran", e),
                    })
            }}
            {move || {
                lisa.get()
                    .and_then(|l| l.err())
                    .map(|e| view! { <p class="warn">{move || e.text(lang.get())}</p> })
            }}
            {move || {
                lisa.get()
                    .and_then(|l| l.ok())
                    .map(|_| {
                        view! {
                            <p class="note">
                                {(messages(lang.get())
                                    .map
                                    .lisa_note)(
                                    &PERMUTATIONS.to_string(),
                                    &lang.get().with_decimal_mark(LISA_ALPHA.to_string()),
                                )}
                            </p>
                        }
                    })
            }}
        </section>
    }
}

/// "Analytical tests (…): z = 2.31, p = 0.0209 under normality; z = 2.35, p = 0.0188 under
/// randomisation" (the randomisation part left out when it is not defined).
fn analytical(lang: crate::i18n::Lang, m: &Moran) -> String {
    let words = &messages(lang).map;
    let number = |v: f64| crate::i18n::format_number(lang, v, 2);
    let p_value = |v: f64| crate::i18n::format_number(lang, v, 4);
    let mut text = format!(
        "{}z = {}, p = {} {}",
        words.moran_analytical,
        number(m.z_norm),
        p_value(m.p_norm),
        words.under_normality
    );
    if let (Some(z), Some(p)) = (m.z_rand, m.p_rand) {
        text.push_str(&format!(
            "; z = {}, p = {} {}",
            number(z),
            p_value(p),
            words.under_randomisation
        ));
    }
    text
}

/// Why a Moran's I could not be computed, in the reader's language, as paragraph `testid`.
fn not_available(testid: &'static str, error: MapError) -> AnyView {
    let lang = lang();
    view! {
        <p class="warn" data-testid=testid>
            {move || {
                format!(
                    "{}: {}",
                    messages(lang.get()).map.moran_not_available,
                    error.text(lang.get()),
                )
            }}
        </p>
    }
    .into_any()
}
