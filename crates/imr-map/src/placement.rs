//! Where the legend and the insets' labels go so that they hide nothing and are not cut off
//! (issue 42: on a map zoomed on an upload of 21 Santiago communes the legend covered four of
//! them, La Pintana among them, and the region inset's label showed as "ntiago").
//!
//! The rule, for a legend of a given size in a frame (the page, or the part of it in view):
//! the spots tried are the layout's own legend box, then the frame's four corners, the middles
//! of its four sides and a grid over it ([`legend_candidates`]), each `LEGEND_GAP` from the
//! edges; the first that overlaps no screen box of an area with data (nor an inset's label)
//! wins, else the one overlapping the fewest (then the least area). So a spot that overlaps
//! none is found whenever one of those spots is free; when none is, [`LegendSpot::covers`] says
//! how many boxes the best one overlaps, and the caller puts the legend beside the map instead
//! (the page: under it, enlarging the figure), where it covers nothing either.

use crate::layout::MapLayout;
use crate::projection::Rect;

/// Room left between a legend and the edges of the frame it is placed in, in frame units.
pub const LEGEND_GAP: f64 = 4.0;

/// Width of an inset label's characters, as a share of its font size: wider than Helvetica's
/// average (about 0.52 of the size for Spanish words), so that an estimated box holds the text.
pub const LABEL_CHAR_WIDTH: f64 = 0.6;

/// A legend's place: its box and how many boxes of areas with data it overlaps (0: none).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct LegendSpot {
    pub rect: Rect,
    pub covers: usize,
}

/// Whether two rectangles share some area (touching edges do not).
pub fn overlaps(a: &Rect, b: &Rect) -> bool {
    a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
}

fn overlap_area(a: &Rect, b: &Rect) -> f64 {
    let w = (a.x + a.width).min(b.x + b.width) - a.x.max(b.x);
    let h = (a.y + a.height).min(b.y + b.height) - a.y.max(b.y);
    w.max(0.0) * h.max(0.0)
}

/// Whether `inner` lies within `outer` (up to a thousandth of a unit).
pub fn contains(outer: &Rect, inner: &Rect) -> bool {
    const EPS: f64 = 1e-3;
    inner.x >= outer.x - EPS
        && inner.y >= outer.y - EPS
        && inner.x + inner.width <= outer.x + outer.width + EPS
        && inner.y + inner.height <= outer.y + outer.height + EPS
}

/// The spots tried for a legend `width` × `height` in `frame`, in order: the frame's corners,
/// the middles of its sides, then a grid of 9 × 17 places over it; all `LEGEND_GAP` from its
/// edges (a legend larger than the frame is shrunk to it).
pub fn legend_candidates(frame: Rect, (width, height): (f64, f64)) -> Vec<Rect> {
    let g = LEGEND_GAP;
    let (w, h) = (
        width.min(frame.width - 2.0 * g).max(0.0),
        height.min(frame.height - 2.0 * g).max(0.0),
    );
    let (left, right) = (frame.x + g, frame.x + frame.width - g - w);
    let (top, bottom) = (frame.y + g, frame.y + frame.height - g - h);
    let (mid_x, mid_y) = ((left + right) / 2.0, (top + bottom) / 2.0);
    let mut spots = vec![
        (right, top),
        (left, top),
        (right, bottom),
        (left, bottom),
        (right, mid_y),
        (left, mid_y),
        (mid_x, top),
        (mid_x, bottom),
    ];
    for j in 0..=16 {
        for i in 0..=8 {
            let (fx, fy) = (i as f64 / 8.0, j as f64 / 16.0);
            spots.push((left + fx * (right - left), top + fy * (bottom - top)));
        }
    }
    spots
        .into_iter()
        .map(|(x, y)| Rect::new(x, y, w, h))
        .collect()
}

/// The spot for a legend `size` in `frame` ([the module's rule](self)): `preferred` first (when
/// it fits in the frame), then [`legend_candidates`]; the first that overlaps the fewest of
/// `occupied`, then the least of their area.
pub fn legend_spot(
    frame: Rect,
    size: (f64, f64),
    preferred: Option<Rect>,
    occupied: &[Rect],
) -> LegendSpot {
    let mut spots: Vec<Rect> = preferred
        .filter(|p| contains(&frame, p))
        .into_iter()
        .collect();
    spots.extend(legend_candidates(frame, size));
    let score = |r: &Rect| {
        let hit: Vec<&Rect> = occupied.iter().filter(|o| overlaps(r, o)).collect();
        (
            hit.len(),
            hit.iter().map(|o| overlap_area(r, o)).sum::<f64>(),
        )
    };
    let mut best = LegendSpot {
        rect: spots[0],
        covers: usize::MAX,
    };
    let mut best_area = f64::INFINITY;
    for rect in spots {
        let (covers, area) = score(&rect);
        if covers < best.covers || (covers == best.covers && area < best_area) {
            best = LegendSpot { rect, covers };
            best_area = area;
        }
        if covers == 0 {
            break;
        }
    }
    best
}

