//! Plain-language remarks about the data and a fit, as values: the engine records what it found
//! (with its numbers and names) and [`Diagnostic::render`] writes it for a [`Reader`], in English
//! or Spanish, with grouped counts and the reader's words for a column. `imr fit` and the JSON
//! carry a fixed English sentence (json.rs: the `Display` and `Serialize` of a diagnostic).

mod json;

use crate::reader::Reader;
use crate::spec::Estimator;
use imr_stats::Lang;

/// One remark of [`crate::Fit::diagnostics`].
#[derive(Debug, Clone, PartialEq)]
#[non_exhaustive]
pub enum Diagnostic {
    /// Rows excluded for missing or unusable values (their input row numbers).
    RowsExcluded { rows: Vec<usize> },
    /// An exposure column was given to a model other than poisson-fe.
    ExposureIgnored { estimator: Estimator },
    /// poisson-fe without exposure models counts.
    NoExposure,
    /// Entities with one observation (within estimators).
    Singletons { entities: Vec<String> },
    /// The Hausman test is not computed for weighted fits.
    HausmanWeighted,
    /// The Hausman test could not be computed, and why.
    HausmanUnavailable { why: crate::ModelError },
    /// First differences: how many, from how many rows, and rows after a gap.
    FirstDifferences {
        differences: usize,
        rows: usize,
        after_gap: usize,
    },
    /// Entities without two consecutive periods (first differences).
    NoConsecutivePeriods { entities: Vec<String> },
    /// Unbalanced panel: θ differs by entity (random effects).
    UnbalancedTheta,
    /// Negative Swamy–Arora σ²_u, set to 0.
    NegativeSigmaU { value: f64 },
    /// Newton iterations of poisson-fe.
    PoissonConverged { iterations: usize },
    /// Entities whose outcome is 0 in every period, dropped by poisson-fe.
    AllZeroEntities {
        outcome: String,
        entities: Vec<String>,
    },
    /// Entities with a single row, dropped from poisson-fe: the entity's effect fits that row
    /// exactly, so it carries no information on the coefficients (Stata `xtpoisson, fe` and
    /// pyfixest `fepois` drop them too).
    SingleRowEntities { entities: Vec<String> },
    /// Rows of levels of an absorbed effect whose outcome is zero in every row, removed
    /// (`poisson-fe --fe`).
    ZeroOutcomeRowsRemoved { outcome: String, rows: usize },
    /// Rows alone in a level of an absorbed fixed effect, removed (`--fe`).
    SingletonsRemoved { rows: usize },
    /// The absorbed fixed effects and their levels (`--fe`).
    AbsorbedEffects { effects: Vec<(String, usize)> },
}

impl Diagnostic {
    /// The remark for `reader`: in its language, counts grouped ("4.144 filas"), columns in its
    /// words, no internal names (the page's Diagnostics). The JSON keeps its English sentence
    /// (json.rs).
    pub fn render(&self, reader: Reader) -> String {
        use Diagnostic::*;
        match self {
            RowsExcluded { rows } => rows_excluded(reader, rows),
            ExposureIgnored { estimator } => match reader.lang() {
                Lang::Es => format!(
                    "solo el modelo de Poisson con efectos fijos usa la exposición; «{}» la ignora",
                    estimator.label_in(Lang::Es)
                ),
                Lang::En => format!(
                    "only the Poisson fixed-effects model uses the exposure; “{}” ignores it",
                    estimator.label_in(Lang::En)
                ),
            },
            NoExposure => reader
                .pick(
                    "sin exposición, el modelo de Poisson modela conteos, no tasas (indique los \
                     nacidos vivos como exposición para modelar la tasa)",
                    "no exposure given: the Poisson model fits counts, not rates (give the births \
                     as exposure to model the rate)",
                )
                .into(),
            HausmanWeighted => reader
                .pick(
                    "la prueba de Hausman no se calcula en ajustes ponderados",
                    "the Hausman test is not computed for weighted fits",
                )
                .into(),
            HausmanUnavailable { why } => format!(
                "{}: {}",
                reader.pick(
                    "la prueba de Hausman no está disponible",
                    "the Hausman test is not available"
                ),
                why.text(reader.lang())
            ),
            FirstDifferences {
                differences,
                rows,
                after_gap,
            } => first_differences(reader, *differences, *rows, *after_gap),
            UnbalancedTheta => reader
                .pick(
                    "el panel no está balanceado: θ varía por entidad (θ_i según el número de \
                     períodos T_i de cada una; su rango figura arriba)",
                    "the panel is unbalanced: θ differs by entity (θ_i from each one's number of \
                     periods T_i; its range is given above)",
                )
                .into(),
            NegativeSigmaU { value } => format!(
                "{} ({}); {}",
                reader.pick(
                    "la estimación de Swamy–Arora de σ²_u es negativa",
                    "the Swamy–Arora estimate of σ²_u is negative"
                ),
                crate::number::significant(reader.lang(), *value),
                reader.pick(
                    "se fija en 0, de modo que θ = 0 y los efectos aleatorios coinciden con MCO \
                     agrupado",
                    "it is set to 0, so θ = 0 and random effects coincide with pooled OLS"
                )
            ),
            PoissonConverged { iterations } => format!(
                "{} {}",
                reader.pick(
                    "el modelo de Poisson convergió en",
                    "the Poisson model converged in"
                ),
                reader.count(
                    *iterations,
                    ("iteración de Newton", "iteraciones de Newton"),
                    ("Newton iteration", "Newton iterations")
                )
            ),
            SingletonsRemoved { rows } => singletons_removed(reader, *rows),
            ZeroOutcomeRowsRemoved { outcome, rows } => zero_outcome_rows(reader, outcome, *rows),
            AbsorbedEffects { effects } => absorbed_effects(reader, effects),
            Singletons { entities } => singletons(reader, entities),
            SingleRowEntities { entities } => single_row_entities(reader, entities),
            NoConsecutivePeriods { entities } => no_consecutive_periods(reader, entities),
            AllZeroEntities { outcome, entities } => all_zero_entities(reader, outcome, entities),
        }
    }
}

