//! How a chart is captioned: its language, its provenance line and the engine that made it.

use crate::Lang;

/// How a chart is captioned: the language of its texts, the provenance line at its foot
/// (source and date; see `imr_core::provenance`) and the engine that made it, kept in the
/// chart's `<metadata>`. The default, English with neither, draws the chart as the snapshots
/// fix it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Caption {
    pub lang: Lang,
    /// Shown at the foot of the chart and written into its `<metadata>`; none when `None`.
    pub provenance: Option<String>,
    /// The engine and its version ("imr-atlas engine 0.1.0 (imr-core 0.1.0)"), written into
    /// the chart's `<metadata>` only: the line a published chart shows names its source, as a
    /// newsroom's charts do, while the file still says what made it.
    pub engine: Option<String>,
}

impl Caption {
    pub fn new(lang: Lang, provenance: impl Into<String>) -> Caption {
        Caption {
            lang,
            provenance: Some(provenance.into()),
            engine: None,
        }
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
