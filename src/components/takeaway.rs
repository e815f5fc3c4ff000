//! [`Takeaway`]: a detailed view's lead line, the Findings' answer to its question.

use crate::i18n::lang;
use crate::messages::messages;
use crate::state::AnalysisState;
use leptos::prelude::*;

/// The one-line answer a detailed view leads with: the Findings' answer to `question` on the
/// same data, prefixed by what it is computed on (it may differ from the view's own choices).
#[component]
pub fn Takeaway(question: &'static str) -> impl IntoView {
    let analysis = expect_context::<AnalysisState>();
    move || {
        let f = analysis.findings.get()?;
        let l = lang().get();
        // The view's headline: a missing answer's hint names the place in this view.
        let headline = f.headline_in_view(l, question)?;
        let texts = &messages(l).findings;
        let basis = match question {
            "models" => texts.takeaway_models,
            "where" => texts.takeaway_where,
            _ => texts.takeaway,
        };
        Some(view! {
            <p class="takeaway" data-testid="takeaway">
                <strong>{basis}</strong>
                {headline}
            </p>
        })
    }
}