/// At most five entities by their labels, then how many more.
fn some_entities(reader: Reader, labels: &[String]) -> String {
    reader.some(labels, 5)
}

/// "2 entidades", "1 entity".
fn entity_count(reader: Reader, n: usize) -> String {
    reader.count(n, ("entidad", "entidades"), ("entity", "entities"))
}

/// Where the page lists every row left out, with its reason.
fn see_excluded(reader: Reader) -> &'static str {
    reader.pick(
        "cada una figura con su motivo en la lista de filas excluidas",
        "each is listed with its reason among the excluded rows",
    )
}

/// "4.144 filas excluidas por valores faltantes … (filas 1, 2, … y 4.134 más)".
fn rows_excluded(reader: Reader, rows: &[usize]) -> String {
    let n = rows.len();
    let listed: Vec<String> = rows.iter().map(usize::to_string).collect();
    let listed = reader.some(&listed, 10);
    match reader.lang() {
        Lang::Es => format!(
            "{} {} por valores faltantes o no utilizables ({} {listed}); {}",
            reader.count(n, ("fila", "filas"), ("", "")),
            reader.plural(n, ("excluida", "excluidas"), ("", "")),
            reader.plural(n, ("fila", "filas"), ("", "")),
            see_excluded(reader)
        ),
        Lang::En => format!(
            "{} excluded for missing or unusable values ({} {listed}); {}",
            reader.count(n, ("", ""), ("row", "rows")),
            reader.plural(n, ("", ""), ("row", "rows")),
            see_excluded(reader)
        ),
    }
}

fn first_differences(reader: Reader, differences: usize, rows: usize, after_gap: usize) -> String {
    let head = format!(
        "{}: {} {} {}; {}",
        reader.pick("primeras diferencias", "first differences"),
        reader.count(
            differences,
            ("diferencia", "diferencias"),
            ("difference", "differences")
        ),
        reader.pick("a partir de", "from"),
        reader.count(rows, ("fila", "filas"), ("row", "rows")),
        reader.pick(
            "la primera fila de cada entidad inicia las diferencias",
            "the first row of each entity starts the differences"
        ),
    );
    if after_gap == 0 {
        return head;
    }
    let (one, gap) = (
        after_gap == 1,
        reader.count(after_gap, ("fila", "filas"), ("row", "rows")),
    );
    let tail = match reader.lang() {
        Lang::Es => format!(
            ", y {gap} {} a un salto en los períodos e {} una nueva serie",
            if one { "sigue" } else { "siguen" },
            if one { "inicia" } else { "inician" }
        ),
        Lang::En => format!(
            ", and {gap} {} a gap in the periods and {} a new run",
            if one { "follows" } else { "follow" },
            if one { "starts" } else { "start" }
        ),
    };
    head + &tail
}

