//! The map's view box under the reader's hands: zoom about a point (wheel, buttons), drag with
//! one pointer, pinch with two, and a touch that barely moves is a tap. The geometry of each
//! step is in [`super::pan_zoom`], tested natively.

use super::pan_zoom::{pinched, Pinch, ViewBox, TAP_SLOP_PX};
use leptos::ev::PointerEvent;
use leptos::prelude::*;

/// The zoom limit: the view box is at least 1/40 of the page wide.
const MAX_ZOOM: f64 = 40.0;

/// The map's view box on a page of `page` (width, height) map units, the SVG element that
/// shows it (for client-to-map coordinates), its width on screen and the height left for it
/// under what is above it in the window, in CSS pixels (0 before they are measured;
/// [`MapView::follow_shown_width`]).
#[derive(Clone, Copy)]
pub(super) struct MapView {
    pub view_box: RwSignal<ViewBox>,
    pub page: (f64, f64),
    pub svg_ref: NodeRef<leptos::svg::Svg>,
    pub shown_px: RwSignal<f64>,
    pub room_px: RwSignal<f64>,
}

impl MapView {
    /// The whole page in view.
    pub fn new(page_w: f64, page_h: f64) -> Self {
        MapView {
            view_box: RwSignal::new((0.0, 0.0, page_w, page_h)),
            page: (page_w, page_h),
            svg_ref: NodeRef::new(),
            shown_px: RwSignal::new(0.0),
            room_px: RwSignal::new(0.0),
        }
    }

    /// Keeps [`MapView::shown_px`] the map's width on screen (the insets' labels are sized by
    /// it to be legible) and [`MapView::room_px`] the window's height under the map's top when
    /// the page is scrolled to its top (the map is made no taller: with the reader's file named
    /// above the view, a 1366×768 desktop had the map's foot below the first screen):
    /// measured once it is drawn and after each window resize.
    pub fn follow_shown_width(self) {
        let resized = RwSignal::new(0u32);
        let handle = window_event_listener(leptos::ev::resize, move |_| {
            resized.try_update(|n| *n += 1);
        });
        on_cleanup(move || handle.remove());
        Effect::new(move |_| {
            resized.track();
            let Some(svg) = self.svg_ref.get() else {
                return;
            };
            request_animation_frame(move || {
                let rect = svg.get_bounding_client_rect();
                let px = rect.width();
                if px > 0.0 && self.shown_px.try_get_untracked() != Some(px) {
                    self.shown_px.try_set(px);
                }
                let Some(window) = web_sys::window() else {
                    return;
                };
                let scrolled = window.scroll_y().unwrap_or(0.0);
                let height = (window.inner_height().ok())
                    .and_then(|h| h.as_f64())
                    .unwrap_or(0.0);
                // Its top in the page, less a margin and the border.
                let room = (height - (rect.top() + scrolled) - 8.0).floor();
                if room > 0.0 && self.room_px.try_get_untracked() != Some(room) {
                    self.room_px.try_set(room);
                }
            });
        });
    }

    /// The view box of the whole page.
    pub fn full(&self) -> ViewBox {
        (0.0, 0.0, self.page.0, self.page.1)
    }

    /// Zooms by `factor` (< 1: in) keeping the map point (`cx`, `cy`) where it is, within the
    /// whole page and [`MAX_ZOOM`].
    pub fn zoom_by(&self, factor: f64, cx: f64, cy: f64) {
        let (page_w, page_h) = self.page;
        self.view_box.update(|vb| {
            let w = (vb.2 * factor).clamp(page_w / MAX_ZOOM, page_w);
            let h = w * page_h / page_w;
            let x = cx - (cx - vb.0) * w / vb.2;
            let y = cy - (cy - vb.1) * h / vb.3;
            *vb = (x, y, w, h);
        })
    }

    /// Zooms by `factor` about the centre of the view.
    pub fn zoom_centre(&self, factor: f64) {
        let vb = self.view_box.get_untracked();
        self.zoom_by(factor, vb.0 + vb.2 / 2.0, vb.1 + vb.3 / 2.0)
    }

    /// Client coordinates to the map's units (the viewBox keeps the page's aspect ratio).
    pub fn map_point(&self, client_x: f64, client_y: f64) -> Option<(f64, f64)> {
        let svg = self.svg_ref.get_untracked()?;
        let r = svg.get_bounding_client_rect();
        let vb = self.view_box.get_untracked();
        (r.width() > 0.0).then(|| {
            (
                vb.0 + (client_x - r.left()) / r.width() * vb.2,
                vb.1 + (client_y - r.top()) / r.height() * vb.3,
            )
        })
    }
}

