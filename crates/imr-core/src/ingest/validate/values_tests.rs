//! The tests of [`super`]: reading counts, covariates and text columns of records.

use super::*;
use proptest::prelude::*;

fn table(text: &str) -> RawTable {
    RawTable::from_bytes("t.csv", text.as_bytes()).unwrap()
}

fn roles(entity: usize, time: usize) -> ColumnRoles {
    ColumnRoles {
        entity: Some(entity),
        time: Some(time),
        ..ColumnRoles::default()
    }
}

/// What [`read_counts`] says of a record: its births and deaths, or why it is excluded.
type Counts = Result<(Option<f64>, Option<f64>), ExclusionReason>;

/// [`read_counts`] of each record of the CSV `text` with the roles `r`.
fn read_counts_of(text: &str, r: &ColumnRoles) -> Vec<Counts> {
    let t = table(text);
    t.records
        .iter()
        .map(|rec| read_counts(&t, &rec, r))
        .collect()
}

/// What a parse gives, comparable: each column's index, name, kind and value bits.
fn summary(parsed: Vec<(ExtraColumn, Vec<f64>)>) -> Vec<(usize, String, bool, Vec<u64>)> {
    parsed
        .into_iter()
        .map(|(c, v)| {
            (
                c.index,
                c.name,
                c.numeric,
                v.iter().map(|x| x.to_bits()).collect(),
            )
        })
        .collect()
}

#[test]
fn the_walk_parses_numbers_marks_text_and_finds_widths_years_and_entities() {
    let t = table("id,year,x,name\n1,2000,1.5,a\n2,2000,NA,b\n3,2000.5,oops,c\n4,2001\n");
    let parsed = parsed_extra_columns_on(&t, &roles(0, 1), 1);
    // x: one number of two present values (NA is missing): numeric; name: text, no values.
    assert_eq!(
        summary(parsed.columns),
        vec![
            (
                2,
                "x".to_owned(),
                true,
                [1.5, f64::NAN, NOT_A_NUMBER, f64::NAN]
                    .iter()
                    .map(|v| v.to_bits())
                    .collect()
            ),
            (3, "name".to_owned(), false, Vec::new()),
        ]
    );
    assert_eq!(parsed.width_ok, [true, true, true, false]);
    // 2000.5 is not a whole year: the serial pass reads it and says why.
    assert_eq!(parsed.years, [2000, 2000, NO_YEAR, 2001]);
    assert_eq!(parsed.entities, HashSet::from(["1", "2", "3", "4"]));
}

#[test]
fn counts_are_checked_and_deaths_derived_from_a_rate() {
    let r = ColumnRoles {
        births: Some(2),
        deaths: Some(3),
        ..roles(0, 1)
    };
    let read = read_counts_of("id,year,births,deaths\n1,2000,100,5\n2,2000,100,-1\n3,2000,100,200\n4,2000,2e9,1\n5,2000,NA,1\n6,2000,x,1\n", &r);
    assert_eq!(read[0], Ok((Some(100.0), Some(5.0))));
    assert!(matches!(read[1], Err(ExclusionReason::NegativeCount { value, .. }) if value == -1.0));
    assert!(matches!(
        read[2],
        Err(ExclusionReason::DeathsExceedBirths { .. })
    ));
    assert!(
        matches!(&read[3], Err(ExclusionReason::CountTooLarge { value, .. }) if value == "2e9")
    );
    assert!(
        matches!(&read[4], Err(ExclusionReason::MissingValue { column }) if column == "births")
    );
    assert!(matches!(&read[5], Err(ExclusionReason::NonNumeric { value, .. }) if value == "x"));

    let r = ColumnRoles {
        births: Some(2),
        rate: Some(3),
        ..roles(0, 1)
    };
    let read = read_counts_of(
        "id,year,births,rate\n1,2000,200,10\n2,2000,200,-1\n3,2000,200,2000\n",
        &r,
    );
    assert_eq!(read[0], Ok((Some(200.0), Some(2.0))));
    assert!(matches!(read[1], Err(ExclusionReason::NegativeRate { .. })));
    // A rate of 2000 per 1000 gives more deaths than births.
    assert!(matches!(
        read[2],
        Err(ExclusionReason::DeathsExceedBirths { .. })
    ));
}

