//! The bundled boundaries (public/data/comunas.topojson, 345 communes) decode to exactly the
//! geometry, codes, arcs and rook neighbours they decoded to with the georust `topojson` 0.5.1
//! crate, before it was replaced by imr-map's own validated decoder.
//!
//! The expected fingerprints were recorded by this test run against the old decoder (commit
//! "Boundaries: fingerprint of the bundled map's decoding …" on branch h-bounds), then kept
//! unchanged when the decoder was switched: any difference in a single coordinate bit, ring
//! order, name, code, region, arc set or neighbour list changes a hash.

use imr_map::geometry::{GeoLayer, PropertyKeys};
use imr_map::weights::Weights;

const BUNDLED: &str = include_str!("../../../public/data/comunas.topojson");

/// FNV-1a, 64 bits: a fixed, dependency-free hash (the standard library's hasher may change
/// between Rust releases).
struct Fnv(u64);

impl Fnv {
    fn new() -> Self {
        Fnv(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    fn usize(&mut self, n: usize) {
        self.bytes(&(n as u64).to_le_bytes());
    }
    fn f64(&mut self, x: f64) {
        self.bytes(&x.to_bits().to_le_bytes());
    }
    fn str(&mut self, s: &str) {
        self.usize(s.len());
        self.bytes(s.as_bytes());
    }
    fn opt(&mut self, s: Option<&str>) {
        match s {
            Some(s) => {
                self.usize(1);
                self.str(s);
            }
            None => self.usize(0),
        }
    }
}

fn layer() -> GeoLayer {
    GeoLayer::from_str(BUNDLED, None, &PropertyKeys::default()).unwrap()
}

#[test]
fn the_bundled_geometry_decodes_bit_for_bit_as_before() {
    let layer = layer();
    let mut geometry = Fnv::new();
    let mut points = 0usize;
    let mut rings = 0usize;
    let (mut sum_lon, mut sum_lat) = (0.0f64, 0.0f64);
    for area in &layer.areas {
        geometry.str(&area.code);
        geometry.str(&area.name);
        geometry.opt(area.region_code.as_deref());
        geometry.opt(area.region_name.as_deref());
        geometry.usize(area.polygons.len());
        for polygon in &area.polygons {
            geometry.usize(polygon.len());
            for ring in polygon {
                rings += 1;
                geometry.usize(ring.len());
                for p in ring {
                    points += 1;
                    sum_lon += p[0];
                    sum_lat += p[1];
                    geometry.f64(p[0]);
                    geometry.f64(p[1]);
                }
            }
        }
    }
    let mut arcs = Fnv::new();
    for set in layer.arcs_by_area.as_ref().unwrap() {
        arcs.usize(set.len());
        for &a in set {
            arcs.usize(a);
        }
    }
    assert_eq!(layer.areas.len(), 345);
    assert!(layer.skipped.is_empty(), "{:?}", layer.skipped);
    assert_eq!((rings, points), (924, 33_889));
    assert_eq!(
        (format!("{sum_lon:.6}"), format!("{sum_lat:.6}")),
        ("-2445936.207412".to_string(), "-1390410.086475".to_string())
    );
    assert_eq!(geometry.0, 0x701c967869340af0, "geometry fingerprint");
    assert_eq!(arcs.0, 0x734769e5b96fec24, "arc-set fingerprint");
}

#[test]
fn the_bundled_rook_neighbours_are_unchanged() {
    let layer = layer();
    let weights = Weights::rook(&layer).unwrap();
    let mut hash = Fnv::new();
    let mut pairs = 0usize;
    for i in 0..weights.len() {
        let list = weights.neighbours(i);
        pairs += list.len();
        hash.usize(list.len());
        for &j in list {
            hash.usize(j);
        }
    }
    assert_eq!(pairs / 2, 837, "neighbour pairs");
    assert_eq!(weights.islands().len(), 4, "islands");
    assert_eq!(hash.0, 0x3a3823a1018c80e1, "neighbour-list fingerprint");
}
