//! The page's one checkbox: an input bound to a boolean signal and its label after it, the
//! input's id also its test id. The include choices, the microdata breakdowns and the Models
//! view's interval toggle wrote these lines each time.

use leptos::prelude::*;

/// A checkbox bound to `checked`, labelled by `children` (a `<label for=id>`); `id` is also the
/// input's `data-testid`.
#[component]
pub fn Checkbox(id: &'static str, checked: RwSignal<bool>, children: Children) -> impl IntoView {
    view! {
        <input
            id=id
            type="checkbox"
            data-testid=id
            prop:checked=move || checked.get()
            on:change=move |ev| checked.set(event_target_checked(&ev))
        />
        <label for=id>{children()}</label>
    }
}
