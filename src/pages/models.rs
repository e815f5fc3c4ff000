//! (in progress)
use leptos::prelude::*;

#[component]
pub fn ModelsPage() -> impl IntoView {
    view! { <p>"…"</p> }
}
