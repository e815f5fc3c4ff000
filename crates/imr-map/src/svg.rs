//! Publishable SVG: the choropleth (title, year, legend with limits and counts, hatched no data,
//! insets in boxes, source line) and the funnel plot.
//!
//! The output is a pure function of its inputs (no clock, no randomness, fixed number formatting),
//! so the same options give the same bytes in the page's download and in `imr map`. Every area is
//! one `<path data-code="…" data-class="k" data-value="…">` (class 0 = lowest; `data-class="none"`
//! and an empty `data-value` for no data); other shapes of the same area (a Santiago commune in the
//! national panel) are `<path data-of="…">`.

use std::fmt::Write;

use crate::autocorrelation::LisaCluster;
use crate::classify::{format_number_in, Classification};
use crate::colour::{Scheme, FLAGGED_FILL, NO_DATA_FILL};
use crate::layout::MapLayout;
use crate::projection::Rect;
use imr_stats::Lang;

/// One legend row.
#[derive(Debug, Clone, PartialEq)]
pub struct LegendEntry {
    pub label: String,
    pub fill: String,
    pub count: usize,
}

/// The colours of one map: a class and a fill per area, and the legend. Building one is cheap
/// (no geometry); it is what changes when the year or the variable changes. The default is
/// a colouring of no area, and what a new one starts with: nothing flagged or left out, no
/// caution.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Colouring {
    /// Value shown per area (`data-value`), index = area index of the layer.
    pub values: Vec<Option<f64>>,
    /// Class per area (`data-class`), `None` = no data.
    pub classes: Vec<Option<usize>>,
    /// Fill per class.
    pub class_fills: Vec<String>,
    pub legend: Vec<LegendEntry>,
    /// Number of areas with no data (hatched).
    pub no_data: usize,
    /// A line under the legend saying how classes were made ("Quantiles, 5 classes").
    pub method_note: String,
    /// Areas whose value is flagged as implausible (index = area index; missing = not flagged):
    /// drawn with a dark outline and `data-flagged="true"`.
    pub flagged: Vec<bool>,
    /// A line under the method note about flagged values ([`flagged_note`]); empty: none.
    pub flagged_note: String,
    /// Areas flagged as implausible and left out of the map's computations (classes,
    /// smoothing, Moran's I and LISA, funnel plot), index = area index: no class, filled with
    /// [`FLAGGED_FILL`], `data-class="flagged"`, counted in their own legend row, apart from
    /// the areas with no data. Empty: none left out.
    pub left_out: Vec<bool>,
    /// The legend row of the left-out areas ("Flagged, left out"), in the map's language.
    pub left_out_label: String,
    /// A caution under the legend when the classes are finer than the mapped rates' own
    /// uncertainty ([`crate::uncertainty::Resolution::caution`]); empty: none.
    pub uncertainty_note: String,
    /// A caution under the legend when the mapped year is not a year of data like the others:
    /// it copies an earlier one (the source published the earlier year's values again), or its
    /// deaths were reconstructed from a published rate; empty: neither.
    pub year_caution: String,
}

impl Colouring {
    /// Colours a classification with a scheme; `values` are the classified values (same order).
    /// `decimals` sets the legend's number format.
    pub fn from_classification(
        values: &[Option<f64>],
        classification: &Classification,
        scheme: Scheme,
        decimals: usize,
    ) -> Self {
        Self::from_classification_in(values, classification, scheme, decimals, Lang::En)
    }

    /// [`Colouring::from_classification`] with the legend's limits, class names and method
    /// line in `lang` (`9,0 – 111,0` in Spanish).
    pub fn from_classification_in(
        values: &[Option<f64>],
        classification: &Classification,
        scheme: Scheme,
        decimals: usize,
        lang: Lang,
    ) -> Self {
        let k = classification.classes.len();
        let class_fills = scheme.colours(k);
        let legend = classification
            .classes
            .iter()
            .zip(&class_fills)
            .map(|(c, fill)| LegendEntry {
                label: c.label_in(decimals, lang),
                fill: fill.clone(),
                count: c.count,
            })
            .collect();
        let method_note = method_note(&classification.method, k, lang);
        Colouring {
            values: values.to_vec(),
            classes: classification.class_of.clone(),
            class_fills,
            legend,
            no_data: classification.no_data,
            method_note,
            ..Colouring::default()
        }
    }

