//! (in progress)
use leptos::prelude::*;

#[component]
pub fn MapPage() -> impl IntoView {
    view! { <p>"…"</p> }
}
