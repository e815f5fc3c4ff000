//! What a year drawn on a chart is besides a year of data like the others: a copy of an earlier
//! year (a source that carried its figures forward), or a year whose deaths are not the
//! source's counts but whole numbers worked back from a published rate. Missing years are not
//! listed here: each chart finds them among the years it draws (a gap on the year axis).
//!
//! Every chart over the years (the Findings' charts, the inequality trend, adjusted and
//! two-series charts) draws these marks alike and says what they are in one line on its face
//! ([`YearMarks::note`]), since a chart's tooltips are lost when it is printed or published.

use imr_stats::Lang;

/// The marked years of a panel, for its charts over the years.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct YearMarks {
    /// Years that copy an earlier one, `(year, the year it repeats)`: a dashed band and a
    /// hollow point.
    pub copies: Vec<(i64, i64)>,
    /// Years whose deaths were reconstructed from a published rate (imr-core's
    /// `reconstructed` module), ascending: a diamond instead of a round point.
    pub reconstructed: Vec<i64>,
}

impl YearMarks {
    /// Marks with copies only.
    pub fn of_copies(copies: Vec<(i64, i64)>) -> YearMarks {
        YearMarks {
            copies,
            reconstructed: Vec::new(),
        }
    }

    /// The year `t` copies, when it is a copy.
    pub fn copy_of(&self, t: i64) -> Option<i64> {
        self.copies.iter().find(|(c, _)| *c == t).map(|(_, of)| *of)
    }

    /// Whether `t`'s deaths were reconstructed from a published rate.
    pub fn is_reconstructed(&self, t: i64) -> bool {
        self.reconstructed.contains(&t)
    }

    /// What a reconstructed year is, after the year: "defunciones reconstruidas de una tasa
    /// publicada".
    pub fn reconstructed_words(lang: Lang) -> &'static str {
        lang.pick(
            "defunciones reconstruidas de una tasa publicada",
            "deaths reconstructed from a published rate",
        )
    }

    /// What a reconstructed year is, beside it: "(defunciones reconstruidas)" (the Lorenz
    /// legend, the map's year, its tooltip).
    pub fn reconstructed_mark(lang: Lang) -> &'static str {
        lang.pick("(defunciones reconstruidas)", "(deaths reconstructed)")
    }

    /// The line under a chart drawing the years `drawn` with the missing years `gaps`, saying
    /// what each mark is: "Punteado: 2022, copia de 2021 · Rombos: 2017–2019 y 2021,
    /// defunciones reconstruidas de una tasa publicada · Gris: 2016 y 2020, sin datos". Only
    /// marks of years the chart draws are said; `None` when there is none.
    pub fn note(&self, lang: Lang, drawn: &[i64], gaps: &[i64]) -> Option<String> {
        let mut parts = Vec::new();
        let copied: Vec<String> = (self.copies.iter())
            .filter(|(t, _)| drawn.contains(t))
            .map(|(t, of)| format!("{t}, {} {of}", lang.pick("copia de", "a copy of")))
            .collect();
        if !copied.is_empty() {
            parts.push(format!(
                "{}: {}",
                lang.pick("Punteado", "Dashed"),
                copied.join("; ")
            ));
        }
        // A copy of a reconstructed year is drawn, and said, as a copy.
        let reconstructed: Vec<i64> = (self.reconstructed.iter())
            .copied()
            .filter(|t| drawn.contains(t) && self.copy_of(*t).is_none())
            .collect();
        if !reconstructed.is_empty() {
            parts.push(format!(
                "{}: {}, {}",
                lang.pick("Rombos", "Diamonds"),
                lang.years(&reconstructed),
                Self::reconstructed_words(lang)
            ));
        }
        if !gaps.is_empty() {
            parts.push(format!(
                "{}: {}, {}",
                lang.pick("Gris", "Grey"),
                lang.years(gaps),
                lang.pick("sin datos", "no data")
            ));
        }
        (!parts.is_empty()).then(|| parts.join(" · "))
    }
}

/// A diamond point of radius `r` at `(x, y)` (SVG `points`), the mark of a reconstructed year.
pub fn diamond_points(x: f64, y: f64, r: f64) -> String {
    format!(
        "{:.1},{:.1} {:.1},{:.1} {:.1},{:.1} {:.1},{:.1}",
        x,
        y - r,
        x + r,
        y,
        x,
        y + r,
        x - r,
        y
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_note_says_each_mark_of_a_drawn_year_and_nothing_else() {
        let marks = YearMarks {
            copies: vec![(2022, 2021)],
            reconstructed: vec![2017, 2018, 2019, 2021],
        };
        let drawn = [2015, 2017, 2018, 2019, 2021, 2022];
        assert_eq!(
            marks.note(Lang::Es, &drawn, &[2016, 2020]).unwrap(),
            "Punteado: 2022, copia de 2021 · Rombos: 2017–2019 y 2021, defunciones reconstruidas de una tasa publicada · Gris: 2016 y 2020, sin datos"
        );
        assert_eq!(
            marks.note(Lang::En, &drawn, &[]).unwrap(),
            "Dashed: 2022, a copy of 2021 · Diamonds: 2017–2019 and 2021, deaths reconstructed from a published rate"
        );
        // A chart of 2001–2015 draws none of the marked years.
        let early: Vec<i64> = (2001..=2015).collect();
        assert_eq!(marks.note(Lang::Es, &early, &[]), None);
        assert_eq!(marks.copy_of(2022), Some(2021));
        assert!(marks.is_reconstructed(2018) && !marks.is_reconstructed(2016));
    }

    /// On the inequality line chart a reconstructed year is a diamond titled as such, a missing
    /// year a grey band, and the line under the chart says both in words (a printed chart has
    /// no tooltips).
    #[test]
    fn the_line_chart_draws_and_says_reconstructed_and_missing_years() {
        let points: Vec<crate::SeriesPoint> = [2015, 2017, 2018, 2019, 2021]
            .iter()
            .map(|&time| crate::SeriesPoint {
                time,
                value: 0.1,
                ci: Some([0.05, 0.15]),
            })
            .collect();
        let marks = YearMarks {
            copies: Vec::new(),
            reconstructed: vec![2017, 2018, 2019, 2021],
        };
        let svg = crate::chart::line::line_chart_svg_in(
            &crate::chart::line::LineChart {
                title: "t".into(),
                subtitle: None,
                desc: "d".into(),
                y_label: "y".into(),
                points: &points,
                range: (0.0, 1.0),
                marks,
            },
            &imr_stats::Caption {
                lang: Lang::Es,
                ..Default::default()
            },
        );
        assert_eq!(
            svg.matches("<polygon class=\"reconstructed\"").count(),
            4,
            "{svg}"
        );
        assert_eq!(svg.matches("<circle ").count(), 1, "{svg}");
        assert!(
            svg.contains(
                "<title>2021 (defunciones reconstruidas de una tasa publicada): 0,1000</title>"
            ),
            "{svg}"
        );
        assert!(svg.contains(">Rombos: 2017–2019 y 2021, defunciones reconstruidas de una tasa publicada · Gris: 2016 y 2020, sin datos</text>"), "{svg}");
    }

    #[test]
    fn a_diamond_is_centred_on_its_point() {
        assert_eq!(
            diamond_points(10.0, 20.0, 3.0),
            "10.0,17.0 13.0,20.0 10.0,23.0 7.0,20.0"
        );
    }
}
