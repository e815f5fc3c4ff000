//! Provenance of every export: where the data came from, which engine made the numbers, and when.
//!
//! CSV files start with [`CSV_HEADER_LINES`] comment lines (`# Source: …`, `# imr-atlas engine …`,
//! `# Generated: YYYY-MM-DD`) before the usual header row, so pandas (`comment='#'`), R
//! (`read.csv(comment.char = "#")`), Stata (`varnames(4) rowrange(5)`) and our own ingest (which
//! reports them as metadata lines) read them. Charts carry the same facts as one line at their
//! foot ([`footer_line`]). The date is an argument: the page passes the browser's date, the `imr`
//! command the system's ([`date_from_unix_seconds`]); nothing here reads a clock, so page and
//! command write identical files apart from the date.

use imr_stats::Lang;

/// Number of comment lines [`csv_header`] writes before the header row.
pub const CSV_HEADER_LINES: usize = 3;

/// One line of text: line breaks and control characters in a source (file names) become
/// spaces ([`imr_escape::comment_line`]), so a file name cannot end a comment line.
fn one_line(text: &str) -> String {
    imr_escape::comment_line(text)
}

/// The engine as exports name it: "imr-atlas engine 0.1.0 (imr-core 0.1.0)".
pub fn engine_label() -> String {
    format!(
        "imr-atlas engine {} (imr-core {})",
        crate::ENGINE_VERSION,
        env!("CARGO_PKG_VERSION")
    )
}

/// [`engine_label`] in `lang`: "motor imr-atlas 0.1.0 (imr-core 0.1.0)" in Spanish (a Spanish
/// figure's `<metadata>` and report foot carried the English words).
pub fn engine_label_in(lang: Lang) -> String {
    match lang {
        Lang::En => engine_label(),
        Lang::Es => format!(
            "motor imr-atlas {} (imr-core {})",
            crate::ENGINE_VERSION,
            env!("CARGO_PKG_VERSION")
        ),
    }
}

/// The comment lines that open every CSV export, each ending in `\n`.
pub fn csv_header(source: &str, date: &str) -> String {
    format!(
        "# Source: {}\n# {}\n# Generated: {}\n",
        one_line(source),
        engine_label(),
        one_line(date)
    )
}

/// `body` (a CSV with its header row) preceded by [`csv_header`].
pub fn with_csv_header(source: &str, date: &str, body: &str) -> String {
    let mut out = csv_header(source, date);
    out.push_str(body);
    out
}

/// The data part of a CSV export: the text after its leading `#` lines (for comparisons).
pub fn csv_body(text: &str) -> &str {
    let mut rest = text;
    while rest.starts_with('#') {
        rest = rest.split_once('\n').map(|(_, r)| r).unwrap_or("");
    }
    rest
}

/// The provenance line at the foot of a chart, in `lang`, crediting whose figures it shows
/// ([`crate::map::svg::publishers`]: the institutions behind the bundled panel, else the
/// reader's own files by name) on the line a published chart keeps, as a newsroom's charts do:
/// source, the tool, the date — "Source: INE, DEIS–MINSAL and SINIM–SUBDERE
/// (chile_imr_2001_2021.csv) · imr-atlas · 2026-11-30", "Fuente: Datos del usuario (x.csv) ·
/// …". The engine's version goes into the chart's `<metadata>` ([`caption`]), not on its face.
pub fn footer_line(lang: Lang, source: &str, date: &str) -> String {
    let credit = crate::map::svg::publishers(lang, &one_line(source));
    let source_word = lang.pick("Fuente", "Source");
    format!("{source_word}: {credit} · imr-atlas · {}", one_line(date))
}

/// The caption of a chart in `lang`: its [`footer_line`] and, in its `<metadata>`, the engine
/// that made it ([`engine_label_in`]).
pub fn caption(lang: Lang, source: &str, date: &str) -> imr_stats::Caption {
    imr_stats::Caption::new(lang, footer_line(lang, source, date))
        .with_engine(engine_label_in(lang))
}

