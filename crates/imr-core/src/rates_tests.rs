//! The rates, their intervals and their CSV on known counts and the bundled data.

use super::*;

#[test]
fn zero_deaths_in_1000_births_has_upper_limit_3_689_per_1000() {
    let (rate, lo, hi) = rate_with_interval(0.0, 1000.0);
    assert_eq!(rate, Some(0.0));
    assert_eq!(lo, Some(0.0));
    assert!((hi.unwrap() - 3.688879).abs() < 1e-5);
}

/// 30 deaths known between 27 and 32 in 5,930 births (Santiago 2019 in the bundled data):
/// the interval runs from the lower exact limit of 27 to the upper one of 32 (R 4.2.2,
/// `qchisq(0.025, 54) / 2 = 17.79317` and `qchisq(0.975, 66) / 2 = 45.17445` deaths), and holds
/// the exact interval of 30.
#[test]
fn a_range_of_counts_widens_the_interval_to_the_union() {
    let ranged = RateEstimate::of_range(30.0, [27.0, 32.0], 5930.0);
    let exact = RateEstimate::of(30.0, 5930.0);
    assert_eq!(ranged.rate, exact.rate);
    let (lo, hi) = (ranged.ci_low.unwrap(), ranged.ci_high.unwrap());
    assert!((lo * 5.93 - 17.79317).abs() < 1e-4, "{lo}");
    assert!((hi * 5.93 - 45.17445).abs() < 1e-4, "{hi}");
    assert!(lo < exact.ci_low.unwrap() && hi > exact.ci_high.unwrap());
    assert_eq!(RateEstimate::of_range(30.0, [30.0, 30.0], 5930.0), exact);
}

/// On the bundled data, the rows reconstructed from SINIM's integer rate with several (or no)
/// whole numbers fitting carry their range (`defunciones_min`–`_max`): 195 + 20 rows; INE's
/// counts are exact; Santiago 2019's interval is the union over 27–32 deaths.
#[test]
fn the_bundled_reconstructed_counts_carry_their_range() {
    let panel = crate::test_support::bundled_panel();
    let table = RateTable::from_panel(&panel).unwrap();
    let range = table.deaths_range.as_ref().unwrap();
    assert_eq!(
        (range.low.as_str(), range.high.as_str()),
        ("defunciones_min", "defunciones_max")
    );
    assert_eq!((range.ranged_rows, range.inconsistent_rows), (215, 0));
    let row = |entity: &str, time: i64| {
        table
            .rows
            .iter()
            .find(|r| r.entity == entity && r.time == time)
            .unwrap()
            .estimate
    };
    assert_eq!(
        row("13101", 2019),
        RateEstimate::of_range(30.0, [27.0, 32.0], 5930.0)
    );
    assert_eq!(row("13101", 2010), RateEstimate::of(26.0, 4503.0));
    // The pooled interval of a year with ranges is wider than its counts' alone.
    let y2019 = table.national.iter().find(|n| n.time == 2019).unwrap();
    let plain = RateEstimate::of(y2019.estimate.deaths, y2019.estimate.births);
    assert!(y2019.estimate.ci_low < plain.ci_low && y2019.estimate.ci_high > plain.ci_high);
    let y2010 = table.national.iter().find(|n| n.time == 2010).unwrap();
    assert_eq!(
        y2010.estimate,
        RateEstimate::of(1862.0, y2010.estimate.births)
    );
}

