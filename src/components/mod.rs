//! Small reusable pieces of the page.

pub mod download;
pub mod microdata;