    /// Colours LISA clusters (class = cluster, in GeoDa's legend order), legend in English.
    pub fn from_lisa(values: &[Option<f64>], clusters: &[LisaCluster], alpha: f64) -> Self {
        Self::from_lisa_in(values, clusters, alpha, Lang::En)
    }

    /// [`Colouring::from_lisa`] with the legend and note in `lang`.
    pub fn from_lisa_in(
        values: &[Option<f64>],
        clusters: &[LisaCluster],
        alpha: f64,
        lang: Lang,
    ) -> Self {
        let order = [
            LisaCluster::NotSignificant,
            LisaCluster::HighHigh,
            LisaCluster::LowLow,
            LisaCluster::LowHigh,
            LisaCluster::HighLow,
            LisaCluster::Neighbourless,
        ];
        let classes: Vec<Option<usize>> = clusters
            .iter()
            .map(|c| order.iter().position(|o| o == c))
            .collect();
        let legend = order
            .iter()
            .enumerate()
            .map(|(k, c)| LegendEntry {
                label: c.label_in(lang).into(),
                fill: c.colour().into(),
                count: classes.iter().filter(|&&x| x == Some(k)).count(),
            })
            .collect();
        Colouring {
            values: values.to_vec(),
            no_data: classes.iter().filter(|c| c.is_none()).count(),
            classes,
            class_fills: order.iter().map(|c| c.colour().to_string()).collect(),
            legend,
            method_note: match lang {
                // What the classes are, in words; the method's name in brackets.
                Lang::En => format!("Clusters of high or low rates (LISA, p ≤ {alpha})"),
                Lang::Es => format!(
                    "Zonas de tasas altas o bajas (LISA, p ≤ {})",
                    lang.with_decimal_mark(alpha.to_string())
                ),
            },
            ..Colouring::default()
        }
    }

    /// Fill of an area: its class colour, the flagged cross-hatch when it is left out, or the
    /// no-data hatch.
    pub fn fill_of(&self, area: usize) -> &str {
        match self.classes.get(area).copied().flatten() {
            Some(k) => &self.class_fills[k],
            None if self.is_left_out(area) => FLAGGED_FILL,
            None => NO_DATA_FILL,
        }
    }

    /// Whether `area` is flagged and left out of the map's computations.
    pub fn is_left_out(&self, area: usize) -> bool {
        self.left_out.get(area).copied().unwrap_or(false)
    }

    /// The `data-class` of an area: its class (0 = lowest), `flagged` when it is left out,
    /// `none` for no data.
    pub fn class_name(&self, area: usize) -> String {
        match self.classes.get(area).copied().flatten() {
            Some(k) => k.to_string(),
            None if self.is_left_out(area) => "flagged".into(),
            None => "none".into(),
        }
    }

    /// Number of areas left out as flagged.
    pub fn left_out_count(&self) -> usize {
        self.left_out.iter().filter(|&&l| l).count()
    }

    /// Marks the areas `flagged` as implausible (outlined). Unless `include_flagged`, they are
    /// left out of the map's computations (the caller computed the values and classes without
    /// them): no value, no class, drawn as "flagged, left out" and not counted as no data;
    /// included, they keep their class. The legend line ([`flagged_note`]) says which.
    pub fn mark_flagged(&mut self, flagged: &[bool], include_flagged: bool, lang: Lang) {
        let is_flagged = |a: usize| flagged.get(a).copied().unwrap_or(false);
        let n = self.classes.len();
        self.flagged = flagged.to_vec();
        self.left_out_label = match lang {
            Lang::En => "Flagged, left out".into(),
            Lang::Es => "Marcadas, excluidas".into(),
        };
        if include_flagged {
            self.left_out = Vec::new();
            let included = (0..n)
                .filter(|&a| is_flagged(a) && self.classes[a].is_some())
                .count();
            self.flagged_note = flagged_note(included, false, lang);
        } else {
            self.left_out = (0..n).map(is_flagged).collect();
            for a in (0..n).filter(|&a| is_flagged(a)) {
                self.classes[a] = None;
                if let Some(v) = self.values.get_mut(a) {
                    *v = None;
                }
            }
            self.no_data = (0..n)
                .filter(|&a| self.classes[a].is_none() && !self.left_out[a])
                .count();
            self.flagged_note = flagged_note(self.left_out_count(), true, lang);
        }
    }
}