/// The line at the foot of a report (the Findings' HTML), which names the engine with its
/// version since a report is what a reader reproduces a published number from: "Fuente: … ·
/// motor imr-atlas 0.1.0 (imr-core 0.1.0) · 2026-11-30".
pub fn report_line(lang: Lang, source: &str, date: &str) -> String {
    let credit = crate::map::svg::publishers(lang, &one_line(source));
    let source_word = lang.pick("Fuente", "Source");
    format!(
        "{source_word}: {credit} · {} · {}",
        engine_label_in(lang),
        one_line(date)
    )
}

/// The UTC calendar date (`YYYY-MM-DD`) of a Unix time in seconds (proleptic Gregorian; the
/// days-from-civil inverse of Howard Hinnant's algorithm).
pub fn date_from_unix_seconds(seconds: i64) -> String {
    let days = seconds.div_euclid(86_400);
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z - era * 146_097;
    let yoe = (doe - doe / 1_460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!("{year:04}-{month:02}-{day:02}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_csv_header_names_source_engine_and_date_in_comment_lines() {
        let h = csv_header("chile_imr_2001_2021.csv", "2026-11-30");
        let lines: Vec<&str> = h.lines().collect();
        assert_eq!(lines.len(), CSV_HEADER_LINES);
        assert_eq!(lines[0], "# Source: chile_imr_2001_2021.csv");
        assert_eq!(
            lines[1],
            format!(
                "# imr-atlas engine {} (imr-core {})",
                crate::ENGINE_VERSION,
                crate::ENGINE_VERSION
            )
        );
        assert_eq!(lines[2], "# Generated: 2026-11-30");
        assert!(h.ends_with('\n'));
    }

    #[test]
    fn a_source_with_line_breaks_stays_on_its_line() {
        let h = csv_header("a.csv\n# b.csv", "2026-11-30");
        assert_eq!(h.lines().count(), CSV_HEADER_LINES);
        assert!(h.starts_with("# Source: a.csv # b.csv\n"));
    }

    #[test]
    fn the_body_is_what_follows_the_comment_lines() {
        let csv = with_csv_header("x.csv", "2026-11-30", "a,b\n1,2\n");
        assert_eq!(csv_body(&csv), "a,b\n1,2\n");
        assert_eq!(csv_body("a,b\n"), "a,b\n");
    }

    #[test]
    fn the_footer_line_is_in_the_language_asked() {
        let en = footer_line(Lang::En, "x.csv", "2026-11-30");
        let es = footer_line(Lang::Es, "x.csv", "2026-11-30");
        // A reader's file is credited as hers; the bundled panel by its institutions.
        assert_eq!(en, "Source: User data (x.csv) · imr-atlas · 2026-11-30");
        assert_eq!(
            es,
            "Fuente: Datos del usuario (x.csv) · imr-atlas · 2026-11-30"
        );
        let bundled = footer_line(Lang::Es, crate::data::BUNDLED_PANEL_FILE, "2026-11-30");
        assert_eq!(
            bundled,
            "Fuente: INE, DEIS–MINSAL y SINIM–SUBDERE (chile_imr_2001_2021.csv) · imr-atlas · 2026-11-30"
        );
        // The version is in the chart's metadata and at the foot of a report, not on a chart.
        let caption = caption(Lang::Es, "x.csv", "2026-11-30");
        assert_eq!(caption.provenance.as_deref(), Some(es.as_str()));
        // …in the figure's language: no English words in a Spanish figure's metadata.
        assert_eq!(
            caption.metadata().unwrap(),
            format!("{es} · {}", engine_label_in(Lang::Es))
        );
        assert!(engine_label_in(Lang::Es).starts_with("motor imr-atlas "));
        assert!(imr_lang::english_words(&caption.metadata().unwrap()).is_empty());
        assert_eq!(engine_label_in(Lang::En), engine_label());
        let report = report_line(Lang::Es, "x.csv", "2026-11-30");
        assert!(report.starts_with("Fuente: Datos del usuario (x.csv) · motor imr-atlas "));
        assert!(report.ends_with(" · 2026-11-30"));
    }

    #[test]
    fn unix_seconds_become_the_utc_date() {
        assert_eq!(date_from_unix_seconds(0), "1970-01-01");
        assert_eq!(date_from_unix_seconds(951_782_400), "2000-02-29");
        assert_eq!(date_from_unix_seconds(1_796_003_999), "2026-11-30");
        assert_eq!(date_from_unix_seconds(-86_400), "1969-12-31");
    }
}
