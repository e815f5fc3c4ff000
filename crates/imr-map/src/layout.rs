//! Where each area is drawn: panels (the main map and boxed insets), each with its own fitted
//! projection, and the SVG path strings of every area, computed once.
//!
//! A [`MapLayout`] is built once per geometry and page size; recolouring for another year or
//! variable only changes fills (see [`crate::svg`]), never the path strings.
//!
//! An area may appear in several panels (a Santiago commune is drawn small in the national map and
//! large in the Santiago inset). Exactly one of its shapes is *primary*: the one in the last panel
//! of the spec that draws it (insets come after the main map, and are where small areas can be read
//! and pointed at). Only primary shapes carry `data-code` in the SVG, so each area is one
//! `path[data-code]`.

use crate::geometry::{extend_bounds, polygon_bounds, GeoLayer, EMPTY_BOUNDS};
use crate::path::PathWriter;
use crate::projection::{FittedProjection, Rect, TransverseMercator};
pub use crate::regions::RegionBox;

/// Why a layout could not be built.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum LayoutError {
    #[error("no area of the boundary file falls in any panel of the layout")]
    NothingToDraw,
    #[error("the layout size {width}×{height} is not positive")]
    BadSize { width: String, height: String },
}

impl LayoutError {
    /// The error in `lang`: English is the `Display` text.
    pub fn text(&self, lang: crate::Lang) -> String {
        match (self, lang) {
            (_, crate::Lang::En) => self.to_string(),
            (LayoutError::NothingToDraw, _) => {
                "ningún área del archivo de límites cae en algún panel del diseño".into()
            }
            (LayoutError::BadSize { width, height }, _) => {
                format!("el tamaño del diseño {width}×{height} no es positivo")
            }
        }
    }
}

/// Which areas a panel draws.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Members {
    All,
    AllExcept(Vec<String>),
    Codes(Vec<String>),
    /// Areas whose region code is this one.
    Region(String),
}

/// One panel of a layout.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelSpec {
    /// Short identifier, written as `data-panel` in the SVG (`main`, `santiago`, …).
    pub id: String,
    /// Caption drawn above a boxed inset.
    pub title: Option<String>,
    pub members: Members,
    /// Only polygons whose bounds meet this `[min_lon, min_lat, max_lon, max_lat]` are drawn here
    /// (so remote islands of a mainland commune do not shrink the national map).
    pub extent: Option<[f64; 4]>,
    pub rect: Rect,
    /// Draw a frame around the panel (insets).
    pub boxed: bool,
}

/// A page: its size, panels, and where the legend and texts go.
#[derive(Debug, Clone, PartialEq)]
pub struct LayoutSpec {
    pub width: f64,
    pub height: f64,
    pub panels: Vec<PanelSpec>,
    /// Top-left corner and width of the legend block.
    pub legend: Rect,
    pub path: PathWriter,
}

/// Codes of the two island communes drawn in boxes.
pub const ISLA_DE_PASCUA: &str = "05201";
pub const JUAN_FERNANDEZ: &str = "05104";
/// Region code of the Santiago Metropolitan Region (52 communes).
pub const SANTIAGO_REGION: &str = "13";

impl LayoutSpec {
    /// The national layout for Chile on a 640 × 1200 page: the mainland in a tall left column
    /// (continental extent 76.5°–66° W, 56.6°–17.3° S), and on the right a Santiago Metropolitan
    /// Region inset, boxes for Isla de Pascua and Juan Fernández, and the legend.
    pub fn chile() -> Self {
        let panel = |id: &str, title: Option<&str>, members, extent, rect, boxed| PanelSpec {
            id: id.into(),
            title: title.map(Into::into),
            members,
            extent,
            rect,
            boxed,
        };
        LayoutSpec {
            width: 640.0,
            height: 1200.0,
            panels: vec![
                panel(
                    "main",
                    None,
                    Members::AllExcept(vec![ISLA_DE_PASCUA.into(), JUAN_FERNANDEZ.into()]),
                    Some([-76.5, -56.6, -66.0, -17.3]),
                    Rect::new(10.0, 80.0, 220.0, 1070.0),
                    false,
                ),
                panel(
                    "santiago",
                    Some("Región Metropolitana de Santiago"),
                    Members::Region(SANTIAGO_REGION.into()),
                    None,
                    Rect::new(250.0, 100.0, 370.0, 400.0),
                    true,
                ),
                panel(
                    "pascua",
                    Some("Isla de Pascua"),
                    Members::Codes(vec![ISLA_DE_PASCUA.into()]),
                    None,
                    Rect::new(250.0, 540.0, 175.0, 120.0),
                    true,
                ),
                panel(
                    "juan-fernandez",
                    Some("Juan Fernández"),
                    Members::Codes(vec![JUAN_FERNANDEZ.into()]),
                    None,
                    Rect::new(445.0, 540.0, 175.0, 120.0),
                    true,
                ),
            ],
            legend: Rect::new(250.0, 700.0, 370.0, 420.0),
            path: PathWriter::default(),
        }
    }

