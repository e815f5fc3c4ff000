//! Small reusable pieces of the page.

pub mod assets;
pub mod cache;
pub mod choice;
pub mod csv_upload;
pub mod download;
pub mod kept;
pub mod microdata;
pub mod worker;
