//! How the map is calculated (the views' shared disclosure).

use crate::i18n::{lang, tr, Lang};
use crate::pages::data::HowCalculated;
use imr_core::request::LISA_PERMUTATIONS as PERMUTATIONS;
use leptos::prelude::*;

/// The seed of the permutation tests (the request's default).
const SEED: u64 = 1;

/// How the map is calculated: the rate, the smoothings, the classes, what flagged rows do, the
/// funnel plot's limits and Moran's I, behind the views' shared disclosure (closed by default).
#[component]
pub(super) fn MapMethods() -> impl IntoView {
    let lang = lang();
    view! {
        <HowCalculated testid="map-method">
            <p data-method="rate">{tr(
                "Tasa de mortalidad infantil: defunciones de menores de 1 año por 1.000 nacidos vivos de la comuna en el año (1000 · O / P). Su intervalo al 95% (en la ficha de la comuna y en la tabla) es el exacto de Poisson (Garwood). En los datos incluidos las defunciones se derivan de la tasa publicada y de la población de 0 años del INE, por lo que esos intervalos son aproximados.",
                "Infant mortality rate: deaths under 1 year per 1,000 live births of the commune in the year (1000 · O / P). Its 95% interval (in the commune's tooltip and the table) is the exact Poisson (Garwood) interval. On the bundled data deaths are derived from the published rate and INE's population aged 0, so those intervals are approximate.",
            )}</p>
            <p data-method="smoothing">{tr(
                "Suavizado. Bayes empírico global: cada comuna se acerca a la tasa agrupada de todas, tanto más cuantos menos nacimientos tiene (estimador de momentos de Marshall 1991, como en GeoDa: θ = ΣO / ΣP, w = σ² / (σ² + θ / P), tasa suavizada = w · r + (1 − w) · θ). Bayes empírico espacial: lo mismo hacia la tasa agrupada de la comuna y sus vecinas (las que comparten un borde). Riesgo en exceso: defunciones observadas / esperadas con la tasa agrupada del año (1 = lo esperado).",
                "Smoothing. Global empirical Bayes: each commune is pulled towards the pooled rate of all, the more so the fewer births it has (Marshall's 1991 moment estimator, as in GeoDa: θ = ΣO / ΣP, w = σ² / (σ² + θ / P), smoothed rate = w · r + (1 − w) · θ). Spatial empirical Bayes: the same towards the pooled rate of the commune and its neighbours (those sharing a border). Excess risk: observed / expected deaths at the year's pooled rate (1 = as expected).",
            )}</p>
            <p data-method="classes">{tr(
                "Clases, con las definiciones de GeoDa: cuantiles (percentiles de Hazen, tipo 5; cortes repetidos se funden, por lo que puede haber menos clases), intervalos iguales, cortes naturales de Jenks (el óptimo exacto de Fisher 1958), mapa de caja (cuartiles y vallas a 1,5 × RIC), desviaciones estándar (media ± 1 y 2 DE) o cortes propios. Un valor igual a un corte pertenece a la clase superior.",
                "Classes, with GeoDa's definitions: quantiles (Hazen percentiles, type 5; repeated breaks merge, so there may be fewer classes), equal intervals, Jenks natural breaks (Fisher's 1958 exact optimum), box map (quartiles and fences at 1.5 × IQR), standard deviations (mean ± 1 and 2 SD) or your own breaks. A value equal to a break belongs to the class above.",
            )}</p>
            <p data-method="flagged">{tr(
                "Filas inverosímiles (tasa sobre 200 por 1.000, defunciones derivadas de al menos la mitad de los nacimientos, o tasa publicada con menos de 10 nacimientos) quedan fuera del cálculo de los cortes: se dibujan igual, con borde oscuro, en la clase en que cae su valor (la clase extrema queda entonces abierta), y la leyenda dice cuántas son. La casilla «Incluir las … filas marcadas como inverosímiles» las devuelve a los cortes; la opción viaja en el enlace (include-flagged) y el comando imr map la repite con --include-flagged.",
                "Implausible rows (rate above 200 per 1,000, derived deaths at least half the births, or a published rate on fewer than 10 births) are left out of the class breaks: they are still drawn, outlined, in the class their value falls in (the outer class is then open), and the legend says how many. The checkbox “Include the … rows flagged as implausible” puts them back into the breaks; the choice travels in the link (include-flagged) and the imr map command repeats it with --include-flagged.",
            )}</p>
            <p data-method="funnel">{tr(
                "Gráfico de embudo: la tasa bruta de cada comuna contra sus nacimientos, con límites de control al 95% y al 99,8% alrededor de la tasa agrupada del año: los límites exactos de Poisson (Garwood) de las defunciones esperadas con esos nacimientos, pasados a tasa (Spiegelhalter 2005). Una comuna fuera de los límites del 99,8% se aleja de la tasa del año más de lo que el azar explica con sus nacimientos.",
                "Funnel plot: each commune's raw rate against its births, with 95% and 99.8% control limits around the year's pooled rate: the exact Poisson (Garwood) limits of the deaths expected at those births, as rates (Spiegelhalter 2005). A commune outside the 99.8% limits differs from the year's rate by more than chance explains at its number of births.",
            )}</p>
            <p data-method="moran">{move || match lang.get() {
                Lang::Es => format!("I de Moran y clusters LISA (Anselin 1995): vecinas = comunas que comparten un borde, pesos estandarizados por fila; valores p por {PERMUTATIONS} permutaciones con semilla {SEED}, como en GeoDa."),
                Lang::En => format!("Moran's I and LISA clusters (Anselin 1995): neighbours = communes sharing a border, row-standardised weights; p-values from {PERMUTATIONS} permutations with seed {SEED}, as in GeoDa."),
            }}</p>
        </HowCalculated>
    }
}
