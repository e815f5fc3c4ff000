//! One module per view of the page.

pub mod data;
pub mod findings;
pub mod inequality;
pub mod map;
pub mod models;
