//! The rows the plausibility pass flagged, with their reasons.

use super::HowCalculated;
use crate::i18n::{format_opt, lang, tr, Lang};
use crate::pages::findings::{FlagState, IncludeFlagged};
use imr_core::request::commune_name;
use leptos::prelude::*;

/// The rows the plausibility pass flagged (`imr_core::plausibility`), with their reasons: they
/// stay in the data and the downloads, and are kept out of chart scales, map classes and the
/// Findings unless included.
#[component]
pub(super) fn FlaggedRows() -> impl IntoView {
    let flags = expect_context::<FlagState>();
    move || {
        let f = flags.flags.get()?;
        if f.is_empty() {
            return None;
        }
        let l = lang().get();
        let n = f.len();
        let worst: Vec<String> = f
            .flagged
            .iter()
            .filter(|r| r.rate_too_high())
            .map(|r| {
                format!(
                    "{} {} {}",
                    r.entity,
                    commune_name(&r.entity).unwrap_or_default(),
                    r.time
                )
            })
            .collect();
        let summary = match l {
            Lang::Es => format!(
                "{n} filas marcadas{}",
                if worst.is_empty() {
                    String::new()
                } else {
                    format!("; tasa sobre 200 ‰: {}", worst.join(", "))
                }
            ),
            Lang::En => format!(
                "{n} rows flagged{}",
                if worst.is_empty() {
                    String::new()
                } else {
                    format!("; rate above 200 ‰: {}", worst.join(", "))
                }
            ),
        };
        let rows = f
            .flagged
            .iter()
            .map(|r| {
                view! {
                    <tr data-entity=r.entity.clone() data-time=r.time.to_string()>
                        <td class="text">{r.entity.clone()}</td>
                        <td class="text">{commune_name(&r.entity).unwrap_or_default()}</td>
                        <td>{r.time}</td>
                        <td>{format_opt(l, r.births, 0)}</td>
                        <td>{format_opt(l, r.rate_per_1000, 1)}</td>
                        <td class="text">{r.reasons_text(l)}</td>
                        <td class="text">{format!("{}:{}", r.file, r.line)}</td>
                    </tr>
                }
            })
            .collect_view();
        Some(view! {
            <section aria-labelledby="flagged-h" data-testid="flagged-rows">
                <h3 id="flagged-h">{tr("Valores inverosímiles", "Implausible values")}</h3>
                <HowCalculated testid="flagged-method"><p class="note">{tr(
                    "Reglas: tasa sobre 200 por 1.000; defunciones derivadas iguales o mayores a la mitad de los nacimientos; tasa publicada sobre menos de 10 nacimientos. Las filas siguen en los datos y las descargas; por defecto quedan fuera de las escalas de los gráficos y de los Hallazgos.",
                    "Rules: rate above 200 per 1,000; derived deaths at least half the births; a published rate on fewer than 10 births. The rows stay in the data and the downloads; by default they are kept out of chart scales and the Findings.",
                )}</p></HowCalculated>
                <IncludeFlagged/>
                <details>
                    <summary data-testid="flagged-summary">{summary}</summary>
                    <div class="scroll">
                        <table data-testid="flagged-table">
                            <thead><tr>
                                <th class="text">{tr("Código", "Code")}</th><th class="text">{tr("Comuna", "Commune")}</th><th>{tr("Año", "Year")}</th>
                                <th>{tr("Nacimientos", "Births")}</th><th>{tr("Tasa ‰", "Rate ‰")}</th><th class="text">{tr("Motivos", "Reasons")}</th><th class="text">{tr("Archivo:línea", "File:line")}</th>
                            </tr></thead>
                            <tbody>{rows}</tbody>
                        </table>
                    </div>
                </details>
            </section>
        })
    }
}
