use super::*;
use crate::ingest::number::parse_number;
use crate::ingest::{Decimal, RawTable};
use imr_escape::{CsvOptions, CsvWriter};
use proptest::prelude::*;

const RATES: &str = "entity,time,births,deaths,rate_per_1000,ci_low,ci_high\n\
    01101,2019,4434,42,9.472259810554803,6.826771703310317,12.80374352243804\n\
    13101,2019,3000,0,0,0,1.2e-5\n";

#[test]
fn the_rates_become_a_spanish_spreadsheet_csv() {
    let csv = spanish_csv("x.csv", "2026-12-06", RATES);
    let expected = format!(
        "\u{feff}# Fuente: Datos del usuario (x.csv)\n# {}\n# Generado: 2026-12-06\n\
         codigo_comuna;anio;nacimientos;defunciones;tasa_por_1000;ic_inf;ic_sup\n\
         01101;2019;4434;42;9,472259810554803;6,826771703310317;12,80374352243804\n\
         13101;2019;3000;0;0;0;1,2e-5\n",
        crate::provenance::engine_label_in(Lang::Es)
    );
    assert_eq!(csv, expected);
    // The bundled panel is credited to its institutions, as a chart's foot credits it.
    let bundled = spanish_csv(crate::data::BUNDLED_PANEL_FILE, "2026-12-06", RATES);
    assert!(bundled.starts_with(
        "\u{feff}# Fuente: INE, DEIS–MINSAL y SINIM–SUBDERE (chile_imr_2001_2021.csv)\n"
    ));
}

#[test]
fn english_is_the_machine_csv_byte_for_byte() {
    assert_eq!(
        with_csv_header_in(Lang::En, "x.csv", "2026-12-06", RATES),
        crate::provenance::with_csv_header("x.csv", "2026-12-06", RATES)
    );
    assert!(csv_lang_args(Lang::En).is_empty());
    assert_eq!(command_in(Lang::En, "imr rates x.csv"), "imr rates x.csv");
    assert_eq!(
        command_in(Lang::Es, "imr rates x.csv"),
        "imr rates x.csv --csv-lang es"
    );
    assert_eq!(csv_lang_args(Lang::Es), ["--csv-lang", "es"]);
    assert_eq!(
        with_csv_header_in(Lang::Es, "x.csv", "2026-12-06", RATES),
        spanish_csv("x.csv", "2026-12-06", RATES)
    );
}

#[test]
fn every_column_name_of_the_exports_is_spanish() {
    let names = [
        "entity,time,births,deaths,rate_per_1000,ci_low,ci_high,copy_of_year,deaths_reconstructed",
        "time,repeat_of,n_areas,pooled_rate,pooled_rate_ci_low,pooled_rate_bias_corrected",
        "median_ci_percentile_low,median_ci_percentile_high,zero_death_areas,zero_value_areas",
        "gini_unweighted,theil_within,theil_between,mean_abs_dev,index_of_disparity,min,max",
        "quintile_ratio,quintile_difference,concentration_index,weight_share,total_share",
        "measure,slope,n_years,first_time,last_time,first,last,change,value",
        "q1,median,q3,whisker_low,whisker_high,n_outliers",
        "model,vcov,term,estimate,std_error,statistic,p_value,conf_low,conf_high,irr_conf_low",
        "code,name,year,ci95_low,ci95_high,eb_global,eb_spatial,excess_risk,class,rate",
    ];
    for line in names {
        for name in line.split(',') {
            let es = column_es(name);
            let words = es.replace('_', " ");
            let english = imr_lang::english_label_words(&words);
            assert!(english.is_empty(), "{name} → {es}: {english:?}");
            assert!(!es.is_empty() && !es.contains("__"), "{name} → {es}");
        }
    }
    assert_eq!(column_es("std_error"), "ee");
    assert_eq!(column_es("gini_ci_low"), "gini_ic_inf");
    assert_eq!(column_es("pobreza"), "pobreza");
    assert_eq!(column_es(""), "");
}

#[test]
fn word_cells_of_the_coefficients_and_trends_are_spanish() {
    let body = "model,vcov,term,estimate\npooled,cluster,(Intercept),1.5\nfe,hc1,pobreza,-0.25\n";
    assert_eq!(
        spanish_body(body),
        "modelo;tipo_ee;termino;coeficiente\nMCO agrupado;conglomerado;(Constante);1,5\nEfectos fijos (intragrupos);hc1;pobreza;-0,25\n"
    );
    let trends = "measure,slope\nmedian,0.5\ntheil_within,-1\n";
    assert_eq!(
        spanish_body(trends),
        "medida;pendiente\nmediana;0,5\ntheil_intra;-1\n"
    );
    // The map's class of a commune left out as implausible (spanish.test.mjs found "flagged").
    let map = "code,class\n15202,flagged\n01101,2\n";
    assert_eq!(
        spanish_body(map),
        "codigo;clase\n15202;marcada, excluida\n01101;2\n"
    );
}

