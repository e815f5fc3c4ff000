//! A map of part of the country: when the data cover a few areas (an upload of a province's
//! communes), the page opens its map on them and the exported map draws only them, on a page of
//! their own, instead of the whole country where they would be a few pixels (issue 42.8 and
//! 42.10). The rule that decides it ([`MapLayout::data_focus`]) is the same for both.

use crate::layout::{LayoutSpec, MapLayout, Members};
use crate::placement::{contains, overlaps};
use crate::projection::Rect;
use crate::svg::{Colouring, MapText};
use crate::Lang;

/// How much room is left around the areas framed ([`Rect::framed`]): 15 % of their box.
pub const FRAME_MARGIN: f64 = 1.15;

impl Rect {
    /// The rectangle grown about its centre by `margin` (a factor: 1.15 is 15 % more; at least
    /// one unit on each side) and then to the aspect ratio `aspect` (width / height), so that
    /// what it frames fills a page of that shape without distortion.
    pub fn framed(&self, margin: f64, aspect: f64) -> Rect {
        let (cx, cy) = (self.x + self.width / 2.0, self.y + self.height / 2.0);
        let (mut w, mut h) = (self.width.max(1.0) * margin, self.height.max(1.0) * margin);
        if w / h > aspect {
            h = w / aspect;
        } else {
            w = h * aspect;
        }
        Rect::new(cx - w / 2.0, cy - h / 2.0, w, h)
    }
}

impl MapLayout {
    /// The box of the areas with data (`has_data[area]`), framed to the page's shape
    /// ([`Rect::framed`] with [`FRAME_MARGIN`]), when the data cover a small part of the map:
    /// fewer than half of the areas, whose framed box is under half of the page. `None` when
    /// the whole map is the right view (most areas have data, none has, or they are spread
    /// over most of the page, such as one commune at each end of Chile).
    pub fn data_focus(&self, has_data: &[bool]) -> Option<Rect> {
        let with = has_data.iter().filter(|d| **d).count();
        if with == 0 || 2 * with >= has_data.len() {
            return None;
        }
        let areas = (has_data.iter().enumerate()).filter_map(|(a, d)| d.then_some(a));
        let aspect = self.width / self.height;
        let data = self.bounds_of(areas)?;
        let mut framed = data.framed(FRAME_MARGIN, aspect);
        // An inset the view would cut is taken whole (five regional capitals from Antofagasta to
        // Temuco cut the Easter Island inset in half, its label floating over the mainland);
        // not the inset the data are drawn in (Santiago's communes, in the capital's inset).
        for _ in 0..self.panels.len() {
            let cut = (self.panels.iter())
                .filter(|p| p.boxed && !overlaps(&p.rect, &data))
                .find(|p| overlaps(&framed, &p.rect) && !contains(&framed, &p.rect));
            let Some(inset) = cut else { break };
            framed = union(&framed, &inset.rect).framed(1.0, aspect);
        }
        (framed.width * framed.height < 0.5 * self.width * self.height).then_some(framed)
    }
}

/// The smallest rectangle holding both.
fn union(a: &Rect, b: &Rect) -> Rect {
    let (x, y) = (a.x.min(b.x), a.y.min(b.y));
    let right = (a.x + a.width).max(b.x + b.width);
    let bottom = (a.y + a.height).max(b.y + b.height);
    Rect::new(x, y, right - x, bottom - y)
}

impl LayoutSpec {
    /// One panel drawing only the areas of `codes`, the legend on the right, on an 800 × 800
    /// page ([`LayoutSpec::single`]): the exported map of data that cover part of the country.
    pub fn focus(codes: Vec<String>) -> Self {
        let mut spec = Self::single(800.0, 800.0);
        spec.panels[0].members = Members::Codes(codes);
        spec
    }
}

/// The fill of an area outside the communes a map of part of the country shows (neither with
/// data, nor left out, nor without data among them), as the page draws it around them: plain
/// light grey, apart from the no-data hatch its legend counts.
pub const OUTSIDE_FILL: &str = "#eeeeee";

/// What a map of data that cover part of the country shows ([`Colouring::focus`]): the areas
/// drawn, index = area index (with data, left out as flagged, or without data lying wholly
/// inside the box of those), and how many of those have no data: the legend's "no data" count,
/// the same on the page and in the exported map.
#[derive(Debug, Clone, PartialEq)]
pub struct Focus {
    pub drawn: Vec<bool>,
    pub no_data: usize,
}

impl Focus {
    /// Whether `area` is outside the areas shown (drawn [`OUTSIDE_FILL`] on the page).
    pub fn is_outside(&self, area: usize) -> bool {
        !self.drawn.get(area).copied().unwrap_or(true)
    }

    /// Number of areas outside those shown: the rest of the country, drawn [`OUTSIDE_FILL`]
    /// around them on the page (its note under the map, [`outside_note`]).
    pub fn outside_count(&self) -> usize {
        self.drawn.iter().filter(|drawn| !**drawn).count()
    }
}

/// The tooltip's words for an area outside those shown ([`Focus::is_outside`], the plain grey
/// of [`outside_note`]) in `lang`: not the "no data" of the hatched areas among those shown
/// (a newcomer read "sin datos" over both the hatch and the grey).
pub fn outside_words(lang: Lang) -> &'static str {
    lang.pick("Fuera de los datos cargados", "Not in the data loaded")
}

