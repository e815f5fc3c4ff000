//! Fixed effects as values: what to absorb ([`FixedEffect`], read from `--fe` by
//! [`parse_fixed_effects`]) and how each entered a fit ([`AbsorbedEffect`]). The data, the fit
//! and the absorbing engine (`crate::absorbed`) all name them.

use crate::error::InvalidValue;
use crate::ModelError;
use std::collections::HashMap;
use std::hash::Hash;

/// A fixed effect to absorb: a name (`region^year`) and the level of each input row.
#[derive(Debug, Clone, PartialEq)]
pub struct FixedEffect {
    /// The name shown in the output: a column, or columns joined by `^` for an interaction.
    pub name: String,
    /// One code per input row (equal codes, same level); `None` is a missing level and
    /// excludes the row.
    pub codes: Vec<Option<u32>>,
}

impl FixedEffect {
    /// Codes by first appearance of each key (`None`: missing).
    pub fn from_keys<K: Eq + Hash>(
        name: impl Into<String>,
        keys: impl IntoIterator<Item = Option<K>>,
    ) -> Self {
        let mut index: HashMap<K, u32> = HashMap::new();
        let codes = keys
            .into_iter()
            .map(|key| {
                key.map(|k| {
                    let next = index.len() as u32;
                    *index.entry(k).or_insert(next)
                })
            })
            .collect();
        FixedEffect {
            name: name.into(),
            codes,
        }
    }

    /// The interaction of fixed effects (one level per combination present), named with `^`
    /// as fixest. A row missing in any part is missing. Parts must have the same length.
    pub fn interact(parts: &[FixedEffect]) -> Self {
        let name = parts
            .iter()
            .map(|p| p.name.as_str())
            .collect::<Vec<_>>()
            .join("^");
        let n = parts.first().map_or(0, |p| p.codes.len());
        let keys = (0..n).map(|row| {
            parts
                .iter()
                .map(|p| p.codes.get(row).copied().flatten())
                .collect::<Option<Vec<u32>>>()
        });
        FixedEffect::from_keys(name, keys)
    }
}

/// Parses `commune,year,region^year` into terms, each a list of column names (one, or the
/// parts of an interaction). Spaces around names are ignored; `+` separates terms as `,` does.
pub fn parse_fixed_effects(spec: &str) -> Result<Vec<Vec<String>>, ModelError> {
    let mut terms = Vec::new();
    for term in spec.split([',', '+']) {
        let parts: Vec<String> = term.split('^').map(|p| p.trim().to_string()).collect();
        if parts.iter().any(String::is_empty) {
            return Err(ModelError::InvalidValue(InvalidValue::EmptyFixedEffect {
                spec: spec.to_owned(),
                term: term.trim().to_owned(),
            }));
        }
        terms.push(parts);
    }
    Ok(terms)
}

/// A fixed effect as used in the fit: its name, levels among the rows used, and whether it is
/// nested in the entity clusters.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AbsorbedEffect {
    /// The name (`region^year`).
    pub name: String,
    /// Levels among the rows used.
    pub levels: usize,
    /// Every level lies within one entity (not counted in the cluster small-sample factor).
    pub nested_in_entity: bool,
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fixed_effects_parse_with_interactions() {
        assert_eq!(
            parse_fixed_effects("commune, year,region^year").unwrap(),
            vec![
                vec!["commune".to_string()],
                vec!["year".to_string()],
                vec!["region".to_string(), "year".to_string()]
            ]
        );
        assert!(parse_fixed_effects("commune,,year").is_err());
        assert!(parse_fixed_effects("region^").is_err());
    }

    #[test]
    fn an_interaction_has_one_level_per_combination_and_missing_propagates() {
        let a = FixedEffect::from_keys("a", [Some("x"), Some("x"), Some("y"), None]);
        let b = FixedEffect::from_keys("b", [Some(1), Some(2), Some(1), Some(1)]);
        let ab = FixedEffect::interact(&[a, b]);
        assert_eq!(ab.name, "a^b");
        assert_eq!(ab.codes, vec![Some(0), Some(1), Some(2), None]);
    }
}
