//! Why a regressor has no coefficient ([`DropReason`]), with the [`Stage`] of the fit where it
//! was found: values rendered per language, serialised as their English text. Below the errors
//! (a model with every regressor dropped says why) and the diagnostics.

use crate::reader::Reader;
use imr_stats::Lang;

/// Where a collinearity was found, appended to its reason.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// In the untransformed design (pooled OLS).
    Pooled,
    /// After removing the entity effects (fe).
    EntityEffects,
    /// After removing entity and year effects (twfe).
    EntityAndYearEffects,
    /// Across entity means (be).
    EntityMeans,
    /// In first differences (fd).
    FirstDifferences,
    /// After removing the absorbed fixed effects (`--fe`).
    AbsorbedEffects,
}

impl Stage {
    /// Where, in `lang`, as appended to a collinearity's reason ("" in the untransformed design).
    fn words(self, lang: Lang) -> &'static str {
        match self {
            Stage::Pooled => "",
            Stage::EntityEffects => lang.pick(
                " tras quitar los efectos fijos de entidad",
                " after removing the entity effects",
            ),
            Stage::EntityAndYearEffects => lang.pick(
                " tras quitar los efectos de entidad y de año",
                " after removing entity and year effects",
            ),
            Stage::EntityMeans => {
                lang.pick(" entre las medias por entidad", " across entity means")
            }
            Stage::FirstDifferences => {
                lang.pick(" en primeras diferencias", " in first differences")
            }
            Stage::AbsorbedEffects => lang.pick(
                " tras quitar los efectos fijos absorbidos",
                " after removing the absorbed fixed effects",
            ),
        }
    }
}

/// Why a regressor has no coefficient ([`crate::DroppedTerm::reason`]); rendered per language,
/// serialised as its English text.
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum DropReason {
    /// The same value in every row: collinear with the intercept.
    Constant { name: String },
    /// Constant over time within every entity, absorbed by the entity effects; `differences`:
    /// said of first differences (all zero).
    TimeInvariant { name: String, differences: bool },
    /// Changes over time the same way everywhere, absorbed by the year effects.
    YearCollinear { name: String },
    /// No variation left, or an exact combination of `earlier` (names), at a stage.
    Collinear {
        name: String,
        earlier: Vec<String>,
        stage: Stage,
    },
    /// Random effects' quasi-demeaned design.
    QuasiDemeanedCollinear { name: String, earlier: Vec<String> },
    /// An exact combination of the other regressors after removing the entity effects
    /// (poisson-fe).
    CombinationAfterEntityEffects { name: String },
    /// No variation left after removing the absorbed fixed effects (named) (`--fe`).
    AbsorbedByFixedEffects { name: String, effects: Vec<String> },
}

/// How a reason writes its names: the JSON's backquotes, or a reader's words.
#[derive(Clone, Copy)]
enum Naming {
    Json,
    Reader(Reader),
}

impl Naming {
    fn lang(self) -> Lang {
        match self {
            Naming::Json => Lang::En,
            Naming::Reader(reader) => reader.lang(),
        }
    }

    /// A column or an absorbed effect: `x`, or «words» («Región» × «Año»).
    fn name(self, name: &str) -> String {
        match self {
            Naming::Json => format!("`{name}`"),
            Naming::Reader(reader) => reader.effect(name),
        }
    }

    /// Names already written by [`Naming::name`]: "`a`, `b`", or "«a» y «b»".
    fn list(self, names: &[String]) -> String {
        match self {
            Naming::Json => names.join(", "),
            Naming::Reader(reader) => reader.and(names),
        }
    }

    /// An estimator: its `--model` name in the JSON (`cre`), its plain name for a reader
    /// ("efectos aleatorios correlacionados").
    fn model(self, name: &str) -> String {
        match self {
            Naming::Json => format!("`{name}`"),
            Naming::Reader(reader) => crate::Estimator::from_name(name)
                .map_or(name, |e| e.plain_in(reader.lang()))
                .to_owned(),
        }
    }
}