#[test]
fn a_main_record_fills_its_slots_and_warns_of_text_in_a_number_column() {
    let t = table("id,year,x,name,y\n1,2000,oops, a ,2\n");
    let parsed = parsed_extra_columns_on(&t, &roles(0, 1), 1);
    let (extras, values): (Vec<ExtraColumn>, Vec<Vec<f64>>) = parsed.columns.into_iter().unzip();
    // x is text here (no number at all); name and x go to text slots 1 and 0, y to 0.
    assert_eq!(
        extras.iter().map(|c| c.numeric).collect::<Vec<_>>(),
        [false, false, true]
    );
    let rec = t.records.get(0).unwrap();
    let mut cells = RowCells::new(1, 2);
    cells.fill(&extras, &[0, 1, 0], &values, 0, &rec, "t.csv");
    assert_eq!(cells.numeric, [Some(2.0)]);
    assert_eq!(cells.text, [Some("oops"), Some("a")]);
    assert!(cells.warnings.is_empty());

    // A column of numbers with one text: the text is a warning naming its place.
    let t = table("id,year,x\n1,2000,1\n1,2001,oops\n");
    let parsed = parsed_extra_columns_on(&t, &roles(0, 1), 1);
    let (extras, values): (Vec<ExtraColumn>, Vec<Vec<f64>>) = parsed.columns.into_iter().unzip();
    let rec = t.records.get(1).unwrap();
    let mut cells = RowCells::new(1, 0);
    cells.fill(&extras, &[0], &values, 1, &rec, "t.csv");
    assert_eq!(cells.numeric, [None]);
    assert_eq!(
        cells.warnings,
        [CellWarning {
            file: "t.csv".into(),
            line: 3,
            column: "x".into(),
            value: "oops".into()
        }]
    );
}

#[test]
fn a_characteristics_cell_is_a_number_a_warning_a_text_or_nothing() {
    // In a text column (`false`) a missing token is text as written.
    let cases = [
        (" 3,5 ", true, Decimal::Comma, Cell::Number(3.5)),
        ("n/a", true, Decimal::Point, Cell::Nothing),
        (" many ", true, Decimal::Point, Cell::NotANumber("many")),
        ("  ", false, Decimal::Point, Cell::Nothing),
        (" NA ", false, Decimal::Point, Cell::Text("NA")),
    ];
    for (cell, numeric, decimal, wanted) in cases {
        assert_eq!(
            characteristic_cell(cell, numeric, decimal),
            wanted,
            "{cell:?}"
        );
    }
}

#[test]
fn a_year_is_a_whole_number_below_a_million() {
    assert_eq!(whole_year("2019", Decimal::Point), Some(2019));
    assert_eq!(whole_year("2019,0", Decimal::Comma), Some(2019));
    assert_eq!(whole_year("2019.5", Decimal::Point), None);
    assert_eq!(whole_year("1e6", Decimal::Point), None);
    assert_eq!(whole_year("-999999", Decimal::Point), Some(-999_999));
}

proptest! {
    /// Read in parts on several threads, the columns are the one-thread reading's, for
    /// numbers, missing tokens, text and short records, whatever the parts' sizes.
    #[test]
    fn threads_read_the_columns_of_one_thread(
        cells in proptest::collection::vec(
            prop::sample::select(vec!["1", "2.5", "", "NA", "-", "x", "1e3", "3,5", "\"7,5\""]),
            0..120,
        ),
        // Up to 7 fields a record against the header's 5: short and long records.
        width in 1usize..7,
        threads in 2usize..6,
        entity in 0usize..5,
    ) {
        let mut text = String::from("id,a,b,c,d\n");
        for (i, row) in cells.chunks(width).enumerate() {
            // Runs of one entity, and now and then none.
            let id = if i % 7 == 6 { String::new() } else { (i / 3).to_string() };
            text.push_str(&format!("{id},{}\n", row.join(",")));
        }
        let table = RawTable::from_bytes("x.csv", text.as_bytes()).unwrap();
        let time = (entity + 1) % 5;
        let roles = ColumnRoles { entity: Some(entity), time: Some(time), ..ColumnRoles::default() };
        let one = parsed_extra_columns_on(&table, &roles, 1);
        let many = parsed_extra_columns_on(&table, &roles, threads);
        prop_assert_eq!(summary(many.columns), summary(one.columns));
        prop_assert_eq!(&many.width_ok, &one.width_ok);
        prop_assert_eq!(&many.entities, &one.entities);
        // The widths found on the walk are the records' field counts against the header's.
        let counted: Vec<bool> = table.records.iter().map(|r| r.len() == 5).collect();
        prop_assert_eq!(one.width_ok, counted);
        // The entities listed on the walk are the entity column's distinct non-empty values.
        let listed: HashSet<&str> = table
            .records
            .iter()
            .filter_map(|r| r.field(entity).map(str::trim).filter(|e| !e.is_empty()))
            .collect();
        prop_assert_eq!(one.entities, listed);
        // The years read on the walk are the time field's whole numbers, as record_key
        // reads them.
        prop_assert_eq!(&many.years, &one.years);
        let years: Vec<i32> = table
            .records
            .iter()
            .map(|r| {
                r.field(time)
                    .and_then(|f| parse_number(f, table.decimal()))
                    .filter(|v| v.fract() == 0.0 && v.abs() < 1e6)
                    .map_or(NO_YEAR, |v| v as i32)
            })
            .collect();
        prop_assert_eq!(one.years, years);
    }
}
