//! Downloads of the map (SVG identical to `imr map`, PNG, CSV) and the `imr map` command that
//! writes the same SVG: the request's `to_args`, quoted by the one shell rule
//! ([`imr_core::escape::shell_join`]).

use super::{BoundaryError, Drawn, Geometry, MapError};
use crate::components::download::{download_csv, download_text};
use crate::messages::msg;
use crate::state::{AppState, Shared};
use imr_core::escape::{shell_join, CsvOptions};
use imr_core::map::svg::Colouring;
use imr_core::request::{command_line, MapExport, MapRequest};
use leptos::prelude::*;
use leptos::task::spawn_local;
use wasm_bindgen::JsCast;

/// Downloads (SVG as `imr map`, PNG, CSV) and the command that writes the same SVG.
#[component]
pub(super) fn Downloads(
    geometry: RwSignal<Result<Shared<Geometry>, BoundaryError>>,
    /// The request of the controls (with the LISA option).
    request: Memo<Option<Result<MapRequest, MapError>>>,
    result: Memo<Option<Shared<Drawn>>>,
    colouring: Memo<Option<Shared<Colouring>>>,
) -> impl IntoView {
    let state = expect_context::<AppState>();
    // the name of a file of the map as drawn (the LISA option from the controls' request)
    let file_name = move |export: MapExport, r: &Drawn| {
        request.with_untracked(|q| match q {
            Some(Ok(q)) => export.file_name(q, r.map.measure()),
            _ => export.file_name(r.map.request(), r.map.measure()),
        })
    };
    // a file of the map as drawn, written by the engine as `imr map` writes it
    let file = move |export: MapExport| -> Option<(String, String)> {
        let geo = geometry.get_untracked().ok()?;
        let r = result.get_untracked()?;
        let c = colouring.get_untracked()?;
        let figure = r.figure(&geo.prepared, &c);
        let text = export.write(&figure, CsvOptions::default()).ok()?;
        Some((file_name(export, &r), text))
    };
    let download_svg = move |_| {
        if let Some((file, svg)) = file(MapExport::Map) {
            download_text(&file, "image/svg+xml", &svg);
        }
    };
    let download_png = move |_| {
        if let Some((file, svg)) = file(MapExport::Map) {
            let png = file.trim_end_matches(".svg").to_string() + ".png";
            spawn_local(async move {
                if let Err(e) = svg_to_png(&svg, &png).await {
                    leptos::logging::error!("PNG: {e:?}");
                }
            });
        }
    };
    let download_csv = move |_| {
        if let Some((file, csv)) = file(MapExport::Data) {
            download_csv(&state, &file, &csv);
        }
    };
    // The request's own arguments after the files and the column roles of the first file; the
    // SVG and CSV named as the page's downloads.
    let command = move || -> Option<String> {
        let request = request.get()?.ok()?;
        let r = result.get()?;
        let input = state.input_spec();
        let args = request.export_args(r.map.measure(), &[MapExport::Map, MapExport::Data]);
        Some(shell_join(command_line(
            MapRequest::SUBCOMMAND,
            &input,
            args,
        )))
    };
    view! {
        <div
            class="downloads"
            style="display:flex;flex-wrap:wrap;gap:0.5rem;align-items:center;margin:0.6rem 0"
        >
            <button class="secondary" data-testid="download-svg" on:click=download_svg>
                {msg(|m| m.common.download_svg)}
            </button>
            <button class="secondary" data-testid="download-png" on:click=download_png>
                {msg(|m| m.map.download_png)}
            </button>
            <button class="secondary" data-testid="download-csv" on:click=download_csv>
                {msg(|m| m.common.download_csv)}
            </button>
        </div>
        {move || {
            command()
                .map(|c| {
                    view! {
                        <p class="note">
                            {msg(|m| m.map.same_svg_from_command)}
                            <code data-testid="map-command">{c}</code>
                        </p>
                    }
                })
        }}
    }
}

/// Draws an SVG document into a canvas (twice its own size: the map of a few communes is 800 ×
/// 800, not the whole country's 640 × 1200, which stretched it) through an `Image` of a `blob:`
/// URL, and downloads the canvas as PNG. No request leaves the page.
async fn svg_to_png(svg: &str, file_name: &str) -> Result<(), wasm_bindgen::JsValue> {
    use wasm_bindgen::JsValue;
    let document = web_sys::window()
        .and_then(|w| w.document())
        .ok_or_else(|| JsValue::from_str("no document"))?;
    let parts = js_sys::Array::of1(&JsValue::from_str(svg));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("image/svg+xml");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let image = web_sys::HtmlImageElement::new()?;
    let loaded = js_sys::Promise::new(&mut |resolve, reject| {
        image.set_onload(Some(&resolve));
        image.set_onerror(Some(&reject));
    });
    image.set_src(&url);
    let waited = wasm_bindgen_futures::JsFuture::from(loaded).await;
    let _ = web_sys::Url::revoke_object_url(&url);
    waited?;
    let (width, height) = (image.natural_width() as f64, image.natural_height() as f64);
    let scale = 2.0;
    let canvas: web_sys::HtmlCanvasElement = document.create_element("canvas")?.dyn_into()?;
    canvas.set_width((width * scale) as u32);
    canvas.set_height((height * scale) as u32);
    let context: web_sys::CanvasRenderingContext2d = canvas
        .get_context("2d")?
        .ok_or_else(|| JsValue::from_str("no 2d context"))?
        .dyn_into()?;
    context.draw_image_with_html_image_element_and_dw_and_dh(
        &image,
        0.0,
        0.0,
        width * scale,
        height * scale,
    )?;
    // The PNG goes through a Blob and the one download path (a data: URL of a large map is a
    // multi-MB string in the page's memory, and it would bypass the object-URL lifetime rule).
    let encoded = js_sys::Promise::new(&mut |resolve, reject| {
        if canvas.to_blob_with_type(&resolve, "image/png").is_err() {
            let _ = reject.call1(&JsValue::NULL, &JsValue::from_str("canvas.toBlob failed"));
        }
    });
    let blob: web_sys::Blob = wasm_bindgen_futures::JsFuture::from(encoded)
        .await?
        .dyn_into()?;
    crate::components::download::download_blob(file_name, &blob);
    Ok(())
}