/// The legend line about `flagged` values: left out of the map's computations (`left_out`:
/// classes, smoothing, Moran's I and LISA, funnel plot), or included in them; empty when none
/// is flagged.
pub fn flagged_note(flagged: usize, left_out: bool, lang: Lang) -> String {
    match (flagged, left_out, lang) {
        (0, _, _) => String::new(),
        (n, false, Lang::En) => format!("{n} flagged value(s) included in the class breaks"),
        (n, false, Lang::Es) => format!("{n} valor(es) marcado(s) incluido(s) en los cortes"),
        // Plain words on the map; which computations leave them out is the methods' text.
        (1, true, Lang::En) => "1 implausible row left out of the map figures".into(),
        (n, true, Lang::En) => format!("{n} implausible rows left out of the map figures"),
        (1, true, Lang::Es) => "1 fila inverosímil queda fuera de las cifras del mapa".into(),
        (n, true, Lang::Es) => {
            format!("{n} filas inverosímiles quedan fuera de las cifras del mapa")
        }
    }
}

/// The line under the legend saying how classes were made: "Classes: quantile, 5 classes".
pub fn method_note(method: &crate::classify::Method, classes: usize, lang: Lang) -> String {
    match (method, lang) {
        (crate::classify::Method::BoxMap { hinge }, Lang::En) => format!("Box map (hinge {hinge})"),
        (crate::classify::Method::BoxMap { hinge }, Lang::Es) => {
            format!(
                "Mapa de caja (bisagra {})",
                lang.with_decimal_mark(hinge.to_string())
            )
        }
        (m, Lang::En) => format!(
            "Classes: {}, {} classes{}",
            m.name(),
            classes,
            fewer_classes(m, classes, lang)
        ),
        (m, Lang::Es) => format!(
            "Clases: {}, {} clases{}",
            m.name_in(lang),
            classes,
            fewer_classes(m, classes, lang)
        ),
    }
}

/// Why a map has fewer classes than were asked for (after the class count, or empty): equal
/// values make quantile breaks coincide (many communes with no death share the rate 0), natural
/// breaks cannot have more classes than distinct values, equal intervals need a spread.
fn fewer_classes(method: &crate::classify::Method, classes: usize, lang: Lang) -> String {
    use crate::classify::Method;
    let Some(asked) = method.requested_classes().filter(|&k| k > classes) else {
        return String::new();
    };
    let why = match (method, lang) {
        (Method::Quantile { .. }, Lang::Es) => {
            "muchas áreas tienen el mismo valor y sus cortes coinciden"
        }
        (Method::Quantile { .. }, Lang::En) => "many areas share a value and their breaks coincide",
        (Method::NaturalBreaks { .. }, Lang::Es) => "hay menos valores distintos que clases",
        (Method::NaturalBreaks { .. }, Lang::En) => "there are fewer distinct values than classes",
        (_, Lang::Es) => "todos los valores son iguales",
        (_, Lang::En) => "every value is the same",
    };
    match lang {
        Lang::Es => format!(" ({asked} pedidas: {why})"),
        Lang::En => format!(" ({asked} asked for: {why})"),
    }
}

