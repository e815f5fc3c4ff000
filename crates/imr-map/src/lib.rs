//! imr-map: the choropleth engine of imr-atlas, in pure Rust (also compiled to wasm32 for the page:
//! no threads, no OS randomness, no clock).
//!
//! The pipeline, and the types the page and the `imr map` command share:
//!
//! 1. [`geometry::GeoLayer::from_str`] decodes TopoJSON (our validated decoder, [`topojson`]) or
//!    GeoJSON (WGS84 lon/lat) into areas keyed by a chosen property, listing features that are not
//!    areas in [`geometry::GeoLayer::skipped`]; [`geometry::GeoLayer::match_codes`] lists unmatched
//!    codes on both sides, with the reason a data code's feature was skipped. No input panics.
//! 2. [`layout::MapLayout::build`] projects (transverse Mercator, [`projection`]) and writes every
//!    area's SVG path once, with insets ([`layout::LayoutSpec::chile`]) and region boxes.
//! 3. Per year or variable: values ([`smoothing`]: raw, global and spatial empirical Bayes, excess
//!    risk), [`classify::classify`], then [`svg::Colouring`] — no geometry is touched.
//! 4. [`svg::choropleth_svg`] writes the publishable SVG; [`funnel`] and [`funnel_svg::funnel_svg`] the
//!    funnel plot; [`autocorrelation`] Moran's I (permutation and Cliff–Ord analytical tests,
//!    and the EB-standardised I of Assunção–Reis) and LISA clusters on [`weights::Weights`],
//!    queen (shared points, the default) or rook (shared borders) contiguity
//!    ([`weights::Contiguity`]; linear in the borders and points; overlapping areas are capped,
//!    see [`weights::MAX_OVERLAP_PAIRS`]).
//! 5. [`year_map`] adapts one year's rows (codes, deaths, births, a column) to the areas, and
//!    holds what the page and `imr map` must share to write the same bytes: [`year_map::Measure`]
//!    (values and texts), the default colours, and the data table ([`year_map::map_csv`]).

pub mod autocorrelation;
pub mod classify;
pub mod code_match;
pub mod colour;
pub mod focus;
pub mod funnel;
mod funnel_key;
pub mod funnel_svg;
pub mod geometry;
pub mod layout;
pub mod moran_reading;
pub mod path;
pub mod placement;
pub mod projection;
mod regions;
pub mod smoothing;
pub mod svg;
pub mod topojson;
pub mod uncertainty;
pub mod weights;
pub mod year_map;

pub use classify::{classify, Classification, Method};
pub use colour::Scheme;
pub use geometry::{GeoLayer, PropertyKeys};
pub use imr_stats::{Caption, Lang};
pub use layout::{LayoutSpec, MapLayout};
pub use smoothing::Smoothing;
pub use svg::{choropleth_svg, Colouring, MapText};
pub use weights::Weights;
