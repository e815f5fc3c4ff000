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
//!
//! # Cost, and the cap on overlapping borders
//! Neighbours are found by sorting (border, area) entries, O(E log E) for E arc references or
//! ring segments, and every pair of areas on one border becomes a neighbour pair. In a partition
//! of the plane a border separates exactly two areas, so the pairs are at most E. A border
//! shared by k ≥ 3 areas means the areas overlap, and gives k(k − 1)/2 pairs: a degenerate file
//! of 6,000 areas on one edge would give 18 million. Such pairs are counted, and more than
//! [`MAX_OVERLAP_PAIRS`] of them over all borders is an error ([`WeightsError::OverlappingBorders`]),
//! so memory and time stay linear in the input.

use std::collections::BTreeSet;

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
    #[error(
        "{areas} areas (`{first_code}`, `{second_code}`, …) share one border ({border}), so they \
         overlap; borders shared by three or more areas give more than {limit} pairs of \
         neighbours in all, so rook neighbours are not computed (a boundary file must not have \
         overlapping areas)"
    )]
    OverlappingBorders {
        /// Number of areas on the border that passed the limit.
        areas: usize,
        first_code: String,
        second_code: String,
        /// The border: `arc 17`, or `the edge (x0, y0)–(x1, y1)`.
        border: String,
        limit: usize,
    },
}

impl WeightsError {
    /// The error in `lang`: English is the `Display` text.
    pub fn text(&self, lang: crate::Lang) -> String {
        use WeightsError::*;
        if lang == crate::Lang::En {
            return self.to_string();
        }
        match self {
            OutOfRange {
                area,
                neighbour,
                count,
            } => format!("el área {area} tiene el vecino {neighbour}, pero solo hay {count} áreas"),
            SelfNeighbour(area) => format!("el área {area} se tiene a sí misma como vecina"),
            Asymmetric { area, neighbour } => format!(
                "el área {area} tiene a {neighbour} como vecina pero no al revés"
            ),
            OverlappingBorders {
                areas,
                first_code,
                second_code,
                border,
                limit,
            } => format!(
                "{areas} áreas (`{first_code}`, `{second_code}`, …) comparten un borde ({border}), así que se superponen; los bordes compartidos por tres áreas o más dan más de {limit} pares de vecinos en total, así que no se calculan vecinos de tipo torre (un archivo de límites no debe tener áreas superpuestas)"
            ),
        }
    }
}

/// The most neighbour pairs that borders shared by three or more (overlapping) areas may give,
/// over all such borders: about 450 areas all on one border. Valid boundary files give none.
pub const MAX_OVERLAP_PAIRS: usize = 100_000;

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
    /// An error when borders shared by three or more areas would give more than
    /// [`MAX_OVERLAP_PAIRS`] pairs (see the module notes).
    pub fn rook(layer: &GeoLayer) -> Result<Self, WeightsError> {
        let codes: Vec<&str> = layer.areas.iter().map(|a| a.code.as_str()).collect();
        match &layer.arcs_by_area {
            Some(arcs) => Self::rook_from_arcs_named(arcs, &codes),
            None => Self::rook_from_shared_edges(layer),
        }
    }

    /// Rook contiguity from the arcs each area uses (TopoJSON).
    pub fn rook_from_arcs(arcs_by_area: &[BTreeSet<usize>]) -> Result<Self, WeightsError> {
        let codes: Vec<String> = (0..arcs_by_area.len()).map(|i| i.to_string()).collect();
        let codes: Vec<&str> = codes.iter().map(String::as_str).collect();
        Self::rook_from_arcs_named(arcs_by_area, &codes)
    }

    fn rook_from_arcs_named(
        arcs_by_area: &[BTreeSet<usize>],
        codes: &[&str],
    ) -> Result<Self, WeightsError> {
        let mut entries: Vec<(usize, usize)> = arcs_by_area
            .iter()
            .enumerate()
            .flat_map(|(area, arcs)| arcs.iter().map(move |&arc| (arc, area)))
            .collect();
        Self::from_entries(arcs_by_area.len(), &mut entries, codes, |arc| {
            format!("arc {arc}")
        })
    }

    /// Rook contiguity from ring segments shared by two areas (GeoJSON).
    pub fn rook_from_shared_edges(layer: &GeoLayer) -> Result<Self, WeightsError> {
        // 1e-7 degrees ≈ 1 cm; `as` saturates, so no coordinate can overflow.
        let key = |p: &[f64; 2]| ((p[0] * 1e7).round() as i64, (p[1] * 1e7).round() as i64);
        type Point = (i64, i64);
        let mut entries: Vec<((Point, Point), usize)> = Vec::new();
        for (area, a) in layer.areas.iter().enumerate() {
            for ring in a.polygons.iter().flatten() {
                let n = ring.len();
                for k in 0..n {
                    let (p, q) = (key(&ring[k]), key(&ring[(k + 1) % n]));
                    if p == q {
                        continue;
                    }
                    entries.push((if p < q { (p, q) } else { (q, p) }, area));
                }
            }
        }
        let codes: Vec<&str> = layer.areas.iter().map(|a| a.code.as_str()).collect();
        Self::from_entries(layer.areas.len(), &mut entries, &codes, |(p, q)| {
            format!(
                "the edge ({}, {})–({}, {})",
                p.0 as f64 / 1e7,
                p.1 as f64 / 1e7,
                q.0 as f64 / 1e7,
                q.1 as f64 / 1e7
            )
        })
    }

    /// Neighbour lists from (border, area) entries: areas with a border in common are
    /// neighbours. Sorting groups the entries by border; pairs are collected, sorted and
    /// de-duplicated, so the cost is O(E log E) plus the pairs of overlapping borders (capped).
    fn from_entries<K: Ord + Copy>(
        count: usize,
        entries: &mut [(K, usize)],
        codes: &[&str],
        describe: impl Fn(K) -> String,
    ) -> Result<Self, WeightsError> {
        entries.sort_unstable();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut overlap_pairs = 0usize;
        let mut start = 0;
        while start < entries.len() {
            let border = entries[start].0;
            let mut end = start + 1;
            while end < entries.len() && entries[end].0 == border {
                end += 1;
            }
            // The areas on this border, each once (an area may use a border twice).
            let mut group: Vec<usize> = entries[start..end].iter().map(|e| e.1).collect();
            group.dedup();
            let k = group.len();
            if k >= 3 {
                overlap_pairs = overlap_pairs.saturating_add(k * (k - 1) / 2);
                if overlap_pairs > MAX_OVERLAP_PAIRS {
                    let code = |i: usize| codes.get(i).copied().unwrap_or("?").to_string();
                    return Err(WeightsError::OverlappingBorders {
                        areas: k,
                        first_code: code(group[0]),
                        second_code: code(group[1]),
                        border: describe(border),
                        limit: MAX_OVERLAP_PAIRS,
                    });
                }
            }
            for (x, &a) in group.iter().enumerate() {
                for &b in &group[x + 1..] {
                    pairs.push((a, b));
                }
            }
            start = end;
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut neighbours = vec![Vec::new(); count];
        for &(a, b) in &pairs {
            if a < count && b < count {
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
        }
        for list in &mut neighbours {
            list.sort_unstable();
        }
        Ok(Weights { neighbours })
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