/// Texts of a map.
#[derive(Debug, Clone, PartialEq)]
pub struct MapText {
    pub title: String,
    /// What the colours show, with the unit ("Deaths under 1 year per 1,000 live births").
    pub subtitle: String,
    /// Heading of the legend (short: the unit).
    pub legend_title: String,
    /// The year (or period) shown large in the corner.
    pub year: String,
    /// A short line under the year ("(copia de 2021)" for a year the source copied,
    /// "(defunciones reconstruidas)" for one whose deaths were reconstructed); empty: none.
    pub year_note: String,
    /// Source and method lines at the foot (one per line).
    pub source: Vec<String>,
    /// The legend entry of areas without data ("No data").
    pub no_data: String,
    /// Provenance written into the SVG's `<metadata>` (none: no element).
    pub metadata: Option<String>,
    /// The language of the texts, and of the numbers in each area's `<title>`.
    pub lang: Lang,
}

impl MapText {
    /// The texts the page and `imr map` both use for a rate map, so that the same options give
    /// the same SVG: title, unit and smoothing, year, and two source lines.
    pub fn for_rates(
        smoothing: crate::smoothing::Smoothing,
        year: &str,
        data_source: &str,
        geometry_source: &str,
    ) -> Self {
        Self::for_rates_in(
            Lang::En,
            smoothing,
            year,
            data_source,
            geometry_source,
            None,
        )
    }

    /// [`MapText::for_rates`] in a language, with the date of the export (written on the engine
    /// line and, with the source, into `<metadata>`).
    pub fn for_rates_in(
        lang: Lang,
        smoothing: crate::smoothing::Smoothing,
        year: &str,
        data_source: &str,
        geometry_source: &str,
        date: Option<&str>,
    ) -> Self {
        let heading = match lang {
            Lang::En => [
                "Infant mortality rate".to_string(),
                format!(
                    "Deaths under 1 year per 1,000 live births, {}",
                    smoothing.label()
                ),
                "Per 1,000 live births".to_string(),
            ],
            Lang::Es => [
                "Tasa de mortalidad infantil".to_string(),
                format!(
                    "Defunciones de menores de 1 año por 1.000 nacidos vivos, {}",
                    smoothing.label_in(lang)
                ),
                "Por 1.000 nacidos vivos".to_string(),
            ],
        };
        Self::sourced(lang, heading, year, data_source, geometry_source, date)
    }

    /// The texts for a map of any other column (shown as it is, no unit assumed).
    pub fn for_column(column: &str, year: &str, data_source: &str, geometry_source: &str) -> Self {
        Self::for_column_in(Lang::En, column, year, data_source, geometry_source, None)
    }

    /// [`MapText::for_column`] in a language, with the date of the export.
    pub fn for_column_in(
        lang: Lang,
        column: &str,
        year: &str,
        data_source: &str,
        geometry_source: &str,
        date: Option<&str>,
    ) -> Self {
        let subtitle = match lang {
            Lang::En => format!("{column} by commune"),
            Lang::Es => format!("{column} por comuna"),
        };
        let heading = [column.into(), subtitle, column.into()];
        Self::sourced(lang, heading, year, data_source, geometry_source, date)
    }

    /// The texts of a map with `heading` (title, subtitle, legend title) and `year`: the two
    /// source lines, the no-data label and the metadata in `lang`, no year note.
    fn sourced(
        lang: Lang,
        [title, subtitle, legend_title]: [String; 3],
        year: &str,
        data_source: &str,
        geometry_source: &str,
        date: Option<&str>,
    ) -> Self {
        // The tool and the date on the map's face, as a newsroom's maps credit theirs; the
        // engine's version in its metadata.
        let made = |version: &str| match date {
            Some(d) => format!("imr-atlas{version} · {d}"),
            None => format!("imr-atlas{version}"),
        };
        let credit = format!(
            "{}. {}: {geometry_source}.",
            data_credit(lang, data_source),
            lang.pick("Límites", "Boundaries")
        );
        let metadata = date.map(|_| {
            format!(
                "{credit} {}",
                made(&format!(" {}", env!("CARGO_PKG_VERSION")))
            )
        });
        MapText {
            title,
            subtitle,
            legend_title,
            year: year.into(),
            year_note: String::new(),
            source: vec![credit, made("")],
            no_data: lang.pick("Sin datos", "No data").into(),
            metadata,
            lang,
        }
    }
}

