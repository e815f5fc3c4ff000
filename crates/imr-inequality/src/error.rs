//! The one error type of the inequality engine.

/// Why an inequality analysis cannot be computed. Each variant names the area and year it is
/// about, so the message can be shown as it is.
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
#[non_exhaustive]
pub enum InequalityError {
    /// No observation at all was given.
    #[error("no observations: nothing to measure")]
    Empty,
    /// The same area appears twice in one year.
    #[error("area `{entity}` appears more than once in {time}")]
    DuplicateArea { entity: String, time: i64 },
    /// A number that must be finite and non-negative is not (deaths, births, a value or a weight).
    #[error("area `{entity}`, {time}, `{field}`: expected a finite number ≥ 0, found {found}")]
    InvalidNumber {
        entity: String,
        time: i64,
        field: Field,
        found: f64,
    },
    /// A rank value is not finite.
    #[error("area `{entity}`, {time}, rank: expected a finite number, found {found}")]
    InvalidRank {
        entity: String,
        time: i64,
        found: f64,
    },
    /// Some areas of a year carry a group (or a rank) and others do not: the decomposition (or
    /// the rank-based measures) would silently drop areas.
    #[error("area `{entity}`, {time}: {what} is missing while other areas of that year have one")]
    Incomplete {
        entity: String,
        time: i64,
        what: Field,
    },
    /// Settings that cannot work (a confidence level outside (0, 1), a scaling constant ≤ 0).
    #[error("invalid setting: {0}")]
    InvalidSetting(String),
}

/// A field of an observation, as errors name it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Field {
    Deaths,
    Births,
    Value,
    Weight,
    Group,
    Rank,
}

impl Field {
    /// The field's name in `lang` (English: the engine's own word, `deaths`, `group`…).
    pub fn name(self, lang: imr_stats::Lang) -> &'static str {
        match self {
            Field::Deaths => lang.pick("defunciones", "deaths"),
            Field::Births => lang.pick("nacimientos", "births"),
            Field::Value => lang.pick("valor", "value"),
            Field::Weight => lang.pick("peso", "weight"),
            Field::Group => lang.pick("el grupo", "group"),
            Field::Rank => lang.pick("el orden", "rank"),
        }
    }
}

impl std::fmt::Display for Field {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name(imr_stats::Lang::En))
    }
}

impl InequalityError {
    /// The error in `lang`: English is the `Display` text. [`InequalityError::InvalidSetting`]
    /// keeps its detail as the engine wrote it, in a Spanish frame.
    pub fn text(&self, lang: imr_stats::Lang) -> String {
        use InequalityError::*;
        if lang == imr_stats::Lang::En {
            return self.to_string();
        }
        match self {
            Empty => "sin observaciones: nada que medir".into(),
            DuplicateArea { entity, time } => {
                format!("el área «{entity}» aparece más de una vez en {time}")
            }
            InvalidNumber {
                entity,
                time,
                field,
                found,
            } => format!(
                "área «{entity}», {time}, «{}»: se esperaba un número finito ≥ 0 y hay {found}",
                field.name(lang)
            ),
            InvalidRank {
                entity,
                time,
                found,
            } => format!(
                "área «{entity}», {time}, orden: se esperaba un número finito y hay {found}"
            ),
            Incomplete { entity, time, what } => format!(
                "área «{entity}», {time}: falta {} mientras otras áreas de ese año lo tienen",
                what.name(lang)
            ),
            InvalidSetting(detail) => format!("ajuste no válido: {detail}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use imr_stats::Lang;

    #[test]
    fn spanish_texts_differ_from_english_and_name_fields_in_spanish() {
        let e = InequalityError::InvalidNumber {
            entity: "13101".into(),
            time: 2020,
            field: Field::Births,
            found: -1.0,
        };
        assert_eq!(
            e.to_string(),
            "area `13101`, 2020, `births`: expected a finite number ≥ 0, found -1"
        );
        assert_eq!(
            e.text(Lang::Es),
            "área «13101», 2020, «nacimientos»: se esperaba un número finito ≥ 0 y hay -1"
        );
        let incomplete = InequalityError::Incomplete {
            entity: "13101".into(),
            time: 2020,
            what: Field::Group,
        };
        assert_eq!(
            incomplete.text(Lang::Es),
            "área «13101», 2020: falta el grupo mientras otras áreas de ese año lo tienen"
        );
        assert_eq!(
            InequalityError::Empty.text(Lang::Es),
            "sin observaciones: nada que medir"
        );
    }
}