/// The coefficient CSV names its models and Mundlak's commune means as the Spanish tables do
/// (issue 42: `cre`, "fe" and "gasto_salud_pc_mean" in the Spanish download); a term of the
/// data named `…_mean`, or one of another model, keeps its name.
#[test]
fn the_models_and_the_commune_means_of_cre_are_spanish_words() {
    let body = "model,vcov,term,estimate\n\
                cre,cluster,gasto_salud_pc,-0.03\n\
                cre,cluster,gasto_salud_pc_mean,0.02\n\
                cre,cluster,otra_mean,1\n\
                re,cluster,gasto_salud_pc,-0.01\n\
                re,cluster,gasto_salud_pc_mean,2\n\
                twfe,iid,pobreza,3\n";
    assert_eq!(
        spanish_body(body),
        "modelo;tipo_ee;termino;coeficiente\n\
         Efectos aleatorios correlacionados (Mundlak);conglomerado;gasto_salud_pc;-0,03\n\
         Efectos aleatorios correlacionados (Mundlak);conglomerado;gasto_salud_pc (media de la comuna);0,02\n\
         Efectos aleatorios correlacionados (Mundlak);conglomerado;otra_mean;1\n\
         Efectos aleatorios (Swamy–Arora);conglomerado;gasto_salud_pc;-0,01\n\
         Efectos aleatorios (Swamy–Arora);conglomerado;gasto_salud_pc_mean;2\n\
         Efectos fijos de entidad y año;iid;pobreza;3\n"
    );
    // a regressor `x_mean` beside the mean of `x`: two `x_mean` rows, neither named in words
    let both = "model,vcov,term\ncre,iid,x\ncre,iid,x_mean\ncre,iid,x_mean\ncre,iid,x_mean_mean\n";
    assert!(
        !spanish_body(both).contains("media"),
        "{}",
        spanish_body(both)
    );
    // another CSV with a `term` column is not rewritten so
    let other = "term,estimate\nx,1\nx_mean,2\n";
    assert_eq!(spanish_body(other), "termino;coeficiente\nx;1\nx_mean;2\n");
    for model in imr_models::Estimator::ALL {
        let row = format!("model\n{}\n", model.name());
        let es = spanish_body(&row);
        assert!(imr_lang::english_label_words(&es).is_empty(), "{es}");
        assert!(!es.contains(&format!("\n{}\n", model.name())), "{es}");
    }
}

#[test]
fn only_plain_numbers_take_a_decimal_comma() {
    for (cell, es) in [
        ("1.5", Some("1,5")),
        ("-0.25", Some("-0,25")),
        ("2019", Some("2019")),
        ("01101", Some("01101")),
        ("1.2e-5", Some("1,2e-5")),
        ("3E+2", Some("3E+2")),
        ("1.", None),
        (".5", None),
        ("1.2.3", None),
        ("'-1.5x", None),
        ("1.5 km", None),
        ("", None),
        ("-", None),
        ("1e", None),
        ("NaN", None),
    ] {
        assert_eq!(decimal_comma(cell).as_deref(), es, "{cell:?}");
    }
}

/// A CSV as the engine's reader reads it: the table, each cell's number (`None` for text) and
/// each cell's text.
type ReadBack = (RawTable, Vec<Vec<Option<f64>>>, Vec<Vec<String>>);

/// The numbers of every cell of a CSV as the engine's reader reads them (`None` for a text
/// cell, which is kept as text).
fn read_back(name: &str, text: &str) -> ReadBack {
    let table = RawTable::from_bytes(name, text.as_bytes()).expect("readable");
    let decimal = table.decimal();
    let mut numbers = Vec::new();
    let mut cells = Vec::new();
    for r in table.records.iter() {
        numbers.push(r.fields().map(|f| parse_number(f, decimal)).collect());
        cells.push(r.fields().map(str::to_string).collect());
    }
    (table, numbers, cells)
}

