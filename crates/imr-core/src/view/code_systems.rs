//! The Data view's words for commune codes read in the code system of their year (feature
//! `historical-codes`): each year of a file read in one of DEIS's older systems
//! ([`CodeSystemRead`]) and each code recoded to a different 2018 code ([`HistoricalRecoding`]),
//! in either language, beside the report's JSON (`code_systems`, `historical_recodings`) that
//! `imr` writes. A code of a commune not yet created is an exclusion, worded by its reason.

use crate::report::{CodeSystemRead, HistoricalRecoding};
use crate::Lang;

impl CodeSystemRead {
    /// `a.xlsx [2003]: the codes of 2003, read in DEIS's "desde 2000" system`, in `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let CodeSystemRead { file, time, system } = self;
        match lang {
            Lang::Es => {
                format!("{file}: los códigos de {time}, leídos en el sistema DEIS «{system}»")
            }
            Lang::En => format!("{file}: the codes of {time}, read in DEIS's \"{system}\" system"),
        }
    }
}

impl HistoricalRecoding {
    /// `a.xlsx [2003], 2003: code 1201 ("desde 2000") is Arica, 15101 today (3 rows)`, in
    /// `lang`.
    pub fn text(&self, lang: Lang) -> String {
        let HistoricalRecoding {
            file,
            time,
            system,
            code,
            code_2018,
            commune,
            rows,
        } = self;
        match lang {
            Lang::Es => format!(
                "{file}, {time}: el código {code} («{system}») es {commune}, hoy {code_2018} \
                 ({rows} {})",
                if *rows == 1 { "fila" } else { "filas" }
            ),
            Lang::En => format!(
                "{file}, {time}: code {code} (\"{system}\") is {commune}, {code_2018} today \
                 ({rows} {})",
                if *rows == 1 { "row" } else { "rows" }
            ),
        }
    }
}

/// The heading of the recodings: how many years of files were read in an older system and how
/// many codes were recoded, and from which table, in `lang`.
pub fn code_systems_summary(lang: Lang, years: usize, recoded: usize) -> String {
    let plural =
        |n: usize, one: &str, many: &str| format!("{n} {}", if n == 1 { one } else { many });
    match lang {
        Lang::Es => format!(
            "Códigos de comuna de su año: {} en un sistema de códigos anterior al de hoy (tabla \
             histórica de la DPA del DEIS), {} al de 2018.",
            plural(years, "año leído", "años leídos"),
            plural(recoded, "código recodificado", "códigos recodificados"),
        ),
        Lang::En => format!(
            "Commune codes of their year: {} in a code system older than today's (DEIS's \
             historical DPA table), {} to 2018's.",
            plural(years, "year read", "years read"),
            plural(recoded, "code recoded", "codes recoded"),
        ),
    }
}

// Its texts for people are [`imr_stats::Words`], checked as every engine value's are.
imr_stats::words_by_text!(CodeSystemRead, HistoricalRecoding);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{build_panel, IngestOptions, RawTable};

    /// A 2002 table in 2002's codes: its year, its recodings and the summary, in each language;
    /// the Spanish without English words.
    #[test]
    fn the_years_and_recodings_are_worded_in_both_languages() {
        let csv = "codigo_comuna,anio,nacimientos,defunciones\n1201,2002,100,1\n\
                   1201,2003,90,0\n1102,2002,50,0\n1101,2002,300,2\n";
        let table = RawTable::from_bytes("t.csv", csv.as_bytes()).unwrap();
        let roles = vec![table.guessed_roles.clone()];
        let report = build_panel(&[table], &roles, &IngestOptions::default())
            .unwrap()
            .report;
        let years: Vec<String> = report
            .code_systems
            .iter()
            .map(|s| s.text(Lang::En))
            .collect();
        assert_eq!(
            years,
            [
                "t.csv: the codes of 2002, read in DEIS's \"desde 2000\" system",
                "t.csv: the codes of 2003, read in DEIS's \"desde 2000\" system"
            ]
        );
        let recoded: Vec<String> = report
            .historical_recodings
            .iter()
            .map(|r| r.text(Lang::Es))
            .collect();
        assert_eq!(
            recoded,
            [
                "t.csv, 2002: el código 1102 («desde 2000») es Camiña, hoy 01402 (1 fila)",
                "t.csv, 2002: el código 1201 («desde 2000») es Arica, hoy 15101 (1 fila)",
                "t.csv, 2003: el código 1201 («desde 2000») es Arica, hoy 15101 (1 fila)"
            ]
        );
        let summary = code_systems_summary(Lang::En, 2, 3);
        assert!(summary.contains("2 years read") && summary.contains("3 codes recoded"));
        let mut spanish = vec![code_systems_summary(Lang::Es, 1, 1)];
        spanish.extend(report.code_systems.iter().map(|s| s.text(Lang::Es)));
        spanish.extend(recoded);
        for es in spanish {
            assert_eq!(imr_lang::english_words(&es), Vec::<String>::new(), "{es}");
        }
    }
}
