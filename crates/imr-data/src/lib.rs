//! The reference data imr-atlas ships, embedded once for every crate that needs it.
//!
//! The files live in `public/data/` (provenance in `public/data/SOURCES.md`); this crate is the
//! only code that reaches into that folder. The engine (CUT codes in the ingest), the microdata
//! aggregator, the page and `imr` all read them from here, so a code list or a crosswalk cannot
//! be embedded twice and drift.
//!
//! - [`cut`]: the 2018 commune list (Código Único Territorial) and the Ñuble 084xx → 16xxx
//!   crosswalk, with the normalisation every reader of commune codes applies.
//! - [`codebook`]: Spanish and English labels and units of the bundled panel's columns.
//! - [`names`]: the normalisation of column names ("Código Comuna" → `codigo_comuna`).
//! - [`study`]: the reference study's covariates (the dataset's preset the views and the
//!   Findings read: default regressors, health money, the change each sentence is about).
//! - The raw bundled files: `BUNDLED_PANEL_CSV`, `BOUNDARIES_TOPOJSON` — in native builds only
//!   (`imr`, tests). The page reads them as its own files, `data/…` beside the wasm or blocks
//!   of the single file (src/assets.rs), so that its wasm carries code, not 1.2 MB
//!   of data (issue 43); a wasm build that names them does not compile.

pub mod codebook;
pub mod cut;
// DEIS's historical commune code systems (feature `historical`: `imr` and the page's main wasm,
// through imr-core's `historical-codes`).
#[cfg(feature = "historical")]
pub mod historical;
pub mod names;
pub mod study;

/// File name of the bundled commune-year panel (infant deaths and births 2001–2021 with covariates).
pub const BUNDLED_PANEL_FILE: &str = "chile_imr_2001_2021.csv";

/// The bundled panel as shipped: UTF-8 CSV, built by `imr dataset` from `data/raw`.
#[cfg(not(target_arch = "wasm32"))]
pub const BUNDLED_PANEL_CSV: &[u8] = include_bytes!("../../../public/data/chile_imr_2001_2021.csv");

/// Commune boundaries of Chile (TopoJSON, simplified; licence and source in `SOURCES.md`).
#[cfg(not(target_arch = "wasm32"))]
pub const BOUNDARIES_TOPOJSON: &str = include_str!("../../../public/data/comunas.topojson");

/// The codebook of the bundled panel as shipped (one row per column).
pub const CODEBOOK_CSV: &str = include_str!("../../../public/data/codebook.csv");

/// SUBDERE's 2018 list of communes (`codigo_comuna,nombre_comuna,codigo_region,nombre_region`).
pub const CUT_2018_CSV: &str = include_str!("../../../public/data/cut_2018.csv");

/// Each commune's codes in DEIS's four systems since 1999 and its 2018 code, derived from DEIS's
/// historical DPA table (`data/PROVENANCE.md`;
/// `codigo_comuna_2018,nombre_comuna,hasta_1999,desde_2000,desde_2008,desde_2010,creada`).
#[cfg(feature = "historical")]
pub const HISTORICAL_CODES_CSV: &str = include_str!("../data/cut_historico.csv");

/// Pre-2018 Ñuble codes (084xx, region VIII) and their 2018 codes (16xxx, region XVI).
pub const NUBLE_CROSSWALK_CSV: &str = include_str!("../../../public/data/nuble_crosswalk.csv");