/// Escapes text for SVG content and attribute values ([`imr_escape::xml_text`]: markup
/// characters as entities, characters XML 1.0 forbids replaced, so the SVG stays well-formed).
pub fn escape(text: &str) -> String {
    imr_escape::xml_text(text)
}

/// A number shown in a figure: [`format_value`] in English (the form the snapshots fix), and in
/// Spanish with its thousands point and decimal comma (`10.000`, `2,5`).
pub(crate) fn figure_value(v: f64, lang: Lang) -> String {
    let plain = format_value(v);
    match lang {
        Lang::En => plain,
        Lang::Es => {
            let decimals = plain.split_once('.').map_or(0, |(_, f)| f.len());
            lang.grouped(v, decimals)
        }
    }
}

/// A value for `data-value`: at most 6 decimals, no trailing zeros, `-0` written as `0`.
pub fn format_value(v: f64) -> String {
    let r = (v * 1e6).round() / 1e6;
    if r == 0.0 {
        "0".into()
    } else {
        format!("{r}")
    }
}

pub(crate) fn num(v: f64) -> String {
    format_value((v * 10.0).round() / 10.0)
}

fn rect_attrs(r: &Rect) -> String {
    format!(
        r#"x="{}" y="{}" width="{}" height="{}""#,
        num(r.x),
        num(r.y),
        num(r.width),
        num(r.height)
    )
}

pub(crate) const FONT: &str = "font-family=\"Helvetica, Arial, sans-serif\"";

