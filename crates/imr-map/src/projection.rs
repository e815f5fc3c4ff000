//! Map projection and its fit to a box on the page, in the style of d3-geo: a projection is a pure
//! pair `xy_from_lonlat` / `lonlat_from_xy`, and the screen transform (scale and translation,
//! y pointing down) is separate from it.
//!
//! Chile is about 4,300 km north–south and under 400 km wide, so a transverse Mercator centred on
//! the country's meridian (≈ 71° W) keeps every commune close to the central meridian, where the
//! projection is conformal with almost no scale error (at 5° from the meridian the scale factor is
//! 1/√(1 − cos²φ sin²5°) ≈ 1.003). Each inset gets its own transverse Mercator centred on itself.

/// A rectangle in SVG user units (y grows downwards).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rect {
    pub x: f64,
    pub y: f64,
    pub width: f64,
    pub height: f64,
}

impl Rect {
    pub fn new(x: f64, y: f64, width: f64, height: f64) -> Self {
        Rect {
            x,
            y,
            width,
            height,
        }
    }

    /// The rectangle shrunk by `margin` on every side (never below zero size).
    pub fn inset(&self, margin: f64) -> Rect {
        Rect {
            x: self.x + margin,
            y: self.y + margin,
            width: (self.width - 2.0 * margin).max(0.0),
            height: (self.height - 2.0 * margin).max(0.0),
        }
    }
}

/// Spherical transverse Mercator on the unit sphere.
///
/// # Formula (Snyder 1987, *Map Projections — A Working Manual*, USGS PP 1395, eqs. 8-1 to 8-9, k₀ = 1)
/// With λ, φ the longitude and latitude in radians, λ₀ the central meridian and φ₀ the latitude of
/// origin:
///
/// * B = cos φ · sin(λ − λ₀)
/// * x = atanh B = ½ ln((1 + B)/(1 − B))
/// * y = atan2(tan φ, cos(λ − λ₀)) − φ₀
///
/// and the inverse, with D = y + φ₀:
///
/// * φ = asin(sin D / cosh x)
/// * λ = λ₀ + atan2(sinh x, cos D)
///
/// x grows east and y north, in units of the sphere's radius. Valid within 90° of the central
/// meridian (B = ±1 is at infinity).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct TransverseMercator {
    /// Central meridian, degrees.
    pub lon0: f64,
    /// Latitude of origin, degrees.
    pub lat0: f64,
}

impl TransverseMercator {
    /// Centred on Chile's mainland (71° W, 37° S).
    pub const CHILE: TransverseMercator = TransverseMercator {
        lon0: -71.0,
        lat0: -37.0,
    };

    /// A projection centred on the middle of `[min_lon, min_lat, max_lon, max_lat]`.
    pub fn centred_on(bounds: [f64; 4]) -> Self {
        TransverseMercator {
            lon0: (bounds[0] + bounds[2]) / 2.0,
            lat0: (bounds[1] + bounds[3]) / 2.0,
        }
    }

    /// Projected `(x, y)` of a longitude/latitude in degrees.
    pub fn xy_from_lonlat(&self, lon: f64, lat: f64) -> (f64, f64) {
        let dlambda = (lon - self.lon0).to_radians();
        let phi = lat.to_radians();
        let b = (phi.cos() * dlambda.sin()).clamp(-1.0 + 1e-12, 1.0 - 1e-12);
        let x = b.atanh();
        let y = phi.tan().atan2(dlambda.cos()) - self.lat0.to_radians();
        (x, y)
    }

    /// Longitude/latitude in degrees of a projected `(x, y)`.
    pub fn lonlat_from_xy(&self, x: f64, y: f64) -> (f64, f64) {
        let d = y + self.lat0.to_radians();
        let phi = (d.sin() / x.cosh()).clamp(-1.0, 1.0).asin();
        let lambda = x.sinh().atan2(d.cos());
        (self.lon0 + lambda.to_degrees(), phi.to_degrees())
    }
}

/// A projection fitted to a rectangle: screen = (tx + k·x, ty − k·y).
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct FittedProjection {
    pub projection: TransverseMercator,
    /// Scale k, SVG units per unit of the projected plane.
    pub scale: f64,
    pub translate: (f64, f64),
}

impl FittedProjection {
    /// Fits projected bounds `[min_x, min_y, max_x, max_y]` into `rect`, as d3's `fitExtent`:
    /// the largest scale at which the bounds fit, centred in the rectangle.
    ///
    /// k = min(width / (max_x − min_x), height / (max_y − min_y)); the bounds' centre goes to the
    /// rectangle's centre. A degenerate extent (a single point) gets k = 1.
    pub fn fit(projection: TransverseMercator, projected: [f64; 4], rect: Rect) -> Self {
        let dx = projected[2] - projected[0];
        let dy = projected[3] - projected[1];
        let kx = if dx > 0.0 {
            rect.width / dx
        } else {
            f64::INFINITY
        };
        let ky = if dy > 0.0 {
            rect.height / dy
        } else {
            f64::INFINITY
        };
        let mut scale = kx.min(ky);
        if !scale.is_finite() || scale <= 0.0 {
            scale = 1.0;
        }
        let cx = (projected[0] + projected[2]) / 2.0;
        let cy = (projected[1] + projected[3]) / 2.0;
        let translate = (
            rect.x + rect.width / 2.0 - scale * cx,
            rect.y + rect.height / 2.0 + scale * cy,
        );
        FittedProjection {
            projection,
            scale,
            translate,
        }
    }

