//! The charts' geometry and words on small series.

use super::year::legend_layout;
use super::*;
use imr_core::inequality::YearMarks;

#[test]
fn the_axis_spans_the_points_and_intervals_only() {
    let s = Series {
        name: "a".into(),
        points: vec![(2019, 5.0, Some([4.0, 6.0])), (2020, 6.0, None)],
        secondary: false,
    };
    let svg = year_chart(Lang::En, "t <x>", &[s]).svg;
    assert!(svg.contains("<title>t &lt;x&gt;</title>"));
    // Values 4 to 6: ticks every 0.5 from 4.0 to 6.0, each labelled, none beyond.
    for label in ["4.0", "4.5", "5.0", "5.5", "6.0"] {
        assert!(svg.contains(&format!(">{label}<")), "{label}: {svg}");
    }
    assert!(!svg.contains(">3.5<") && !svg.contains(">6.5<"), "{svg}");
}

/// A Gini whose interval reaches 0 (the adjusted Gini of a year without excess variation):
/// the axis starts at 0, not 8% of the range below it.
#[test]
fn an_interval_reaching_zero_keeps_the_axis_at_zero() {
    let s = Series {
        name: "Gini".into(),
        points: vec![
            (2019, 0.05, Some([0.0, 0.1])),
            (2020, 0.1, Some([0.05, 0.15])),
        ],
        secondary: false,
    };
    assert_eq!(
        axis([0.05, 0.0, 0.1, 0.1, 0.05, 0.15].into_iter(), 4)
            .unwrap()
            .lo(),
        0.0
    );
    let svg = year_chart(Lang::Es, "Gini", &[s]).svg;
    assert!(!svg.contains(">-") && !svg.contains(">−"), "{svg}");
    // Values below zero keep an axis below zero.
    let ticks = axis([-1.0, 1.0].into_iter(), 4).unwrap();
    assert_eq!((ticks.lo(), ticks.hi()), (-1.0, 1.0));
}

