//! The box of each region's communes, for the page's "zoom to region".

use std::collections::BTreeMap;

use crate::geometry::{extend_bounds, GeoLayer, EMPTY_BOUNDS};
use crate::layout::{RegionBox, Shape};
use crate::projection::Rect;

/// Regions in code order, each boxed in the lowest panel that draws it.
pub(crate) fn region_boxes(layer: &GeoLayer, shapes: &[Shape]) -> Vec<RegionBox> {
    // (region code) -> (name, panel, bounds); the lowest panel index wins.
    let mut boxes: BTreeMap<String, (String, usize, [f64; 4])> = BTreeMap::new();
    for shape in shapes {
        let area = &layer.areas[shape.area];
        let Some(code) = area.region_code.clone() else {
            continue;
        };
        let b = [
            shape.bounds.x,
            shape.bounds.y,
            shape.bounds.x + shape.bounds.width,
            shape.bounds.y + shape.bounds.height,
        ];
        let name = area.region_name.clone().unwrap_or_else(|| code.clone());
        let entry = boxes
            .entry(code)
            .or_insert((name, shape.panel, EMPTY_BOUNDS));
        if shape.panel < entry.1 {
            *entry = (entry.0.clone(), shape.panel, EMPTY_BOUNDS);
        }
        if shape.panel == entry.1 {
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
