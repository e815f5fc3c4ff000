//! The reference study's covariates on the bundled panel: one list that the Models view's
//! default regressors, the Findings' model answers and the Inequality view's default column
//! read. What each column holds, its labels and its unit are the [`codebook`](crate::codebook)'s;
//! the Findings word each one in imr-findings' text.rs.

/// One covariate of the study as the views and answers use it.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StudyCovariate {
    /// The column of the bundled panel (a row of the codebook, with its unit).
    pub column: &'static str,
    /// The change a Findings sentence is about, in the codebook's unit (10 percentage points
    /// of poverty, 50 km to the hospital, …).
    pub per: f64,
    /// Municipal health money per inhabitant: the Findings' third question reads it, and the
    /// Inequality view opens on it.
    pub health_money: bool,
    /// The column this one stands in for where the data lack that one: checked by default
    /// only then. The bundled health money is spending per inhabitant in 2006–2012
    /// (`gasto_salud_pc`) and income per inhabitant in 2019–2021 (`ingreso_salud_pc`), never
    /// both in one year.
    pub stands_in_for: Option<&'static str>,
}

/// The original study's poverty, municipal health money (spending, or income where spending
/// is missing), schooling, SAPU and distance to the base hospital, in the order the Findings
/// try them (health income before spending).
pub const STUDY_COVARIATES: [StudyCovariate; 6] = [
    StudyCovariate {
        column: "pobreza",
        per: 10.0,
        health_money: false,
        stands_in_for: None,
    },
    StudyCovariate {
        column: "ingreso_salud_pc",
        per: 100.0,
        health_money: true,
        stands_in_for: Some("gasto_salud_pc"),
    },
    StudyCovariate {
        column: "gasto_salud_pc",
        per: 10.0,
        health_money: true,
        stands_in_for: None,
    },
    StudyCovariate {
        column: "sin_educacion_formal_2017",
        per: 5.0,
        health_money: false,
        stands_in_for: None,
    },
    StudyCovariate {
        column: "sapu",
        per: 1.0,
        health_money: false,
        stands_in_for: None,
    },
    StudyCovariate {
        column: "dist_hospital_km",
        per: 50.0,
        health_money: false,
        stands_in_for: None,
    },
];

/// The regressors checked by default where the data have them: every covariate that stands in
/// for none.
pub fn default_regressors() -> impl Iterator<Item = &'static str> {
    STUDY_COVARIATES
        .iter()
        .filter(|c| c.stands_in_for.is_none())
        .map(|c| c.column)
}

/// The stand-ins: (the default column, the column checked in its place where the data lack it).
pub fn stand_ins() -> impl Iterator<Item = (&'static str, &'static str)> {
    STUDY_COVARIATES
        .iter()
        .filter_map(|c| Some((c.stands_in_for?, c.column)))
}

/// The column of `names` that holds the study's `covariate`: the one named so, else the one a
/// person wrote for it — the same name but for case, accents, spaces and a unit in parentheses
/// ([`crate::names::normalise_name`]: "Pobreza (%)" holds `pobreza`); `None` when none does.
pub fn column_for<'a>(covariate: &str, names: &'a [String]) -> Option<&'a String> {
    let key = crate::names::normalise_name(covariate);
    (names.iter().find(|n| n.as_str() == covariate)).or_else(|| {
        names
            .iter()
            .find(|n| crate::names::normalise_name(n) == key)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A newcomer's "Pobreza (%)" is the study's poverty; a name that only starts alike is not.
    #[test]
    fn a_covariate_is_found_under_the_name_a_person_wrote() {
        let names: Vec<String> = ["Comuna", "Pobreza (%)", "pobreza_2017", "SAPU"]
            .map(String::from)
            .to_vec();
        assert_eq!(column_for("pobreza", &names).unwrap(), "Pobreza (%)");
        assert_eq!(column_for("sapu", &names).unwrap(), "SAPU");
        assert_eq!(column_for("dist_hospital_km", &names), None);
        let exact: Vec<String> = ["Pobreza", "pobreza"].map(String::from).to_vec();
        assert_eq!(column_for("pobreza", &exact).unwrap(), "pobreza");
    }
    use crate::codebook::column_doc;

    /// Every covariate is a column of the codebook with a unit in both languages (the unit its
    /// `per` is in), and a stand-in stands in for a covariate of the list.
    #[test]
    fn every_covariate_is_a_documented_column_with_a_unit() {
        for c in STUDY_COVARIATES {
            let doc = column_doc(c.column).unwrap_or_else(|| panic!("{}", c.column));
            assert!(
                !doc.unit.is_empty() && !doc.unit_es.is_empty(),
                "{}",
                c.column
            );
            assert!(c.per > 0.0);
            if let Some(default) = c.stands_in_for {
                assert!(STUDY_COVARIATES.iter().any(|d| d.column == default));
            }
        }
        assert_eq!(
            default_regressors().collect::<Vec<_>>(),
            [
                "pobreza",
                "gasto_salud_pc",
                "sin_educacion_formal_2017",
                "sapu",
                "dist_hospital_km"
            ]
        );
        assert_eq!(
            stand_ins().collect::<Vec<_>>(),
            [("gasto_salud_pc", "ingreso_salud_pc")]
        );
    }
}
