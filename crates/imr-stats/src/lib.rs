//! Small statistical building blocks shared by the imr-atlas engines.
//!
//! Kept in its own crate so that the rates, inequality, models and map engines use one
//! implementation of each formula.

pub mod axis;
pub mod poisson;
pub mod quantile;
pub mod rounded;
pub mod years;

pub use imr_lang::{words_by_text, wrap_source_line, wrap_words, Caption, Lang, Worded, Words};
pub use poisson::{poisson_exact_interval, PoissonInterval};
pub use quantile::quantile_type7;
pub use rounded::{deaths_from_rate, reproduces, Reconstruction};
