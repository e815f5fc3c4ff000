//! What to show: year (and playing through the years), variable, smoothing, classification,
//! number of classes, custom breaks, colours and the LISA cluster map, then the shared
//! include-flagged toggle.

use super::MapOptions;
use crate::i18n::{lang, tr};
use crate::pages::findings::IncludeFlagged;
use imr_core::request::{ClassScheme, Smooth};
use leptos::prelude::*;
use std::time::Duration;

/// Milliseconds between years while playing.
const PLAY_STEP_MS: u64 = 1200;

/// Colour schemes offered (all colour-blind safe), with `auto` = the engine's default for the
/// classification.
const SCHEMES: [(&str, &str, &str); 7] = [
    ("auto", "Automático", "Automatic"),
    ("ylorrd", "YlOrRd (secuencial)", "YlOrRd (sequential)"),
    ("blues", "Blues (secuencial)", "Blues (sequential)"),
    ("viridis", "Viridis (secuencial)", "Viridis (sequential)"),
    ("cividis", "Cividis (secuencial)", "Cividis (sequential)"),
    ("burd", "Azul–rojo (divergente)", "Blue–red (diverging)"),
    (
        "puor",
        "Morado–naranja (divergente)",
        "Purple–orange (diverging)",
    ),
];

/// A smoothing's name on the page (Spanish, English).
fn smooth_label(s: Smooth) -> (&'static str, &'static str) {
    match s {
        Smooth::None => ("Tasa bruta", "Raw rate"),
        Smooth::Eb => ("Bayes empírico global", "Global empirical Bayes"),
        Smooth::SpatialEb => ("Bayes empírico espacial", "Spatial empirical Bayes"),
        Smooth::ExcessRisk => ("Riesgo en exceso (O/E)", "Excess risk (O/E)"),
    }
}

/// A classification's name on the page (Spanish, English).
fn scheme_label(c: ClassScheme) -> (&'static str, &'static str) {
    match c {
        ClassScheme::Quantile => ("Cuantiles", "Quantiles"),
        ClassScheme::Equal => ("Intervalos iguales", "Equal intervals"),
        ClassScheme::Jenks => ("Cortes naturales (Jenks)", "Natural breaks (Jenks)"),
        ClassScheme::Box => ("Mapa de caja", "Box map"),
        ClassScheme::Stddev => ("Desviaciones estándar", "Standard deviations"),
        ClassScheme::Custom => ("Cortes propios", "Custom breaks"),
    }
}

/// The custom breaks as typed: numbers separated by commas, semicolons or spaces (at least one;
/// the engine checks that they increase).
pub(super) fn parse_breaks(text: &str) -> Result<Vec<f64>, String> {
    let parsed: Result<Vec<f64>, _> = text
        .split([',', ';', ' '])
        .filter(|s| !s.trim().is_empty())
        .map(|s| s.trim().parse::<f64>())
        .collect();
    match parsed {
        Ok(b) if !b.is_empty() => Ok(b),
        _ => Err(format!(
            "Cortes propios: escriba números crecientes separados por comas, p. ej. 4,6,8 (custom breaks: increasing numbers, e.g. 4,6,8); se leyó «{text}»"
        )),
    }
}

