//! Spatial weights: which areas are neighbours.
//!
//! # Definition
//! Two contiguities, as GeoDa and libpysal define them ([`Contiguity`]):
//!
//! * Rook: areas i ≠ j are neighbours when they share a border of positive length (a common
//!   point alone does not count).
//! * Queen (GeoDa's and libpysal's default, `Queen.from_dataframe`): areas i ≠ j are neighbours
//!   when they share at least one boundary point: every rook pair, and areas that only touch
//!   at a corner (the diagonal cells of a grid).
//!
//! Rook:
//!
//! * From a TopoJSON topology, a shared border is an arc used by both geometries (the topology
//!   stores each border once, and both areas reference it, one of them reversed). This is exact
//!   and needs no coordinate comparison.
//! * From GeoJSON, a shared border is a ring segment whose two end points occur, in either order,
//!   in rings of both areas (points compared after rounding to 1e-7 degrees, ≈1 cm). This finds
//!   borders only when both sides carry the same vertices, as files exported from a topology do.
//!
//! Queen, from either format: a shared point is a ring vertex present in both areas (compared
//! after rounding to 1e-7 degrees). For a topology the rings are the decoded arcs, so the end
//! points of a shared arc (and the junction where areas meet at a corner, which topology
//! builders cut arcs at) carry identical coordinates on both sides. Queen pairs are the union of
//! the rook pairs and these point pairs, so queen ⊇ rook always. Like libpysal's vertex-based
//! contiguity, a corner that lies in the middle of the other area's edge (not one of its
//! vertices) is not found.
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
//! so memory and time stay linear in the input. For queen, a point where k areas meet gives
//! k(k − 1)/2 pairs even in a valid partition (4 at a grid corner: 6 pairs); the pairs of points
//! shared by three or more areas may total at most [`MAX_OVERLAP_PAIRS`] plus twice the number of
//! (point, area) entries, more is [`WeightsError::CrowdedPoints`].

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
    #[error(
        "{areas} areas (`{first_code}`, `{second_code}`, …) meet at one point ({point}); points \
         shared by three or more areas give more than {limit} pairs of neighbours in all, so \
         queen neighbours are not computed (a boundary file must not have overlapping areas)"
    )]
    CrowdedPoints {
        /// Number of areas at the point that passed the limit.
        areas: usize,
        first_code: String,
        second_code: String,
        /// The point: `(x, y)`.
        point: String,
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
                "{areas} áreas («{first_code}», «{second_code}», …) comparten un borde ({border}), así que se superponen; los bordes compartidos por tres áreas o más dan más de {limit} pares de vecinos en total, así que no se calculan vecinos de tipo torre (un archivo de límites no debe tener áreas superpuestas)"
            ),
            CrowdedPoints {
                areas,
                first_code,
                second_code,
                point,
                limit,
            } => format!(
                "{areas} áreas («{first_code}», «{second_code}», …) se tocan en un mismo punto ({point}); los puntos compartidos por tres áreas o más dan más de {limit} pares de vecinos en total, así que no se calculan vecinos de tipo reina (un archivo de límites no debe tener áreas superpuestas)"
            ),
        }
    }
}

/// The most neighbour pairs that borders shared by three or more (overlapping) areas may give,
/// over all such borders: about 450 areas all on one border. Valid boundary files give none.
pub const MAX_OVERLAP_PAIRS: usize = 100_000;

/// Which areas are neighbours: sharing a border (rook) or at least a point (queen, the default
/// as in GeoDa and libpysal). See the module notes.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Contiguity {
    /// Areas sharing at least one boundary point (a border or a corner).
    #[default]
    Queen,
    /// Areas sharing a border of positive length.
    Rook,
}

impl Contiguity {
    /// Both, in the order offered.
    pub const ALL: [Contiguity; 2] = [Contiguity::Queen, Contiguity::Rook];