/// The complete choropleth as an SVG document.
pub fn choropleth_svg(layout: &MapLayout, colouring: &Colouring, text: &MapText) -> String {
    let (w, h) = (layout.width, layout.height);
    let mut s = String::with_capacity(layout.path_bytes() + 64 * layout.shapes.len() + 4096);
    let _ = writeln!(
        s,
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {} {}\" width=\"{}\" height=\"{}\" \
         data-testid=\"choropleth\" role=\"img\" aria-labelledby=\"map-title map-subtitle\" {FONT}>",
        num(w),
        num(h),
        num(w),
        num(h)
    );
    s.push_str(
        "<defs><pattern id=\"no-data\" patternUnits=\"userSpaceOnUse\" width=\"5\" height=\"5\" \
         patternTransform=\"rotate(45)\"><rect width=\"5\" height=\"5\" fill=\"#ffffff\"/>\
         <line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"5\" stroke=\"#8c8c8c\" stroke-width=\"1.6\"/></pattern></defs>\n",
    );
    if colouring.left_out_count() > 0 {
        s.push_str(FLAGGED_PATTERN);
        s.push('\n');
    }
    let _ = writeln!(
        s,
        "<rect width=\"{}\" height=\"{}\" fill=\"#ffffff\"/>",
        num(w),
        num(h)
    );
    let _ = writeln!(
        s,
        "<text id=\"map-title\" x=\"20\" y=\"34\" font-size=\"20\" font-weight=\"bold\" fill=\"#1a1a1a\">{}</text>",
        escape(&text.title)
    );
    let _ = writeln!(
        s,
        "<text id=\"map-subtitle\" x=\"20\" y=\"56\" font-size=\"12\" fill=\"#444444\">{}</text>",
        escape(&text.subtitle)
    );
    let _ = writeln!(
        s,
        "<text data-testid=\"map-year\" x=\"{}\" y=\"40\" font-size=\"30\" font-weight=\"bold\" text-anchor=\"end\" fill=\"#1a1a1a\">{}</text>",
        num(w - 20.0),
        escape(&text.year)
    );
    if !text.year_note.is_empty() {
        let _ = writeln!(
            s,
            "<text data-testid=\"map-year-note\" x=\"{}\" y=\"58\" font-size=\"12\" font-weight=\"bold\" text-anchor=\"end\" fill=\"#8a3b12\">{}</text>",
            num(w - 20.0),
            escape(&text.year_note)
        );
    }
    let labels = layout.inset_labels(Rect::new(0.0, 0.0, w, h));
    for (p, panel) in layout.panels.iter().enumerate() {
        if panel.boxed {
            if let Some((_, title, (x, y))) = labels.iter().find(|l| l.0 == p) {
                let _ = writeln!(
                    s,
                    "<text x=\"{}\" y=\"{}\" font-size=\"11\" fill=\"#333333\">{}</text>",
                    num(*x),
                    num(*y),
                    escape(title)
                );
            }
            let _ = writeln!(
                s,
                "<rect {} fill=\"none\" stroke=\"#666666\" stroke-width=\"0.8\"/>",
                rect_attrs(&panel.rect.inset(-4.0))
            );
        }
        let _ = writeln!(
            s,
            "<g data-panel=\"{}\" stroke=\"#ffffff\" stroke-width=\"{}\" stroke-linejoin=\"round\">",
            escape(&panel.id),
            if panel.boxed { "0.6" } else { "0.25" }
        );
        for shape in layout.shapes.iter().filter(|sh| sh.panel == p) {
            let area = shape.area;
            let fill = colouring.fill_of(area);
            let code = escape(&layout.codes[area]);
            if shape.primary {
                let value = colouring.values.get(area).copied().flatten();
                let class = colouring.class_name(area);
                let shown = match value {
                    Some(v) => format_number_in(v, 1, text.lang),
                    None if colouring.is_left_out(area) => escape(&colouring.left_out_label),
                    None => text.lang.pick("sin datos", "no data").into(),
                };
                let flagged = if colouring.flagged.get(area).copied().unwrap_or(false) {
                    " data-flagged=\"true\" stroke=\"#1a1a1a\" stroke-width=\"1.2\""
                } else {
                    ""
                };
                let _ = writeln!(
                    s,
                    "<path data-code=\"{code}\" data-class=\"{class}\" data-value=\"{}\"{flagged} fill=\"{fill}\" d=\"{}\"><title>{} ({code}): {shown}</title></path>",
                    value.map(format_value).unwrap_or_default(),
                    shape.d,
                    escape(&layout.names[area]),
                );
            } else {
                let _ = writeln!(
                    s,
                    "<path data-of=\"{code}\" fill=\"{fill}\" d=\"{}\"/>",
                    shape.d
                );
            }
        }
        s.push_str("</g>\n");
    }
    // Locators: where each inset's areas lie in the main panel.
    for (p, panel) in layout.panels.iter().enumerate().skip(1) {
        if let Some(r) = layout.locator(p).filter(|_| panel.boxed) {
            let _ = writeln!(
                s,
                "<rect data-locator=\"{}\" {} fill=\"none\" stroke=\"#333333\" stroke-width=\"0.8\"/>",
                escape(&panel.id),
                rect_attrs(&r.inset(-2.0))
            );
        }
    }
    legend(
        &mut s,
        layout.legend,
        colouring,
        &text.legend_title,
        &text.no_data,
    );
    if let Some(meta) = &text.metadata {
        let _ = writeln!(s, "<metadata>{}</metadata>", escape(meta));
    }
    let lines = text.source.len();
    for (k, line) in text.source.iter().enumerate() {
        let _ = writeln!(
            s,
            "<text data-testid=\"map-source\" x=\"20\" y=\"{}\" font-size=\"9.5\" fill=\"#555555\">{}</text>",
            num(h - 12.0 - 13.0 * (lines - 1 - k) as f64),
            escape(line)
        );
    }
    s.push_str("</svg>\n");
    s
}

/// The pattern of [`FLAGGED_FILL`]: a dark purple cross-hatch on pale lilac, unlike the grey
/// single hatch of no data (the page's map defines the same).
pub const FLAGGED_PATTERN: &str = "<defs><pattern id=\"flagged\" patternUnits=\"userSpaceOnUse\" \
     width=\"6\" height=\"6\"><rect width=\"6\" height=\"6\" fill=\"#efe6f5\"/><path d=\"M0,0L6,6M6,0L0,6\" \
     stroke=\"#5e3c99\" stroke-width=\"1\"/></pattern></defs>";

