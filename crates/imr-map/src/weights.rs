//! Spatial weights: which areas are neighbours.
//!
//! # Definition
//! Rook contiguity: areas i ≠ j are neighbours when they share a border of positive length
//! (a common point alone does not count; that would be queen contiguity).
//!
//! * From a TopoJSON topology, a shared border is an arc used by both geometries (the topology
//!   stores each border once, and both areas reference it, one of them reversed). This is exact
//!   and needs no coordinate comparison.
//! * From GeoJSON, a shared border is a ring segment whose two end points occur, in either order,
//!   in rings of both areas (points compared after rounding to 1e-7 degrees, ≈1 cm). This finds
//!   borders only when both sides carry the same vertices, as files exported from a topology do.
//!
//! Weights are binary here; statistics that need row-standardised weights (w_ij = 1/|N_i|)
//! apply them themselves, as GeoDa does.

use std::collections::{BTreeMap, BTreeSet};

use crate::geometry::GeoLayer;

/// Why a neighbour list is not valid.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[non_exhaustive]
pub enum WeightsError {
    #[error("area {area} lists neighbour {neighbour}, but there are only {count} areas")]
    OutOfRange {
        area: usize,
        neighbour: usize,
        count: usize,
    },
    #[error("area {0} lists itself as its neighbour")]
    SelfNeighbour(usize),
    #[error("area {area} lists {neighbour} as a neighbour but not the other way round")]
    Asymmetric { area: usize, neighbour: usize },
}

/// A symmetric list of neighbours per area (indexes into the layer's areas), without self-links.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Weights {
    neighbours: Vec<Vec<usize>>,
}

impl Weights {
    /// Validates hand-made lists: indexes in range, no self-links, symmetric. Lists are sorted and
    /// de-duplicated.
    pub fn from_lists(lists: Vec<Vec<usize>>) -> Result<Self, WeightsError> {
        let count = lists.len();
        let mut neighbours: Vec<Vec<usize>> = Vec::with_capacity(count);
        for (area, list) in lists.into_iter().enumerate() {
            let set: BTreeSet<usize> = list.into_iter().collect();
            for &neighbour in &set {
                if neighbour >= count {
                    return Err(WeightsError::OutOfRange {
                        area,
                        neighbour,
                        count,
                    });
                }
                if neighbour == area {
                    return Err(WeightsError::SelfNeighbour(area));
                }
            }
            neighbours.push(set.into_iter().collect());
        }
        for (area, list) in neighbours.iter().enumerate() {
            for &neighbour in list {
                if neighbours[neighbour].binary_search(&area).is_err() {
                    return Err(WeightsError::Asymmetric { area, neighbour });
                }
            }
        }
        Ok(Weights { neighbours })
    }

    /// Rook contiguity of a layer: from shared arcs for a topology, else from shared edges.
    pub fn rook(layer: &GeoLayer) -> Self {
        match &layer.arcs_by_area {
            Some(arcs) => Self::rook_from_arcs(arcs),
            None => Self::rook_from_shared_edges(layer),
        }
    }

    /// Rook contiguity from the arcs each area uses (TopoJSON).
    pub fn rook_from_arcs(arcs_by_area: &[BTreeSet<usize>]) -> Self {
        let mut users: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
        for (area, arcs) in arcs_by_area.iter().enumerate() {
            for &arc in arcs {
                users.entry(arc).or_default().push(area);
            }
        }
        Self::from_groups(arcs_by_area.len(), users.into_values())
    }

    /// Rook contiguity from ring segments shared by two areas (GeoJSON).
    pub fn rook_from_shared_edges(layer: &GeoLayer) -> Self {
        let key = |p: &[f64; 2]| ((p[0] * 1e7).round() as i64, (p[1] * 1e7).round() as i64);
        type Point = (i64, i64);
        let mut users: BTreeMap<(Point, Point), Vec<usize>> = BTreeMap::new();
        for (area, a) in layer.areas.iter().enumerate() {
            for ring in a.polygons.iter().flatten() {
                let n = ring.len();
                for k in 0..n {
                    let (p, q) = (key(&ring[k]), key(&ring[(k + 1) % n]));
                    if p == q {
                        continue;
                    }
                    let edge = if p < q { (p, q) } else { (q, p) };
                    let list = users.entry(edge).or_default();
                    if list.last() != Some(&area) {
                        list.push(area);
                    }
                }
            }
        }
        Self::from_groups(layer.areas.len(), users.into_values())
    }

    fn from_groups(count: usize, groups: impl Iterator<Item = Vec<usize>>) -> Self {
        let mut sets = vec![BTreeSet::new(); count];
        for group in groups {
            for &a in &group {
                for &b in &group {
                    if a != b {
                        sets[a].insert(b);
                    }
                }
            }
        }
        Weights {
            neighbours: sets.into_iter().map(|s| s.into_iter().collect()).collect(),
        }
    }

    /// Number of areas.
    pub fn len(&self) -> usize {
        self.neighbours.len()
    }

    /// True when there are no areas.
    pub fn is_empty(&self) -> bool {
        self.neighbours.is_empty()
    }

    /// Neighbours of area `i`, sorted.
    pub fn neighbours(&self, i: usize) -> &[usize] {
        &self.neighbours[i]
    }

    /// Areas with no neighbour (islands such as Isla de Pascua).
    pub fn islands(&self) -> Vec<usize> {
        (0..self.len())
            .filter(|&i| self.neighbours[i].is_empty())
            .collect()
    }

    /// The weights restricted to the areas where `keep` is true, re-indexed in order.
    pub fn subset(&self, keep: &[bool]) -> Weights {
        let mut new_index = vec![usize::MAX; self.len()];
        let mut next = 0;
        for (i, &k) in keep.iter().enumerate().take(self.len()) {
            if k {
                new_index[i] = next;
                next += 1;
            }
        }
        let neighbours = (0..self.len())
            .filter(|&i| keep.get(i).copied().unwrap_or(false))
            .map(|i| {
                self.neighbours[i]
                    .iter()
                    .filter(|&&j| new_index[j] != usize::MAX)
                    .map(|&j| new_index[j])
                    .collect()
            })
            .collect();
        Weights { neighbours }
    }

    /// The weights in GeoDa's GAL text format, with the layer's codes as identifiers.
    pub fn to_gal(&self, layer: &GeoLayer) -> String {
        let mut out = format!("0 {} {} codigo\n", self.len(), "imr-atlas");
        for (i, list) in self.neighbours.iter().enumerate() {
            out.push_str(&format!("{} {}\n", layer.areas[i].code, list.len()));
            let codes: Vec<&str> = list.iter().map(|&j| layer.areas[j].code.as_str()).collect();
            out.push_str(&codes.join(" "));
            out.push('\n');
        }
        out
    }
}