#[component]
pub(super) fn MapControls(
    options: MapOptions,
    years: Memo<Vec<i64>>,
    variables: Memo<Vec<String>>,
    /// Sets the year (timed).
    switch_year: Callback<i64>,
) -> impl IntoView {
    let lang = lang();
    let MapOptions {
        year,
        variable,
        smooth,
        scheme: class_choice,
        classes,
        breaks,
        colours: scheme_key,
        lisa: show_lisa,
    } = options;

    // Play: step through the years, then stop on the last one.
    let play_handle = StoredValue::new_local(None::<IntervalHandle>);
    let playing = RwSignal::new(false);
    let stop = move || {
        if let Some(h) = play_handle.get_value() {
            h.clear();
        }
        play_handle.set_value(None);
        playing.set(false);
    };
    let play = move |_| {
        if playing.get_untracked() {
            stop();
            return;
        }
        let ys = years.get_untracked();
        if ys.len() < 2 {
            return;
        }
        // Start from the first year when at the end.
        if year.get_untracked() == ys.last().copied() {
            switch_year.run(ys[0]);
        }
        playing.set(true);
        let handle = set_interval_with_handle(
            move || {
                let ys = years.get_untracked();
                let next = year
                    .get_untracked()
                    .and_then(|y| ys.iter().position(|&t| t == y))
                    .and_then(|i| ys.get(i + 1).copied());
                match next {
                    Some(y) => switch_year.run(y),
                    None => stop(),
                }
            },
            Duration::from_millis(PLAY_STEP_MS),
        )
        .ok();
        play_handle.set_value(handle);
    };
    on_cleanup(stop);

    view! {
        <fieldset class="map-controls">
            <legend>{tr("Qué mostrar", "What to show")}</legend>
            <span>
                <label for="map-year">{tr("Año", "Year")}</label>
                <select id="map-year" data-testid="year-select"
                    on:change=move |ev| { if let Ok(y) = event_target_value(&ev).parse::<i64>() { switch_year.run(y) } }>
                    {move || years.get().into_iter().map(|y| view! {
                        <option value=y.to_string() selected=move || year.get() == Some(y)>{y}</option>
                    }).collect_view()}
                </select>
                <button class="secondary" data-testid="play" aria-pressed=move || playing.get().to_string() on:click=play>
                    {move || if playing.get() { lang.get().pick("⏸ Pausa", "⏸ Pause") } else { lang.get().pick("▶ Reproducir años", "▶ Play years") }}
                </button>
            </span>
            <span>
                <label for="map-variable">"Variable"</label>
                <select id="map-variable" data-testid="variable-select" on:change=move |ev| variable.set(event_target_value(&ev))>
                    {move || variables.get().into_iter().map(|v| {
                        let label = if v == "rate" { lang.get_untracked().pick("Tasa de mortalidad infantil ‰", "Infant mortality rate ‰").to_string() } else { v.clone() };
                        let value = v.clone();
                        view! { <option value=value selected=move || variable.get() == v>{label}</option> }
                    }).collect_view()}
                </select>
            </span>
            <span>
                <label for="map-smooth">{tr("Suavizado", "Smoothing")}</label>
                <select id="map-smooth" data-testid="smooth-select" disabled=move || variable.get() != "rate"
                    on:change=move |ev| {
                        let k = event_target_value(&ev);
                        if let Some(c) = Smooth::ALL.into_iter().find(|c| c.name() == k) { smooth.set(c) }
                    }>
                    {Smooth::ALL.into_iter().map(|c| view! {
                        <option value=c.name() selected=move || smooth.get() == c>{move || { let (es, en) = smooth_label(c); lang.get().pick(es, en) }}</option>
                    }).collect_view()}
                </select>
            </span>
            <span>
                <label for="map-classify">{tr("Clasificación", "Classes")}</label>
                <select id="map-classify" data-testid="classify-select"
                    on:change=move |ev| {
                        let k = event_target_value(&ev);
                        if let Some(c) = ClassScheme::ALL.into_iter().find(|c| c.name() == k) { class_choice.set(c) }
                    }>
                    {ClassScheme::ALL.into_iter().map(|c| view! {
                        <option value=c.name() selected=move || class_choice.get() == c>{move || { let (es, en) = scheme_label(c); lang.get().pick(es, en) }}</option>
                    }).collect_view()}
                </select>
            </span>
            <span>
                <label for="map-classes">{tr("N.º de clases", "Number of classes")}</label>
                <input id="map-classes" type="number" min="2" max="9" data-testid="classes-input"
                    disabled=move || !class_choice.get().uses_class_count()
                    prop:value=move || classes.get().to_string()
                    on:change=move |ev| { if let Ok(k) = event_target_value(&ev).parse::<usize>() { classes.set(k.clamp(2, 9)) } }/>
            </span>
            <span>
                <label for="map-breaks">{tr("Cortes propios", "Custom breaks")}</label>
                <input id="map-breaks" type="text" placeholder="4, 6, 8, 12" data-testid="breaks-input"
                    disabled=move || class_choice.get() != ClassScheme::Custom
                    prop:value=move || breaks.get()
                    on:change=move |ev| breaks.set(event_target_value(&ev))/>
            </span>
            <span>
                <label for="map-scheme">{tr("Colores", "Colours")}</label>
                <select id="map-scheme" data-testid="scheme-select" on:change=move |ev| scheme_key.set(event_target_value(&ev))>
                    {SCHEMES.into_iter().map(|(k, es, en)| view! {
                        <option value=k selected=move || scheme_key.get() == k>{move || lang.get().pick(es, en)}</option>
                    }).collect_view()}
                </select>
            </span>
            <span>
                <input id="map-lisa" type="checkbox" data-testid="lisa-toggle" prop:checked=move || show_lisa.get()
                    on:change=move |ev| show_lisa.set(event_target_checked(&ev))/>
                <label for="map-lisa">{tr("Mapa de clusters LISA", "LISA cluster map")}</label>
            </span>
        </fieldset>
        <IncludeFlagged/>
    }
}

#[cfg(test)]
mod tests {
    use super::parse_breaks;

    /// Breaks read with commas, semicolons or spaces; nothing or a word is an error quoting
    /// what was read.
    #[test]
    fn custom_breaks_read_as_numbers_or_say_what_was_read() {
        assert_eq!(parse_breaks("4, 6;8 12.5"), Ok(vec![4.0, 6.0, 8.0, 12.5]));
        assert!(parse_breaks("").is_err());
        assert!(parse_breaks("4, six").unwrap_err().contains("«4, six»"));
    }
}