/// 2016 and 2020 are missing: no line is drawn across them, each is a grey band titled as
/// missing, and the years keep their place on the axis (2017 is as far from 2015 as 2015 from
/// 2013).
/// Legend entries sit side by side as wide as their names, and a name that would run past
/// the chart's edge starts a new row (the newcomer saw "Gini de las tasas observad…" cut).
#[test]
fn legend_entries_never_run_past_the_edge() {
    let series = |name: &str| Series {
        name: name.into(),
        points: vec![(2019, 1.0, None), (2020, 2.0, None)],
        secondary: false,
    };
    // The bundled rates chart's two entries fit on one row.
    let short = [series("Tasa nacional (IC 95%)"), series("Mediana comunal")];
    assert_eq!(
        legend_layout(&short, 44.0),
        [(44.0, 0), (44.0 + 18.0 + 5.6 * 22.0 + 14.0, 0)]
    );
    let long = [
        series("Gini sin el azar (IC 95%)"),
        series("Gini de las tasas observadas"),
    ];
    let layout = legend_layout(&long, 44.0);
    assert_eq!(layout, [(44.0, 0), (44.0, 1)]);
    for ((x, _), s) in layout.iter().zip(&long) {
        assert!(
            x + 18.0 + 5.6 * s.name.chars().count() as f64 <= W,
            "{}",
            s.name
        );
    }
    let svg = year_chart(Lang::Es, "t", &long).svg;
    assert!(svg.contains(r#"viewBox="0 0 320 163""#), "{svg}");
}

#[test]
fn a_missing_year_is_a_gap_not_a_line() {
    let points = |years: &[i64]| {
        years
            .iter()
            .map(|&t| (t, t as f64 - 2000.0, None))
            .collect()
    };
    let s = Series {
        name: "a".into(),
        points: points(&[2013, 2014, 2015, 2017, 2018, 2019, 2021]),
        secondary: false,
    };
    let svg = year_chart(Lang::Es, "t", &[s]).svg;
    assert_eq!(
        missing_years(&[2013, 2014, 2015, 2017, 2018, 2019, 2021]),
        [2016, 2020]
    );
    // Runs 2013–2015 and 2017–2019 are lines; 2021 alone is a point.
    assert_eq!(svg.matches("<polyline").count(), 2, "{svg}");
    assert!(svg.contains("<title>2016: sin datos</title>"), "{svg}");
    assert!(svg.contains("<title>2020: sin datos</title>"), "{svg}");
    // Linear axis: the plotting width 256 over 8 years is 32 per year.
    let circle_x: Vec<f64> = svg
        .split("<circle cx=\"")
        .skip(1)
        .map(|rest| rest.split('"').next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(circle_x.len(), 7);
    assert!((circle_x[3] - circle_x[2] - 2.0 * (circle_x[2] - circle_x[1])).abs() < 0.2);
    // With no gap, one line and no band.
    let full = Series {
        name: "b".into(),
        points: points(&[2001, 2002, 2003]),
        secondary: false,
    };
    let svg = year_chart(Lang::En, "t", &[full]).svg;
    assert_eq!(svg.matches("<polyline").count(), 1);
    assert!(!svg.contains("no data"));
}

#[test]
fn many_years_are_labelled_sparsely() {
    let years: Vec<i64> = (2001..=2021).collect();
    assert_eq!(labelled_years(&years), [2001, 2005, 2010, 2015, 2021]);
    assert_eq!(labelled_years(&[2019, 2020, 2021]), [2019, 2020, 2021]);
}

#[test]
fn a_reference_on_a_tick_is_labelled_once() {
    let rows = [
        Row {
            label: "a".into(),
            value: -1.0,
            ci: Some([-2.0, 0.5]),
        },
        Row {
            label: "b".into(),
            value: 2.0,
            ci: Some([1.0, 3.5]),
        },
    ];
    let svg = interval_rows(Lang::En, "t", &rows, (0.0, "0")).svg;
    assert_eq!(svg.matches(">0<").count(), 1, "{svg}");
    assert!(svg.contains(">2<") || svg.contains(">2.0<"), "{svg}");
    // A named reference ("national") leaves the tick's number in place.
    let svg = interval_rows(Lang::En, "t", &rows, (0.0, "national")).svg;
    assert_eq!(svg.matches(">0<").count(), 1, "{svg}");
}

#[test]
fn no_data_gives_an_empty_chart_not_a_panic() {
    let svg = year_chart(Lang::Es, "vacío", &[]).svg;
    assert!(svg.ends_with("</svg>"));
    let svg = interval_rows(Lang::Es, "vacío", &[], (f64::NAN, "0")).svg;
    assert!(svg.ends_with("</svg>"));
}

/// A copied and a missing year are said in words on the chart's face (a printed chart has
/// no tooltips); a chart without either has no such line.
#[test]
fn copied_and_missing_years_are_said_under_the_chart() {
    let s = Series {
        name: "Tasa".into(),
        points: vec![
            (2014, 7.0, None),
            (2015, 7.1, None),
            (2017, 6.9, None),
            (2018, 6.9, None),
        ],
        secondary: false,
    };
    let svg = year_chart_with_marks(
        Lang::Es,
        "t",
        std::slice::from_ref(&s),
        &YearMarks::of_copies(vec![(2018, 2017)]),
    )
    .svg;
    assert!(
        svg.contains(">Punteado: 2018, copia de 2017</text>")
            && svg.contains(">Gris: 2016, sin datos</text>"),
        "{svg}"
    );
    let en = year_chart_with_marks(
        Lang::En,
        "t",
        std::slice::from_ref(&s),
        &YearMarks::of_copies(vec![(2018, 2017)]),
    )
    .svg;
    assert!(
        en.contains(">Dashed: 2018, a copy of 2017</text>")
            && en.contains(">Grey: 2016, no data</text>")
    );
    // The band's title is the Inequality view's line chart's, from the one function.
    for (lang, svg) in [(Lang::Es, &svg), (Lang::En, &en)] {
        let title = imr_core::inequality::words::copy_title(lang, 2018, 2017);
        assert!(
            svg.contains(&format!("<title>{title}</title></rect>")),
            "{svg}"
        );
    }
    let plain = Series {
        points: vec![(2014, 7.0, None), (2015, 7.1, None)],
        ..s
    };
    assert!(!year_chart(Lang::Es, "t", &[plain])
        .svg
        .contains("class=\"marks\""));
}

/// Years whose deaths were reconstructed are diamonds, said under the chart in lines that end
/// inside it (the chart is 320 px wide); a copy of a reconstructed year is drawn as a copy.
#[test]
fn reconstructed_years_are_diamonds_said_under_the_chart() {
    let s = Series {
        name: "Tasa".into(),
        points: [2015, 2017, 2018, 2019, 2021, 2022]
            .iter()
            .map(|&t| (t, 7.0, Some([6.0, 8.0])))
            .collect(),
        secondary: false,
    };
    let marks = YearMarks {
        copies: vec![(2022, 2021)],
        reconstructed: vec![2017, 2018, 2019, 2021, 2022],
    };
    let svg = year_chart_with_marks(Lang::Es, "t", &[s], &marks).svg;
    assert_eq!(
        svg.matches("<polygon class=\"reconstructed\"").count(),
        4,
        "{svg}"
    );
    assert_eq!(svg.matches(r##"fill="#fff" stroke="##).count(), 1, "{svg}");
    let lines: Vec<String> = texts(&svg)
        .into_iter()
        .filter(|(x, ..)| *x == 44.0)
        .map(|(.., text)| text)
        .collect();
    let said = lines.join(" ");
    assert!(
        said.contains("Rombos: 2017–2019 y 2021, defunciones reconstruidas de una tasa publicada"),
        "{said}"
    );
    assert!(said.contains("Gris: 2016 y 2020, sin datos"), "{said}");
    for text in &lines {
        assert!(44.0 + 5.6 * text.chars().count() as f64 <= 320.0, "{text}");
    }
}

/// The `<text>` elements of `svg`: `(x, y, text-anchor, content)`.
fn texts(svg: &str) -> Vec<(f64, f64, String, String)> {
    let attr = |tag: &str, name: &str| -> Option<String> {
        let from = tag.find(&format!(" {name}=\""))? + name.len() + 3;
        Some(tag[from..].split('"').next()?.to_owned())
    };
    svg.split("<text")
        .skip(1)
        .filter_map(|rest| {
            let (tag, after) = rest.split_once('>')?;
            let content = after.split("</text>").next()?.to_owned();
            Some((
                attr(tag, "x")?.parse().ok()?,
                attr(tag, "y")?.parse().ok()?,
                attr(tag, "text-anchor").unwrap_or_else(|| "start".into()),
                content,
            ))
        })
        .collect()
}

/// A label's box at the charts' 10 px: about 5.6 px a character, the digits 7.2 px above the
/// baseline, a comma 2 px below it.
fn label_box((x, y, anchor, text): &(f64, f64, String, String)) -> [f64; 4] {
    let w = 5.6 * text.chars().count() as f64;
    let left = match anchor.as_str() {
        "end" => x - w,
        "middle" => x - w / 2.0,
        _ => *x,
    };
    [left, y - 7.2, left + w, y + 2.0]
}

/// Boxes `a` and `b` overlap horizontally but at least `gap` px lie between them vertically.
fn apart_vertically(a: [f64; 4], b: [f64; 4], gap: f64) -> bool {
    let side_by_side = a[2] <= b[0] || b[2] <= a[0];
    side_by_side || b[1] - a[3] >= gap || a[1] - b[3] >= gap
}

/// On a small chart the lowest value's label sits at the axis' foot, just left of the first
/// year's label: they must not touch (issue 42), nor the years the legend under them.
#[test]
fn the_lowest_value_label_and_the_first_year_label_have_room() {
    for (lang, years) in [(Lang::Es, 2001..=2021), (Lang::En, 2019..=2023)] {
        let s = Series {
            name: "Tasa de todas las comunas".into(),
            points: years
                .map(|t| (t, 5.0 + 0.1 * (t % 7) as f64, Some([4.1, 7.3])))
                .collect(),
            secondary: false,
        };
        let svg = year_chart(lang, "t", &[s]).svg;
        let all = texts(&svg);
        let lowest = all
            .iter()
            .filter(|t| t.2 == "end")
            .max_by(|a, b| a.1.total_cmp(&b.1))
            .expect("value labels");
        let years: Vec<_> = all
            .iter()
            .filter(|t| t.2 == "middle" && t.3.parse::<i64>().is_ok())
            .collect();
        let first = years
            .iter()
            .min_by(|a, b| a.0.total_cmp(&b.0))
            .expect("year labels");
        let (low, year) = (label_box(lowest), label_box(first));
        // They are side by side horizontally, so only height can keep them apart.
        assert!(low[2] > year[0], "{low:?} {year:?}");
        assert!(apart_vertically(low, year, 2.0), "{low:?} {year:?}");
        let legend = all
            .iter()
            .find(|t| t.3 == "Tasa de todas las comunas")
            .expect("legend");
        for y in &years {
            assert!(
                apart_vertically(label_box(y), label_box(legend), 2.0),
                "{y:?} {legend:?}"
            );
        }
    }
}

/// A labelled chart names what its axis measures above the plot, where no tick label is (a
/// published figure needs its unit: the embeds had only numbers on their axis).
#[test]
fn the_axis_label_is_written_above_the_plot() {
    let s = Series {
        name: "Tasa".into(),
        points: vec![(2014, 7.0, None), (2015, 7.5, None)],
        secondary: false,
    };
    let svg = year_chart_labelled(
        Lang::Es,
        "t",
        "Por 1.000 nacidos vivos",
        std::slice::from_ref(&s),
        &YearMarks::default(),
    )
    .svg;
    assert!(svg.contains(r#"<text class="y-label" x="4" y="12">Por 1.000 nacidos vivos</text>"#));
    let label_y = 12.0;
    for (_, y, anchor, text) in texts(&svg) {
        if anchor == "end" {
            assert!(
                y - 3.5 > label_y + 4.0,
                "tick {text} at {y} touches the label"
            );
        }
    }
    assert!(!year_chart(Lang::Es, "t", &[s]).svg.contains("y-label"));
}
