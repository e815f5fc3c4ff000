//! Where the legend sits on the map: in the part of the map in view, at the engine's spot that
//! covers no commune with data ([`imr_core::map::layout::MapLayout::legend_in_view`]), measured
//! after each view change (zoom, pan, "Communes with data"), new colours and window resize.
//! The whole country keeps the layout's legend box, where the exported map draws it; a view
//! with no free spot (communes in every corner and side) has the legend beside the map when
//! the map's column leaves room for it on its right (a desktop, where under the map is below
//! the first screen), else under the map (a phone), the map then shorter by the legend's
//! height so that both stay in the first screen.

use super::gestures::MapView;
use super::pan_zoom::ViewBox;
use super::{Drawn, Geometry};
use crate::state::Shared;
use imr_core::map::projection::Rect;
use imr_core::map::svg::Colouring;
use leptos::html::Div;
use leptos::prelude::*;

/// The legend's place: percent of the map from its left and top, beside the map (at most
/// `room` CSS pixels wide), or under the map.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) enum Spot {
    On { left: f64, top: f64 },
    Beside { room: f64 },
    Below,
}

/// The gap between the map and a legend beside it, in CSS pixels.
const BESIDE_GAP_PX: f64 = 8.0;

/// The widest the map's column gets (the map, its zoom bar and search, a legend beside it), in
/// CSS pixels; narrower, it is as wide as the map and the legend beside it need
/// ([`LegendSpot::column_style`]), so that the notes stand next to the map, not 300 px of white
/// away from the whole country's narrow map on a desktop.
pub(super) const MAP_COLUMN_MAX_PX: f64 = 640.0;

/// The gap between the map and a legend under it (its `margin-top: 0.3rem`), in CSS pixels.
const BELOW_GAP_PX: f64 = 5.0;

/// Where a legend `legend_px` wide goes that fits nowhere on the map drawn `map_px` wide in a
/// column `column_px` wide: beside the map when the column leaves room for it, else under it.
fn off_map(map_px: f64, column_px: f64, legend_px: f64) -> Spot {
    let room = column_px - map_px - BESIDE_GAP_PX;
    match room >= legend_px {
        true => Spot::Beside { room },
        false => Spot::Below,
    }
}

/// The legend's element and its spot, kept up to date with the view: the spot and the view box
/// it was chosen for (`None`: the layout's legend box, before any is measured).
#[derive(Clone, Copy)]
pub(super) struct LegendSpot {
    pub node: NodeRef<Div>,
    spot: RwSignal<(Spot, Option<ViewBox>)>,
    /// The legend's height in CSS pixels (and its margin) when it is under the map, else 0:
    /// the map is made that much shorter, so that on a phone the legend under it stays in the
    /// first screen (a 12-commune upload had it start at 842 px of an 844 px screen).
    below_px: RwSignal<f64>,
    /// The room a legend beside the map takes (the gap and its width) in CSS pixels, else 0:
    /// the map's column is that much wider than the map.
    beside_px: RwSignal<f64>,
}