fn legend(s: &mut String, at: Rect, colouring: &Colouring, heading: &str, no_data: &str) {
    let _ = writeln!(
        s,
        "<g data-testid=\"legend\" font-size=\"12\" fill=\"#1a1a1a\">"
    );
    let _ = writeln!(
        s,
        "<text x=\"{}\" y=\"{}\" font-weight=\"bold\">{}</text>",
        num(at.x),
        num(at.y + 12.0),
        escape(heading)
    );
    let row = 22.0;
    let mut y = at.y + 24.0;
    let mut entry = |s: &mut String, class: &str, fill: &str, label: &str, count: usize| {
        let _ = writeln!(
            s,
            "<g data-legend-class=\"{class}\"><rect x=\"{}\" y=\"{}\" width=\"24\" height=\"16\" fill=\"{fill}\" stroke=\"#777777\" stroke-width=\"0.5\"/>\
             <text x=\"{}\" y=\"{}\">{} <tspan fill=\"#666666\">({count})</tspan></text></g>",
            num(at.x),
            num(y),
            num(at.x + 32.0),
            num(y + 12.5),
            escape(label)
        );
        y += row;
    };
    // Highest class first, as a reader scans a legend from the top.
    for (k, e) in colouring.legend.iter().enumerate().rev() {
        entry(s, &k.to_string(), &e.fill, &e.label, e.count);
    }
    entry(s, "none", NO_DATA_FILL, no_data, colouring.no_data);
    let left_out = colouring.left_out_count();
    if left_out > 0 {
        entry(
            s,
            "flagged",
            FLAGGED_FILL,
            &colouring.left_out_label,
            left_out,
        );
    }
    // The notes under the legend, each wrapped to the legend's width.
    let mut below = y + 10.0;
    for (testid, fill, note) in [
        ("legend-method", "#555555", &colouring.method_note),
        ("legend-flagged", "#555555", &colouring.flagged_note),
        ("legend-uncertainty", "#8a3b12", &colouring.uncertainty_note),
        ("legend-copy", "#8a3b12", &colouring.year_caution),
    ] {
        if !note.is_empty() {
            below = wrapped_text(s, (at.x, below), at.width, (testid, fill), note);
        }
    }
    s.push_str("</g>\n");
}

/// Writes `text` as one `<text data-testid>` of 10.5 px lines wrapped to `width` px (about 5.6
/// px per character), the first line's baseline at `(x, y)`; returns the baseline of the line
/// that would follow. Each line but the last ends in a space, so the element's text is `text`.
fn wrapped_text(
    s: &mut String,
    (x, y): (f64, f64),
    width: f64,
    (testid, fill): (&str, &str),
    text: &str,
) -> f64 {
    let lines = imr_stats::wrap_words(text, ((width / 5.6) as usize).max(20));
    let _ = write!(
        s,
        "<text data-testid=\"{testid}\" x=\"{}\" y=\"{}\" font-size=\"10.5\" fill=\"{fill}\">",
        num(x),
        num(y)
    );
    for (k, line) in lines.iter().enumerate() {
        let (dy, gap) = (
            if k == 0 { 0.0 } else { 13.0 },
            if k + 1 < lines.len() { " " } else { "" },
        );
        let _ = write!(
            s,
            "<tspan x=\"{}\" dy=\"{}\">{}{gap}</tspan>",
            num(x),
            num(dy),
            escape(line)
        );
    }
    s.push_str("</text>\n");
    y + 13.0 * lines.len() as f64 + 1.0
}

/// File name of the bundled panel (`imr_data::BUNDLED_PANEL_FILE`; imr-core's tests hold them
/// equal): a map of it credits the institutions behind it, not only its file name.
pub const BUNDLED_DATA_FILE: &str = "chile_imr_2001_2021.csv";

/// Who the bundled panel's figures come from (public/data/SOURCES.md), in `lang`.
pub fn bundled_data_credit(lang: Lang) -> &'static str {
    lang.pick(
        "INE, DEIS–MINSAL y SINIM–SUBDERE",
        "INE, DEIS–MINSAL and SINIM–SUBDERE",
    )
}

