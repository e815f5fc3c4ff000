//! Entry point of the page: install the panic hook and mount the app. Nothing else lives here.

mod app;
mod assets;
mod components;
mod fragment;
mod i18n;
mod messages;
mod pages;
mod prerender;
mod state;

fn main() {
    console_error_panic_hook::set_once();
    // Into its own root, which waits out of the document while a prerendered copy of the
    // Findings is shown (src/prerender.rs).
    match prerender::app_root() {
        Some(root) => leptos::mount::mount_to(root, app::App).forget(),
        None => leptos::mount::mount_to_body(app::App),
    }
}