impl LegendSpot {
    /// Starts on the layout's legend box and follows the view, the colours and the window's size.
    pub fn follow(
        geo: Shared<Geometry>,
        view: MapView,
        colouring: Memo<Option<Shared<Colouring>>>,
        result: Memo<Option<Shared<Drawn>>>,
        data_box: Memo<Option<ViewBox>>,
    ) -> Self {
        let layout = &geo.prepared.layout;
        let spot = RwSignal::new((
            Spot::On {
                left: 100.0 * layout.legend.x / layout.width,
                top: 100.0 * layout.legend.y / layout.height,
            },
            None,
        ));
        let this = LegendSpot {
            node: NodeRef::new(),
            spot,
            below_px: RwSignal::new(0.0),
            beside_px: RwSignal::new(0.0),
        };
        let resized = RwSignal::new(0u32);
        let handle = window_event_listener(leptos::ev::resize, move |_| {
            resized.try_update(|n| *n += 1);
        });
        on_cleanup(move || handle.remove());
        Effect::new(move |_| {
            let vb = view.view_box.get();
            colouring.track();
            resized.track();
            // The map's size follows the room measured under its top.
            view.room_px.track();
            let has_data: Option<Vec<bool>> = result.with(|r| {
                r.as_ref()
                    .map(|r| r.values.iter().map(Option::is_some).collect())
            });
            let geo = geo.clone();
            // Measured once the legend is drawn (its size in CSS pixels, the map's width). By
            // then the map may be gone (new boundaries, another view): every value is read with
            // `try_`, which gives nothing for a disposed one instead of panicking.
            request_animation_frame(move || {
                let (Some(el), Some(svg), Some(has_data)) = (
                    this.node.try_get_untracked().flatten(),
                    view.svg_ref.try_get_untracked().flatten(),
                    has_data,
                ) else {
                    return;
                };
                let map_px = svg.get_bounding_client_rect().width();
                // The room the map's column may take (the map, its zoom bar and search): the
                // figure's width up to the column's widest, not the column's own width, which
                // is sized to what it holds.
                let column_px = el
                    .closest(".map-figure")
                    .ok()
                    .flatten()
                    .map_or(0.0, |c| c.get_bounding_client_rect().width())
                    .min(MAP_COLUMN_MAX_PX);
                let (w, h) = (el.offset_width() as f64, el.offset_height() as f64);
                if map_px <= 0.0 || w <= 0.0 {
                    return;
                }
                let k = vb.2 / map_px;
                let frame = Rect::new(vb.0, vb.1, vb.2, vb.3);
                let at =
                    geo.prepared
                        .layout
                        .legend_in_view(frame, (w * k, h * k), &has_data, map_px);
                let next = if at.covers == 0 {
                    Spot::On {
                        left: 100.0 * (at.rect.x - vb.0) / vb.2,
                        top: 100.0 * (at.rect.y - vb.1) / vb.3,
                    }
                } else {
                    off_map(map_px, column_px, w)
                };
                if this.spot.try_get_untracked() != Some((next, Some(vb))) {
                    this.spot.try_set((next, Some(vb)));
                }
                // The column widens by a legend put beside the map (as the reader zooms, the
                // notes to its right move, the map does not).
                let beside = match next {
                    Spot::Beside { .. } => BESIDE_GAP_PX + w,
                    _ => 0.0,
                };
                if this.beside_px.try_get_untracked() != Some(beside) {
                    this.beside_px.try_set(beside);
                }
                // Decided on the view the map opens on (the data's, else the whole page): a map
                // that changed size as the reader zooms and pans would move what she taps. A
                // smaller map leaves the legend less room on it, never more: it stays under.
                let opening = (data_box.try_get_untracked().flatten()).unwrap_or(view.full());
                if vb == opening {
                    let below = if next == Spot::Below {
                        h + BELOW_GAP_PX
                    } else {
                        0.0
                    };
                    if this.below_px.try_get_untracked() != Some(below) {
                        this.below_px.try_set(below);
                    }
                }
            });
        });
        this
    }

    /// The `style` of the map's column for a map drawn `map_px` wide (`None`: not yet known):
    /// as wide as the map and a legend beside it, at most [`MAP_COLUMN_MAX_PX`].
    pub fn column_style(&self, map_px: Option<f64>) -> String {
        let need = map_px.map_or(MAP_COLUMN_MAX_PX, |w| w.ceil() + self.beside_px.get());
        format!("max-width:{:.0}px", need.min(MAP_COLUMN_MAX_PX))
    }

    /// The height the legend takes under the map (0 when it is on or beside it), in CSS pixels.
    pub fn below_px(&self) -> f64 {
        self.below_px.get()
    }

    /// The legend's `style`: where it is, and its width at most `max_width` percent of the map.
    pub fn style(&self, max_width: f64) -> String {
        match self.spot.get().0 {
            Spot::On { left, top } => {
                format!("left:{left:.2}%;top:{top:.2}%;width:max-content;max-width:{max_width:.2}%")
            }
            Spot::Beside { room } => format!(
                "left:calc(100% + {BESIDE_GAP_PX}px);top:0;width:max-content;max-width:{room:.0}px"
            ),
            // As wide as the screen allows, not a share of the map: the map shrinks by the
            // legend's height, which must not change with it.
            Spot::Below => {
                "position:static;width:max-content;max-width:calc(100vw - 2rem);margin-top:0.3rem"
                    .to_string()
            }
        }
    }

    /// The view box the spot was chosen for, written as the map's `viewBox` (empty before the
    /// legend is measured): `data-view` of the legend, for the tests to wait on.
    pub fn view(&self) -> String {
        (self.spot.get().1)
            .map(|vb| format!("{} {} {} {}", vb.0, vb.1, vb.2, vb.3))
            .unwrap_or_default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_legend_with_no_free_spot_goes_beside_the_map_when_the_column_has_room_else_under() {
        // 1366×768: the zoomed map 325 px wide in a 640 px column, a 200 px legend.
        assert_eq!(off_map(325.0, 640.0, 200.0), Spot::Beside { room: 307.0 });
        // A phone: the map is the column.
        assert_eq!(off_map(358.0, 358.0, 200.0), Spot::Below);
        assert_eq!(off_map(325.0, 500.0, 200.0), Spot::Below);
    }
}