/// The font size of the insets' labels in a view `view_width` wide of a page `page_width` wide:
/// 11 units on the whole page, and the same size on screen when zoomed in.
pub fn label_font(page_width: f64, view_width: f64) -> f64 {
    LABEL_FONT * (view_width / page_width).min(1.0)
}

/// The insets' label size on the whole page (the exported map's).
pub const LABEL_FONT: f64 = 11.0;

/// The smallest an inset's label is shown on screen, in CSS pixels (the page's rule for text).
pub const MIN_LABEL_PX: f64 = 10.5;

/// The font size (map units) of the insets' labels in a view `view_width` wide of a page
/// `page_width` wide, shown `shown_px` CSS pixels wide: [`label_font`], or larger when that
/// would be shown under [`MIN_LABEL_PX`] (the whole country on a 390 px phone showed its 11
/// units at 6.3 px). The exported map keeps [`label_font`].
pub fn label_font_shown(page_width: f64, view_width: f64, shown_px: f64) -> f64 {
    let font = label_font(page_width, view_width);
    match shown_px.is_finite() && shown_px > 0.0 {
        true => font.max(MIN_LABEL_PX * view_width / shown_px),
        false => font,
    }
}

/// An inset's label of `font` size placed in `frame` (the page, or the part of it in view): the
/// text (the title, or when the whole title is wider than the frame and the inset its last
/// words from a capitalised one, a name on its own: "Metropolitana de Santiago", then
/// "Santiago"; the page read "…Metropolitana de Santiago") and its baseline's start, a little
/// above the inset's frame, moved right or left so the text's estimated box
/// ([`LABEL_CHAR_WIDTH`]) lies within the frame. `None` (not drawn) when the inset is out of
/// the frame, the label's line is above or below it, or not even the last name fits.
pub fn inset_label(
    title: &str,
    inset: Rect,
    font: f64,
    frame: Rect,
) -> Option<(String, (f64, f64))> {
    let room = frame.width.min(inset.width + 8.0) - 4.0;
    let width = |t: &str| t.chars().count() as f64 * font * LABEL_CHAR_WIDTH;
    let words: Vec<&str> = title.split_whitespace().collect();
    let names = (1..words.len())
        .filter(|&k| words[k].starts_with(char::is_uppercase))
        .map(|k| words[k..].join(" "));
    let text = std::iter::once(title.to_string())
        .chain(names)
        .find(|t| width(t) <= room)?;
    let w = width(&text);
    let x = inset
        .x
        .min(frame.x + frame.width - 2.0 - w)
        .max(frame.x + 2.0);
    let at = (x, inset.y - 4.0 - 2.0 * font / LABEL_FONT);
    let b = label_box(&text, at, font);
    let seen = overlaps(&inset.inset(-4.0), &frame);
    (seen && b.y >= frame.y && b.y + b.height <= frame.y + frame.height).then_some((text, at))
}

/// The estimated box of a label's text of `font` size whose baseline starts at `(x, y)`.
pub fn label_box(text: &str, (x, y): (f64, f64), font: f64) -> Rect {
    let w = text.chars().count() as f64 * font * LABEL_CHAR_WIDTH;
    Rect::new(x, y - font, w, 1.25 * font)
}

impl MapLayout {
    /// The screen boxes of every shape (in any panel) of the areas with data (`has_data[area]`):
    /// what a legend must not cover.
    pub fn data_boxes(&self, has_data: &[bool]) -> Vec<Rect> {
        (self.shapes.iter())
            .filter(|s| has_data.get(s.area).copied().unwrap_or(false))
            .map(|s| s.bounds)
            .collect()
    }

    /// Where a legend `size` (in the layout's units) goes in `view` (the part of the page in
    /// view), shown `shown_px` CSS pixels wide, so it covers no area with data nor an inset's
    /// label as the page draws it ([`label_font_shown`]: on a phone larger than the export's,
    /// which the legend covered the end of); the layout's own legend box is tried first, so the
    /// whole map keeps its legend where the export draws it.
    pub fn legend_in_view(
        &self,
        view: Rect,
        size: (f64, f64),
        has_data: &[bool],
        shown_px: f64,
    ) -> LegendSpot {
        let own = Rect::new(self.legend.x, self.legend.y, size.0, size.1);
        let mut occupied = self.data_boxes(has_data);
        let font = label_font_shown(self.width, view.width, shown_px);
        occupied.extend(
            (self.inset_labels_at(view, font).iter())
                .map(|(_, text, at)| label_box(text, *at, font)),
        );
        legend_spot(view, size, Some(own), &occupied)
    }

