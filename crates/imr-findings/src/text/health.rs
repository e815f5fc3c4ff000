//! Question 3: does it go with unequal municipal health money?

use super::unavailable::column_words;
use super::*;
use crate::HealthIncomeFinding;

/// The municipal health money a column measures, in words.
pub(super) fn health_money(lang: Lang, column: &str) -> String {
    match (column, lang) {
        ("gasto_salud_pc", Lang::Es) => "el gasto municipal en salud por habitante".into(),
        ("gasto_salud_pc", Lang::En) => "municipal health spending per inhabitant".into(),
        ("ingreso_salud_pc", Lang::Es) => "el ingreso municipal de salud por habitante".into(),
        ("ingreso_salud_pc", Lang::En) => "municipal health income per inhabitant".into(),
        (other, _) => column_words(lang, other),
    }
}

pub(super) fn health_income_answer(
    lang: Lang,
    f: &HealthIncomeFinding,
    m: &str,
    marks: &imr_core::inequality::YearMarks,
) -> Parts {
    let c = &f.correlation;
    let n = c.n_years;
    let money = health_money(lang, &f.column);
    // "de el gasto" → "del gasto"
    let of_money = match lang {
        Lang::Es => format!("de {money}").replace("de el ", "del "),
        Lang::En => format!("of {money}"),
    };
    let headline = match (c.pearson, c.pearson_ci) {
        (None, _) => match lang {
            Lang::Es => format!("Con {} en común no se puede calcular una correlación entre la desigualdad de la mortalidad infantil y la {of_money}.", years(lang, n)),
            Lang::En => format!("With {} in common, no correlation between the inequality of infant mortality and that {of_money} can be computed.", years(lang, n)),
        },
        (Some(r), None) => {
            let rt = number(lang, r, 2);
            match lang {
                Lang::Es => format!("Con solo {n} años, la correlación entre el {m} de la mortalidad infantil y el {m} {of_money} (r = {rt}) no tiene intervalo: son muy pocos años para decir si hay relación."),
                Lang::En => format!("With only {n} years, the correlation between the {m} of infant mortality and the {m} {of_money} (r = {rt}) has no interval: too few years to say whether they are linked."),
            }
        }
        (Some(r), Some(ci)) => {
            let rt = number(lang, r, 2);
            let cit = interval(lang, ci, 2);
            let bare = money.trim_start_matches("el ");
            match (Direction::of(ci, 0.0), lang) {
                (Direction::NotDistinguishable, Lang::Es) => format!("En {n} años, la correlación entre el {m} de la mortalidad infantil y el {m} {of_money} es r = {rt} ({cit}): no distinguible de cero."),
                (Direction::NotDistinguishable, Lang::En) => format!("Over {n} years, the correlation between the {m} of infant mortality and the {m} {of_money} is r = {rt} ({cit}): not distinguishable from zero."),
                (Direction::Above, Lang::Es) => format!("En {n} años, los años con {bare} más desigual tuvieron mortalidad infantil más desigual: r = {rt} ({cit}), una asociación."),
                (Direction::Above, Lang::En) => format!("Over {n} years, years with more unequal {bare} had more unequal infant mortality: r = {rt} ({cit}), an association."),
                (Direction::Below, Lang::Es) => format!("En {n} años, los años con {bare} más desigual tuvieron mortalidad infantil menos desigual: r = {rt} ({cit}), una asociación."),
                (Direction::Below, Lang::En) => format!("Over {n} years, years with more unequal {bare} had less unequal infant mortality: r = {rt} ({cit}), an association."),
            }
        }
    };
    let details = match (c.spearman, c.spearman_ci) {
        (Some(rho), Some(ci)) => vec![format!(
            "{} ρ = {} ({}).",
            lang.pick(
                "Con el orden de los años en vez de sus valores:",
                "With the order of the years instead of their values:"
            ),
            number(lang, rho, 2),
            interval(lang, ci, 2)
        )],
        (Some(rho), None) => vec![format!(
            "{} ρ = {}.",
            lang.pick(
                "Con el orden de los años en vez de sus valores:",
                "With the order of the years instead of their values:"
            ),
            number(lang, rho, 2)
        )],
        _ => vec![],
    };
    let caveats = vec![match lang {
        Lang::Es => format!("Solo {n} años: con tan pocos puntos una correlación real puede pasar inadvertida y el intervalo es amplio, y dos series que cambian con los años se correlacionan aun sin vínculo. Es descripción, no evidencia de causa."),
        Lang::En => format!("Only {n} years: with so few points a real correlation can go unnoticed and the interval is wide, and two series that both change over the years correlate even with no link. Read it as description, not evidence of a cause."),
    }];
    let chart = year_chart_labelled(
        lang,
        &match lang {
            Lang::Es => format!("{m} de la mortalidad infantil y {of_money}"),
            Lang::En => format!("{m} of infant mortality and {of_money}"),
        },
        &inequality_axis_label(lang, m),
        &[
            Series {
                name: lang.pick("Mortalidad infantil", "Infant mortality").into(),
                points: f
                    .imr_inequality
                    .iter()
                    .map(|&(t, v)| (t, v, None))
                    .collect(),
                secondary: false,
            },
            Series {
                name: match (f.column.as_str(), lang) {
                    ("gasto_salud_pc", Lang::Es) => "Gasto en salud".into(),
                    ("gasto_salud_pc", Lang::En) => "Health spending".into(),
                    (_, Lang::Es) => "Ingreso de salud".into(),
                    (_, Lang::En) => "Health income".into(),
                },
                points: f.income_gini.iter().map(|&(t, v)| (t, v, None)).collect(),
                secondary: true,
            },
        ],
        marks,
    );
    let data = table(
        &["year", "imr_inequality", "health_income_gini"],
        f.imr_inequality
            .iter()
            .map(|&(t, v)| {
                let inc = f.income_gini.iter().find(|p| p.0 == t).map(|p| p.1);
                vec![t.to_string(), cell(Some(v)), cell(inc)]
            })
            .collect(),
    );
    Parts {
        headline,
        details,
        caveats,
        method: crate::method::correlation(lang),
        chart,
        data,
    }
}
