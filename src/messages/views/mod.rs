//! One struct per view, one field per text of the page in that view (see [`crate::messages::Messages`]).

mod app;
mod common;
mod data;
mod findings;
mod inequality;
mod map;
mod models;
mod page;

pub use app::*;
pub use common::*;
pub use data::*;
pub use findings::*;
pub use inequality::*;
pub use map::*;
pub use models::*;
pub use page::*;