/// A machine CSV as the exports write it: a text column of `names` and numeric columns.
fn machine_csv(names: &[String], values: &[(f64, f64)]) -> String {
    let mut w = CsvWriter::new(CsvOptions::default());
    w.record(["entity", "time", "rate", "ci_low"]);
    for (i, (name, (a, b))) in names.iter().zip(values).enumerate() {
        w.record([
            name.clone(),
            (2001 + i).to_string(),
            a.to_string(),
            b.to_string(),
        ]);
    }
    w.into_string()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    /// The engine's reader takes the Spanish CSV back (`;`, decimal comma, byte-order mark,
    /// three `#` lines) to the numbers and texts of the machine CSV.
    #[test]
    fn the_reader_reads_the_spanish_csv_back_to_the_machine_numbers(
        values in prop::collection::vec((-1e6f64..1e6, 0f64..1e3), 1..30),
        seed in 0u32..1000,
    ) {
        let names: Vec<String> = (0..values.len())
            .map(|i| format!("{:05}", (seed as usize * 31 + i * 7) % 100_000))
            .collect();
        let body = machine_csv(&names, &values);
        let machine = crate::provenance::with_csv_header("x.csv", "2026-12-06", &body);
        let spanish = spanish_csv("x.csv", "2026-12-06", &body);
        let (m, m_numbers, m_cells) = read_back("m.csv", &machine);
        let (s, s_numbers, s_cells) = read_back("s.csv", &spanish);
        prop_assert_eq!(m.dialect.delimiter, b',');
        prop_assert_eq!(s.dialect.delimiter, b';');
        prop_assert_eq!(s.decimal(), Decimal::Comma);
        prop_assert_eq!(s.metadata.len(), crate::provenance::CSV_HEADER_LINES);
        prop_assert_eq!(&s.columns, &["codigo_comuna", "anio", "tasa", "ic_inf"]);
        prop_assert_eq!(&s_numbers, &m_numbers);
        // Codes stay codes: "01101" keeps its leading zero.
        prop_assert_eq!(
            s_cells.iter().map(|r| &r[0]).collect::<Vec<_>>(),
            m_cells.iter().map(|r| &r[0]).collect::<Vec<_>>()
        );
        for (row, (a, _)) in s_numbers.iter().zip(&values) {
            prop_assert_eq!(row[2], Some(*a));
        }
    }

    /// A hostile name (a `;`, a quote, a line break, a formula) never panics and stays one
    /// cell: the Spanish file has the machine file's cells, row by row, the formula guard's `'`
    /// included.
    #[test]
    fn hostile_names_stay_one_cell(
        names in prop::collection::vec("[=;\"\n\r,+@a-zñ0-9. -]{0,12}", 1..8),
    ) {
        let values: Vec<(f64, f64)> = (0..names.len()).map(|i| (i as f64 + 0.5, 1.25)).collect();
        let body = machine_csv(&names, &values);
        let spanish = spanish_body(&body);
        let mut reader = csv::ReaderBuilder::new()
            .delimiter(b';')
            .has_headers(false)
            .flexible(true)
            .from_reader(spanish.as_bytes());
        let rows: Vec<csv::StringRecord> = reader.records().map(|r| r.expect("valid")).collect();
        prop_assert_eq!(rows.len(), names.len() + 1);
        for (row, name) in rows[1..].iter().zip(&names) {
            prop_assert_eq!(row.len(), 4);
            let guarded = imr_escape::csv_cell(name);
            let expected = decimal_comma(&guarded).map_or(guarded.to_string(), |c| c.into_owned());
            prop_assert_eq!(&row[0], expected.as_str());
            // No cell a spreadsheet would run: a text starting with = or ; is guarded or quoted.
            prop_assert!(!row[0].starts_with('=') && !row[0].starts_with('@'));
        }
    }

    /// Whatever text it is given, the converter returns (the header of a garbled file too).
    #[test]
    fn any_text_converts_without_panic(text in "\\PC{0,200}") {
        let _ = spanish_body(&text);
        let _ = spanish_csv(&text, &text, &text);
    }
}

/// The Spanish notes of the inequality report name the Spanish CSV's columns
/// (`corregido_por_sesgo`, `ic_percentil`, `ic`), which are the machine columns in Spanish: the
/// notes said "bias_corrected" and "ci_percentile", columns the Spanish CSV does not have.
#[test]
fn the_spanish_notes_name_the_spanish_csv_columns() {
    assert_eq!(column_es("gini_bias_corrected"), "gini_corregido_por_sesgo");
    assert_eq!(column_es("gini_ci_percentile_low"), "gini_ic_percentil_inf");
    assert_eq!(column_es("gini_ci_low"), "gini_ic_inf");
    let note = crate::inequality::Note::BootstrapIntervals {
        percent: 95.0,
        replicates: 999,
        method: crate::inequality::BootstrapMethod::PoissonDeaths,
        seed: 1,
    }
    .render(Lang::Es);
    for column in ["corregido_por_sesgo", "ic_percentil"] {
        assert!(note.contains(column), "{note}");
    }
    for english in ["bias_corrected", "ci_percentile"] {
        assert!(!note.contains(english), "{note}");
    }
}
