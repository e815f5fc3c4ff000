//! Boundaries made ready for maps once: decoded, projected with their insets and weighted.

use super::super::BoundaryProblem;
use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::layout::{LayoutSpec, MapLayout};
use imr_map::weights::{Contiguity, Weights};

/// A boundary file decoded ([`GeoLayer`]), laid out for drawing with every path string
/// ([`MapLayout`], insets chosen by [`LayoutSpec::auto`]) and its queen and rook neighbours
/// ([`Weights`]). `imr map` prepares its boundaries once per map; the Map view once per file,
/// and then only recolours when the reader changes the year or an option.
pub struct PreparedBoundaries {
    pub layer: GeoLayer,
    pub layout: MapLayout,
    /// Neighbours sharing a border or a corner.
    pub queen: Weights,
    /// Neighbours sharing a border.
    pub rook: Weights,
}

impl PreparedBoundaries {
    /// Decodes `text` (GeoJSON or TopoJSON; `object` picks a TopoJSON object, the first when
    /// `None`) with the areas' code and name in the properties `keys`, lays it out and finds
    /// the neighbours. Each step's failure is a [`BoundaryProblem`] naming the place.
    pub fn prepare(
        text: &str,
        object: Option<&str>,
        keys: &PropertyKeys,
    ) -> Result<PreparedBoundaries, BoundaryProblem> {
        let layer = GeoLayer::from_str(text, object, keys)?;
        let layout = MapLayout::build(&layer, &LayoutSpec::auto(&layer))?;
        let queen = Weights::queen(&layer)?;
        let rook = Weights::rook(&layer)?;
        Ok(PreparedBoundaries {
            layer,
            layout,
            queen,
            rook,
        })
    }

    /// The neighbours of a contiguity.
    pub fn weights(&self, contiguity: Contiguity) -> &Weights {
        match contiguity {
            Contiguity::Queen => &self.queen,
            Contiguity::Rook => &self.rook,
        }
    }
}