/// A year whose counts repeat the year before (2020 = 2019 in all 20 areas) is marked in
/// every one of its rows of the CSV, in English and in the spreadsheet's Spanish, and no
/// other row is; the bundled INE counts have no copy, so their column is empty.
#[test]
fn the_csv_marks_each_row_of_a_copied_year() {
    let mut csv = String::from("id,year,births,deaths\n");
    for i in 0..20 {
        let (b, d) = (300 + 17 * i, 1 + i % 4);
        csv += &format!(
            "a{i},2019,{b},{d}\na{i},2020,{b},{d}\na{i},2021,{},{}\n",
            b + 9,
            d + 2
        );
    }
    let table = RateTable::from_panel(&crate::test_support::panel_of(&csv)).unwrap();
    let out = rates_csv(&table);
    let mut lines = out.lines();
    assert!(lines
        .next()
        .unwrap()
        .ends_with(",ci_high,copy_of_year,deaths_reconstructed,flagged_implausible"));
    let mut marked = 0;
    for line in lines {
        let cells: Vec<&str> = line.split(',').collect();
        let copy = if cells[1] == "2020" { "2019" } else { "" };
        assert_eq!((cells[7], cells[8]), (copy, ""), "{line}");
        marked += usize::from(!copy.is_empty());
    }
    assert_eq!(marked, 20);
    let spanish = crate::spreadsheet_csv::spanish_body(&out);
    assert!(spanish.starts_with(
        "codigo_comuna;anio;nacimientos;defunciones;tasa_por_1000;ic_inf;ic_sup;copia_de_anio;defunciones_reconstruidas;marcada_inverosimil\n"
    ));
    assert!(spanish.contains("\na3;2020;351;4;11,3"), "{spanish}");
    assert!(spanish
        .lines()
        .any(|l| l.starts_with("a3;2020;") && l.ends_with(";2019;;")));
    // The bundled INE counts have no copy; the deaths SINIM's rates gave back are marked,
    // in the years the source column says (2017–2019 and 2021), and only those.
    let bundled = RateTable::from_panel(&crate::test_support::bundled_panel()).unwrap();
    let csv = rates_csv(&bundled);
    let rows: Vec<Vec<&str>> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect())
        .collect();
    assert!(rows.iter().all(|r| r[7].is_empty()));
    let marked: Vec<&Vec<&str>> = rows.iter().filter(|r| r[8] == "true").collect();
    assert!(marked.len() > 1000, "{}", marked.len());
    assert!(marked
        .iter()
        .all(|r| ["2017", "2018", "2019", "2021"].contains(&r[1])));
    assert!(rows
        .iter()
        .filter(|r| r[1] == "2010")
        .all(|r| r[8].is_empty()));
    let spanish = crate::spreadsheet_csv::spanish_body(&csv);
    assert!(spanish
        .lines()
        .any(|l| l.starts_with("13101;2021;") && l.ends_with(";sí;")));
}

/// The rates CSV marks the rows the plausibility rules flag, as the map's CSV gives them the
/// class `flagged` and the Data view lists them: exactly the rows of
/// [`crate::plausibility::Plausibility::check`], the bundled General Lagos 2021 among them
/// (its 111 per 1,000 was ranked with the others in a spreadsheet).
#[test]
fn the_csv_marks_the_rows_flagged_as_implausible() {
    let panel = crate::test_support::bundled_panel();
    let flags = crate::plausibility::Plausibility::check(&panel);
    let csv = rates_csv(&RateTable::from_panel(&panel).unwrap());
    let marked: Vec<(String, i64)> = csv
        .lines()
        .skip(1)
        .map(|l| l.split(',').collect::<Vec<_>>())
        .filter(|r| r[9] == "true")
        .map(|r| (r[0].to_owned(), r[1].parse().unwrap()))
        .collect();
    let expected: Vec<(String, i64)> = (flags.flagged.iter())
        .filter(|f| f.births.is_some() && f.deaths.is_some())
        .map(|f| (f.entity.clone(), f.time))
        .collect();
    assert!(!expected.is_empty());
    assert_eq!(marked, expected);
    assert!(marked.contains(&("15202".to_owned(), 2021)), "{marked:?}");
    let spanish = crate::spreadsheet_csv::spanish_body(&csv);
    assert!(spanish
        .lines()
        .any(|l| l.starts_with("15202;2021;") && l.ends_with(";sí")));
}

#[test]
fn zero_births_has_no_rate() {
    assert_eq!(rate_with_interval(0.0, 0.0), (None, None, None));
}
