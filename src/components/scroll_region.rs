//! A wide table in a region of its own that scrolls sideways on a phone: focusable
//! (`tabindex="0"`) so that a keyboard can scroll it, and a named `region` so that a screen
//! reader says what it holds (axe-core's `scrollable-region-focusable`). The Inequality view's
//! tables wrote these lines each time.

use crate::messages::{msg, Text};
use leptos::prelude::*;

/// `children` (a table) in a scrolling region named `label`.
#[component]
pub fn ScrollRegion(label: Text, children: Children) -> impl IntoView {
    view! {
        <div class="scroll" tabindex="0" role="region" aria-label=msg(label)>
            {children()}
        </div>
    }
}