    /// Keeps the legend's box off every drawn shape (the exported map's rule): where the spec
    /// puts it when it covers none (every layout of [`crate::layout::LayoutSpec`] does), else at
    /// the page's free spot ([`legend_spot`]), else under everything drawn, the page made taller.
    pub(crate) fn clear_legend(&mut self) {
        let drawn: Vec<Rect> = self.shapes.iter().map(|s| s.bounds).collect();
        if !drawn.iter().any(|b| overlaps(&self.legend, b)) {
            return;
        }
        let (page, size) = (
            Rect::new(0.0, 0.0, self.width, self.height),
            (self.legend.width, self.legend.height),
        );
        let spot = legend_spot(page, size, None, &drawn);
        if spot.covers == 0 && (spot.rect.width, spot.rect.height) == size {
            self.legend = spot.rect;
            return;
        }
        let bottom = drawn.iter().map(|b| b.y + b.height).fold(0.0, f64::max);
        self.legend = Rect::new(20.0, bottom + 20.0, size.0.min(self.width - 40.0), size.1);
        // Room under it for the source lines.
        self.height = self.height.max(bottom + 20.0 + size.1 + 60.0);
    }

    /// Where panel `p`'s areas lie in the main panel (panel 0): the box of their shapes there,
    /// drawn as the inset's locator; `None` when the main panel draws none of them.
    pub fn locator(&self, p: usize) -> Option<Rect> {
        let areas = (self.shapes.iter())
            .filter(|s| s.panel == p)
            .map(|s| s.area);
        let mut b = crate::geometry::EMPTY_BOUNDS;
        let mut any = false;
        for area in areas {
            if let Some(m) = self.shapes.iter().find(|m| m.panel == 0 && m.area == area) {
                let r = &m.bounds;
                crate::geometry::extend_bounds(&mut b, &[r.x, r.y, r.x + r.width, r.y + r.height]);
                any = true;
            }
        }
        any.then(|| Rect::new(b[0], b[1], b[2] - b[0], b[3] - b[1]))
    }

    /// Each boxed panel's label as drawn in `frame` ([`inset_label`] at [`label_font`]): the
    /// panel's index, the text and the baseline's start. Labels that cannot fit are left out.
    pub fn inset_labels(&self, frame: Rect) -> Vec<(usize, String, (f64, f64))> {
        self.inset_labels_at(frame, label_font(self.width, frame.width))
    }

    /// [`MapLayout::inset_labels`] at the font size `font` (map units).
    pub fn inset_labels_at(&self, frame: Rect, font: f64) -> Vec<(usize, String, (f64, f64))> {
        (self.panels.iter().enumerate())
            .filter(|(_, p)| p.boxed)
            .filter_map(|(k, p)| {
                let (text, at) = inset_label(p.title.as_deref()?, p.rect, font, frame)?;
                Some((k, text, at))
            })
            .collect()
    }
}

#[cfg(test)]
mod shown_tests {
    use super::*;

    #[test]
    fn an_inset_label_is_shown_at_least_10_px_and_unchanged_when_it_already_is() {
        // The whole country (640 units) on a 358 px phone: 11 units would be 6.3 px.
        let font = label_font_shown(640.0, 640.0, 358.0);
        assert!(font * 358.0 / 640.0 >= 10.0, "{font}");
        // On a desktop at its own size, or zoomed in, the label keeps its size.
        assert_eq!(label_font_shown(640.0, 640.0, 640.0), LABEL_FONT);
        assert_eq!(
            label_font_shown(640.0, 160.0, 640.0),
            label_font(640.0, 160.0)
        );
        // Not measured yet: the drawing's own.
        assert_eq!(label_font_shown(640.0, 640.0, 0.0), LABEL_FONT);
        assert_eq!(label_font_shown(640.0, 640.0, f64::NAN), LABEL_FONT);
    }

    #[test]
    fn a_title_too_wide_is_shortened_to_a_name_not_cut_after_an_ellipsis() {
        let title = "Región Metropolitana de Santiago";
        let frame = Rect::new(0.0, 0.0, 640.0, 1200.0);
        // 11-unit letters are 6.6 units wide: the 32 letters need 211 units.
        let label = |inset_width: f64| {
            inset_label(
                title,
                Rect::new(10.0, 100.0, inset_width, 300.0),
                11.0,
                frame,
            )
            .map(|(text, _)| text)
        };
        assert_eq!(label(370.0).as_deref(), Some(title));
        // Room for 25 letters: the region's name on its own, no "…" (the page read
        // "…Metropolitana de Santiago").
        assert_eq!(label(170.0).as_deref(), Some("Metropolitana de Santiago"));
        // Never "de Santiago": a shortened title starts with a name.
        assert_eq!(label(100.0).as_deref(), Some("Santiago"));
        assert_eq!(label(40.0), None);
    }
}
