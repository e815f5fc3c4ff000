//! The map's view box under zoom, pan and pinch: plain geometry, tested natively.

use imr_core::map::layout::MapLayout;

/// The current viewBox of the map: x, y, width, height.
pub(super) type ViewBox = (f64, f64, f64, f64);

/// Grows `rect` about its centre to the aspect ratio of the page, with a margin, so that the
/// region fills the view without distortion.
pub(super) fn fit_aspect(x: f64, y: f64, w: f64, h: f64, page_w: f64, page_h: f64) -> ViewBox {
    let (cx, cy) = (x + w / 2.0, y + h / 2.0);
    let (mut w, mut h) = (w.max(1.0) * 1.15, h.max(1.0) * 1.15);
    let aspect = page_w / page_h;
    if w / h > aspect {
        h = w / aspect;
    } else {
        w = h * aspect;
    }
    (cx - w / 2.0, cy - h / 2.0, w, h)
}

/// The view the map opens on when the data cover part of the country (an upload of a few
/// communes): the box of the areas with data fitted to the page ([`fit_aspect`]); `None` when
/// half of the areas or more have data, or when their box would fill half the page or more.
pub(super) fn data_view_box(layout: &MapLayout, has_data: &[bool]) -> Option<ViewBox> {
    let with = has_data.iter().filter(|d| **d).count();
    if with == 0 || 2 * with >= has_data.len() {
        return None;
    }
    let areas = (has_data.iter().enumerate()).filter_map(|(a, d)| d.then_some(a));
    let r = layout.bounds_of(areas)?;
    let vb = fit_aspect(r.x, r.y, r.width, r.height, layout.width, layout.height);
    (vb.2 * vb.3 < 0.5 * layout.width * layout.height).then_some(vb)
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

    /// A few communes of the bundled map are zoomed to (their box inside the view); most of
    /// the country, or none, keeps the whole page.
    #[test]
    fn a_few_communes_with_data_are_zoomed_to_and_most_of_the_country_is_not() {
        let geometry = imr_core::map::geometry::GeoLayer::from_str(
            imr_core::data::BOUNDARIES_TOPOJSON,
            None,
            &Default::default(),
        )
        .unwrap();
        let layout =
            MapLayout::build(&geometry, &imr_core::map::layout::LayoutSpec::chile()).unwrap();
        let n = geometry.areas.len();
        // Concepción's province (8101…8112 in the Biobío region).
        let mut few = vec![false; n];
        for code in ["08101", "08102", "08103", "08108", "08110"] {
            few[geometry.index_of(code).unwrap()] = true;
        }
        let vb = data_view_box(&layout, &few).unwrap();
        let r = layout.bounds_of((0..n).filter(|&a| few[a])).unwrap();
        assert!(vb.0 <= r.x && vb.1 <= r.y);
        assert!(vb.0 + vb.2 >= r.x + r.width && vb.1 + vb.3 >= r.y + r.height);
        assert!(vb.2 * vb.3 < 0.1 * layout.width * layout.height, "{vb:?}");
        assert!((vb.2 / vb.3 - layout.width / layout.height).abs() < 1e-9);
        assert_eq!(data_view_box(&layout, &vec![true; n]), None);
        assert_eq!(data_view_box(&layout, &vec![false; n]), None);
        // One commune at each end of the country: their box is most of the page.
        let mut ends = vec![false; n];
        for code in ["15101", "12101"] {
            ends[geometry.index_of(code).unwrap()] = true;
        }
        assert_eq!(data_view_box(&layout, &ends), None);
    }

    /// Fingers twice as far apart halve the view box; the map point that was under their
    /// midpoint stays under it, wherever the midpoint moved.
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
