//! Colour schemes for map classes, sampled from `colorous` (the d3-scale-chromatic ports of
//! ColorBrewer and the matplotlib perceptually uniform maps). All offered schemes are readable by
//! people with the common colour-vision deficiencies (ColorBrewer's "colorblind safe" flag; viridis
//! and cividis by design).

use colorous::Gradient;

/// A colour scheme.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[non_exhaustive]
pub enum Scheme {
    /// Sequential yellow–orange–red (ColorBrewer YlOrRd): the default for rates.
    YlOrRd,
    /// Sequential blues (ColorBrewer Blues).
    Blues,
    /// Sequential viridis.
    Viridis,
    /// Sequential cividis (optimised for colour-vision deficiency).
    Cividis,
    /// Diverging blue–white–red (ColorBrewer RdBu reversed: high is red), for excess risk, box
    /// and standard deviation maps.
    BuRd,
    /// Diverging purple–white–orange (ColorBrewer PuOr, high is orange).
    PuOr,
}

impl Scheme {
    /// Parses `ylorrd`, `blues`, `viridis`, `cividis`, `burd` / `rdbu`, `puor` (any case).
    pub fn from_name(name: &str) -> Option<Scheme> {
        match name.to_ascii_lowercase().as_str() {
            "ylorrd" => Some(Scheme::YlOrRd),
            "blues" => Some(Scheme::Blues),
            "viridis" => Some(Scheme::Viridis),
            "cividis" => Some(Scheme::Cividis),
            "burd" | "rdbu" => Some(Scheme::BuRd),
            "puor" => Some(Scheme::PuOr),
            _ => None,
        }
    }

    fn gradient(self) -> Gradient {
        match self {
            Scheme::YlOrRd => colorous::YELLOW_ORANGE_RED,
            Scheme::Blues => colorous::BLUES,
            Scheme::Viridis => colorous::VIRIDIS,
            Scheme::Cividis => colorous::CIVIDIS,
            Scheme::BuRd => colorous::RED_BLUE,
            Scheme::PuOr => colorous::PURPLE_ORANGE,
        }
    }

    /// `classes` colours as `#rrggbb`, lowest class first.
    ///
    /// Sequential ColorBrewer ramps are sampled on t ∈ [0.12, 1] (t = 0 is almost white and would
    /// be mistaken for the background); viridis and cividis on [0, 1], reversed so that high values
    /// are dark like the other ramps. Diverging ramps are sampled symmetrically on [0, 1] and
    /// reversed (colorous's RdBu and PuOr start at red / orange) so that high values are warm; an odd
    /// number of classes puts the neutral colour in the middle class.
    pub fn colours(self, classes: usize) -> Vec<String> {
        let gradient = self.gradient();
        let t_of = |i: usize| -> f64 {
            let u = if classes <= 1 {
                1.0
            } else {
                i as f64 / (classes - 1) as f64
            };
            match self {
                Scheme::YlOrRd | Scheme::Blues => 0.12 + 0.88 * u,
                Scheme::Viridis | Scheme::Cividis | Scheme::BuRd | Scheme::PuOr => 1.0 - u,
            }
        };
        (0..classes)
            .map(|i| format!("#{:x}", gradient.eval_continuous(t_of(i))))
            .collect()
    }
}

/// Fill for areas with no data: a hatch pattern defined in the SVG (`url(#no-data)`).
pub const NO_DATA_FILL: &str = "url(#no-data)";

/// Fill for areas flagged as implausible and left out of the map's computations: a cross-hatch
/// pattern defined in the SVG (`url(#flagged)`, [`crate::svg::FLAGGED_PATTERN`]).
pub const FLAGGED_FILL: &str = "url(#flagged)";

#[cfg(test)]
mod tests {
    use super::*;

    fn luminance(hex: &str) -> f64 {
        let v = u32::from_str_radix(&hex[1..], 16).unwrap();
        let (r, g, b) = ((v >> 16) & 255, (v >> 8) & 255, v & 255);
        0.2126 * r as f64 + 0.7152 * g as f64 + 0.0722 * b as f64
    }

    #[test]
    fn sequential_schemes_darken_from_the_lowest_to_the_highest_class() {
        for scheme in [
            Scheme::YlOrRd,
            Scheme::Blues,
            Scheme::Viridis,
            Scheme::Cividis,
        ] {
            let c = scheme.colours(5);
            assert_eq!(c.len(), 5);
            assert!(c.iter().all(|h| h.len() == 7 && h.starts_with('#')));
            for w in c.windows(2) {
                assert!(luminance(&w[0]) > luminance(&w[1]), "{scheme:?}: {c:?}");
            }
        }
    }

    #[test]
    fn diverging_schemes_are_blue_to_red_with_a_light_middle() {
        let c = Scheme::BuRd.colours(5);
        let rgb = |h: &str| u32::from_str_radix(&h[1..], 16).unwrap();
        let (low, high) = (rgb(&c[0]), rgb(&c[4]));
        assert!((low & 255) > (low >> 16), "lowest class is blue: {}", c[0]);
        assert!(
            (high >> 16) > (high & 255),
            "highest class is red: {}",
            c[4]
        );
        assert!(luminance(&c[2]) > luminance(&c[0]) && luminance(&c[2]) > luminance(&c[4]));
    }

    #[test]
    fn scheme_names_parse_case_insensitively() {
        assert_eq!(Scheme::from_name("YlOrRd"), Some(Scheme::YlOrRd));
        assert_eq!(Scheme::from_name("rdbu"), Some(Scheme::BuRd));
        assert_eq!(Scheme::from_name("jet"), None);
    }
}