/// The note under the page's map of part of the country that says what its plain grey is, in
/// `lang`: the `count` areas outside those shown have no data in the file, but are not the
/// "no data" the legend counts among the areas shown. (A note, not a legend row: on a phone the
/// legend, one row taller, no longer found room on the map and fell out of the first screen.)
pub fn outside_note(lang: Lang, count: usize) -> String {
    let count = crate::classify::format_number_in(count as f64, 0, lang);
    match lang {
        Lang::En => format!(
            "Plain light grey: the other {count} communes of the country, not in the data loaded."
        ),
        Lang::Es => {
            format!("Gris claro: las otras {count} comunas del país, fuera de los datos cargados.")
        }
    }
}

impl Colouring {
    /// The areas a map of part of the country shows when the data cover a small part of
    /// `layout` ([`MapLayout::data_focus`]); `None` when the whole map is the right view. The
    /// areas without data that lie wholly inside the box of those with data are drawn too, as
    /// "no data": left out, they were white holes beside a legend of "no data (0)" (a
    /// newcomer's 21 communes of Santiago without Providencia, Recoleta…).
    pub fn focus(&self, layout: &MapLayout) -> Option<Focus> {
        let n = layout.codes.len();
        let has_data: Vec<bool> = (0..n)
            .map(|a| self.values.get(a).is_some_and(Option::is_some))
            .collect();
        layout.data_focus(&has_data)?;
        let shown = |a: usize| has_data[a] || self.is_left_out(a);
        let inside = layout.bounds_of((0..n).filter(|&a| shown(a)))?;
        let within = |a: usize| {
            layout.bounds_of([a]).is_some_and(|b| {
                b.x >= inside.x
                    && b.y >= inside.y
                    && b.x + b.width <= inside.x + inside.width
                    && b.y + b.height <= inside.y + inside.height
            })
        };
        let holes: Vec<bool> = (0..n).map(|a| !shown(a) && within(a)).collect();
        Some(Focus {
            drawn: (0..n).map(|a| shown(a) || holes[a]).collect(),
            no_data: holes.iter().filter(|h| **h).count(),
        })
    }

    /// This colouring as the page draws a map of part of the country (`focus`): its legend
    /// counts as "no data" the areas without data among those shown, as the exported map's
    /// does, not every area of the country without data.
    pub fn focused_on(&self, focus: &Focus) -> Colouring {
        let mut colouring = self.clone();
        colouring.no_data = focus.no_data;
        colouring
    }

    /// The fill of `area` on the page's map of part of the country (`focus`): its own
    /// ([`Colouring::fill_of`]), or [`OUTSIDE_FILL`] for an area outside those shown.
    pub fn fill_in<'a>(&'a self, area: usize, focus: Option<&Focus>) -> &'a str {
        match focus {
            Some(f) if f.is_outside(area) => OUTSIDE_FILL,
            _ => self.fill_of(area),
        }
    }
}

/// The exported map of data that cover part of the country ([`Colouring::focus`] on `layout`,
/// the whole map's): its layout draws only the areas shown, its legend counts only the areas
/// drawn, and its texts say so in a source line above the others ("Se muestran solo las 5
/// comunas con datos (de 345)."). `None` when the whole map is the right view, or the areas
/// cannot be laid out alone.
pub fn focused(
    layer: &crate::geometry::GeoLayer,
    layout: &MapLayout,
    colouring: &Colouring,
    text: &MapText,
) -> Option<(MapLayout, Colouring, MapText)> {
    let focus = colouring.focus(layout)?;
    let codes = (0..layer.areas.len())
        .filter(|&a| focus.drawn.get(a) == Some(&true))
        .map(|a| layer.areas[a].code.clone())
        .collect();
    let layout_f = MapLayout::build(layer, &LayoutSpec::focus(codes)).ok()?;
    let with = (colouring.values.iter()).filter(|v| v.is_some()).count();
    let mut text = text.clone();
    text.source.insert(
        0,
        shown_note(text.lang, with, focus.no_data, layer.areas.len()),
    );
    Some((layout_f, colouring.focused_on(&focus), text))
}

/// The source line of a focused map: how many areas with data it shows, of how many, and how
/// many without data between them.
fn shown_note(lang: Lang, with: usize, holes: usize, of: usize) -> String {
    let shown = match (lang, with) {
        (Lang::Es, 1) => format!("Se muestra solo la comuna con datos (de {of})"),
        (Lang::Es, _) => format!("Se muestran solo las {with} comunas con datos (de {of})"),
        (Lang::En, 1) => format!("Only the commune with data is shown (of {of})"),
        (Lang::En, _) => format!("Only the {with} communes with data are shown (of {of})"),
    };
    let between = match (lang, holes) {
        (_, 0) => String::new(),
        (Lang::Es, 1) => " y la comuna sin datos que queda entre ellas".into(),
        (Lang::Es, _) => format!(" y las {holes} comunas sin datos que quedan entre ellas"),
        (Lang::En, 1) => " with the commune without data between them".into(),
        (Lang::En, _) => format!(" with the {holes} communes without data between them"),
    };
    format!("{shown}{between}.")
}

#[cfg(test)]
#[path = "focus_tests.rs"]
mod tests;
