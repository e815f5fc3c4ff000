//! Entry point of the page: install the panic hook and mount the app. Nothing else lives here.

mod app;
mod assets;
mod components;
mod fragment;
mod i18n;
mod messages;
mod pages;
mod state;

fn main() {
    console_error_panic_hook::set_once();
    leptos::mount::mount_to_body(app::App);
}
