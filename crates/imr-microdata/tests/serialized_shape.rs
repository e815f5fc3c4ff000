//! The serialised form of the row accounting: [`RowAccount`] is one type in the deaths and
//! births aggregates and the job's file summaries, and each still serialises as it did when
//! the three structs had the counts as fields of their own — the same names, values and order
//! (the page's worker messages and `imr`'s outputs read them). The expected texts were written
//! by the code before `RowAccount`.

use imr_microdata::synth::{write_deaths, SynthOptions, SynthSize};
use imr_microdata::{
    run_job, BirthsAggregator, BirthsColumns, BytesSource, DeathsAggregator, DeathsOptions,
    JobOptions, RowAccount, WorkerEvent,
};

/// A small synthetic deaths file (6 rows, some excluded, some not infant).
fn deaths_file() -> Vec<u8> {
    let options = SynthOptions {
        size: SynthSize::Rows(6),
        first_year: 2019,
        last_year: 2019,
        infant_share: 0.5,
        problem_share: 0.3,
        ..SynthOptions::default()
    };
    let mut bytes = Vec::new();
    write_deaths(&mut bytes, &options).unwrap();
    bytes
}

/// A births file with a blank line, a recoded Ñuble code, an unknown code and a bad year.
const BIRTHS: &[u8] = b"ANO_NAC;COMUNA\n2019;13101\n\n2019;8401\n2020;5101\n2020;99999\nx;1\n";

fn births_columns() -> BirthsColumns {
    BirthsColumns {
        year: "ANO_NAC".into(),
        commune: "2".into(),
        delimiter: ';',
    }
}

#[test]
fn file_summaries_serialise_as_before() {
    let deaths = deaths_file();
    let options = JobOptions {
        births: Some(births_columns()),
        ..JobOptions::default()
    };
    let end = run_job(
        Some(&mut BytesSource {
            name: "d.csv".into(),
            bytes: &deaths,
        }),
        Some(&mut BytesSource {
            name: "n.csv".into(),
            bytes: BIRTHS,
        }),
        &options,
        &|| 0.0,
        &mut |_| {},
    );
    let WorkerEvent::Done(result) = end else {
        panic!("job failed: {end:?}")
    };
    let json: Vec<String> = result
        .files
        .iter()
        .map(|f| serde_json::to_string(f).unwrap())
        .collect();
    assert_eq!(
        json[0],
        r#"{"kind":"deaths","name":"d.csv","bytes":712,"has_header":true,"rows_read":6,"rows_counted":2,"rows_not_infant":1,"rows_excluded":3,"excluded":[{"reason":"wrong_field_count","description":"malformed line: wrong number of fields","count":1,"first_lines":[3]},{"reason":"unknown_age","description":"age unknown (EDAD_TIPO 9, or age in years unknown)","count":1,"first_lines":[4]},{"reason":"unknown_commune","description":"commune of residence blank or not in the 2018 CUT list (e.g. 99xxx)","count":1,"first_lines":[6]}],"unknown_codes":[["",1]],"blank_lines":0,"recoded_rows":0,"rows_by_year":[[2019,5]]}"#
    );
    assert_eq!(
        json[1],
        r#"{"kind":"births","name":"n.csv","bytes":62,"has_header":true,"rows_read":5,"rows_counted":3,"rows_not_infant":0,"rows_excluded":2,"excluded":[{"reason":"invalid_year","description":"malformed line: the year is not a four-digit year","count":1,"first_lines":[7]},{"reason":"unknown_commune","description":"commune of residence blank or not in the 2018 CUT list (e.g. 99xxx)","count":1,"first_lines":[6]}],"unknown_codes":[["99999",1]],"blank_lines":1,"recoded_rows":1,"rows_by_year":[[2019,2],[2020,2]]}"#
    );
    // And read back (the page reads the worker's messages).
    for (text, summary) in json.iter().zip(&result.files) {
        let back: imr_microdata::FileSummary = serde_json::from_str(text).unwrap();
        assert_eq!(&back, summary);
    }
    assert_eq!(
        result.files[1].rows,
        RowAccount {
            rows_read: 5,
            rows_counted: 3,
            rows_not_infant: 0,
            rows_excluded: 2,
            blank_lines: 1,
            recoded_rows: 1,
        }
    );
}

#[test]
fn the_deaths_aggregate_serialises_as_before() {
    let mut aggregator = DeathsAggregator::new(DeathsOptions::default());
    aggregator.push(&deaths_file()).unwrap();
    let aggregate = aggregator.finish().unwrap();
    assert_eq!(
        serde_json::to_string(&aggregate).unwrap(),
        r#"{"layout":{"has_header":true,"field_count":12,"year":0,"age_unit":3,"age_value":4,"commune":5,"diag1":8},"options":{"neonatal":false,"cause":false},"bytes":712,"rows_read":6,"infant_deaths":2,"non_infant_rows":1,"rows_excluded":3,"excluded":[{"reason":"wrong_field_count","description":"malformed line: wrong number of fields","count":1,"first_lines":[3]},{"reason":"unknown_age","description":"age unknown (EDAD_TIPO 9, or age in years unknown)","count":1,"first_lines":[4]},{"reason":"unknown_commune","description":"commune of residence blank or not in the 2018 CUT list (e.g. 99xxx)","count":1,"first_lines":[6]}],"unknown_codes":[["",1]],"blank_lines":0,"recoded_rows":0,"rows_by_year":{"2019":5},"cells":[{"code":"08111","year":2019,"deaths":1,"neonatal":null,"causes":null},{"code":"13102","year":2019,"deaths":1,"neonatal":null,"causes":null}]}"#
    );
}

/// The births aggregate's counts are keyed by (code, year), which JSON cannot key a map by: as
/// before, serialising it to JSON is that error, not some other text.
#[test]
fn the_births_aggregate_serialises_its_fields_as_before() {
    let mut aggregator = BirthsAggregator::new(births_columns().options().unwrap());
    aggregator.push(BIRTHS).unwrap();
    let aggregate = aggregator.finish().unwrap();
    let error = serde_json::to_string(&aggregate).unwrap_err();
    assert_eq!(error.to_string(), "key must be a string");
    let mut without_counts = aggregate.clone();
    without_counts.counts.clear();
    assert_eq!(
        serde_json::to_string(&without_counts).unwrap(),
        r#"{"has_header":true,"field_count":2,"year_column":0,"commune_column":1,"bytes":62,"rows_read":5,"births":3,"rows_excluded":2,"excluded":[{"reason":"invalid_year","description":"malformed line: the year is not a four-digit year","count":1,"first_lines":[7]},{"reason":"unknown_commune","description":"commune of residence blank or not in the 2018 CUT list (e.g. 99xxx)","count":1,"first_lines":[6]}],"unknown_codes":[["99999",1]],"blank_lines":1,"recoded_rows":1,"rows_by_year":{"2019":2,"2020":2},"counts":{}}"#
    );
}
