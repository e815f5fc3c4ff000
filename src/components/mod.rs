//! Small reusable pieces of the page.

pub mod checkbox;
pub mod choice;
pub mod csv_upload;
pub mod download;
pub mod flag_choices;
pub mod kept;
pub mod microdata;
pub mod scroll_region;
pub mod takeaway;
pub mod worker;
