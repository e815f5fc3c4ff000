//! Guessing what each column means from its name, in Spanish or English.

use serde::{Deserialize, Serialize};

/// The meaning of a column for the analysis.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Area identifier (commune code).
    Entity,
    /// Year.
    Time,
    /// Live births (the denominator).
    Births,
    /// Infant deaths under one year (the numerator).
    Deaths,
    /// A published rate per 1,000 births, used when deaths are not given.
    Rate,
}

impl Role {
    pub const ALL: [Role; 5] = [
        Role::Entity,
        Role::Time,
        Role::Births,
        Role::Deaths,
        Role::Rate,
    ];

    pub fn label(self) -> &'static str {
        match self {
            Role::Entity => "entity",
            Role::Time => "time",
            Role::Births => "births",
            Role::Deaths => "deaths",
            Role::Rate => "rate",
        }
    }

    /// Recognised column names, most specific first, already in normalised form
    /// (see [`normalise_name`]).
    fn names(self) -> &'static [&'static str] {
        match self {
            Role::Entity => &[
                "codigo_comuna",
                "cod_comuna",
                "cod_com",
                "cut",
                "cut_comuna",
                "codigo_cut",
                "cod_cut",
                "codigo_territorial",
                // A bare "código" beside a "comuna" of names (a common export): the code, not
                // the name, identifies the commune.
                "codigo",
                "cod",
                "comuna",
                "code",
                "id",
                "entity",
            ],
            Role::Time => &["ano", "anio", "year", "periodo", "time"],
            Role::Births => &["nacimientos", "nacidos_vivos", "births", "live_births"],
            Role::Deaths => &[
                "defunciones_infantiles",
                "muertes_menores_1",
                "defunciones",
                "deaths",
                "infant_deaths",
                // A column named by the age, as in an agency's table of deaths by age: INE's
                // "Men de 1 año" (SAIP4026) and "Men 1 año", "Menores de un año", "< 1 año"
                // (read by `under_one_year`), "Under 1 year".
                "men_de_1_ano",
                "men_1_ano",
                "menores_de_1_ano",
                "menores_de_un_ano",
                "menores_1_ano",
                "menor_de_1_ano",
                "menor_de_un_ano",
                "menos_de_1_ano",
                "under_1",
                "under_1_year",
                "under_one_year",
            ],
            Role::Rate => &["tmi", "tasa", "imr", "rate", "tasa_mortalidad_infantil"],
        }
    }
}

pub use imr_data::names::normalise_name;

/// Which column (by index) plays each role; `None` where no column does.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct ColumnRoles {
    pub entity: Option<usize>,
    pub time: Option<usize>,
    pub births: Option<usize>,
    pub deaths: Option<usize>,
    pub rate: Option<usize>,
}

impl ColumnRoles {
    pub fn get(&self, role: Role) -> Option<usize> {
        match role {
            Role::Entity => self.entity,
            Role::Time => self.time,
            Role::Births => self.births,
            Role::Deaths => self.deaths,
            Role::Rate => self.rate,
        }
    }

    pub fn set(&mut self, role: Role, column: Option<usize>) {
        let slot = match role {
            Role::Entity => &mut self.entity,
            Role::Time => &mut self.time,
            Role::Births => &mut self.births,
            Role::Deaths => &mut self.deaths,
            Role::Rate => &mut self.rate,
        };
        *slot = column;
    }

    /// The role of column `index`, if any.
    pub fn role_of(&self, index: usize) -> Option<Role> {
        Role::ALL.into_iter().find(|&r| self.get(r) == Some(index))
    }

    pub fn has_outcome(&self) -> bool {
        self.births.is_some() || self.deaths.is_some() || self.rate.is_some()
    }
}

/// Guesses roles from column names: an exact normalised match first (in the order of each role's
/// list), then a name that starts with a recognised name followed by `_` (e.g. `nacimientos_2019`).
/// A column gets at most one role.
pub fn guess_roles(columns: &[String]) -> ColumnRoles {
    use std::collections::HashMap;
    let normalised: Vec<String> = columns.iter().map(|c| under_one_year(c)).collect();
    // Columns by normalised name, and by every prefix that ends before a `_` and is a
    // recognised name: one pass over the header, so that a header of hundreds of thousands of
    // names costs time linear in its length.
    let known: std::collections::HashSet<&str> = Role::ALL
        .into_iter()
        .flat_map(|r| r.names().iter().copied())
        .collect();
    let mut exact: HashMap<&str, Vec<usize>> = HashMap::new();
    let mut prefixed: HashMap<&str, Vec<usize>> = HashMap::new();
    for (i, n) in normalised.iter().enumerate() {
        if known.contains(n.as_str()) {
            exact.entry(n.as_str()).or_default().push(i);
        }
        for (at, _) in n.match_indices('_') {
            if known.contains(&n[..at]) {
                prefixed.entry(&n[..at]).or_default().push(i);
            }
        }
    }
    let mut roles = ColumnRoles::default();
    let mut taken = vec![false; columns.len()];
    // Births and deaths before entity so that "comuna" never steals a more specific column; entity
    // names are checked in priority order so `codigo_comuna` wins over a `comuna` name column.
    for role in [
        Role::Births,
        Role::Deaths,
        Role::Rate,
        Role::Time,
        Role::Entity,
    ] {
        // A column of derived values ("defunciones_derivadas") is not a count: deaths are then
        // derived again from the rate, which marks them as derived.
        let usable = |i: usize| !(taken[i] || role == Role::Deaths && is_derived(&normalised[i]));
        let first_usable = |map: &HashMap<&str, Vec<usize>>, name: &str| {
            map.get(name)
                .and_then(|list| list.iter().copied().find(|&i| usable(i)))
        };
        let found = role
            .names()
            .iter()
            .find_map(|name| first_usable(&exact, name))
            .or_else(|| {
                if role == Role::Entity {
                    return None;
                }
                role.names()
                    .iter()
                    .find_map(|name| first_usable(&prefixed, name))
            });
        if let Some(i) = found {
            taken[i] = true;
            roles.set(role, Some(i));
        }
    }
    roles
}

