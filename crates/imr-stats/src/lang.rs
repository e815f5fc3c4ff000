//! The language of texts the engines write for people (model diagnostics, inequality notes,
//! chart titles and labels), and the caption of an exported chart.
//!
//! The engines keep such texts as structured values (an enum with its parameters) and render them
//! on demand in a [`Lang`], so the page shows them in its language and the `imr` command in
//! English (or `--lang es`); machine-readable outputs (JSON, CSV) always carry the English text.
//! It lives in this crate because every engine depends on it.

/// Language of rendered texts. English is the default: the `imr` command, JSON and snapshots.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub enum Lang {
    #[default]
    En,
    Es,
}

impl Lang {
    /// Picks the text of this language.
    pub fn pick<'a>(self, es: &'a str, en: &'a str) -> &'a str {
        match self {
            Lang::Es => es,
            Lang::En => en,
        }
    }

    /// "en" or "es".
    pub fn tag(self) -> &'static str {
        match self {
            Lang::Es => "es",
            Lang::En => "en",
        }
    }
}

impl std::str::FromStr for Lang {
    type Err = String;
    fn from_str(s: &str) -> Result<Lang, String> {
        match s {
            "en" => Ok(Lang::En),
            "es" => Ok(Lang::Es),
            other => Err(format!("unknown language `{other}` (use en or es)")),
        }
    }
}

/// How a chart is captioned: the language of its texts and the provenance line at its foot
/// (source, engine version and date; see `imr_core::provenance`). The default, English with no
/// provenance line, draws the chart as the snapshots fix it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Caption {
    pub lang: Lang,
    /// Shown at the foot of the chart and written into its `<metadata>`; none when `None`.
    pub provenance: Option<String>,
}

impl Caption {
    pub fn new(lang: Lang, provenance: impl Into<String>) -> Caption {
        Caption {
            lang,
            provenance: Some(provenance.into()),
        }
    }
}
