//! The map's view box under zoom, pan and pinch: plain geometry, tested natively.

use imr_core::map::focus::FRAME_MARGIN;
use imr_core::map::layout::MapLayout;
use imr_core::map::projection::Rect;

/// The current viewBox of the map: x, y, width, height.
pub(super) type ViewBox = (f64, f64, f64, f64);

/// Grows `rect` about its centre to the aspect ratio of the page, with a margin, so that the
/// region fills the view without distortion (the engine's [`imr_core::map::projection::Rect::framed`]).
pub(super) fn fit_aspect(x: f64, y: f64, w: f64, h: f64, page_w: f64, page_h: f64) -> ViewBox {
    let r = Rect::new(x, y, w, h).framed(FRAME_MARGIN, page_w / page_h);
    (r.x, r.y, r.width, r.height)
}

/// The view the map opens on when the data cover part of the country (an upload of a few
/// communes): the engine's [`MapLayout::data_focus`], the rule that also makes the exported
/// map one of those communes alone.
pub(super) fn data_view_box(layout: &MapLayout, has_data: &[bool]) -> Option<ViewBox> {
    let r = layout.data_focus(has_data)?;
    Some((r.x, r.y, r.width, r.height))
}

/// The smallest a commune may be on screen (CSS pixels, its larger side) for a finger to tap it:
/// WCAG 2.2's minimum target size (success criterion 2.5.8) is 24 × 24 px.
pub(super) const MIN_TAP_TARGET_PX: f64 = 24.0;

/// The zoom factor (of the view box's width; below 1 zooms in) a tap on a commune drawn `w` × `h`
/// CSS pixels asks for: `None` when the commune is big enough to tap ([`MIN_TAP_TARGET_PX`]),
/// else the factor that draws it twice that size (a 7 px commune of the Santiago inset on a
/// phone: about 7×), the map's own zoom limit still applying.
pub(super) fn tap_zoom(w: f64, h: f64) -> Option<f64> {
    let side = w.max(h);
    (side < MIN_TAP_TARGET_PX).then(|| side.max(1.0) / (2.0 * MIN_TAP_TARGET_PX))
}

/// How far (CSS pixels) a finger may move between touching and lifting for a tap.
pub(super) const TAP_SLOP_PX: f64 = 10.0;

/// A two-finger pinch in progress: the fingers' distance and the view box when it started, and
/// the map point under their midpoint then (it stays under the midpoint).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(super) struct Pinch {
    pub distance: f64,
    pub view_box: ViewBox,
    pub anchor: (f64, f64),
}

/// The view box of a pinch when the fingers are `distance` apart with their midpoint at
/// (`fx`, `fy`), fractions of the map's width and height: the start's width scaled by the ratio
/// of the distances (apart = zoom in), within the whole page and 40× zoom, keeping the page's
/// aspect and the anchor under the midpoint.
pub(super) fn pinched(
    p: &Pinch,
    distance: f64,
    fx: f64,
    fy: f64,
    page_w: f64,
    page_h: f64,
) -> ViewBox {
    let w = (p.view_box.2 * p.distance / distance).clamp(page_w / 40.0, page_w);
    let h = w * page_h / page_w;
    (p.anchor.0 - fx * w, p.anchor.1 - fy * h, w, h)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_commune_too_small_for_a_finger_is_zoomed_to_twice_the_target() {
        assert_eq!(tap_zoom(30.0, 5.0), None);
        assert_eq!(tap_zoom(24.0, 24.0), None);
        let f = tap_zoom(7.0, 6.0).unwrap();
        assert!((7.0 / f - 2.0 * MIN_TAP_TARGET_PX).abs() < 1e-9);
        // A commune drawn as a dot still zooms, by a bounded factor.
        assert!(tap_zoom(0.0, 0.0).unwrap() > 0.0);
    }

    #[test]
    fn a_pinch_scales_the_view_box_about_the_fingers() {
        let (page_w, page_h) = (640.0, 1200.0);
        let start = Pinch {
            distance: 50.0,
            view_box: (0.0, 0.0, page_w, page_h),
            anchor: (320.0, 300.0),
        };
        let (x, y, w, h) = pinched(&start, 100.0, 0.5, 0.25, page_w, page_h);
        assert_eq!((w, h), (320.0, 600.0));
        assert_eq!((x + 0.5 * w, y + 0.25 * h), start.anchor);
        // Moved midpoint: the anchor follows it (two-finger pan).
        let (x, y, w, h) = pinched(&start, 100.0, 0.2, 0.6, page_w, page_h);
        assert_eq!((x + 0.2 * w, y + 0.6 * h), start.anchor);
        // Fingers closer together zoom out, but never beyond the whole page, nor in past 40×.
        assert_eq!(pinched(&start, 10.0, 0.5, 0.5, page_w, page_h).2, page_w);
        assert_eq!(
            pinched(&start, 1e6, 0.5, 0.5, page_w, page_h).2,
            page_w / 40.0
        );
    }
}