fn singletons_removed(reader: Reader, rows: usize) -> String {
    match reader.lang() {
        Lang::Es => format!(
            "{} {} por quedar {} en su nivel de un efecto fijo (repetidamente, como fixest y \
             pyfixest); {}",
            reader.count(rows, ("observación", "observaciones"), ("", "")),
            reader.plural(rows, ("eliminada", "eliminadas"), ("", "")),
            reader.plural(rows, ("sola", "solas"), ("", "")),
            see_excluded(reader)
        ),
        Lang::En => format!(
            "{} removed for being alone in a level of a fixed effect (repeatedly, as fixest and \
             pyfixest); {}",
            reader.count(rows, ("", ""), ("observation", "observations")),
            see_excluded(reader)
        ),
    }
}

fn zero_outcome_rows(reader: Reader, outcome: &str, rows: usize) -> String {
    let outcome = reader.column(outcome);
    match reader.lang() {
        Lang::Es => format!(
            "{} {}: {outcome} es cero en todas las filas de su nivel de un efecto fijo (el \
             efecto del nivel sería −∞; como pyfixest fepois); {}",
            reader.count(rows, ("observación", "observaciones"), ("", "")),
            reader.plural(rows, ("eliminada", "eliminadas"), ("", "")),
            see_excluded(reader)
        ),
        Lang::En => format!(
            "{} removed: {outcome} is zero in every row of their level of a fixed effect (the \
             level's effect would be −∞; as pyfixest fepois); {}",
            reader.count(rows, ("", ""), ("observation", "observations")),
            see_excluded(reader)
        ),
    }
}

/// The absorbed fixed effects in words, with their levels grouped.
fn absorbed_effects(reader: Reader, effects: &[(String, usize)]) -> String {
    let listed: Vec<String> = effects
        .iter()
        .map(|(name, levels)| {
            format!(
                "{} ({})",
                reader.effect(name),
                reader.count(*levels, ("nivel", "niveles"), ("level", "levels"))
            )
        })
        .collect();
    format!(
        "{}: {}",
        reader.pick("efectos fijos absorbidos", "absorbed fixed effects"),
        reader.and(&listed)
    )
}

fn singletons(reader: Reader, e: &[String]) -> String {
    match reader.lang() {
        Lang::Es => format!(
            "{} con una sola observación: {}; no aportan a las estimaciones intragrupos, pero se \
             conservan y cuentan en los grados de libertad, como en Stata xtreg",
            entity_count(reader, e.len()),
            some_entities(reader, e)
        ),
        Lang::En => format!(
            "{} with one observation: {}; they add nothing to the within estimates but are kept \
             and counted in the degrees of freedom, as Stata xtreg",
            entity_count(reader, e.len()),
            some_entities(reader, e)
        ),
    }
}

fn single_row_entities(reader: Reader, e: &[String]) -> String {
    match reader.lang() {
        Lang::Es => format!(
            "{} con una sola fila {} (el efecto de la entidad ajusta esa fila exactamente: no \
             informa sobre los coeficientes; como Stata xtpoisson, fe y pyfixest fepois): {}; {}",
            entity_count(reader, e.len()),
            reader.plural(e.len(), ("excluida", "excluidas"), ("", "")),
            some_entities(reader, e),
            see_excluded(reader)
        ),
        Lang::En => format!(
            "{} with a single row dropped (the entity's effect fits that row exactly: no \
             information on the coefficients; as Stata xtpoisson, fe and pyfixest fepois): {}; {}",
            entity_count(reader, e.len()),
            some_entities(reader, e),
            see_excluded(reader)
        ),
    }
}

fn no_consecutive_periods(reader: Reader, e: &[String]) -> String {
    let one = e.len() == 1;
    match reader.lang() {
        Lang::Es => format!(
            "{} sin dos períodos consecutivos no {} diferencias: {}",
            entity_count(reader, e.len()),
            if one { "aporta" } else { "aportan" },
            some_entities(reader, e)
        ),
        Lang::En => format!(
            "{} without two consecutive periods {} no difference: {}",
            entity_count(reader, e.len()),
            if one { "contributes" } else { "contribute" },
            some_entities(reader, e)
        ),
    }
}

fn all_zero_entities(reader: Reader, outcome: &str, e: &[String]) -> String {
    let outcome = reader.column(outcome);
    match reader.lang() {
        Lang::Es => format!(
            "{} {} por tener {outcome} = 0 en todos los períodos: {}",
            entity_count(reader, e.len()),
            reader.plural(e.len(), ("excluida", "excluidas"), ("", "")),
            some_entities(reader, e)
        ),
        Lang::En => format!(
            "{} dropped for having {outcome} = 0 in every period: {}",
            entity_count(reader, e.len()),
            some_entities(reader, e)
        ),
    }
}

impl std::fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.json_text())
    }
}

impl serde::Serialize for Diagnostic {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

#[cfg(test)]
mod tests;
