//! Question 5: where the smoothed rates are clearly highest.

use super::*;

/// Question 5: deaths and births of each commune summed over the years, smoothed by global
/// empirical Bayes (the map engine's [`global_eb`]), with posterior intervals; the communes whose
/// whole interval lies above the national rate, highest first (at most `top`, more when the last
/// one ties with others).
pub(super) fn where_highest(panel: &Panel, top: usize) -> Outcome<WhereFinding> {
    if !panel.has_rates() {
        return Err(Unavailable::NoRates);
    }
    let mut sums: BTreeMap<&str, (f64, f64)> = BTreeMap::new();
    let mut years: Vec<i64> = Vec::new();
    for r in panel.rows() {
        if let (Some(b), Some(d)) = (r.births, r.deaths) {
            years.push(r.time);
            let e = sums.entry(r.entity).or_default();
            e.0 += d;
            e.1 += b;
        }
    }
    let entities: Vec<&str> = sums.keys().copied().collect();
    let deaths: Vec<Option<f64>> = sums.values().map(|v| Some(v.0)).collect();
    let births: Vec<Option<f64>> = sums.values().map(|v| Some(v.1)).collect();
    let eb = global_eb(&deaths, &births).map_err(|e| Unavailable::Engine {
        message: e.to_string(),
    })?;
    let theta = eb.prior_rate / 1000.0;
    let names = imr_core::ingest::codes::CutCodes::embedded();
    let mut communes: Vec<CommuneRate> = entities
        .iter()
        .enumerate()
        .filter_map(|(i, e)| {
            let (d, b) = (deaths[i]?, births[i]?);
            let smoothed = eb.rates[i]?;
            Some(CommuneRate {
                entity: (*e).to_owned(),
                name: panel
                    .chile_codes
                    .then(|| names.commune(e).map(|c| c.name.clone()))
                    .flatten(),
                smoothed_per_1000: smoothed,
                ci: eb_posterior_interval(theta, eb.prior_variance, d, b),
                raw_per_1000: 1000.0 * d / b,
                births: b,
            })
        })
        .collect();
    let n_communes = communes.len();
    // Only the communes whose whole interval lies above the national rate are named: a sentence
    // about "the highest rates" names no commune that chance alone could put there.
    communes.retain(|c| c.ci.is_some_and(|[lo, _]| lo > eb.prior_rate));
    let n_above_national = communes.len();
    communes.sort_by(|a, b| {
        b.smoothed_per_1000
            .total_cmp(&a.smoothed_per_1000)
            .then(a.entity.cmp(&b.entity))
    });
    // Never cut inside a tie: every commune equal to the last one named is named too.
    let keep = match communes.get(top.saturating_sub(1)) {
        Some(last) if top > 0 => {
            let cut = last.smoothed_per_1000;
            communes
                .iter()
                .take_while(|c| c.smoothed_per_1000 >= cut)
                .count()
        }
        _ => communes.len().min(top),
    };
    communes.truncate(keep);
    years.sort_unstable();
    years.dedup();
    Ok(WhereFinding {
        whole_country: whole_country(panel),
        first_time: years.first().copied().unwrap_or_default(),
        last_time: years.last().copied().unwrap_or_default(),
        years,
        national_per_1000: eb.prior_rate,
        top: communes,
        n_above_national,
        n_communes,
    })
}
