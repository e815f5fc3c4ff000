//! Phase "roles": which columns play which part. Checks the roles chosen for each table (each
//! a column of the table, no column in two roles, an entity column everywhere, a time column
//! in the main tables unless [`IngestOptions::time_optional`], births with deaths or a rate)
//! and decides which tables are the main data and which are characteristics. Hands on a
//! [`Plan`]; reads no record.

use super::super::columns::{ColumnRoles, Role};
use super::super::table::RawTable;
use super::super::{ColumnNames, IngestError};
use super::IngestOptions;
use std::collections::HashMap;

/// The role of a table in the build.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(super) enum TableKind {
    /// Rows of the panel (stacked with the other main tables).
    Main,
    /// Columns joined onto the panel's rows by entity, or by entity and time.
    Characteristics,
}

/// What the roles phase hands on: each table's kind and what the main tables' outcome columns
/// make of the panel.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Plan {
    /// Per table, in the order given.
    pub kinds: Vec<TableKind>,
    /// The main tables' indices, in the order given (at least one).
    pub main: Vec<usize>,
    /// Whether a main table has a births column.
    pub has_births: bool,
    /// Whether a main table has a deaths or a rate column (the panel then has deaths).
    pub has_deaths: bool,
    /// Whether deaths are derived from a rate: a main table has a rate, none has deaths.
    pub deaths_derived: bool,
}

impl Plan {
    /// The characteristics tables' indices, in the order given.
    pub fn characteristics(&self) -> impl Iterator<Item = usize> + '_ {
        (0..self.kinds.len()).filter(|&t| self.kinds[t] == TableKind::Characteristics)
    }
}

/// The [`Plan`] of `tables` (at least one) with `roles` (one per table), or the first problem
/// of the roles: table by table, a role on a column the table has not, a column in two roles,
/// no entity column, a main table without time; then deaths or a rate without births.
pub(super) fn plan(
    tables: &[&RawTable],
    roles: &[ColumnRoles],
    options: &IngestOptions,
) -> Result<Plan, IngestError> {
    let kinds = table_kinds(roles);
    for ((table, r), &kind) in tables.iter().zip(roles).zip(&kinds) {
        check_roles(table, r, kind, options)?;
    }
    let main: Vec<usize> = (0..tables.len())
        .filter(|&t| kinds[t] == TableKind::Main)
        .collect();
    let any = |role: Role| main.iter().any(|&t| roles[t].get(role).is_some());
    let (has_births, has_deaths_column, has_rate) =
        (any(Role::Births), any(Role::Deaths), any(Role::Rate));
    if (has_deaths_column || has_rate) && !has_births {
        return Err(missing_role(tables[main[0]], Role::Births));
    }
    Ok(Plan {
        kinds,
        main,
        has_births,
        has_deaths: has_deaths_column || has_rate,
        deaths_derived: !has_deaths_column && has_rate,
    })
}

/// Tables with an outcome role (births, deaths or rate) are main data, the others
/// characteristics; when no table has an outcome role, the first is the main data (a generic
/// panel, e.g. for models).
pub(super) fn table_kinds(roles: &[ColumnRoles]) -> Vec<TableKind> {
    let any_outcome = roles.iter().any(ColumnRoles::has_outcome);
    roles
        .iter()
        .enumerate()
        .map(|(i, r)| {
            if r.has_outcome() || (!any_outcome && i == 0) {
                TableKind::Main
            } else {
                TableKind::Characteristics
            }
        })
        .collect()
}

/// The checks of one table's roles, in this order: every role on a column of the table, no
/// column in two roles, an entity column, and a time column for a main table (unless
/// [`IngestOptions::time_optional`] or [`IngestOptions::time_value`]).
fn check_roles(
    table: &RawTable,
    r: &ColumnRoles,
    kind: TableKind,
    options: &IngestOptions,
) -> Result<(), IngestError> {
    if let Some(bad) = Role::ALL
        .into_iter()
        .filter_map(|role| r.get(role))
        .find(|&i| i >= table.columns.len())
    {
        return Err(IngestError::UnknownColumn {
            column: format!("#{}", bad + 1),
            columns: ColumnNames::of(&table.columns),
        });
    }
    let mut by_column: HashMap<usize, Role> = HashMap::new();
    for role in Role::ALL {
        if let Some(i) = r.get(role) {
            if let Some(first) = by_column.insert(i, role) {
                return Err(IngestError::SameColumnForTwoRoles {
                    file: table.file.clone(),
                    column: table.columns[i].clone(),
                    first,
                    second: role,
                });
            }
        }
    }
    if r.entity.is_none() {
        return Err(missing_role(table, Role::Entity));
    }
    if kind == TableKind::Main
        && r.time.is_none()
        && !options.time_optional
        && options.time_value.is_none()
        && table.time_given.is_none()
    {
        return Err(missing_role(table, Role::Time));
    }
    Ok(())
}