    /// One panel with every area, the legend on the right: for any boundary file.
    pub fn single(width: f64, height: f64) -> Self {
        let map_width = (width * 0.62).max(1.0);
        LayoutSpec {
            width,
            height,
            panels: vec![PanelSpec {
                id: "main".into(),
                title: None,
                members: Members::All,
                extent: None,
                rect: Rect::new(10.0, 80.0, map_width - 20.0, (height - 130.0).max(1.0)),
                boxed: false,
            }],
            legend: Rect::new(
                map_width + 10.0,
                100.0,
                width - map_width - 20.0,
                height - 150.0,
            ),
            path: PathWriter::default(),
        }
    }

    /// [`LayoutSpec::chile`] when the layer has the Santiago region and the island communes, else
    /// [`LayoutSpec::single`] at 800 × 800.
    pub fn auto(layer: &GeoLayer) -> Self {
        let has_santiago = layer
            .areas
            .iter()
            .any(|a| a.region_code.as_deref() == Some(SANTIAGO_REGION));
        if has_santiago && layer.index_of(ISLA_DE_PASCUA).is_some() {
            Self::chile()
        } else {
            Self::single(800.0, 800.0)
        }
    }
}

/// One drawn shape of an area.
#[derive(Debug, Clone, PartialEq)]
pub struct Shape {
    /// Index of the area in the layer.
    pub area: usize,
    /// Index of the panel in [`MapLayout::panels`].
    pub panel: usize,
    /// The shape that carries `data-code` (one per area).
    pub primary: bool,
    /// SVG path data.
    pub d: String,
    /// Screen bounds of the shape.
    pub bounds: Rect,
}

/// A placed panel.
#[derive(Debug, Clone, PartialEq)]
pub struct PanelLayout {
    pub id: String,
    pub title: Option<String>,
    pub rect: Rect,
    pub boxed: bool,
    pub projection: FittedProjection,
}

/// Paths and boxes of every area, computed once per geometry and layout.
#[derive(Debug, Clone, PartialEq)]
pub struct MapLayout {
    pub width: f64,
    pub height: f64,
    /// The legend's box: the spec's, moved off any drawn shape when it covers one (placement.rs).
    pub legend: Rect,
    pub panels: Vec<PanelLayout>,
    /// Shapes in drawing order (panel by panel, areas in file order).
    pub shapes: Vec<Shape>,
    /// Codes and names of the layer's areas (index = area index).
    pub codes: Vec<String>,
    pub names: Vec<String>,
    /// For each area, the index in `shapes` of its primary shape (`None`: not drawn).
    pub primary_shape: Vec<Option<usize>>,
    /// Regions in code order, boxed in the main panel (or the first panel drawing them).
    pub regions: Vec<RegionBox>,
}

impl MapLayout {
    /// The screen box of the primary shapes of `areas` (area indices of the layer), `None` when
    /// none of them is drawn: what the page fits when the data cover part of the country.
    pub fn bounds_of(&self, areas: impl IntoIterator<Item = usize>) -> Option<Rect> {
        let mut b = EMPTY_BOUNDS;
        let mut any = false;
        for area in areas {
            if let Some(Some(s)) = self.primary_shape.get(area) {
                let r = &self.shapes[*s].bounds;
                extend_bounds(&mut b, &[r.x, r.y, r.x + r.width, r.y + r.height]);
                any = true;
            }
        }
        any.then(|| Rect::new(b[0], b[1], b[2] - b[0], b[3] - b[1]))
    }