/// A column name normalised ([`normalise_name`]), where "< 1 año" (`<` then one year: `< 1`,
/// `<1 año`, `< 1 year`) reads as "menores_de_1_ano": normalising drops the `<` and would leave
/// "1_ano", the name of the column of deaths at age one in the same tables.
fn under_one_year(name: &str) -> String {
    let normalised = normalise_name(name);
    let under = name.trim_start().starts_with('<')
        && matches!(
            normalised.as_str(),
            "1" | "1_ano" | "1_anos" | "1_year" | "1_years"
        );
    if under {
        "menores_de_1_ano".into()
    } else {
        normalised
    }
}

fn is_derived(normalised: &str) -> bool {
    normalised.contains("derivad") || normalised.contains("derived")
}

/// Finds a column by a user-given name: exact first, then after normalisation.
pub fn find_column(columns: &[String], wanted: &str) -> Option<usize> {
    columns.iter().position(|c| c == wanted).or_else(|| {
        let w = normalise_name(wanted);
        columns.iter().position(|c| normalise_name(c) == w)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cols(names: &[&str]) -> Vec<String> {
        names.iter().map(|s| s.to_string()).collect()
    }

    #[test]
    fn spanish_names_with_accents_are_recognised() {
        let r = guess_roles(&cols(&[
            "Código Comuna",
            "Año",
            "Nacidos vivos",
            "Defunciones",
        ]));
        assert_eq!(
            (r.entity, r.time, r.births, r.deaths),
            (Some(0), Some(1), Some(2), Some(3))
        );
    }

    #[test]
    fn a_bare_code_column_is_the_entity_before_a_column_of_names() {
        let r = guess_roles(&cols(&[
            "código",
            "comuna",
            "año",
            "nacimientos",
            "defunciones",
        ]));
        assert_eq!((r.entity, r.time), (Some(0), Some(2)));
        let r = guess_roles(&cols(&["Comuna", "Cod", "Año", "Tasa"]));
        assert_eq!(r.entity, Some(1));
    }

    #[test]
    fn english_names_are_recognised() {
        let r = guess_roles(&cols(&["code", "year", "births", "deaths", "poverty"]));
        assert_eq!(
            (r.entity, r.time, r.births, r.deaths, r.rate),
            (Some(0), Some(1), Some(2), Some(3), None)
        );
    }

    #[test]
    fn the_code_column_wins_over_the_name_column() {
        let r = guess_roles(&cols(&["comuna", "codigo_comuna", "anio", "tmi"]));
        assert_eq!(r.entity, Some(1));
        assert_eq!(r.rate, Some(3));
    }

    #[test]
    fn derived_deaths_are_not_guessed_as_counts() {
        let r = guess_roles(&cols(&[
            "codigo_comuna",
            "anio",
            "tmi",
            "poblacion_0",
            "defunciones_derivadas",
        ]));
        assert_eq!((r.deaths, r.rate), (None, Some(2)));
    }

    /// The age-named columns of agencies' tables of deaths by age are infant deaths; the
    /// column of age one ("1", "1 año") is not.
    #[test]
    fn a_column_named_by_the_age_under_one_is_infant_deaths() {
        for name in [
            "Men de 1 año",
            "Men 1 año",
            "< 1 año",
            "<1 año",
            "Menores de un año",
            "MENORES DE 1 AÑO",
            "Under 1 year",
        ] {
            let r = guess_roles(&cols(&["Comuna", "1 año", name, "1", "2", "Total"]));
            assert_eq!((r.entity, r.deaths), (Some(0), Some(2)), "{name}");
        }
        let r = guess_roles(&cols(&["Comuna", "1 año", "1", "Total"]));
        assert_eq!(r.deaths, None);
    }

    #[test]
    fn anio_ano_and_year_all_mean_time() {
        for name in ["año", "anio", "ano", "AÑO", "Year"] {
            assert_eq!(guess_roles(&cols(&["cut", name])).time, Some(1), "{name}");
        }
    }

    #[test]
    fn names_normalise_to_snake_case_without_accents() {
        assert_eq!(normalise_name(" Código  Comuna "), "codigo_comuna");
        assert_eq!(normalise_name("muertes < 1"), "muertes_1");
        assert_eq!(normalise_name("AÑO"), "ano");
    }
}
