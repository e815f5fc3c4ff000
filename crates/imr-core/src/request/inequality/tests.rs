//! The request's second series.

use super::*;

#[test]
fn the_second_series_is_its_column_by_its_weight_with_the_same_bootstrap() {
    let rates = InequalityRequest {
        group: Some("region".into()),
        rank: Some("pobreza".into()),
        bootstrap: 200,
        seed: 7,
        ..InequalityRequest::default()
    };
    assert_eq!(rates.second_series(), None);
    let with = InequalityRequest {
        against: Some(SecondSeries {
            column: "ingreso".into(),
            weight: "births".into(),
        }),
        ..rates
    };
    assert_eq!(
        with.second_series(),
        Some(InequalityRequest {
            subject: InequalitySubject::Values {
                of: "ingreso".into(),
                weight: "births".into(),
            },
            against: None,
            group: None,
            rank: None,
            bootstrap: 200,
            seed: 7,
            include_flagged: false,
            include_repeated_years: false,
            births_ratio: None,
        })
    );
}