/// Whose figures a map shows: the institutions behind the bundled panel (with its file name),
/// else the reader's own files by name ("Datos del usuario (archivo.csv)"), so that a published
/// map never credits an agency for numbers it did not publish.
pub fn data_credit(lang: Lang, data_source: &str) -> String {
    if data_source == BUNDLED_DATA_FILE {
        let who = publishers(lang, data_source);
        return format!("{}: {who}", lang.pick("Datos", "Data"));
    }
    publishers(lang, data_source)
}

/// Who published a chart's figures, for a source line: "INE, DEIS–MINSAL y SINIM–SUBDERE
/// (chile_imr_2001_2021.csv)" for the bundled panel, "Datos del usuario (archivo.csv)" for the
/// reader's own files.
pub fn publishers(lang: Lang, data_source: &str) -> String {
    if data_source == BUNDLED_DATA_FILE {
        return format!("{} ({data_source})", bundled_data_credit(lang));
    }
    match lang {
        Lang::Es => format!("Datos del usuario ({data_source})"),
        Lang::En => format!("User data ({data_source})"),
    }
}

#[cfg(test)]
mod lisa_legend_tests {
    use super::*;

    #[test]
    fn the_lisa_legend_reads_in_each_language_with_the_same_classes_and_colours() {
        let values = [Some(1.0), Some(2.0), None];
        let clusters = [
            LisaCluster::HighHigh,
            LisaCluster::NotSignificant,
            LisaCluster::NoData,
        ];
        let en = Colouring::from_lisa(&values, &clusters, 0.05);
        let es = Colouring::from_lisa_in(&values, &clusters, 0.05, Lang::Es);
        assert_eq!(en.classes, es.classes);
        assert_eq!(en.class_fills, es.class_fills);
        let labels = |c: &Colouring| c.legend.iter().map(|e| e.label.clone()).collect::<Vec<_>>();
        assert_eq!(
            labels(&en)[..3],
            ["Not significant", "High-High", "Low-Low"]
        );
        assert_eq!(
            labels(&es)[..3],
            ["No significativo", "Alto-Alto", "Bajo-Bajo"]
        );
        assert_eq!(
            es.method_note,
            "Zonas de tasas altas o bajas (LISA, p ≤ 0,05)"
        );
        assert_eq!(
            en.method_note,
            "Clusters of high or low rates (LISA, p ≤ 0.05)"
        );
        assert_eq!((en.legend[1].count, en.no_data), (1, 1));
    }
}

#[cfg(test)]
mod method_note_tests {
    use super::*;
    use crate::classify::{classify, Method};

    /// Five quantiles asked of rates where most areas have none (0 per 1,000): the breaks
    /// coincide, the map has fewer classes, and its note says how many were asked and why.
    #[test]
    fn fewer_classes_than_asked_are_said_with_their_reason() {
        let values: Vec<Option<f64>> = [0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 3.0, 5.0, 8.0, 12.0]
            .into_iter()
            .map(Some)
            .collect();
        let method = Method::Quantile { classes: 5 };
        let c = classify(&values, &method).unwrap();
        let drawn = c.classes.len();
        assert!(drawn < 5, "{drawn} classes");
        assert_eq!(
            method_note(&method, drawn, Lang::Es),
            format!("Clases: cuantiles, {drawn} clases (5 pedidas: muchas áreas tienen el mismo valor y sus cortes coinciden)")
        );
        assert_eq!(
            method_note(&method, drawn, Lang::En),
            format!("Classes: quantile, {drawn} classes (5 asked for: many areas share a value and their breaks coincide)")
        );
        // As many as asked: no reason to give.
        assert_eq!(
            method_note(&method, 5, Lang::En),
            "Classes: quantile, 5 classes"
        );
        let jenks = Method::NaturalBreaks { classes: 4 };
        assert!(method_note(&jenks, 2, Lang::Es)
            .ends_with("(4 pedidas: hay menos valores distintos que clases)"));
        assert!(imr_lang::english_words(&method_note(&jenks, 2, Lang::Es)).is_empty());
    }
}