impl DropReason {
    /// The reason for `reader`: in its language, the regressors in its words.
    pub fn render(&self, reader: Reader) -> String {
        self.worded(Naming::Reader(reader))
    }

    /// The English sentence of the JSON and of `imr`'s errors (names in backquotes), kept word
    /// for word.
    pub(crate) fn json_text(&self) -> String {
        self.worded(Naming::Json)
    }

    /// The same with every column named by `name`.
    fn named(&self, name: &dyn Fn(&str) -> String) -> DropReason {
        use DropReason::*;
        let all = |names: &[String]| names.iter().map(|n| name(n)).collect();
        match self {
            Constant { name: n } => Constant { name: name(n) },
            TimeInvariant {
                name: n,
                differences,
            } => TimeInvariant {
                name: name(n),
                differences: *differences,
            },
            YearCollinear { name: n } => YearCollinear { name: name(n) },
            Collinear {
                name: n,
                earlier,
                stage,
            } => Collinear {
                name: name(n),
                earlier: all(earlier),
                stage: *stage,
            },
            QuasiDemeanedCollinear { name: n, earlier } => QuasiDemeanedCollinear {
                name: name(n),
                earlier: all(earlier),
            },
            CombinationAfterEntityEffects { name: n } => {
                CombinationAfterEntityEffects { name: name(n) }
            }
            AbsorbedByFixedEffects { name: n, effects } => AbsorbedByFixedEffects {
                name: name(n),
                effects: all(effects),
            },
        }
    }

    /// The reason with its names as `naming` writes them.
    fn worded(&self, naming: Naming) -> String {
        use DropReason::*;
        let lang = naming.lang();
        let quoted = |names: &[String]| naming.list(names);
        let model = |name: &str| naming.model(name);
        match (&self.named(&|n| naming.name(n)), lang) {
            (Constant { name }, Lang::En) => format!(
                "{name} takes the same value in every row, so it is collinear with the intercept"
            ),
            (Constant { name }, Lang::Es) => format!(
                "{name} toma el mismo valor en todas las filas, por lo que es colineal con la constante"
            ),
            (TimeInvariant { name, differences }, Lang::En) => format!(
                "{name} does not vary within entities (it is constant over time for every entity), so \
                 the entity effects absorb it; use {} or {} to estimate the effect of a \
                 time-invariant characteristic{}",
                model("cre"),
                model("re"),
                if *differences { " (its first differences are all zero)" } else { "" }
            ),
            (TimeInvariant { name, differences }, Lang::Es) => format!(
                "{name} no cambia en el tiempo dentro de ninguna comuna, así que los efectos fijos \
                 la absorben; el efecto de lo que no cambia en el tiempo lo estiman los modelos de \
                 {} o de {}{}",
                model("cre"),
                model("re"),
                if *differences { " (sus primeras diferencias son todas cero)" } else { "" }
            ),
            (YearCollinear { name }, Lang::En) => format!(
                "{name} is collinear with the year effects: within entities it changes \
                 over time in the same way everywhere (a national trend or a year-level \
                 variable), so the year effects absorb it; use {} to estimate it",
                model("fe")
            ),
            (YearCollinear { name }, Lang::Es) => format!(
                "{name} es colineal con los efectos de año: dentro de las entidades cambia en el \
                 tiempo igual en todas partes (una tendencia nacional o una variable anual), por lo \
                 que los efectos de año la absorben; use {} para estimarla",
                model("fe")
            ),
            (
                Collinear {
                    name,
                    earlier,
                    stage,
                },
                Lang::En,
            ) => {
                let base = if earlier.is_empty() {
                    format!("{name} has no variation left to estimate its coefficient")
                } else {
                    format!(
                        "{name} is an exact linear combination of {} (perfect collinearity), so its \
                         coefficient is not identified",
                        quoted(earlier)
                    )
                };
                base + stage.words(lang)
            }
            (
                Collinear {
                    name,
                    earlier,
                    stage,
                },
                Lang::Es,
            ) => {
                let base = if earlier.is_empty() {
                    format!("{name} no tiene variación restante para estimar su coeficiente")
                } else {
                    format!(
                        "{name} es una combinación lineal exacta de {} (colinealidad perfecta), por \
                         lo que su coeficiente no está identificado",
                        quoted(earlier)
                    )
                };
                base + stage.words(lang)
            }
            (AbsorbedByFixedEffects { name, effects }, Lang::En) => format!(
                "{name} has no variation left once the fixed effects {} are removed (it is a \
                 combination of them), so they absorb it",
                quoted(effects)
            ),
            (AbsorbedByFixedEffects { name, effects }, Lang::Es) => format!(
                "{name} no tiene variación una vez quitados los efectos fijos {} (es una \
                 combinación de ellos), por lo que la absorben",
                quoted(effects)
            ),
            (QuasiDemeanedCollinear { name, earlier }, Lang::En) => {
                if earlier.is_empty() {
                    format!("{name} has no variation to estimate its coefficient")
                } else {
                    format!(
                        "{name} is an exact linear combination of {} (perfect collinearity)",
                        quoted(earlier)
                    )
                }
            }
            (QuasiDemeanedCollinear { name, earlier }, Lang::Es) => {
                if earlier.is_empty() {
                    format!("{name} no tiene variación para estimar su coeficiente")
                } else {
                    format!(
                        "{name} es una combinación lineal exacta de {} (colinealidad perfecta)",
                        quoted(earlier)
                    )
                }
            }
            (CombinationAfterEntityEffects { name }, Lang::En) => format!(
                "{name} is an exact linear combination of the other regressors after removing the \
                 entity effects"
            ),
            (CombinationAfterEntityEffects { name }, Lang::Es) => format!(
                "{name} es una combinación lineal exacta de los demás regresores tras quitar los \
                 efectos de entidad"
            ),
        }
    }
}