    /// Projects and writes the path of every area in every panel of `spec`.
    pub fn build(layer: &GeoLayer, spec: &LayoutSpec) -> Result<Self, LayoutError> {
        if !(spec.width > 0.0 && spec.height > 0.0) {
            return Err(LayoutError::BadSize {
                width: spec.width.to_string(),
                height: spec.height.to_string(),
            });
        }
        let mut panels = Vec::new();
        let mut shapes: Vec<Shape> = Vec::new();
        for panel in &spec.panels {
            // Polygons of each member area that fall in the panel's extent.
            let mut members: Vec<(usize, Vec<&crate::geometry::Polygon>)> = Vec::new();
            for (i, area) in layer.areas.iter().enumerate() {
                if !is_member(&panel.members, area) {
                    continue;
                }
                let polygons: Vec<_> = area
                    .polygons
                    .iter()
                    .filter(|p| match panel.extent {
                        Some(e) => {
                            let b = polygon_bounds(p);
                            b[0] <= e[2] && e[0] <= b[2] && b[1] <= e[3] && e[1] <= b[3]
                        }
                        None => true,
                    })
                    .collect();
                if !polygons.is_empty() {
                    members.push((i, polygons));
                }
            }
            if members.is_empty() {
                continue;
            }
            let mut lonlat_bounds = EMPTY_BOUNDS;
            for (_, polygons) in &members {
                for p in polygons {
                    extend_bounds(&mut lonlat_bounds, &polygon_bounds(p));
                }
            }
            // Each panel gets a transverse Mercator centred on what it shows.
            let projection = TransverseMercator::centred_on(lonlat_bounds);
            let exteriors = members
                .iter()
                .flat_map(|(_, ps)| ps.iter().filter_map(|p| p.first()))
                .flatten();
            let fitted = FittedProjection::fit_points(projection, exteriors, panel.rect);
            let panel_index = panels.len();
            for (area, polygons) in members {
                let screen: Vec<Vec<(f64, f64)>> = polygons
                    .iter()
                    .flat_map(|p| p.iter())
                    .map(|ring| {
                        ring.iter()
                            .map(|q| fitted.screen_from_lonlat(q[0], q[1]))
                            .collect()
                    })
                    .collect();
                let mut d = String::new();
                for ring in &screen {
                    spec.path.write_ring(&mut d, ring, false);
                }
                if d.is_empty() {
                    // Too small to show at this scale: keep its largest ring as a dot.
                    if let Some(ring) = screen.iter().max_by_key(|r| r.len()) {
                        spec.path.write_ring(&mut d, ring, true);
                    }
                }
                let mut b = EMPTY_BOUNDS;
                for &(x, y) in screen.iter().flatten() {
                    extend_bounds(&mut b, &[x, y, x, y]);
                }
                shapes.push(Shape {
                    area,
                    panel: panel_index,
                    primary: false,
                    d,
                    bounds: Rect::new(b[0], b[1], b[2] - b[0], b[3] - b[1]),
                });
            }
            panels.push(PanelLayout {
                id: panel.id.clone(),
                title: panel.title.clone(),
                rect: panel.rect,
                boxed: panel.boxed,
                projection: fitted,
            });
        }
        if shapes.is_empty() {
            return Err(LayoutError::NothingToDraw);
        }
        let mut primary_shape = vec![None; layer.areas.len()];
        for (s, shape) in shapes.iter().enumerate() {
            primary_shape[shape.area] = Some(s); // the last panel wins
        }
        for s in primary_shape.iter().flatten() {
            shapes[*s].primary = true;
        }
        let drawn = shapes.iter().map(|s| (s.area, s.panel, s.bounds));
        let regions = crate::regions::region_boxes(layer, drawn);
        let mut layout = MapLayout {
            width: spec.width,
            height: spec.height,
            legend: spec.legend,
            panels,
            shapes,
            codes: layer.areas.iter().map(|a| a.code.clone()).collect(),
            names: layer.areas.iter().map(|a| a.name.clone()).collect(),
            primary_shape,
            regions,
        };
        layout.clear_legend();
        Ok(layout)
    }

    /// Codes of the areas that no panel draws (e.g. outside every extent).
    pub fn not_drawn(&self) -> Vec<&str> {
        self.primary_shape
            .iter()
            .zip(&self.codes)
            .filter(|(s, _)| s.is_none())
            .map(|(_, c)| c.as_str())
            .collect()
    }

    /// Total length of all path strings, in bytes (the page's budget).
    pub fn path_bytes(&self) -> usize {
        self.shapes.iter().map(|s| s.d.len()).sum()
    }
}

fn is_member(members: &Members, area: &crate::geometry::Area) -> bool {
    use crate::geometry::code_key;
    let same = |c: &String| code_key(c) == code_key(&area.code);
    match members {
        Members::All => true,
        Members::AllExcept(codes) => !codes.iter().any(same),
        Members::Codes(codes) => codes.iter().any(same),
        Members::Region(region) => {
            area.region_code.as_deref().map(code_key) == Some(code_key(region))
        }
    }
}
