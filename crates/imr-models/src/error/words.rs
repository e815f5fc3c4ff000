//! The words of each kind of model error, in either language ([`super::ModelError::text`]).

use super::{InvalidValue, NoRegressors, NotConverged, NotEnoughData, Unsupported};
use crate::reader::Reader;
use crate::Lang;

impl NotEnoughData {
    pub(super) fn text(&self, lang: Lang) -> String {
        use NotEnoughData::*;
        match (self, lang) {
            (NoResidualDf { n, k }, Lang::En) => format!(
                "{n} observations leave no residual degrees of freedom for {k} coefficients"
            ),
            (NoResidualDf { n, k }, Lang::Es) => format!(
                "{n} observaciones no dejan grados de libertad residuales para {k} coeficientes"
            ),
            (NoFirstDifference, Lang::En) => {
                "no entity has two consecutive periods, so there is no first difference".into()
            }
            (NoFirstDifference, Lang::Es) => {
                "ninguna entidad tiene dos períodos consecutivos, así que no hay primera diferencia"
                    .into()
            }
            (OutcomeAllZero { outcome }, Lang::En) => {
                format!("`{outcome}` is zero everywhere: poisson-fe has nothing to estimate")
            }
            (OutcomeAllZero { outcome }, Lang::Es) => {
                format!("«{outcome}» es cero en todas partes: poisson-fe no tiene nada que estimar")
            }
            (NoCompleteRow { excluded }, Lang::En) => format!(
                "no row has values for every variable of the model ({excluded} rows excluded)"
            ),
            (NoCompleteRow { excluded }, Lang::Es) => format!(
                "ninguna fila tiene valores para todas las variables del modelo ({excluded} filas excluidas)"
            ),
            (NoRowLeft { excluded }, Lang::En) => format!(
                "no row is left for the model ({excluded} rows excluded, singletons included)"
            ),
            (NoRowLeft { excluded }, Lang::Es) => format!(
                "no queda ninguna fila para el modelo ({excluded} filas excluidas, contando las de grupos de una sola fila)"
            ),
            (ClusterNeedsTwoEntities, Lang::En) => {
                "clustered standard errors need at least two entities".into()
            }
            (ClusterNeedsTwoEntities, Lang::Es) => {
                "los errores estándar por conglomerados necesitan al menos dos entidades".into()
            }
            (TooFewForCluster { n, k }, Lang::En) => {
                format!("{n} observations are too few for {k} coefficients")
            }
            (TooFewForCluster { n, k }, Lang::Es) => {
                format!("{n} observaciones son muy pocas para {k} coeficientes")
            }
            (RandomWithinDf { n, g, k }, Lang::En) => format!(
                "random effects need n − G − k > 0 to estimate σ²_e, but n = {n}, G = {g}, k = {k}"
            ),
            (RandomWithinDf { n, g, k }, Lang::Es) => format!(
                "los efectos aleatorios necesitan n − G − k > 0 para estimar σ²_e, pero n = {n}, G = {g}, k = {k}"
            ),
            (RandomBetween { g, k }, Lang::En) => format!(
                "random effects need more entities ({g}) than between-regression coefficients ({k})"
            ),
            (RandomBetween { g, k }, Lang::Es) => format!(
                "los efectos aleatorios necesitan más entidades ({g}) que coeficientes de la regresión between ({k})"
            ),
        }
    }
}

/// The reasons every regressor was dropped: in English as the JSON words them (what `imr`
/// prints), in Spanish with the names as they are.
fn join_reasons(reasons: &[crate::drop_reason::DropReason], lang: Lang) -> String {
    let reader = Reader::new(lang, |_, name| name.to_owned());
    reasons
        .iter()
        .map(|r| match lang {
            Lang::En => r.json_text(),
            Lang::Es => r.render(reader),
        })
        .collect::<Vec<_>>()
        .join("; ")
}

impl NoRegressors {
    pub(super) fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (NoRegressors::NoneGiven, Lang::En) => "give at least one regressor".into(),
            (NoRegressors::NoneGiven, Lang::Es) => "indique al menos un regresor".into(),
            (NoRegressors::AllDropped { model, reasons }, Lang::En) => format!(
                "`{model}` has no regressor left to estimate: {}",
                join_reasons(reasons, Lang::En)
            ),
            // The page shows it beside the model's name: the model is not named again.
            (NoRegressors::AllDropped { reasons, .. }, Lang::Es) => format!(
                "no puede estimar ninguna de las características elegidas: {}",
                join_reasons(reasons, Lang::Es)
            ),
            (NoRegressors::NoneVariesWithinEntities, Lang::En) => {
                "no regressor varies within entities, so poisson-fe has nothing to estimate".into()
            }
            (NoRegressors::NoneVariesWithinEntities, Lang::Es) => {
                "ningún regresor varía dentro de las entidades, así que poisson-fe no tiene nada que estimar"
                    .into()
            }
        }
    }
}

