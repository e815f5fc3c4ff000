//! The box of each region's communes, for the page's "zoom to region".

use std::collections::BTreeMap;

use crate::geometry::{extend_bounds, GeoLayer, EMPTY_BOUNDS};
use crate::projection::Rect;

/// Screen box of a region, for "zoom to region".
#[derive(Debug, Clone, PartialEq)]
pub struct RegionBox {
    pub code: String,
    pub name: String,
    pub panel: usize,
    pub rect: Rect,
}

/// Regions in code order, each boxed in the lowest panel that draws it, from the drawn shapes'
/// (area, panel, screen bounds).
pub(crate) fn region_boxes(
    layer: &GeoLayer,
    shapes: impl Iterator<Item = (usize, usize, Rect)>,
) -> Vec<RegionBox> {
    // (region code) -> (name, panel, bounds); the lowest panel index wins.
    let mut boxes: BTreeMap<String, (String, usize, [f64; 4])> = BTreeMap::new();
    for (area, panel, bounds) in shapes {
        let area = &layer.areas[area];
        let Some(code) = area.region_code.clone() else {
            continue;
        };
        let b = [
            bounds.x,
            bounds.y,
            bounds.x + bounds.width,
            bounds.y + bounds.height,
        ];
        let name = area.region_name.clone().unwrap_or_else(|| code.clone());
        let entry = boxes.entry(code).or_insert((name, panel, EMPTY_BOUNDS));
        if panel < entry.1 {
            *entry = (entry.0.clone(), panel, EMPTY_BOUNDS);
        }
        if panel == entry.1 {
            extend_bounds(&mut entry.2, &b);
        }
    }
    boxes
        .into_iter()
        .map(|(code, (name, panel, b))| RegionBox {
            code,
            name,
            panel,
            rect: Rect::new(b[0], b[1], b[2] - b[0], b[3] - b[1]),
        })
        .collect()
}