    /// The name on the command line, in requests and in the URL fragment.
    pub fn name(self) -> &'static str {
        match self {
            Contiguity::Queen => "queen",
            Contiguity::Rook => "rook",
        }
    }

    /// The contiguity of `name` ([`Contiguity::name`]).
    pub fn from_name(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|c| c.name() == name)
    }

    /// What neighbours are, in `lang`, for texts: "sharing a border or a corner (queen)".
    pub fn described(self, lang: crate::Lang) -> &'static str {
        match self {
            Contiguity::Queen => lang.pick(
                "comparten un límite o un vértice (reina)",
                "sharing a border or a corner (queen)",
            ),
            Contiguity::Rook => lang.pick("comparten un límite (torre)", "sharing a border (rook)"),
        }
    }

    /// The weights of `layer` under this contiguity.
    pub fn weights(self, layer: &GeoLayer) -> Result<Weights, WeightsError> {
        match self {
            Contiguity::Queen => Weights::queen(layer),
            Contiguity::Rook => Weights::rook(layer),
        }
    }
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
    /// An error when borders shared by three or more areas would give more than
    /// [`MAX_OVERLAP_PAIRS`] pairs (see the module notes).
    pub fn rook(layer: &GeoLayer) -> Result<Self, WeightsError> {
        let codes: Vec<&str> = layer.areas.iter().map(|a| a.code.as_str()).collect();
        match &layer.arcs_by_area {
            Some(arcs) => Self::rook_from_arcs_named(arcs, &codes),
            None => Self::rook_from_shared_edges(layer),
        }
    }

    /// Queen contiguity of a layer: the rook pairs and the pairs of areas with a ring vertex in
    /// common (see the module notes). An error when borders or points shared by three or more
    /// areas give more pairs than the caps allow.
    pub fn queen(layer: &GeoLayer) -> Result<Self, WeightsError> {
        let rook = Self::rook(layer)?;
        let key = |p: &[f64; 2]| ((p[0] * 1e7).round() as i64, (p[1] * 1e7).round() as i64);
        let mut entries: Vec<((i64, i64), usize)> = Vec::new();
        for (area, a) in layer.areas.iter().enumerate() {
            let start = entries.len();
            for ring in a.polygons.iter().flatten() {
                entries.extend(ring.iter().map(|p| (key(p), area)));
            }
            // Each point once per area, so that a closing vertex or a ring touching itself
            // does not count twice towards the cap.
            entries[start..].sort_unstable();
            let mut kept = start;
            for k in start..entries.len() {
                if kept == start || entries[k] != entries[kept - 1] {
                    entries[kept] = entries[k];
                    kept += 1;
                }
            }
            entries.truncate(kept);
        }
        let codes: Vec<&str> = layer.areas.iter().map(|a| a.code.as_str()).collect();
        let limit = MAX_OVERLAP_PAIRS.saturating_add(entries.len().saturating_mul(2));
        let points = Self::pairs_of(&mut entries, limit, |group, border| {
            let code = |i: usize| codes.get(i).copied().unwrap_or("?").to_string();
            WeightsError::CrowdedPoints {
                areas: group.len(),
                first_code: code(group[0]),
                second_code: code(group[1]),
                point: format!("({}, {})", border.0 as f64 / 1e7, border.1 as f64 / 1e7),
                limit,
            }
        })?;
        let mut pairs: Vec<(usize, usize)> = points;
        for (a, list) in rook.neighbours.iter().enumerate() {
            pairs.extend(list.iter().filter(|&&b| a < b).map(|&b| (a, b)));
        }
        Ok(Self::from_pairs(layer.areas.len(), pairs))
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
        let pairs = Self::pairs_of(entries, MAX_OVERLAP_PAIRS, |group, border| {
            let code = |i: usize| codes.get(i).copied().unwrap_or("?").to_string();
            WeightsError::OverlappingBorders {
                areas: group.len(),
                first_code: code(group[0]),
                second_code: code(group[1]),
                border: describe(border),
                limit: MAX_OVERLAP_PAIRS,
            }
        })?;
        Ok(Self::from_pairs(count, pairs))
    }

    /// The pairs of areas that share a key (a border or a point), from (key, area) entries;
    /// groups of three or more areas may give at most `limit` pairs in all, else `too_many`
    /// names the group (its areas) and key that passed it.
    fn pairs_of<K: Ord + Copy>(
        entries: &mut [(K, usize)],
        limit: usize,
        too_many: impl Fn(&[usize], K) -> WeightsError,
    ) -> Result<Vec<(usize, usize)>, WeightsError> {
        entries.sort_unstable();
        let mut pairs: Vec<(usize, usize)> = Vec::new();
        let mut crowded_pairs = 0usize;
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
                crowded_pairs = crowded_pairs.saturating_add(k * (k - 1) / 2);
                if crowded_pairs > limit {
                    return Err(too_many(&group, border));
                }
            }
            for (x, &a) in group.iter().enumerate() {
                for &b in &group[x + 1..] {
                    pairs.push((a, b));
                }
            }
            start = end;
        }
        Ok(pairs)
    }

    /// Symmetric sorted lists from pairs (a, b), a ≠ b, duplicates allowed.
    fn from_pairs(count: usize, mut pairs: Vec<(usize, usize)>) -> Self {
        for pair in &mut pairs {
            if pair.0 > pair.1 {
                *pair = (pair.1, pair.0);
            }
        }
        pairs.sort_unstable();
        pairs.dedup();
        let mut neighbours = vec![Vec::new(); count];
        for &(a, b) in &pairs {
            if a < count && b < count && a != b {
                neighbours[a].push(b);
                neighbours[b].push(a);
            }
        }
        for list in &mut neighbours {
            list.sort_unstable();
        }
        Weights { neighbours }
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