impl std::fmt::Display for DropReason {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.json_text())
    }
}

impl serde::Serialize for DropReason {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_drop_reason_renders_in_both_languages() {
        let n = || "sapu".to_string();
        let all = vec![
            DropReason::Constant { name: n() },
            DropReason::TimeInvariant {
                name: n(),
                differences: true,
            },
            DropReason::YearCollinear { name: n() },
            DropReason::Collinear {
                name: n(),
                earlier: vec!["a".into()],
                stage: Stage::EntityMeans,
            },
            DropReason::QuasiDemeanedCollinear {
                name: n(),
                earlier: vec![],
            },
            DropReason::CombinationAfterEntityEffects { name: n() },
            DropReason::AbsorbedByFixedEffects {
                name: n(),
                effects: vec!["comuna".into(), "anio".into()],
            },
            DropReason::Collinear {
                name: n(),
                earlier: vec!["a".into()],
                stage: Stage::AbsorbedEffects,
            },
        ];
        let reader = |lang| Reader::new(lang, |_, n| n.to_uppercase());
        for r in all {
            let (en, es) = (r.render(reader(Lang::En)), r.render(reader(Lang::Es)));
            assert_ne!(en, es);
            assert!(
                en.starts_with("“SAPU” ") && es.starts_with("«SAPU» "),
                "{en}"
            );
            assert!(!en.contains('`') && !es.contains('`'), "{en} / {es}");
            assert_eq!(imr_lang::english_words(&es), Vec::<String>::new(), "{es}");
            assert!(r.to_string().starts_with("`sapu` "));
        }
        assert_eq!(
            DropReason::Collinear {
                name: "x".into(),
                earlier: vec!["a".into(), "b".into()],
                stage: Stage::EntityEffects
            }
            .to_string(),
            "`x` is an exact linear combination of `a`, `b` (perfect collinearity), so its coefficient is not identified after removing the entity effects"
        );
    }
}