    /// Fits the given longitude/latitude points (every vertex, since meridians curve).
    pub fn fit_points<'a>(
        projection: TransverseMercator,
        points: impl IntoIterator<Item = &'a [f64; 2]>,
        rect: Rect,
    ) -> Self {
        let mut b = crate::geometry::EMPTY_BOUNDS;
        for p in points {
            let (x, y) = projection.xy_from_lonlat(p[0], p[1]);
            crate::geometry::extend_bounds(&mut b, &[x, y, x, y]);
        }
        if !b[0].is_finite() {
            b = [0.0, 0.0, 0.0, 0.0];
        }
        Self::fit(projection, b, rect)
    }

    /// SVG coordinates of a longitude/latitude.
    pub fn screen_from_lonlat(&self, lon: f64, lat: f64) -> (f64, f64) {
        let (x, y) = self.projection.xy_from_lonlat(lon, lat);
        (
            self.translate.0 + self.scale * x,
            self.translate.1 - self.scale * y,
        )
    }

    /// Longitude/latitude of an SVG point (for a pointer position, say).
    pub fn lonlat_from_screen(&self, sx: f64, sy: f64) -> (f64, f64) {
        let x = (sx - self.translate.0) / self.scale;
        let y = (self.translate.1 - sy) / self.scale;
        self.projection.lonlat_from_xy(x, y)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_central_meridian_maps_to_x_zero_and_latitude_to_arc_length() {
        let p = TransverseMercator::CHILE;
        let (x, y) = p.xy_from_lonlat(-71.0, -33.0);
        assert!(x.abs() < 1e-15);
        // On the central meridian, y is the latitude difference in radians.
        assert!((y - 4f64.to_radians()).abs() < 1e-12);
    }

    #[test]
    fn east_is_positive_x_and_north_is_positive_y() {
        let p = TransverseMercator::CHILE;
        let (x_east, _) = p.xy_from_lonlat(-68.0, -37.0);
        let (_, y_north) = p.xy_from_lonlat(-71.0, -20.0);
        assert!(x_east > 0.0 && y_north > 0.0);
    }

    proptest::proptest! {
        #[test]
        fn projecting_and_inverting_returns_the_same_point(
            lon in -110.0f64..-60.0, lat in -60.0f64..-10.0
        ) {
            let p = TransverseMercator::CHILE;
            let (x, y) = p.xy_from_lonlat(lon, lat);
            let (lon2, lat2) = p.lonlat_from_xy(x, y);
            proptest::prop_assert!((lon - lon2).abs() < 1e-9, "{} vs {}", lon, lon2);
            proptest::prop_assert!((lat - lat2).abs() < 1e-9, "{} vs {}", lat, lat2);
        }

        #[test]
        fn screen_coordinates_invert_to_the_same_point(
            lon in -76.0f64..-66.0, lat in -56.0f64..-17.0
        ) {
            let f = FittedProjection::fit_points(
                TransverseMercator::CHILE,
                &[[-76.0, -56.0], [-66.0, -17.0]],
                Rect::new(10.0, 20.0, 300.0, 900.0),
            );
            let (sx, sy) = f.screen_from_lonlat(lon, lat);
            let (lon2, lat2) = f.lonlat_from_screen(sx, sy);
            proptest::prop_assert!((lon - lon2).abs() < 1e-9 && (lat - lat2).abs() < 1e-9);
        }
    }

    #[test]
    fn fitting_puts_the_extent_inside_the_box_touching_two_sides() {
        let rect = Rect::new(10.0, 20.0, 300.0, 900.0);
        let corners = [
            [-76.0, -56.0],
            [-66.0, -56.0],
            [-66.0, -17.0],
            [-76.0, -17.0],
        ];
        let f = FittedProjection::fit_points(TransverseMercator::CHILE, &corners, rect);
        let pts: Vec<(f64, f64)> = corners
            .iter()
            .map(|c| f.screen_from_lonlat(c[0], c[1]))
            .collect();
        let min_x = pts.iter().map(|p| p.0).fold(f64::INFINITY, f64::min);
        let max_x = pts.iter().map(|p| p.0).fold(f64::NEG_INFINITY, f64::max);
        let min_y = pts.iter().map(|p| p.1).fold(f64::INFINITY, f64::min);
        let max_y = pts.iter().map(|p| p.1).fold(f64::NEG_INFINITY, f64::max);
        let eps = 1e-9;
        assert!(min_x >= rect.x - eps && max_x <= rect.x + rect.width + eps);
        assert!(min_y >= rect.y - eps && max_y <= rect.y + rect.height + eps);
        // Chile is tall: the height is filled, and the width is centred.
        assert!((min_y - rect.y).abs() < 1e-6 && (max_y - rect.y - rect.height).abs() < 1e-6);
        assert!(((min_x + max_x) / 2.0 - (rect.x + rect.width / 2.0)).abs() < 1e-6);
        // North is up: Arica's latitude is above Punta Arenas'.
        assert!(f.screen_from_lonlat(-70.0, -18.5).1 < f.screen_from_lonlat(-70.0, -53.0).1);
    }
}
