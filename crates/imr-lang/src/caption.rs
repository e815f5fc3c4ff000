//! How a chart is captioned: its language, its provenance line and the engine that made it.

use crate::Lang;

/// How a chart is captioned: the language of its texts, the provenance line at its foot
/// (source and date; see `imr_core::provenance`) and the engine that made it, kept in the
/// chart's `<metadata>`. The default, English with neither, draws the chart as the snapshots
/// fix it.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Caption {
    pub lang: Lang,
    /// Shown at the foot of the chart and written into its `<metadata>`; none when `None`.
    pub provenance: Option<String>,
    /// The engine and its version ("imr-atlas engine 0.1.0 (imr-core 0.1.0)"), written into
    /// the chart's `<metadata>` only: the line a published chart shows names its source, as a
    /// newsroom's charts do, while the file still says what made it.
    pub engine: Option<String>,
    /// The width the chart is shown at (a page on a 390 px phone shows 358 px), to draw it at
    /// that width instead of shrinking a wider drawing and its text with it; `None`: the
    /// chart's own width.
    pub width: Option<f64>,
}

impl Caption {
    pub fn new(lang: Lang, provenance: impl Into<String>) -> Caption {
        Caption {
            lang,
            provenance: Some(provenance.into()),
            engine: None,
            width: None,
        }
    }

    /// The caption drawing its chart `width` pixels wide ([`Caption::width_or`]).
    pub fn with_width(mut self, width: f64) -> Caption {
        self.width = Some(width);
        self
    }

    /// The width a chart of `default` pixels is drawn at: the caption's width within 300 px and
    /// `default` (a chart is never drawn wider than its own layout, nor too narrow for its
    /// axes), `default` without one.
    pub fn width_or(&self, default: f64) -> f64 {
        self.width.map_or(default, |w| w.max(300.0).min(default))
    }

    /// The caption with the engine that made the chart, for its `<metadata>`.
    pub fn with_engine(mut self, engine: impl Into<String>) -> Caption {
        self.engine = Some(engine.into());
        self
    }

    /// What the chart's `<metadata>` holds: the provenance line and the engine, joined by " · ";
    /// `None` without either.
    pub fn metadata(&self) -> Option<String> {
        let parts: Vec<&str> = [self.provenance.as_deref(), self.engine.as_deref()]
            .into_iter()
            .flatten()
            .collect();
        (!parts.is_empty()).then(|| parts.join(" · "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_chart_is_drawn_at_the_width_given_within_300_px_and_its_own() {
        let caption = Caption::default();
        assert_eq!(caption.width_or(640.0), 640.0);
        assert_eq!(caption.clone().with_width(358.0).width_or(640.0), 358.0);
        assert_eq!(caption.clone().with_width(200.0).width_or(640.0), 300.0);
        assert_eq!(caption.clone().with_width(760.0).width_or(560.0), 560.0);
        assert_eq!(caption.with_width(f64::NAN).width_or(640.0), 300.0);
    }
}