/// The pointers on the map by id (mouse, pen or fingers): one drags the view, two pinch it, and a
/// touch that moves less than [`TAP_SLOP_PX`] is a tap.
#[derive(Clone, Copy)]
pub(super) struct Gestures {
    view: MapView,
    pointers: StoredValue<Vec<(i32, f64, f64)>>,
    pinch: StoredValue<Option<Pinch>>,
    tap: StoredValue<Option<(i32, f64, f64)>>,
    drag: StoredValue<Option<(f64, f64, ViewBox)>>,
}

impl Gestures {
    pub fn new(view: MapView) -> Self {
        Gestures {
            view,
            pointers: StoredValue::new(Vec::new()),
            pinch: StoredValue::new(None),
            tap: StoredValue::new(None),
            drag: StoredValue::new(None),
        }
    }

    /// A pointer down: the first starts a drag (and maybe a tap), the second a pinch.
    pub fn down(&self, ev: &PointerEvent) {
        let (id, x, y) = (ev.pointer_id(), ev.client_x() as f64, ev.client_y() as f64);
        self.pointers.update_value(|ps| {
            ps.retain(|p| p.0 != id);
            ps.push((id, x, y));
        });
        let view_box = self.view.view_box.get_untracked();
        match self.pointers.get_value().as_slice() {
            [_] => {
                self.drag.set_value(Some((x, y, view_box)));
                self.tap
                    .set_value((ev.pointer_type() == "touch").then_some((id, x, y)));
            }
            [a, b, ..] => {
                self.drag.set_value(None);
                self.tap.set_value(None);
                let distance = (a.1 - b.1).hypot(a.2 - b.2);
                let anchor = self.view.map_point((a.1 + b.1) / 2.0, (a.2 + b.2) / 2.0);
                self.pinch
                    .set_value(anchor.filter(|_| distance > 0.0).map(|anchor| Pinch {
                        distance,
                        view_box,
                        anchor,
                    }));
            }
            [] => {}
        }
    }

    /// A pointer moved: pinch, or drag, and a tap that moved too far is no tap.
    pub fn moved(&self, ev: &PointerEvent) {
        let (id, x, y) = (ev.pointer_id(), ev.client_x() as f64, ev.client_y() as f64);
        self.pointers.update_value(|ps| {
            if let Some(p) = ps.iter_mut().find(|p| p.0 == id) {
                (p.1, p.2) = (x, y);
            }
        });
        if self
            .tap
            .get_value()
            .is_some_and(|t| t.0 == id && (x - t.1).hypot(y - t.2) > TAP_SLOP_PX)
        {
            self.tap.set_value(None);
        }
        let Some(svg) = self.view.svg_ref.get_untracked() else {
            return;
        };
        let r = svg.get_bounding_client_rect();
        if let Some(p) = self.pinch.get_value() {
            let ps = self.pointers.get_value();
            let (Some(a), Some(b)) = (ps.first(), ps.get(1)) else {
                return;
            };
            let distance = (a.1 - b.1).hypot(a.2 - b.2);
            if distance > 0.0 && r.width() > 0.0 && r.height() > 0.0 {
                let (page_w, page_h) = self.view.page;
                self.view.view_box.set(pinched(
                    &p,
                    distance,
                    ((a.1 + b.1) / 2.0 - r.left()) / r.width(),
                    ((a.2 + b.2) / 2.0 - r.top()) / r.height(),
                    page_w,
                    page_h,
                ));
            }
            return;
        }
        let Some((x0, y0, vb)) = self.drag.get_value() else {
            return;
        };
        let (dx, dy) = (x - x0, y - y0);
        if dx.abs() + dy.abs() > 3.0 && r.width() > 0.0 {
            self.view.view_box.set((
                vb.0 - dx / r.width() * vb.2,
                vb.1 - dy / r.height() * vb.3,
                vb.2,
                vb.3,
            ));
        }
    }

    /// A pointer lifted, cancelled or gone: the pinch ends (a finger left on the map drags on
    /// from where it is), a single pointer's drag ends.
    pub fn end(&self, ev: &PointerEvent) {
        let id = ev.pointer_id();
        self.pointers.update_value(|ps| ps.retain(|p| p.0 != id));
        if self.tap.get_value().is_some_and(|t| t.0 == id) {
            self.tap.set_value(None);
        }
        if self.pinch.get_value().is_some() {
            self.pinch.set_value(None);
            let rest = self.pointers.get_value().first().copied();
            let view_box = self.view.view_box.get_untracked();
            self.drag.set_value(rest.map(|p| (p.1, p.2, view_box)));
        } else {
            self.drag.set_value(None);
        }
    }

    /// A pointer lifted ([`Gestures::end`]): whether it was a tap.
    pub fn up(&self, ev: &PointerEvent) -> bool {
        let tapped = ev.pointer_type() == "touch"
            && self.tap.get_value().is_some_and(|t| t.0 == ev.pointer_id());
        self.end(ev);
        tapped
    }
}
