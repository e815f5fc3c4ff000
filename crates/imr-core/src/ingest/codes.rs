//! Chilean commune codes (Código Único Territorial, CUT): the 2018 list, the Ñuble crosswalk and
//! the normalisation of codes, from the data crate (`imr-data`) that embeds them once.

pub use imr_data::cut::{Commune, CutCodes};
