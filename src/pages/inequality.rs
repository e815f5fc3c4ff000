//! (in progress)
use leptos::prelude::*;

#[component]
pub fn InequalityPage() -> impl IntoView {
    view! { <p>"…"</p> }
}
