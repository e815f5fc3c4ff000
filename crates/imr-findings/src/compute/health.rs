//! Question 3: the inequality of municipal health money beside that of infant mortality.

use super::*;

/// Question 3: Gini of health income per capita per year (weighted by births, no bootstrap:
/// only the yearly values enter the correlation) correlated with the IMR inequality series.
pub(super) fn health_income(
    panel: &Panel,
    column: &str,
    imr: &InequalitySeries,
) -> Outcome<HealthIncomeFinding> {
    let values = panel
        .numeric_column(column)
        .ok_or_else(|| Unavailable::MissingColumn {
            column: column.into(),
        })?;
    let weights = panel.numeric_column("births").ok_or(Unavailable::NoRates)?;
    let rows = panel.inequality_rows();
    let (subject, _) = subject_from_rows(
        &rows,
        SubjectColumns::Values {
            values: Column {
                name: column,
                cells: &values,
            },
            weights: Column {
                name: "births",
                cells: &weights,
            },
        },
        None,
        None,
    )
    .map_err(|e| Unavailable::Engine {
        message: e.to_string(),
    })?;
    let spec = InequalitySpec {
        bootstrap: BootstrapSpec {
            replicates: 0,
            ..BootstrapSpec::default()
        },
    };
    let analysis = spec.analyse(&subject).map_err(|e| Unavailable::Engine {
        message: e.to_string(),
    })?;
    // The years the IMR series leaves out of its trend (repeats) leave the correlation too.
    let kept = |t: i64| !imr.left_out_of_trend.contains(&t);
    let income_gini: Vec<(i64, f64)> = analysis
        .report
        .series(Measure::Gini)
        .iter()
        .filter(|p| kept(p.time))
        .map(|p| (p.time, p.value))
        .collect();
    let imr_inequality: Vec<(i64, f64)> = imr
        .years
        .iter()
        .filter(|y| kept(y.time))
        .map(|y| (y.time, y.value))
        .collect();
    let mut correlation = correlate(&imr_inequality, &income_gini, 0.95);
    // With the adjusted series, the Pearson interval carries each year's own uncertainty (the
    // Inequality view's and `imr inequality --against`'s method: Monte Carlo draws of each
    // year's adjusted value from its interval, composed with Fisher z; JCGM 101:2008), not the
    // yearly values taken as exact.
    if imr.kind == crate::SeriesKind::Adjusted {
        let with_intervals: Vec<(i64, f64, [f64; 2])> = imr
            .years
            .iter()
            .filter(|y| kept(y.time))
            .filter_map(|y| y.ci.map(|ci| (y.time, y.value, ci)))
            .collect();
        if let Some(adjusted) = correlate_adjusted(
            &with_intervals,
            &income_gini,
            &[],
            0.95,
            CORRELATION_DRAWS,
            DEFAULT_SEED,
        ) {
            correlation.pearson = Some(adjusted.r);
            correlation.pearson_ci = Some([adjusted.ci_low, adjusted.ci_high]);
        }
    }
    Ok(HealthIncomeFinding {
        column: column.into(),
        correlation,
        income_gini,
        imr_inequality,
    })
}