/// The error of a role `table` lacks, naming the file and its columns.
fn missing_role(table: &RawTable, role: Role) -> IngestError {
    IngestError::MissingRole {
        file: table.file.clone(),
        role,
        columns: ColumnNames::of(&table.columns),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn table(file: &str, text: &str) -> RawTable {
        RawTable::from_bytes(file, text.as_bytes()).unwrap()
    }

    fn roles(entity: Option<usize>, time: Option<usize>) -> ColumnRoles {
        ColumnRoles {
            entity,
            time,
            ..ColumnRoles::default()
        }
    }

    #[test]
    fn outcome_tables_are_main_and_the_others_characteristics() {
        let counts = table("counts.csv", "code,year,births,deaths\n1,2000,10,1\n");
        let poverty = table("poverty.csv", "code,poverty\n1,5\n");
        let with_counts = ColumnRoles {
            births: Some(2),
            deaths: Some(3),
            ..roles(Some(0), Some(1))
        };
        let plan = plan(
            &[&poverty, &counts],
            &[roles(Some(0), None), with_counts],
            &IngestOptions::default(),
        )
        .unwrap();
        assert_eq!(
            plan,
            Plan {
                kinds: vec![TableKind::Characteristics, TableKind::Main],
                main: vec![1],
                has_births: true,
                has_deaths: true,
                deaths_derived: false,
            }
        );
        assert_eq!(plan.characteristics().collect::<Vec<_>>(), [0]);
    }

    #[test]
    fn without_an_outcome_the_first_table_is_main_and_a_rate_alone_derives_deaths() {
        let a = table("a.csv", "firm,year,invest\n1,2000,5\n");
        let b = table("b.csv", "firm,size\n1,5\n");
        let generic = [roles(Some(0), Some(1)), roles(Some(0), None)];
        let plan = plan(&[&a, &b], &generic, &IngestOptions::default()).unwrap();
        assert_eq!(plan.kinds, [TableKind::Main, TableKind::Characteristics]);
        assert!(!plan.has_births && !plan.has_deaths);

        let rates = table("r.csv", "code,year,births,rate\n1,2000,10,1\n");
        let r = ColumnRoles {
            births: Some(2),
            rate: Some(3),
            ..roles(Some(0), Some(1))
        };
        let plan = super::plan(&[&rates], &[r], &IngestOptions::default()).unwrap();
        assert!(plan.has_deaths && plan.deaths_derived);
    }

    #[test]
    fn each_problem_of_the_roles_is_its_error() {
        let t = table("t.csv", "code,year,births,rate\n1,2000,10,1\n");
        let options = IngestOptions::default();
        let check = |r: ColumnRoles, options: &IngestOptions| plan(&[&t], &[r], options);
        let off_table = ColumnRoles {
            births: Some(9),
            ..roles(Some(0), Some(1))
        };
        assert!(matches!(
            check(off_table, &options),
            Err(IngestError::UnknownColumn { column, .. }) if column == "#10"
        ));
        let twice = ColumnRoles {
            births: Some(1),
            ..roles(Some(0), Some(1))
        };
        assert!(matches!(
            check(twice, &options),
            Err(IngestError::SameColumnForTwoRoles { column, first: Role::Time, second: Role::Births, .. })
                if column == "year"
        ));
        assert!(matches!(
            check(roles(None, Some(1)), &options),
            Err(IngestError::MissingRole {
                role: Role::Entity,
                ..
            })
        ));
        assert!(matches!(
            check(roles(Some(0), None), &options),
            Err(IngestError::MissingRole {
                role: Role::Time,
                ..
            })
        ));
        let cross_section = IngestOptions {
            time_optional: true,
            ..IngestOptions::default()
        };
        assert!(check(roles(Some(0), None), &cross_section).is_ok());
        let of_one_year = IngestOptions {
            time_value: Some(2023),
            ..IngestOptions::default()
        };
        assert!(check(roles(Some(0), None), &of_one_year).is_ok());
        let rate_alone = ColumnRoles {
            rate: Some(3),
            ..roles(Some(0), Some(1))
        };
        assert!(matches!(
            check(rate_alone, &options),
            Err(IngestError::MissingRole { role: Role::Births, file, .. }) if file == "t.csv"
        ));
    }
}