impl Unsupported {
    pub(super) fn text(&self, lang: Lang) -> String {
        match (self, lang) {
            (Unsupported::Weights { model, poisson }, Lang::En) => format!(
                "weights are available for pooled, fe and twfe; `{model}` is fitted unweighted in R plm and Stata, so fit it without weights{}",
                if *poisson {
                    " (for rates give an exposure column, which enters as a log offset)"
                } else {
                    ""
                }
            ),
            (Unsupported::Weights { model, poisson }, Lang::Es) => format!(
                "los pesos se aceptan en los modelos agrupado, de efectos fijos y de efectos fijos de dos vías; «{model}» se estima sin pesos en R plm y Stata, así que estímelo sin pesos{}",
                if *poisson {
                    " (para tasas indique una columna de exposición, que entra como offset logarítmico)"
                } else {
                    ""
                }
            ),
            (Unsupported::Absorbed { model }, Lang::En) => format!(
                "absorbed fixed effects go with the within model and poisson-fe; `{model}` does not take them (use the fe or poisson-fe estimator)"
            ),
            (Unsupported::Absorbed { model }, Lang::Es) => format!(
                "los efectos fijos absorbidos van con el modelo de efectos fijos intragrupos y con el de Poisson de efectos fijos; «{model}» no los acepta (use el estimador «fe» o «poisson-fe»)"
            ),
            (Unsupported::ClusterColumn { model }, Lang::En) => format!(
                "clusters other than the entity go with absorbed fixed effects; `{model}` without them clusters by entity (give the fixed effects to absorb)"
            ),
            (Unsupported::ClusterColumn { model }, Lang::Es) => format!(
                "los grupos distintos de la entidad van con efectos fijos absorbidos; «{model}» sin ellos agrupa por entidad (indique los efectos fijos a absorber)"
            ),
            (Unsupported::ClusterWays { given }, Lang::En) => format!(
                "standard errors cluster by one or two columns, not {given}"
            ),
            (Unsupported::ClusterWays { given }, Lang::Es) => format!(
                "los errores estándar se agrupan por una o dos columnas, no por {given}"
            ),
        }
    }
}

impl InvalidValue {
    pub(super) fn text(&self, lang: Lang) -> String {
        use InvalidValue::*;
        match (self, lang) {
            (NegativeCount { outcome, rows }, Lang::En) => format!(
                "poisson-fe needs a non-negative outcome (a count), but `{outcome}` is negative in row(s) {rows}"
            ),
            (NegativeCount { outcome, rows }, Lang::Es) => format!(
                "poisson-fe necesita un resultado no negativo (un conteo), pero «{outcome}» es negativo en las filas {rows}"
            ),
            (Level(level), Lang::En) => {
                format!("the confidence level must be between 0 and 1, got {level}")
            }
            (Level(level), Lang::Es) => {
                let level = lang.with_decimal_mark(level.to_string());
                format!("el nivel de confianza debe estar entre 0 y 1, y es {level}")
            }
            (EntityId { id, labels }, Lang::En) => {
                format!("entity id {id} past the {labels} entity labels")
            }
            (EntityId { id, labels }, Lang::Es) => {
                format!("el identificador de entidad {id} pasa de las {labels} etiquetas")
            }
            (EmptyFixedEffect { spec, term }, Lang::En) => format!(
                "fixed effects `{spec}`: empty column name in `{term}` (write columns separated by commas, interactions with ^, e.g. commune,year,region^year)"
            ),
            (EmptyFixedEffect { spec, term }, Lang::Es) => format!(
                "efectos fijos «{spec}»: nombre de columna vacío en «{term}» (escriba las columnas separadas por comas, las interacciones con ^, p. ej. comuna,anio,region^anio)"
            ),
        }
    }
}

impl NotConverged {
    pub(super) fn text(&self, lang: Lang) -> String {
        use NotConverged::*;
        match (self, lang) {
            (Absorb { effects, column }, Lang::En) => {
                format!("removing the fixed effects {effects} from `{column}` did not converge")
            }
            (Absorb { effects, column }, Lang::Es) => {
                format!("quitar los efectos fijos {effects} de «{column}» no convergió")
            }
            (TwoWay { column }, Lang::En) => {
                format!("removing entity and year effects from `{column}` did not converge")
            }
            (TwoWay { column }, Lang::Es) => {
                format!("quitar los efectos de entidad y de año de «{column}» no convergió")
            }
            (TwoWayOutcome, Lang::En) => {
                "removing entity and year effects from the outcome did not converge".into()
            }
            (TwoWayOutcome, Lang::Es) => {
                "quitar los efectos de entidad y de año del resultado no convergió".into()
            }
            (SingularPoissonInformation, Lang::En) => "the Poisson information matrix is singular: a regressor may perfectly predict the zeros of the outcome".into(),
            (SingularPoissonInformation, Lang::Es) => "la matriz de información de Poisson es singular: un regresor puede predecir perfectamente los ceros del resultado".into(),
            (PoissonIterations { iterations }, Lang::En) => format!(
                "poisson-fe did not converge in {iterations} Newton iterations; the estimates may not exist (e.g. a regressor separates the zero counts)"
            ),
            (PoissonIterations { iterations }, Lang::Es) => format!(
                "poisson-fe no convergió en {iterations} iteraciones de Newton; puede que las estimaciones no existan (p. ej. un regresor separa los conteos cero)"
            ),
            (SingularPoissonAtEstimate, Lang::En) => {
                "the Poisson information matrix is singular at the estimate".into()
            }
            (SingularPoissonAtEstimate, Lang::Es) => {
                "la matriz de información de Poisson es singular en la estimación".into()
            }
        }
    }
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(
    NotEnoughData,
    NoRegressors,
    Unsupported,
    InvalidValue,
    NotConverged
);
