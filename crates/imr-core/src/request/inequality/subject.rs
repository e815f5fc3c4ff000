//! The engine's subject of a panel for a request's subject: grouped, ranked, with the rows it
//! leaves out.

use super::*;

/// The engine's subject of `panel` for `subject`, grouped and ranked, and the rows left out.
/// A row missing its group or rank is an error (leaving it out would silently change the
/// decomposition or the gradient); a row missing births, deaths, the value or the weight is
/// listed and left out.
pub(super) fn subject_of(
    panel: &Panel,
    subject: &InequalitySubject,
    roles: (ColumnUse, ColumnUse),
    group: Option<&str>,
    rank: Option<&str>,
) -> Result<(imr_inequality::Subject, Vec<NotMeasured>), RequestError> {
    let groups = group
        .map(|g| {
            panel.key_column(g).ok_or_else(|| {
                let mut available = panel.numeric_variables();
                available.extend(panel.text_names.iter().cloned());
                RequestError::NoColumn {
                    role: ColumnUse::Group,
                    name: g.to_string(),
                    available,
                }
            })
        })
        .transpose()?;
    let ranks = rank
        .map(|r| numeric(panel, r, ColumnUse::Rank))
        .transpose()?;
    let values = match subject {
        InequalitySubject::Values { of, weight } => Some((
            numeric(panel, of, roles.0)?,
            numeric(panel, weight, roles.1)?,
        )),
        InequalitySubject::Rates => None,
    };
    let columns = match (subject, &values) {
        (InequalitySubject::Values { of, weight }, Some((values, weights))) => {
            SubjectColumns::Values {
                values: Column {
                    name: of,
                    cells: values,
                },
                weights: Column {
                    name: weight,
                    cells: weights,
                },
            }
        }
        _ => {
            if !panel.has_rates() {
                return Err(RequestError::NoRates);
            }
            SubjectColumns::Rates {
                deaths_derived: panel.deaths_derived,
            }
        }
    };
    let rows = panel.inequality_rows();
    let group = match (group, &groups) {
        (Some(name), Some(cells)) => Some(Column { name, cells }),
        _ => None,
    };
    let rank = match (rank, &ranks) {
        (Some(name), Some(cells)) => Some(Column { name, cells }),
        _ => None,
    };
    Ok(subject_from_rows(&rows, columns, group, rank)?)
}
